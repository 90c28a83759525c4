package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/results"
)

// runThroughOutage starts a server of the test's own, loads 200 records,
// starts the run command (args after "run mongodb") against it with status
// lines, stops the server for good once the status lines count
// bench.MinRateOperations operations (so the intervals before the outage
// have made a whole window of --max-error-rate, however slowly the machine
// ran them), and returns the run's result.
func runThroughOutage(t *testing.T, args ...string) cmdResult {
	t.Helper()
	srv, err := embedded.Start(context.Background(), embedded.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	url := srv.URI() + "limits"
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=200", "-threads", "4"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	run := startBackground(t, append([]string{"run", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url=" + url, "-p", "recordcount=200"}, args...)...)
	run.stderr.waitStatus(t, 0, fmt.Sprintf("a status line counting %d operations", bench.MinRateOperations), func(_, line string) bool {
		return statusOps(line) >= bench.MinRateOperations
	})
	srv.Close()
	return run.wait(t)
}

// readErrorStop reads "stopped_by_errors" from a results file.
func readErrorStop(t *testing.T, path string) results.ErrorStop {
	t.Helper()
	res := readResults(t, path)
	if res.Extra == nil || res.Extra.StoppedByErrors == nil || res.Extra.StoppedByErrors.Flag == "" {
		t.Fatalf("results file: no stopped_by_errors in %+v", res.Extra)
	}
	return *res.Extra.StoppedByErrors
}

// checkCounts checks that the summary's reads add up and agree with the
// results file, and returns the failed reads.
func checkCounts(t *testing.T, s summary, out string) (ok, failed int64) {
	t.Helper()
	ok = s.int(t, "READ", "Return=OK")
	failed = s.int(t, "READ", "Return=ERROR") + s.int(t, "READ", "Return=TIMEOUT")
	total := s.int(t, "READ", "Operations") + s.int(t, "READ-FAILED", "Operations")
	if ok+failed != total {
		t.Errorf("OK %d + failed %d != %d operations", ok, failed, total)
	}
	if res := readResults(t, out); res.Operations != total {
		t.Errorf("results file holds %d operations, the summary %d", res.Operations, total)
	}
	return ok, failed
}

// TestMaxErrors stops a run with --max-errors once its server has gone:
// exit status 1, the summary, results file and stderr say why, and the
// failures counted are the limit plus at most one in flight per other
// thread.
func TestMaxErrors(t *testing.T) {
	t.Parallel()
	const limit, threads = 20, 4
	out := filepath.Join(t.TempDir(), "maxerrors.json")
	r := runThroughOutage(t, "-p", "operationcount=0", "-p", "maxexecutiontime=60", "-p", "optimeout=0.5", "-p", "status.interval=1",
		"-threads", strconv.Itoa(threads), "-target", "200", "--max-errors", strconv.Itoa(limit), "--out", out)
	if r.code != ExitFailed {
		t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, ExitFailed, r.stderr)
	}
	m := regexp.MustCompile(`(?m)^mongobench: stopped after (\d+) failed operations \(--max-errors 20\); the summary and results cover what ran$`).FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("stderr does not say the run stopped on --max-errors:\n%s", r.stderr)
	}
	s := parseSummary(t, r.stdout)
	if got := s["ERRORS"]["StoppedBy"]; got != "--max-errors 20" {
		t.Errorf("summary: [ERRORS], StoppedBy = %q, want \"--max-errors 20\"", got)
	}
	if res := readResults(t, out); res.Extra == nil || res.Extra.Runner == nil || res.Extra.StoppedByTime {
		t.Errorf("the run was not stopped early by the rule: runner %+v", res.Extra)
	}
	ok, failed := checkCounts(t, s, out)
	if ok == 0 || failed < limit || failed > limit+threads-1 {
		t.Errorf("%d OK and %d failed reads, want some OK and %d to %d failed", ok, failed, limit, limit+threads-1)
	}
	es := readErrorStop(t, out)
	if es.Flag != "--max-errors" || es.Limit != limit || es.Failed != failed || m[1] != strconv.FormatInt(failed, 10) {
		t.Errorf("results say %+v, stderr %s failed; the summary %d failed reads", es, m[1], failed)
	}
}

