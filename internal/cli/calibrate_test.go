package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/calibrate"
	"github.com/mongobench/mongobench/internal/nullserver"
)

// calibrateCmd runs "mongobench calibrate args..." in-process.
func calibrateCmd(t *testing.T, args ...string) cmdResult {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code := report(runCalibrate(context.Background(), args, env), env)
	return cmdResult{code, out.String(), errb.String()}
}

func checkFigures(t *testing.T, what string, f calibrate.Figures) {
	t.Helper()
	if f.Operations <= 0 || f.OpsPerSec <= 0 || f.CPUPerOpUs <= 0 || f.P50Us <= 0 || f.P99Us <= 0 || f.PeakRSSBytes <= 0 || f.Failed != 0 {
		t.Errorf("%s: figures not all positive: %+v", what, f)
	}
}

func TestCalibrate(t *testing.T) {
	t.Parallel()
	jsonPath := filepath.Join(t.TempDir(), "calibration.json")
	r := calibrateCmd(t, "-threads", "1,4", "-operationcount", "2000", "--in-process", "--json", jsonPath, "-p", "fieldlength=50")
	if r.code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"mongobench calibrate: workloadc, 2,000 operations per measurement, 20,000 records of 10 × 50 B",
		"null server: in-process at mongodb://127.0.0.1:",
		"load batchsize=100",
		"goals:",
		"CPU/op at 16 threads ≤ 1.2× the bare driver loop",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "calibrate: workloadc") {
		t.Errorf("no progress lines on stderr:\n%s", r.stderr)
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep calibrate.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Sweep) != 3 || len(rep.Extras) != 3 || rep.Server != calibrate.ServerInProcess || rep.Partial {
		t.Fatalf("report: %d sweep points, %d extras, server %q, partial %v", len(rep.Sweep), len(rep.Extras), rep.Server, rep.Partial)
	}
	for i, threads := range []int{1, 4, 16} {
		p := rep.Sweep[i]
		if p.Threads != threads || p.Bare == nil || p.OverheadPct == nil {
			t.Fatalf("sweep point %d: %+v", i, p)
		}
		checkFigures(t, p.Name+" mongobench", p.Mongobench)
		checkFigures(t, p.Name+" bare", *p.Bare)
	}
	for _, p := range rep.Extras {
		checkFigures(t, p.Name, p.Mongobench)
		if p.VsRef == nil || *p.VsRef <= 0 {
			t.Errorf("%s: no comparison with the 16-thread figure", p.Name)
		}
	}
}

func TestCalibrateExternalServer(t *testing.T) {
	t.Parallel()
	srv, err := nullserver.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	r := calibrateCmd(t, "-P", "workloada", "-p", "mongodb.url="+srv.URI(), "-p", "threadcount=2", "-p", "operationcount=500", "--no-extras", "--repeat", "2")
	if r.code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"workloada, 500 operations", "medians of 2 runs", "null server: external at " + srv.URI(), "workloada                  2  mongobench"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, r.stdout)
		}
	}
	if srv.Requests() < 4*500 {
		t.Errorf("the server saw %d requests, want at least 2 × (500 + 500)", srv.Requests())
	}
}

func TestCalibrateHelp(t *testing.T) {
	t.Parallel()
	r := calibrateCmd(t, "-h")
	if r.code != ExitOK || !strings.Contains(r.stdout, "-threads LIST") || !strings.Contains(r.stdout, "--repeat N") {
		t.Fatalf("exit %d, help:\n%s", r.code, r.stdout)
	}
}

func TestCalibrateBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"threads zero", []string{"-threads", "1,0"}, `-threads "1,0" is invalid: expected thread counts from 1 to 1048576 separated by commas`},
		{"threads text", []string{"-threads", "many"}, `-threads "many" is invalid`},
		{"operations", []string{"-operationcount", "-5"}, `operationcount="-5" is invalid: expected a whole number > 0`},
		{"repeat", []string{"--repeat", "0"}, `--repeat "0" is invalid`},
		{"unknown flag", []string{"--fast"}, "calibrate: unknown flag -fast: accepted flags are -threads, -P, -p"},
		{"stray argument", []string{"mongodb"}, `calibrate: unexpected argument "mongodb"`},
		{"missing file", []string{"-P", "nosuchfile"}, "cannot read workload file nosuchfile"},
		{"bad property", []string{"-p", "requestdistribution=pareto"}, "expected one of uniform, zipfian"},
		{"bad url", []string{"-p", "mongodb.url=mongodb://h:port"}, "is invalid"},
		{"url options", []string{"--url-options", "?w=1"}, "url options"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := calibrateCmd(t, tc.args...)
			if r.code != ExitBadInput || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q; want exit 2 and one line containing %q", r.code, r.stderr, tc.want)
			}
		})
	}
}

func TestCalibrateInterrupted(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	signals := make(chan int, 1)
	signals <- ExitSIGINT
	env := Env{Stdout: &out, Stderr: &errb, Interrupt: signals, Getenv: testEnv}
	code := report(runCalibrate(context.Background(), []string{"-threads", "1", "--no-extras", "--in-process", "-operationcount", "100000000"}, env), env)
	if code != ExitSIGINT {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitSIGINT, errb.String())
	}
	if strings.Contains(out.String(), "mongobench calibrate:") && !strings.Contains(out.String(), "PARTIAL") {
		t.Errorf("a report after an interrupt must say it is partial:\n%s", out.String())
	}
}
