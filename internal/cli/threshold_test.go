package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/results/resultstest"
)

// TestThresholds: every threshold gets a [THRESHOLD] line and a place in
// the results file; any failure, a threshold without data included, makes
// the command exit 99 after writing its outputs, and says why on stderr.
func TestThresholds(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	common := []string{"mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-p", "recordcount=100", "-p", "operationcount=200", "--no-store"}
	if r := mongobench(t, append([]string{"load"}, append(common, "--threshold", "INSERT:errors<=0", "--threshold", "INSERT:p(99)<3600s")...)...); r.code != 0 {
		t.Fatalf("load with thresholds it meets: exit %d: %s", r.code, r.stderr)
	}

	t.Run("all pass", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "pass.json")
		r := mongobench(t, append([]string{"run"}, append(common, "--out", out, "--threshold", "READ:p(99)<3600s", "--threshold", "throughput>0")...)...)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		checkThreeFields(t, r.stdout)
		s := parseSummary(t, r.stdout)
		if s["THRESHOLD"]["READ:p(99)<3600s"] != "pass" || s["THRESHOLD"]["OVERALL:throughput>0"] != "pass" {
			t.Errorf("threshold lines %v", s["THRESHOLD"])
		}
		res := readResults(t, out)
		if th := res.Extra.Thresholds; len(th) != 2 || !th[0].Pass || th[0].Latency != "service" || th[0].Observed == nil || *th[1].Observed != res.ThroughputOpsSec {
			t.Errorf("results' thresholds %+v", th)
		}
	})

	t.Run("failures exit 99", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "fail.json")
		r := mongobench(t, append([]string{"run"}, append(common, "--out", out, "--threshold", "READ:p(99)<3600s", "--threshold", "UPDATE:p(50)<1ns", "--threshold", "SCAN:p(99)<1s")...)...)
		if r.code != ExitThresholds {
			t.Fatalf("exit %d, want %d: %s", r.code, ExitThresholds, r.stderr)
		}
		s := parseSummary(t, r.stdout)
		want := map[string]string{"READ:p(99)<3600s": "pass", "UPDATE:p(50)<1ns": "fail", "SCAN:p(99)<1s": "fail"}
		for k, v := range want {
			if s["THRESHOLD"][k] != v {
				t.Errorf("[THRESHOLD], %s = %q, want %q", k, s["THRESHOLD"][k], v)
			}
		}
		for _, line := range []string{
			"mongobench: threshold UPDATE:p(50)<1ns failed: UPDATE service latency p(50) was ",
			"mongobench: threshold SCAN:p(99)<1s failed: SCAN service latency p(99): the run has no data for it, which fails a threshold\n",
			"mongobench: 2 of 3 thresholds failed\n",
		} {
			if !strings.Contains(r.stderr, line) {
				t.Errorf("stderr lacks %q:\n%s", line, r.stderr)
			}
		}
		if res := readResults(t, out); len(res.Extra.Thresholds) != 3 || res.Extra.Thresholds[1].Pass || res.Extra.Thresholds[2].Observed != nil {
			t.Errorf("results' thresholds %+v", res.Extra.Thresholds)
		}
	})

	t.Run("abortOnFail ends the run", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "abort.json")
		// Far more operations than the time limit lets run at -target:
		// only the threshold ends it before the limit.
		r := mongobench(t, "run", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url, "-p", "recordcount=100", "--no-store",
			"-p", "operationcount=1000000", "-p", "maxexecutiontime=600", "-p", "status.interval=0.2", "-target", "200",
			"--out", out, "--threshold", "READ:p(50)<1ns;abortOnFail")
		if r.code != ExitThresholds {
			t.Fatalf("exit %d, want %d: %s", r.code, ExitThresholds, r.stderr)
		}
		res := readResults(t, out)
		th := res.Extra.Thresholds
		if len(th) != 1 || th[0].Pass || th[0].AbortedAtS <= 0 || !strings.HasSuffix(th[0].Reason, "which ended the run (abortOnFail)") {
			t.Fatalf("results' thresholds %+v", th)
		}
		if !res.Partial || res.Extra.StoppedBySignal || res.Extra.StoppedByTime {
			t.Errorf("partial %v, stopped by signal %v, by time %v: want a partial run stopped by neither", res.Partial, res.Extra.StoppedBySignal, res.Extra.StoppedByTime)
		}
	})

	t.Run("a sweep judges every trial", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "sw")
		r := mongobench(t, append([]string{"sweep", "run"}, append(common, "--out-dir", dir, "--vary", "threadcount=1,2",
			"--threshold", "READ:p(99)<3600s", "--threshold", "UPDATE:p(50)<1ns")...)...)
		if r.code != ExitThresholds {
			t.Fatalf("exit %d, want %d: %s", r.code, ExitThresholds, r.stderr)
		}
		for _, line := range []string{
			"mongobench: threadcount=1 trial 1 (" + filepath.Join(dir, "p01-threadcount=1-t1.json") + "): threshold UPDATE:p(50)<1ns failed: UPDATE service latency p(50) was ",
			"mongobench: threadcount=2 trial 1 (" + filepath.Join(dir, "p02-threadcount=2-t1.json") + "): threshold UPDATE:p(50)<1ns failed: ",
			"mongobench: 2 trials of the sweep failed thresholds (above)\n",
		} {
			if !strings.Contains(r.stderr, line) {
				t.Errorf("stderr lacks %q:\n%s", line, r.stderr)
			}
		}
		if strings.Contains(r.stderr, "READ:p(99)<3600s failed") {
			t.Errorf("a threshold met said to fail:\n%s", r.stderr)
		}
		res := readResults(t, filepath.Join(dir, "p02-threadcount=2-t1.json"))
		if th := res.Extra.Thresholds; len(th) != 2 || !th[0].Pass || th[1].Pass {
			t.Errorf("the trial's thresholds %+v", th)
		}
	})

	t.Run("a wrong threshold is bad input", func(t *testing.T) {
		for _, cmd := range []string{"run", "load"} {
			r := mongobench(t, cmd, "mongodb", "-p", "mongodb.url="+closedURL, "--threshold", "READ:p(99)<5")
			if r.code != ExitBadInput || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, `--threshold: threshold "READ:p(99)<5": latency "5": expected a number with a unit`) {
				t.Errorf("%s: exit %d, stderr %q", cmd, r.code, r.stderr)
			}
		}
		// An operation the workload does not have is refused before the
		// run, for YCSB's workloads and native ones alike.
		for _, tc := range []struct {
			args []string
			says string
		}{
			{[]string{"run", "mongodb", "-P", "workloada", "--threshold", "checkout:p(99)<5ms"}, `the workload has no operation "checkout": accepted: OVERALL, READ, UPDATE`},
			{[]string{"run", "mongodb", "-P", "workloads/insert1k.yaml", "--threshold", "READ:p(99)<5ms"}, `the workload has no operation "READ": accepted: OVERALL, insert`},
			{[]string{"sweep", "load", "mongodb", "-P", "workloads/insert1k.yaml", "--vary", "threadcount=1,2", "--threshold", "inserts:p(99)<5ms"}, `no operation "inserts"`},
		} {
			r := mongobench(t, append(tc.args, "-p", "mongodb.url="+closedURL)...)
			if r.code != ExitBadInput || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tc.says) {
				t.Errorf("%v: exit %d, stderr %q; want exit 2 saying %q", tc.args, r.code, r.stderr, tc.says)
			}
		}
	})
}

