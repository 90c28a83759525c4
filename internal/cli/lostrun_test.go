package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/mongobench/mongobench/internal/store"
)

// triggerWriter keeps what is written and calls fire, once, when a write
// holds trigger: a test acts at a known point of a command, not after a
// guessed delay.
type triggerWriter struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	trigger string
	fire    func()
	fired   bool
}

func (w *triggerWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if !w.fired && w.trigger != "" && bytes.Contains(p, []byte(w.trigger)) {
		w.fired = true
		w.fire()
	}
	return len(p), nil
}

func (w *triggerWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// failingWriter refuses every write, as a closed pipe or full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// storedRuns returns the number of runs in the store at path.
func storedRuns(t *testing.T, path string) int {
	t.Helper()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.List(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(runs)
}

// TestOneFailedOutputKeepsTheOthers breaks one output of a measured run
// at the moment the summary is printed, just before the results file and
// the store are written: the other outputs are kept, the failure is named
// with its path and reason, and the command exits 1.
func TestOneFailedOutputKeepsTheOthers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// sabotage runs when the summary is printed; out is the results
		// file's path.
		sabotage    func(t *testing.T, out string)
		failStdout  bool
		want        string // after "not written: "
		resultsFile bool   // the results file is written
	}{
		{"the results file's directory is removed", func(t *testing.T, out string) {
			if err := os.RemoveAll(filepath.Dir(out)); err != nil {
				t.Error(err)
			}
		}, false, "cannot write %s: no such file or directory", false},
		{"a directory takes the results file's name", func(t *testing.T, out string) {
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Error(err)
			}
		}, false, "cannot write %s: is a directory", false},
		{"a symbolic link takes the results file's name", func(t *testing.T, out string) {
			if err := os.Symlink(filepath.Join(filepath.Dir(out), "..", "precious"), out); err != nil {
				t.Error(err)
			}
		}, false, "cannot write %s: is a symbolic link", false},
		{"a FIFO takes the results file's name", func(t *testing.T, out string) {
			if err := syscall.Mkfifo(out, 0o644); err != nil {
				t.Error(err)
			}
		}, false, "cannot write %s: is a named pipe", false},
		{"standard output refuses the summary", nil, true, "the summary: ", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url := freshURL(t)
			dir := t.TempDir()
			precious := filepath.Join(dir, "precious")
			if err := os.WriteFile(precious, []byte("keep me"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
				t.Fatal(err)
			}
			out, storeFile := filepath.Join(dir, "out", "r.json"), filepath.Join(dir, "runs.db")
			stdout := &triggerWriter{trigger: "[OVERALL]", fire: func() {
				if tc.sabotage != nil {
					tc.sabotage(t, out)
				}
			}}
			var w io.Writer = stdout
			if tc.failStdout {
				w = failingWriter{}
			}
			var stderr bytes.Buffer
			code := Main(context.Background(), []string{"run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + url,
				"-p", "readproportion=0", "-p", "insertproportion=1", "-p", "recordcount=10", "-p", "operationcount=50",
				"--out", out, "--store", storeFile}, Env{Stdout: w, Stderr: &stderr, Getenv: testEnv})
			if code != 1 {
				t.Errorf("exit %d, want 1; stderr:\n%s", code, stderr.String())
			}
			want := "mongobench: not written: " + tc.want
			if strings.Contains(want, "%s") {
				want = fmt.Sprintf(want, out)
			}
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
			}
			if n := storedRuns(t, storeFile); n != 1 {
				t.Errorf("the store holds %d runs, want the one measured", n)
			}
			if !tc.failStdout && !strings.Contains(stdout.String(), "[INSERT], Operations, 50") {
				t.Errorf("the summary is missing:\n%s", stdout.String())
			}
			if tc.resultsFile {
				if res := readResults(t, out); res.Operations != 50 {
					t.Errorf("results file: %d operations, want 50", res.Operations)
				}
			} else if fi, err := os.Lstat(out); err == nil && fi.Mode().IsRegular() {
				t.Errorf("a results file was written at %s although its place was taken", out)
			}
			if b, _ := os.ReadFile(precious); string(b) != "keep me" {
				t.Errorf("a file outside the outputs was changed: %q", b)
			}
			if !strings.Contains(stderr.String(), "saved as run 1 in "+storeFile) {
				t.Errorf("stderr does not say the run was saved:\n%s", stderr.String())
			}
		})
	}
}
