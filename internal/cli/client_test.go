package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/nullserver"
)

// TestClientBoundWarning starves a real client: mongobench runs in a
// subprocess held to one CPU (GOMAXPROCS=1) with 64 threads against a
// null server that answers at once, so the client's own work is all there
// is to do. The summary, stderr and results file must say it was
// client-bound. The verdict is about CPU the subprocess got, so the test
// runs alone among this package's tests (no t.Parallel: parallel tests
// wait until the sequential ones are done); tests of other packages may
// still hold it below the threshold, so it gets three attempts, and the
// figures it prints must agree with the verdict in every one. A client
// that never got 90% of its CPU in any attempt (other work on a busy host
// took it) is said as a skip: the diagnosis then rightly does not call
// it client-bound.
func TestClientBoundWarning(t *testing.T) {
	srv, err := nullserver.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	var attempts []string
	starved := true
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
		// The [CLIENT] line and stderr say what the run's diagnosis
		// says: client-bound when its verdict is the client's CPU (its
		// own use of the one CPU it may use, over the threshold), not
		// when other tests' processes kept the CPUs from it.
		limit := s["DIAGNOSIS"]["Limit"]
		if want := strconv.FormatBool(limit == diagnosis.ClientCPU); bound != want {
			t.Fatalf("attempt %d: ClientBound %s with the verdict %q at %.1f%% of its CPU, want %s", attempt, bound, limit, util, want)
		}
		warned := strings.Contains(stderr.String(), "the run was client-bound and the server figures are understated")
		if warned != (bound == "true") {
			t.Fatalf("attempt %d: ClientBound %s but warned=%v: %s", attempt, bound, warned, stderr.String())
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		// The file's keys as any reader of it sees them, not through
		// the results package.
		var res struct {
			Extra struct {
				ClientBound      bool    `json:"client_bound"`
				ClientGOMAXPROCS float64 `json:"client_gomaxprocs"`
			} `json:"extra"`
		}
		if err := json.Unmarshal(data, &res); err != nil {
			t.Fatal(err)
		}
		if strconv.FormatBool(res.Extra.ClientBound) != bound || res.Extra.ClientGOMAXPROCS != 1 {
			t.Fatalf("attempt %d: results say client_bound=%v gomaxprocs=%v, the summary %s", attempt, res.Extra.ClientBound, res.Extra.ClientGOMAXPROCS, bound)
		}
		if bound == "true" {
			return
		}
		attempts = append(attempts, fmt.Sprintf("%.1f%% (%s)", util, limit))
		// A client that got its CPU's worth and is not called
		// client-bound is the defect this test is for; one that got less
		// was starved by other work (the null server in this process,
		// other packages' tests), and is rightly not client-bound.
		if util >= diagnosis.HostCPUBusyPct {
			starved = false
		}
	}
	if starved {
		t.Skipf("the client never got %.0f%% of its one CPU, other work on the host took it (used %s of its CPU), so no client-bound run could be shown", diagnosis.HostCPUBusyPct, strings.Join(attempts, ", "))
	}
	t.Errorf("a client held to one CPU with 64 threads was never client-bound (used %s of its CPU)", strings.Join(attempts, ", "))
}