// TestCompareGates: compare fails (exit 99) on a significant change
// beyond --fail-on, and on a --threshold a compared run misses; a change
// within the limit, or one the noise leaves undecided, passes.
func TestCompareGates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, tps ...float64) string {
		d := filepath.Join(dir, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, tp := range tps {
			r := resultstest.Results(t, resultstest.Spec{Throughput: tp, LatencyUs: map[string]int64{"READ": int64(tp)}})
			if err := writeResults(filepath.Join(d, fmt.Sprintf("r%d.json", i)), r); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	base := write("base", 1000, 1010, 990)
	slower := write("slower", 900, 905, 895)
	noisy := write("noisy", 700, 1100, 900)
	for _, tc := range []struct {
		name string
		args []string
		code int
		says []string
	}{
		{"a significant drop beyond the limit", []string{base, slower, "--fail-on", "throughput<-5%,p(99)>+50%"}, ExitThresholds,
			[]string{"fail-on OVERALL:throughput<-5%,p(99)>+50%: fail: B: throughput -10.0% (significant, adjusted p=", "mongobench: the comparison failed 1 check (above)"}},
		{"a drop within the limit", []string{base, slower, "--fail-on", "throughput<-20%"}, 0,
			[]string{"fail-on OVERALL:throughput<-20%: pass: no significant change beyond it"}},
		{"a drop the noise leaves undecided", []string{base, noisy, "--fail-on", "throughput<-5%"}, 0,
			[]string{"fail-on OVERALL:throughput<-5%: pass"}},
		{"a threshold on the runs compared", []string{base, slower, "--threshold", "throughput>=900"}, ExitThresholds,
			[]string{"threshold B: OVERALL:throughput>=900: fail in 1 of 3 runs: ", "was 895 ops/s, not >=900"}},
		{"a threshold met", []string{base, slower, "--threshold", "throughput>800", "--format", "csv"}, 0,
			[]string{"threshold B: OVERALL:throughput>800: pass in 3 runs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mongobench(t, append([]string{"compare", "--no-store"}, tc.args...)...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d: %s%s", r.code, tc.code, r.stdout, r.stderr)
			}
			for _, s := range tc.says {
				if !strings.Contains(r.stdout+r.stderr, s) {
					t.Errorf("output lacks %q:\n%s%s", s, r.stdout, r.stderr)
				}
			}
		})
	}
	if r := mongobench(t, "compare", "--no-store", base, slower, "--fail-on", "throughput<5"); r.code != ExitBadInput || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("a wrong --fail-on: exit %d, %q", r.code, r.stderr)
	}
}
