package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/embedded"
)

// statusWatch is a run's stderr that says when the first status line is
// out: the first interval has then been measured (and judged).
type statusWatch struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	seen chan struct{}
	once sync.Once
}

func (w *statusWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if bytes.Contains(p, []byte(" sec: ")) {
		w.once.Do(func() { close(w.seen) })
	}
	return w.buf.Write(p)
}

func (w *statusWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// runThroughOutage starts a server of the test's own, loads 200 records,
// starts the run command (args after "run mongodb") against it with status
// lines, stops the server for good once the first interval is out, and
// returns the run's result and how long it took.
func runThroughOutage(t *testing.T, args ...string) (cmdResult, time.Duration) {
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
	done := make(chan cmdResult, 1)
	stderr := &statusWatch{seen: make(chan struct{})}
	start := time.Now()
	go func() {
		var stdout bytes.Buffer
		code := Main(context.Background(), append([]string{"run", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url=" + url, "-p", "recordcount=200"}, args...),
			Env{Stdout: &stdout, Stderr: stderr, Getenv: testEnv})
		done <- cmdResult{code, stdout.String(), stderr.String()}
	}()
	select {
	case <-stderr.seen:
	case r := <-done:
		t.Fatalf("the run ended before its first status line: exit %d: %s", r.code, r.stderr)
	}
	srv.Close()
	select {
	case r := <-done:
		return r, time.Since(start)
	case <-time.After(3 * time.Minute):
		t.Fatal("the run did not end within 3 minutes of its server going away")
	}
	return cmdResult{}, 0
}

// readErrorStop reads "stopped_by_errors" from a results file.
func readErrorStop(t *testing.T, path string) errorStop {
	t.Helper()
	res := readResults(t, path)
	raw, err := json.Marshal(res.Extra["stopped_by_errors"])
	if err != nil {
		t.Fatal(err)
	}
	var es errorStop
	if err := json.Unmarshal(raw, &es); err != nil || es.Flag == "" {
		t.Fatalf("results file: stopped_by_errors = %s (%v)", raw, err)
	}
	return es
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
	r, took := runThroughOutage(t, "-p", "operationcount=0", "-p", "maxexecutiontime=60", "-p", "optimeout=0.5", "-p", "status.interval=1",
		"-threads", strconv.Itoa(threads), "-target", "200", "--max-errors", strconv.Itoa(limit), "--out", out)
	t.Logf("the run took %v", took)
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
	if ms := s.int(t, "OVERALL", "RunTime(ms)"); ms >= 30_000 {
		t.Errorf("RunTime %d ms: the run did not stop early (maxexecutiontime=60)", ms)
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
	r, _ := runThroughOutage(t, "-p", "operationcount=0", "-p", "maxexecutiontime=60", "-p", "optimeout=0.5", "-p", "status.interval=1",
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
	if ms := s.int(t, "OVERALL", "RunTime(ms)"); ms >= 30_000 {
		t.Errorf("RunTime %d ms: the run did not stop early (maxexecutiontime=60)", ms)
	}
	ok, failed := checkCounts(t, s, out)
	es := readErrorStop(t, out)
	if es.Flag != "--max-error-rate" || es.Limit != 0.5 || es.Finished < minRateOperations || float64(es.Failed) <= 0.5*float64(es.Finished) {
		t.Errorf("results: %+v", es)
	}
	if strconv.FormatInt(es.Failed, 10) != m[1] || strconv.FormatInt(es.Finished, 10) != m[2] {
		t.Errorf("stderr says %s of %s, the results file %d of %d", m[1], m[2], es.Failed, es.Finished)
	}
	// The first second ran against a healthy server: it was judged and
	// passed, so the window that tripped began after it.
	if ok == 0 || es.WindowStartS < 1 || es.Failed > failed {
		t.Errorf("%d OK reads, window from %.1f s, %d failed in it of %d in all: the rule tripped before the outage", ok, es.WindowStartS, es.Failed, failed)
	}
	if !strings.Contains(r.stdout, "[ERRORS], Window1Start(s)") {
		t.Errorf("no error window in the summary:\n%s", r.stdout)
	}
}

// TestShutdownWithServerGone runs to maxexecutiontime with the server
// gone for good: the sizes read after the phase must not wait out the
// driver's server selection (mongodb.connecttimeout, 10 s, per command),
// which held the summary back 30 s and more; they are reported absent
// with the reason.
func TestShutdownWithServerGone(t *testing.T) {
	t.Parallel()
	const maxTime = 6 * time.Second
	out := filepath.Join(t.TempDir(), "gone.json")
	r, took := runThroughOutage(t, "-p", "operationcount=0", "-p", "maxexecutiontime=6", "-p", "optimeout=0.5", "-p", "status.interval=1",
		"-threads", "2", "--out", out)
	t.Logf("the run took %v", took)
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if took > maxTime+15*time.Second {
		t.Errorf("the run took %v: more than 15 s after maxexecutiontime=6 to end with its server gone", took)
	}
	s := parseSummary(t, r.stdout)
	if got := s["SERVER"]["CollectionStats"]; !strings.HasPrefix(got, "not available: ") {
		t.Errorf("summary: [SERVER], CollectionStats = %q, want \"not available: <reason>\"", got)
	}
	res := readResults(t, out)
	raw, _ := json.Marshal(res.Extra["sizes"])
	var sizes struct {
		End *struct {
			DBError   string `json:"db_error"`
			CollError string `json:"coll_error"`
		} `json:"end"`
	}
	if err := json.Unmarshal(raw, &sizes); err != nil || sizes.End == nil || sizes.End.DBError == "" || sizes.End.CollError == "" {
		t.Errorf("results file: sizes %s: want the end sizes absent with the reason", raw)
	}
}
