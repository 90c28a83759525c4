package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
)

// subprocess is this test binary running as mongobench.
type subprocess struct {
	cmd    *exec.Cmd
	stdout bytes.Buffer // read it once exited
	stderr *stderrWatch
	exited chan struct{}
	err    error // cmd.Wait's, once exited
}

// startMongobench starts this test binary as mongobench in a subprocess
// and returns once its first status line is out, so the run is measuring.
func startMongobench(t *testing.T, args ...string) *subprocess {
	t.Helper()
	p := &subprocess{cmd: exec.Command(os.Args[0], args...), stderr: newStderrWatch(), exited: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), "MONGOBENCH_AS_MAIN=1")
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		p.stderr.end()
		close(p.exited)
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.exited
	})
	p.stderr.waitStatusLines(t, 1)
	return p
}

func (p *subprocess) signal(t *testing.T, sig os.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

// wait waits for the process to exit and returns its exit code; a process
// still running after watchTimeout has hung, and is killed.
func (p *subprocess) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-p.exited:
	case <-time.After(watchTimeout):
		_ = p.cmd.Process.Kill()
		<-p.exited
		t.Fatalf("no exit within %v; stderr:\n%s", watchTimeout, p.stderr.String())
	}
	return exitCode(p.err)
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestInterrupt sends SIGINT to a running benchmark: it must stop, print
// its summary, write results and record the run, marked partial, and exit
// 130.
func TestInterrupt(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	dir := t.TempDir()
	out, storeFile := filepath.Join(dir, "partial.json"), filepath.Join(dir, "partial.db")
	p := startMongobench(t, "run", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url="+url,
		"-p", "recordcount=100", "-p", "operationcount=0", "-p", "maxexecutiontime=120", "-p", "status.interval=1", "--out", out, "--store", storeFile)
	p.signal(t, syscall.SIGINT)
	if code := p.wait(t); code != ExitSIGINT {
		t.Fatalf("exit %d, want %d; stderr: %s", code, ExitSIGINT, p.stderr.String())
	}
	stdout := &p.stdout
	s := parseSummary(t, stdout.String())
	if s.int(t, "READ", "Operations") == 0 {
		t.Errorf("no reads in the summary of the interrupted run:\n%s", stdout.String())
	}
	if s["OVERALL"]["Partial"] != "true" {
		t.Errorf("the summary of the interrupted run does not say [OVERALL], Partial, true:\n%s", stdout.String())
	}
	res := readResults(t, out)
	if !res.Partial || res.Operations == 0 {
		t.Errorf("results: partial=%v operations=%d, want partial with operations", res.Partial, res.Operations)
	}
	if res.Operations != s.int(t, "READ", "Operations") {
		t.Errorf("results hold %d operations, the summary %d", res.Operations, s.int(t, "READ", "Operations"))
	}
	st, err := store.Open(storeFile)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.List(context.Background(), store.Filter{})
	if err != nil || len(runs) != 1 || !runs[0].Partial || runs[0].Operations != res.Operations {
		t.Errorf("store holds %+v (err %v), want one partial run of %d operations", runs, err, res.Operations)
	}
}

