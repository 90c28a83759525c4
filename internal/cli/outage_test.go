package cli

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/embedded"
)

// TestServerOutage stops the server in the middle of a run and starts it
// again: operations fail while it is gone, are counted, the run goes on to
// its stop condition, picks the server up again, and the summary says when
// the failures happened.
func TestServerOutage(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	srv, err := embedded.Start(context.Background(), embedded.Options{DataDir: dataDir})
	if err != nil {
		t.Fatal(err)
	}
	addr := hostPort(t, srv.URI())
	url := srv.URI() + "outage"
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=200", "-threads", "4"); r.code != 0 {
		srv.Close()
		t.Fatalf("load: %s", r.stderr)
	}

	out := filepath.Join(t.TempDir(), "outage.json")
	// The run is stopped by an interrupt once reads succeed again, not by a
	// time limit: how long the restart takes depends on how busy the
	// machine is, and the test must not bet on it. maxexecutiontime only
	// bounds a run whose interrupt never comes.
	interrupt := make(chan int, 1)
	run := startBackgroundInterruptible(t, interrupt, "run", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=200",
		"-p", "operationcount=0", "-p", "maxexecutiontime=600", "-p", "optimeout=0.5", "-p", "status.interval=1",
		"-threads", "4", "-target", "200", "--out", out)
	// Down once the first interval read OK, up again once reads failed.
	run.stderr.waitStatusLines(t, 1)
	srv.Close() // connected clients are disconnected at once
	downAt := time.Now()
	failing := run.stderr.waitStatus(t, 1, "failed reads while the server is down", func(_, line string) bool {
		return hasSection(line, "READ-FAILED")
	})
	srv2, err := embedded.Start(context.Background(), embedded.Options{Addr: addr, DataDir: dataDir})
	if err != nil {
		t.Fatalf("restart on %s: %v", addr, err)
	}
	defer srv2.Close()
	// Two whole intervals of reads without a failure: the error window has
	// closed before the run ends.
	run.stderr.waitStatus(t, failing, "intervals of successful reads after the restart", func(prev, line string) bool {
		clean := func(l string) bool { return hasSection(l, "READ") && !hasSection(l, "READ-FAILED") }
		return clean(prev) && clean(line)
	})
	t.Logf("server down for %v", time.Since(downAt))
	interrupt <- ExitSIGINT
	r := run.wait(t)

	if r.code != ExitSIGINT {
		t.Fatalf("run exit %d, want %d (interrupted): %s", r.code, ExitSIGINT, r.stderr)
	}
	s := parseSummary(t, r.stdout)
	ok := s.int(t, "READ", "Return=OK")
	failed := s.int(t, "READ", "Return=ERROR") + s.int(t, "READ", "Return=TIMEOUT")
	total := s.int(t, "READ", "Operations") + s.int(t, "READ-FAILED", "Operations")
	if failed == 0 {
		t.Fatalf("no failed reads while the server was down:\n%s", r.stdout)
	}
	if ok+failed != total {
		t.Errorf("OK %d + failed %d != %d operations", ok, failed, total)
	}
	if _, found := s["ERRORS"]["Window1Start(s)"]; !found {
		t.Errorf("no error window in the summary:\n%s", r.stdout)
	}
	res := readResults(t, out)
	for _, iv := range res.Intervals {
		line := ""
		for _, m := range iv.Measurements {
			if m.Service != nil {
				line += fmt.Sprintf(" %s n=%d max=%dus", m.Name, m.Service.Count, m.Service.MaxUs)
			}
			if m.Intended != nil {
				line += fmt.Sprintf(" intended-max=%dus", m.Intended.MaxUs)
			}
		}
		t.Logf("%4.1f-%4.1f s: %5.0f ops/s%s", iv.StartS, iv.EndS, iv.OpsPerSec, line)
	}
	if len(res.ErrorWindows) == 0 {
		t.Fatal("no error window in the results file")
	}
	w := res.ErrorWindows[0]
	// The server went down once the first interval had closed and been
	// said, so the first interval holds no failure; the window opens in
	// the first interval that does (failures are placed in 100 ms slots of
	// the clock, so up to one slot before it), and closes before the two
	// clean intervals the test waited for. The bounds come from the run's
	// own intervals, not from seconds of the wall clock: on a busy machine
	// the first status line, and so the outage, may come late.
	firstFailed := -1
	for i, iv := range res.Intervals {
		for _, m := range iv.Measurements {
			if m.Failed && m.Service != nil && m.Service.Count > 0 && firstFailed < 0 {
				firstFailed = i
			}
		}
	}
	end := res.Intervals[len(res.Intervals)-1].EndS
	switch {
	case firstFailed < 1:
		t.Errorf("the first interval with failures is %d; the server went down after interval 0 was said", firstFailed)
	case w.StartS < res.Intervals[firstFailed].StartS-0.1-1e-9 || w.StartS > res.Intervals[firstFailed].EndS || w.EndS > end-1 || w.EndS <= w.StartS:
		t.Errorf("error window %.2f–%.2f s of a %.1f s run: it should open in interval %d (%.2f–%.2f s), where failures begin, and close once the server is back\n%s\n%s",
			w.StartS, w.EndS, end, firstFailed, res.Intervals[firstFailed].StartS, res.Intervals[firstFailed].EndS, r.stdout, r.stderr)
	}
	// The run picked the server up again: the last intervals read OK.
	last := res.Intervals[len(res.Intervals)-2]
	okAfter := false
	for _, m := range last.Measurements {
		if m.Name == "READ" && m.Service != nil && m.Service.Count > 0 {
			okAfter = true
		}
	}
	if !okAfter {
		t.Errorf("no successful read in interval %d after the restart", last.Index)
	}
}

func hostPort(t *testing.T, uri string) string {
	t.Helper()
	hp := uri[len("mongodb://"):]
	if i := len(hp) - 1; hp[i] == '/' {
		hp = hp[:i]
	}
	if _, _, err := net.SplitHostPort(hp); err != nil {
		t.Fatalf("server URI %q: %v", uri, err)
	}
	return hp
}
