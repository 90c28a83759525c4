package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/nullserver"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/selfmon"
)

// TestSaidOnce checks that a saturated embedded server is said once per
// command, however many phases it runs, and again by the next command in
// the same process; a client-bound verdict is said after every phase.
func TestSaidOnce(t *testing.T) {
	t.Parallel()
	twoCPUs := selfmon.Limits{NumCPU: 2, GOMAXPROCS: 2, Allowed: 2}
	embedded := bench.ClientReport{Usage: synthUsage(10*time.Second, 15*time.Second, 4*time.Second, twoCPUs, 0), SharesProcess: true}
	bound := bench.ClientReport{Usage: synthUsage(10*time.Second, 8*time.Second, time.Second, selfmon.Limits{NumCPU: 2, GOMAXPROCS: 1, Allowed: 1}, 0), Operations: 1000}
	idle := bench.ClientReport{Usage: synthUsage(10*time.Second, time.Second, 0, twoCPUs, 0), SharesProcess: true}
	tests := []struct {
		name string
		// commands are the reports of each command's phases, in order.
		commands [][]bench.ClientReport
		// said is, per command, which phases print a warning.
		said [][]bool
	}{
		{"embedded: once per command", [][]bench.ClientReport{{embedded, embedded, embedded}, {embedded, embedded}}, [][]bool{{true, false, false}, {true, false}}},
		{"client-bound: every phase", [][]bench.ClientReport{{bound, bound}, {bound}}, [][]bool{{true, true}, {true}}},
		{"nothing to say leaves the embedded warning unsaid", [][]bench.ClientReport{{idle, embedded, embedded}}, [][]bool{{false, true, false}}},
		{"a client-bound phase does not use up the embedded warning", [][]bench.ClientReport{{bound, embedded, bound, embedded}}, [][]bool{{true, true, true, false}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for i, phases := range tc.commands {
				said := new(saidOnce)
				for j, c := range phases {
					if got := said.clientWarning(c) != ""; got != tc.said[i][j] {
						t.Errorf("command %d, phase %d: warned %t, want %t", i+1, j+1, got, tc.said[i][j])
					}
				}
			}
		})
	}
}

func synthUsage(wall, user, sys time.Duration, l selfmon.Limits, peak int64) selfmon.Usage {
	u := selfmon.Usage{Wall: wall, User: user, System: sys, Limits: l, PeakRSS: peak, CPUTimeAvailable: true}
	u.Utilization = (user + sys).Seconds() / (wall.Seconds() * l.Allowed)
	return u
}

// TestClientBoundWarning starves a real client: mongobench runs in a
// subprocess held to one CPU (GOMAXPROCS=1) with 64 threads against a
// null server that answers at once, so the client's own work is all there
// is to do. The summary, stderr and results file must say it was
// client-bound. The verdict is about CPU the subprocess got, so the test
// runs alone among this package's tests (no t.Parallel: parallel tests
// wait until the sequential ones are done); tests of other packages may
// still hold it below the threshold, so it gets three attempts, and the
// figures it prints must agree with the verdict in every one.
func TestClientBoundWarning(t *testing.T) {
	srv, err := nullserver.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	var attempts []string
	for attempt := 1; attempt <= 3; attempt++ {
		out := filepath.Join(dir, fmt.Sprintf("starved%d.json", attempt))
		cmd := exec.CommandContext(context.Background(), os.Args[0], "run", "mongodb", "-P", "workloadc",
			"-p", "mongodb.url=mongodb://"+srv.Addr()+"/ycsb", "-threads", "64", "-p", "recordcount=1000",
			"-p", "operationcount=0", "-p", "maxexecutiontime=2", "--no-store", "--out", out)
		cmd.Env = append(os.Environ(), "MONGOBENCH_AS_MAIN=1", "GOMAXPROCS=1")
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("attempt %d: %v; stderr: %s", attempt, err, stderr.String())
		}
		s := parseSummary(t, stdout.String())
		bound := s["CLIENT"]["ClientBound"]
		util, err := strconv.ParseFloat(s["CLIENT"]["CPUUtilization(%)"], 64)
		if err != nil || s["CLIENT"]["AllowedCPUs"] != "1" {
			t.Fatalf("attempt %d: [CLIENT] lines %v", attempt, s["CLIENT"])
		}
		// Waiting for a CPU counts: other tests' processes can take the
		// CPU the client wants, and it is starved all the same.
		if waiting, err := strconv.ParseFloat(s["CLIENT"]["WaitingForCPU(%)"], 64); err == nil {
			util += waiting
		}
		if want := strconv.FormatBool(util > 100*selfmon.ClientBoundThreshold); bound != want {
			t.Fatalf("attempt %d: ClientBound %s at %.1f%% of its CPU, want %s", attempt, bound, util, want)
		}
		warned := strings.Contains(stderr.String(), "the run was client-bound and the server figures are understated")
		if warned != (bound == "true") {
			t.Fatalf("attempt %d: ClientBound %s but warned=%v: %s", attempt, bound, warned, stderr.String())
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			Extra map[string]any `json:"extra"`
		}
		if err := json.Unmarshal(data, &res); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(res.Extra["client_bound"]) != bound || res.Extra["client_gomaxprocs"] != 1.0 {
			t.Fatalf("attempt %d: results say client_bound=%v gomaxprocs=%v, the summary %s", attempt, res.Extra["client_bound"], res.Extra["client_gomaxprocs"], bound)
		}
		if bound == "true" {
			return
		}
		attempts = append(attempts, fmt.Sprintf("%.1f%%", util))
	}
	t.Errorf("a client held to one CPU with 64 threads was never client-bound (used %s of its CPU)", strings.Join(attempts, ", "))
}

// TestTrialNote: a sweep's table marks a client-bound trial, after the
// notes that matter more.
func TestTrialNote(t *testing.T) {
	t.Parallel()
	res := func(partial bool, extra *results.Extra) *results.Results {
		return &results.Results{Partial: partial, Extra: extra}
	}
	bound := &results.Extra{Client: &results.Client{Bound: true}}
	tests := []struct {
		name string
		t    trialRun
		err  error
		want string
	}{
		{"plain", trialRun{res: res(false, &results.Extra{Client: &results.Client{}})}, nil, ""},
		{"client-bound", trialRun{res: res(false, bound)}, nil, "client-bound"},
		{"warm-up first", trialRun{res: res(false, bound), warmup: true}, nil, "warm-up: not in the mean"},
		{"partial first", trialRun{res: res(true, bound)}, nil, "partial: interrupted"},
		{"failed first", trialRun{res: res(false, bound)}, errors.New("x"), "failed"},
		{"no extra", trialRun{res: res(false, nil)}, nil, ""},
	}
	for _, tc := range tests {
		if got := trialNote(tc.t, tc.err); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
