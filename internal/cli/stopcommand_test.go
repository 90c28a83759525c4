package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/store"
)

// interrupted runs args in-process with a signal already heard (code 130
// for SIGINT, 143 for SIGTERM), as when it comes while the command reads
// its inputs.
func interrupted(args []string, code int) cmdResult {
	ch := make(chan int, 1)
	ch <- code
	var out, errb bytes.Buffer
	c := Main(context.Background(), args, Env{Stdout: &out, Stderr: &errb, Getenv: testEnv, Interrupt: ch})
	return cmdResult{c, out.String(), errb.String()}
}

// TestReadersStopOnSignal: history, merge, report and compare end on
// SIGINT or SIGTERM with its code, write no output file, print no table,
// and say so; run to the end they write what they were asked to.
func TestReadersStopOnSignal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := writeSynth(t, dir, map[string]resultstest.Spec{
		"a": {Label: "a", Throughput: 1000}, "b": {Label: "b", Throughput: 1100},
	})
	var parts []string
	for i := range 2 {
		res := resultstest.Results(t, resultstest.Spec{Label: "parts", Throughput: 500})
		res.Extra = &results.Extra{Part: &results.Part{Index: i, Count: 2, RunID: "stop"}}
		path := filepath.Join(dir, "part"+string(rune('0'+i))+".json")
		if err := writeResults(path, res); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, path)
	}
	storeFile := filepath.Join(dir, "runs.db")
	if r := mongobench(t, "merge", parts[0], parts[1], "--store", storeFile); r.code != 0 {
		t.Fatalf("merge into the store: exit %d: %s", r.code, r.stderr)
	}
	tests := []struct {
		name string
		args func(out string) []string
	}{
		{"history", func(string) []string { return []string{"history", "--store", storeFile} }},
		{"merge", func(out string) []string { return []string{"merge", parts[0], parts[1], "-o", out, "--no-store"} }},
		{"report", func(out string) []string { return []string{"report", p["a"], p["b"], "-o", out} }},
		{"compare", func(string) []string { return []string{"compare", p["a"], p["b"]} }},
	}
	for _, tt := range tests {
		for _, code := range []int{ExitSIGINT, ExitSIGTERM} {
			out := filepath.Join(t.TempDir(), "out")
			r := interrupted(tt.args(out), code)
			if r.code != code {
				t.Errorf("%s, signal %d: exit %d; stderr: %s", tt.name, code, r.code, r.stderr)
			}
			if want := "mongobench: " + tt.name + ": interrupted: nothing was written\n"; r.stderr != want {
				t.Errorf("%s, signal %d: stderr %q, want %q", tt.name, code, r.stderr, want)
			}
			if r.stdout != "" {
				t.Errorf("%s, signal %d: printed %q", tt.name, code, r.stdout)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s, signal %d: wrote its output", tt.name, code)
			}
		}
		// Without a signal the same command line does its work.
		out := filepath.Join(t.TempDir(), "out")
		if r := mongobench(t, tt.args(out)...); r.code != 0 {
			t.Errorf("%s without a signal: exit %d: %s", tt.name, r.code, r.stderr)
		}
	}
}

// TestDiskStopsFio: a signal while fio measures asks fio to stop as
// Ctrl-C does, and disk exits with the signal's code, keeping no baseline.
// The fio here is a script that says when it starts and when it is
// interrupted, so the test waits on those events, not on time.
func TestDiskStopsFio(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	marks := t.TempDir()
	started, stopped := filepath.Join(marks, "started"), filepath.Join(marks, "interrupted")
	script := "#!/bin/sh\n" +
		"sleep 600 & pid=$!\n" +
		"trap 'kill $pid; echo > " + stopped + "; exit 1' INT\n" +
		"echo > " + started + "\n" +
		"wait $pid\n"
	if err := os.WriteFile(filepath.Join(bin, "fio"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// disk measures a directory on a block device: the package's own is.
	dir, err := os.MkdirTemp(".", "disk-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	storeFile := filepath.Join(t.TempDir(), "runs.db")
	ch := make(chan int, 1)
	var out, errb syncBuffer
	env := Env{Stdout: &out, Stderr: &errb, Interrupt: ch, Getenv: func(k string) string {
		if k == "PATH" {
			return bin
		}
		return ""
	}}
	done := make(chan int, 1)
	go func() {
		done <- Main(context.Background(), []string{"disk", "--dir", dir, "--size", "4M", "--runtime", "1h", "--store", storeFile}, env)
	}()
	waitForFile(t, started, done)
	ch <- ExitSIGINT
	var code int
	select {
	case code = <-done:
	case <-time.After(watchTimeout):
		t.Fatalf("disk still running %v after the signal; stderr: %s", watchTimeout, errb.String())
	}
	if code != ExitSIGINT {
		t.Errorf("exit %d, want %d; stderr: %s", code, ExitSIGINT, errb.String())
	}
	if _, err := os.Stat(stopped); err != nil {
		t.Errorf("fio was not asked to stop with SIGINT (killed instead): %v", err)
	}
	if !strings.Contains(errb.String(), "mongobench: disk: interrupted: nothing was written") || out.String() != "" {
		t.Errorf("stdout %q, stderr %q: want no table and the interruption said", out.String(), errb.String())
	}
	st, err := store.Open(storeFile)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if bs, err := st.DiskBaselines(t.Context()); err != nil || len(bs) != 0 {
		t.Errorf("the store holds %d baselines (%v) after an interrupted measurement", len(bs), err)
	}
}

// waitForFile waits until path exists: an event another process makes.
// done ending first means the command ended without making it.
func waitForFile(t *testing.T, path string, done <-chan int) {
	t.Helper()
	deadline := time.Now().Add(watchTimeout)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		select {
		case code := <-done:
			t.Fatalf("the command ended (exit %d) before %s appeared", code, path)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear within %v", path, watchTimeout)
		}
	}
}

// syncBuffer is a buffer a command writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