// TestKilled kills a running benchmark with SIGKILL: the interval journal
// written as it went still holds every finished interval.
func TestKilled(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "killed.json")
	p := startMongobench(t, "run", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url="+url,
		"-p", "recordcount=100", "-p", "operationcount=0", "-p", "maxexecutiontime=120", "-p", "status.interval=1",
		"-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path="+filepath.Join(dir, "killed-"), "--out", out)
	// A status line is printed once the journal and the HDR logs have
	// taken its interval: at the second, both hold two.
	p.stderr.waitStatusLines(t, 2)
	p.signal(t, os.Kill)
	p.wait(t)
	stderr := p.stderr
	if _, err := os.Stat(out); err == nil {
		t.Error("a killed run wrote its final results file")
	}
	f, err := os.Open(out + results.JournalSuffix)
	if err != nil {
		t.Fatalf("no journal after kill -9: %v; stderr: %s", err, stderr.String())
	}
	defer f.Close()
	res, err := results.ReadJournal(f)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || res.Operations == 0 || len(res.Intervals) < 2 {
		t.Errorf("journal: partial=%v operations=%d intervals=%d, want partial with two intervals or more", res.Partial, res.Operations, len(res.Intervals))
	}
	// The HdrHistogram log, read back with HdrHistogram's own reader,
	// holds the intervals written before the kill: the journal's, but for
	// the last one when the kill fell between the two writes. Intervals
	// without a read have no histogram in the log.
	var journalCounts []int64
	for _, iv := range res.Intervals {
		for _, m := range iv.Measurements {
			if m.Name == "READ" && m.Service != nil && m.Service.Count > 0 {
				journalCounts = append(journalCounts, m.Service.Count)
			}
		}
	}
	hlog, err := os.Open(filepath.Join(dir, "killed-READ.hdr"))
	if err != nil {
		t.Fatalf("no HdrHistogram interval log after kill -9: %v", err)
	}
	defer hlog.Close()
	reader := hdrhistogram.NewHistogramLogReader(hlog)
	var logCounts []int64
	for {
		h, err := reader.NextIntervalHistogram()
		if err != nil {
			t.Fatalf("HdrHistogram log, interval %d: %v", len(logCounts), err)
		}
		if h == nil {
			break
		}
		logCounts = append(logCounts, h.TotalCount())
	}
	if len(logCounts) == 0 || len(journalCounts) < len(logCounts) || len(journalCounts) > len(logCounts)+1 ||
		!slices.Equal(logCounts, journalCounts[:len(logCounts)]) {
		t.Errorf("READ per interval: HdrHistogram log %v, journal %v", logCounts, journalCounts)
	}
	var sum int64
	for _, n := range journalCounts {
		sum += n
	}
	if sum != res.Operations {
		t.Errorf("the journal's intervals hold %d reads, its total %d operations", sum, res.Operations)
	}

	// report and compare read the journal of the killed run.
	journal := out + results.JournalSuffix
	if r := mongobench(t, "report", journal, "-o", filepath.Join(dir, "killed.html")); r.code != 0 {
		t.Errorf("report of the journal: exit %d: %s", r.code, r.stderr)
	}
	// compare reads it too, and knows it for one run: against itself it
	// is refused.
	if r := mongobench(t, "compare", journal, journal); r.code != ExitBadInput || !strings.Contains(r.stderr, "both hold "+journal) {
		t.Errorf("compare of the journal with itself: exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
}

// TestTerminate sends SIGTERM to a running benchmark: it stops as on
// Ctrl-C, writes its results marked partial, and exits 143.
func TestTerminate(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "terminated.json")
	p := startMongobench(t, "run", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url="+url,
		"-p", "recordcount=100", "-p", "operationcount=0", "-p", "maxexecutiontime=120", "-p", "status.interval=1", "--out", out, "--no-store")
	p.signal(t, syscall.SIGTERM)
	if code := p.wait(t); code != ExitSIGTERM {
		t.Fatalf("exit %d, want %d; stderr: %s", code, ExitSIGTERM, p.stderr.String())
	}
	stdout := &p.stdout
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no results file after SIGTERM: %v", err)
	}
	if !bytes.Contains(data, []byte(`"partial": true`)) {
		t.Errorf("the results file is not marked \"partial\": true")
	}
	if res := readResults(t, out); res.Operations == 0 || res.Operations != parseSummary(t, stdout.String()).int(t, "READ", "Operations") {
		t.Errorf("results hold %d operations; summary:\n%s", res.Operations, stdout.String())
	}
}

// TestSecondInterrupt sends a second SIGINT while the first is waiting for
// operations stuck on a stalled server: the process exits at once, with
// 130, without waiting for them, so without a summary or results file.
func TestSecondInterrupt(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	p := newStallProxy(t, hostPort(t, testServer.URI()))
	proxied := p.url(url)
	out := filepath.Join(t.TempDir(), "twice.json")
	// optimeout=60: operations stuck on the stall outlast the 5 s the
	// first signal grants them.
	sp := startMongobench(t, "run", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url="+proxied,
		"-p", "recordcount=100", "-p", "operationcount=0", "-p", "maxexecutiontime=120", "-p", "status.interval=1", "-p", "optimeout=60",
		"-threads", "2", "--out", out, "--no-store")
	p.stalled.Store(true)
	// The workers are stuck once a whole interval after the stall began
	// finished no operation: its status line's count stands still.
	sp.stderr.waitStatus(t, sp.stderr.statusCount()+1, "a status line with no operation done in its interval", func(prev, line string) bool {
		return statusOps(line) == statusOps(prev)
	})
	sp.signal(t, syscall.SIGINT)
	// The second signal must reach the process as a second one: two
	// signals sent together may be merged into one.
	sp.stderr.waitFor(t, "the first signal's notice", func(lines []string) bool {
		return slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, interruptNotice) })
	})
	sp.signal(t, syscall.SIGINT)
	if code := sp.wait(t); code != ExitSIGINT {
		t.Fatalf("exit %d, want %d; stderr: %s", code, ExitSIGINT, sp.stderr.String())
	}
	stdout := &sp.stdout

	// The first signal's way out ends with the summary and the results
	// file, after the in-flight operations' 5 s: neither may be there.
	if strings.Contains(stdout.String(), "[OVERALL]") {
		t.Errorf("a summary was printed: the second SIGINT waited for the first's way out:\n%s", stdout.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the results file was written: the second SIGINT waited for the first's way out")
	}
}