// TestMaxErrorRate stops a run with --max-error-rate once its server has
// gone, and not before: the healthy interval before the outage is judged
// and passes.
func TestMaxErrorRate(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "maxrate.json")
	r := runThroughOutage(t, "-p", "operationcount=0", "-p", "maxexecutiontime=60", "-p", "optimeout=0.5", "-p", "status.interval=1",
		"-threads", "4", "-target", "200", "--max-error-rate", "0.5", "--out", out)
	if r.code != ExitFailed {
		t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, ExitFailed, r.stderr)
	}
	m := regexp.MustCompile(`(?m)^mongobench: stopped early: (\d+) of the (\d+) operations finished from ([\d.]+) s to ([\d.]+) s failed \([\d.]+%\), more than --max-error-rate 0.5 allows; the summary and results cover what ran$`).FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("stderr does not say the run stopped on --max-error-rate:\n%s", r.stderr)
	}
	s := parseSummary(t, r.stdout)
	if got := s["ERRORS"]["StoppedBy"]; got != "--max-error-rate 0.5" {
		t.Errorf("summary: [ERRORS], StoppedBy = %q, want \"--max-error-rate 0.5\"", got)
	}
	res := readResults(t, out)
	if res.Extra == nil || res.Extra.Runner == nil || res.Extra.StoppedByTime {
		t.Errorf("the run was not stopped early by the rule: runner %+v", res.Extra)
	}
	ok, failed := checkCounts(t, s, out)
	es := readErrorStop(t, out)
	if es.Flag != "--max-error-rate" || es.Limit != 0.5 || es.Finished < bench.MinRateOperations || float64(es.Failed) <= 0.5*float64(es.Finished) {
		t.Errorf("results: %+v", es)
	}
	if strconv.FormatInt(es.Failed, 10) != m[1] || strconv.FormatInt(es.Finished, 10) != m[2] {
		t.Errorf("stderr says %s of %s, the results file %d of %d", m[1], m[2], es.Failed, es.Finished)
	}
	// The intervals before the outage made a whole window, judged and
	// passed: the window that tripped is made of intervals after it.
	if ok == 0 || es.Failed > failed || !windowAfterHealthy(res, es) {
		t.Errorf("%d OK reads, window of %d operations from %.1f s, %d failed in it of %d in all; intervals %v: the rule tripped before the outage",
			ok, es.Finished, es.WindowStartS, es.Failed, failed, intervalOps(res))
	}
	if !strings.Contains(r.stdout, "[ERRORS], Window1Start(s)") {
		t.Errorf("no error window in the summary:\n%s", r.stdout)
	}
}

// TestShutdownWithServerGone runs to maxexecutiontime with the server
// gone for good: the sizes read after the phase must not wait out the
// driver's server selection (mongodb.connecttimeout, 10 s, per command),
// which held the summary back 30 s and more; the deadline that cuts them
// short is what the results file gives as the reason they are absent.
func TestShutdownWithServerGone(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "gone.json")
	r := runThroughOutage(t, "-p", "operationcount=0", "-p", "maxexecutiontime=6", "-p", "optimeout=0.5", "-p", "status.interval=1",
		"-threads", "2", "--out", out)
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	s := parseSummary(t, r.stdout)
	if got := s["SERVER"]["CollectionStats"]; !strings.HasPrefix(got, "not available: ") {
		t.Errorf("summary: [SERVER], CollectionStats = %q, want \"not available: <reason>\"", got)
	}
	res := readResults(t, out)
	if res.Extra == nil || res.Extra.Sizes == nil || res.Extra.Sizes.End == nil {
		t.Fatalf("results file: extra %+v: want the end sizes absent with the reason", res.Extra)
	}
	sizes := res.Extra.Sizes
	cut := fmt.Sprintf("no answer within %s after the phase (", bench.PostPhaseLimit)
	for what, reason := range map[string]string{"database": sizes.End.DBError, "collection": sizes.End.CollectionError} {
		if !strings.HasPrefix(reason, cut) {
			t.Errorf("results file: the %s's size after the phase is absent because %q; want it cut short by the deadline, %q...", what, reason, cut)
		}
	}
}

// intervalOps are the operations of each interval of res.
func intervalOps(res *results.Results) []int64 {
	ops := make([]int64, len(res.Intervals))
	for i, iv := range res.Intervals {
		ops[i] = iv.Operations
	}
	return ops
}

// windowAfterHealthy says whether the window that tripped --max-error-rate
// is whole intervals after the first window: the shortest run of
// intervals from the first that holds bench.MinRateOperations operations,
// all before the outage.
func windowAfterHealthy(res *results.Results, es results.ErrorStop) bool {
	ops := intervalOps(res)
	first, sum := 0, int64(0)
	for first < len(ops) && sum < bench.MinRateOperations {
		sum += ops[first]
		first++
	}
	for a := first; a < len(ops); a++ {
		var w int64
		for b := a; b < len(ops) && w < es.Finished; b++ {
			w += ops[b]
		}
		if w == es.Finished {
			return true
		}
	}
	return false
}
