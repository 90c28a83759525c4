package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/store"
)

// startMongobench starts this test binary as mongobench in a subprocess
// and returns once its first status line is out, so the run is measuring.
func startMongobench(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "MONGOBENCH_AS_MAIN=1")
	var stdout bytes.Buffer
	stderr := &bytes.Buffer{}
	cmd.Stdout = &stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	seen := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pipe)
		once := false
		for sc.Scan() {
			stderr.WriteString(sc.Text() + "\n")
			if !once && strings.Contains(sc.Text(), " sec: ") {
				once = true
				close(seen)
			}
		}
	}()
	select {
	case <-seen:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("no status line within 60 s; stderr: %s", stderr.String())
	}
	return cmd, &stdout, stderr
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
	cmd, stdout, stderr := startMongobench(t, "run", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url="+url,
		"-p", "recordcount=100", "-p", "operationcount=0", "-p", "maxexecutiontime=120", "-p", "status.interval=1", "--out", out, "--store", storeFile)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	code := exitCode(cmd.Wait())
	if code != ExitSIGINT {
		t.Fatalf("exit %d, want %d; stderr: %s", code, ExitSIGINT, stderr.String())
	}
	s := parseSummary(t, stdout.String())
	if s.int(t, "READ", "Operations") == 0 {
		t.Errorf("no reads in the summary of the interrupted run:\n%s", stdout.String())
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
	cmd, _, stderr := startMongobench(t, "run", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url="+url,
		"-p", "recordcount=100", "-p", "operationcount=0", "-p", "maxexecutiontime=120", "-p", "status.interval=1",
		"-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path="+filepath.Join(dir, "killed-"), "--out", out)
	time.Sleep(1500 * time.Millisecond) // one more interval
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if _, err := os.Stat(out); err == nil {
		t.Error("a killed run wrote its final results file")
	}
	f, err := os.Open(out + export.JournalSuffix)
	if err != nil {
		t.Fatalf("no journal after kill -9: %v; stderr: %s", err, stderr.String())
	}
	defer f.Close()
	res, err := export.ReadJournal(f)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || res.Operations == 0 || len(res.Intervals) < 1 {
		t.Errorf("journal: partial=%v operations=%d intervals=%d", res.Partial, res.Operations, len(res.Intervals))
	}
	if _, err := os.Stat(filepath.Join(dir, "killed-READ.hdr")); err != nil {
		t.Errorf("no HdrHistogram interval log after kill -9: %v", err)
	}
}
