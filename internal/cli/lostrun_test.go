package cli

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
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

// TestInterruptedPreload stops the embedded server's preload with a signal
// as it begins: the command says how many records the server really
// holds, that it was interrupted, and measures nothing.
func TestInterruptedPreload(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		signal  int
		dataDir bool
	}{
		{"Ctrl-C", ExitSIGINT, false},
		{"SIGTERM", ExitSIGTERM, false},
		{"Ctrl-C with a data directory kept for later runs", ExitSIGINT, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			signals := make(chan int, 1)
			stderr := &triggerWriter{trigger: "the embedded server is empty: loading", fire: func() { signals <- tc.signal }}
			var stdout bytes.Buffer
			args := []string{"run", "mongodb", "-P", "workloadc", "-p", "recordcount=200000", "-p", "operationcount=10",
				"--out", filepath.Join(dir, "r.json"), "--no-store"}
			dataDir := filepath.Join(dir, "data")
			if tc.dataDir {
				args = append(args, "--data-dir", dataDir)
			}
			code := Main(context.Background(), args, Env{Stdout: &stdout, Stderr: stderr, Getenv: testEnv, Interrupt: signals})
			if code != tc.signal {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.signal, stderr)
			}
			m := regexp.MustCompile(`loading the embedded server was interrupted: the server acknowledged (\d+) of the 200000 records for usertable(; \d+ more were in flight and may be stored too)?\n`).FindStringSubmatch(stderr.String())
			if m == nil {
				t.Fatalf("stderr does not say how far the preload got:\n%s", stderr)
			}
			n, _ := strconv.ParseInt(m[1], 10, 64)
			if n >= 200000 {
				t.Errorf("%d records loaded: the interrupt did not stop the preload", n)
			}
			if tc.dataDir {
				// The data directory outlives the command: what it holds
				// is what the line said, plus at most those in flight.
				var inFlight int64
				if m[2] != "" {
					inFlight, _ = strconv.ParseInt(regexp.MustCompile(`\d+`).FindString(m[2]), 10, 64)
				}
				srv, err := embedded.Start(context.Background(), embedded.Options{DataDir: dataDir})
				if err != nil {
					t.Fatal(err)
				}
				defer srv.Close()
				held, err := connect(t, srv.URI()+"ycsb").Collection("usertable").CountDocuments(context.Background(), map[string]any{})
				if err != nil || held < n || held > n+inFlight {
					t.Errorf("the data directory holds %d records (%v); the line said %d, %d more in flight", held, err, n, inFlight)
				}
			}
			if strings.Contains(stderr.String(), "loaded 200000 records") {
				t.Errorf("stderr claims the whole preload:\n%s", stderr)
			}
			if said := strings.Contains(stderr.String(), "--data-dir "+dataDir+" finds usertable not empty"); said != tc.dataDir {
				t.Errorf("the later run's warning said %v, want %v:\n%s", said, tc.dataDir, stderr)
			}
			if stdout.Len() > 0 {
				t.Errorf("a summary was printed for a run that never started:\n%s", stdout.String())
			}
			if _, err := os.Stat(filepath.Join(dir, "r.json")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a results file was written for a run that never started (%v)", err)
			}
		})
	}
}

// TestInterruptedWarmup stops a run in its warm-up: the run ends there,
// with no summary of nothing (a throughput of Infinity or NaN), no results
// file and no stored run.
func TestInterruptedWarmup(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		signal int
		warmup string
		// whenStderr, if set, fires the signal on that stderr line;
		// otherwise the signal comes once the warm-up's first insert is
		// in the collection.
		whenStderr string
	}{
		{"Ctrl-C in the middle of the warm-up", ExitSIGINT, "600s", ""},
		{"SIGTERM in the middle of the warm-up", ExitSIGTERM, "600s", ""},
		{"Ctrl-C as the warm-up ends", ExitSIGINT, "1s", "mongobench: warm-up: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url := freshURL(t)
			dir := t.TempDir()
			out, storeFile := filepath.Join(dir, "r.json"), filepath.Join(dir, "runs.db")
			signals := make(chan int, 1)
			stderr := &triggerWriter{trigger: tc.whenStderr, fire: func() { signals <- tc.signal }}
			var stdout bytes.Buffer
			done := make(chan int, 1)
			go func() {
				done <- Main(context.Background(), []string{"run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + url,
					"-p", "readproportion=0", "-p", "insertproportion=1", "-p", "recordcount=10", "-p", "operationcount=1000",
					"--warmup", tc.warmup, "--out", out, "--store", storeFile}, Env{Stdout: &stdout, Stderr: stderr, Getenv: testEnv, Interrupt: signals})
			}()
			if tc.whenStderr == "" {
				coll := connect(t, url).Collection("usertable")
				deadline := time.Now().Add(2 * time.Minute)
			poll:
				for {
					n, err := coll.CountDocuments(context.Background(), map[string]any{})
					switch {
					case err == nil && n > 0:
						signals <- tc.signal
						break poll
					case time.Now().After(deadline):
						t.Fatalf("no insert of the warm-up within 2 minutes; stderr:\n%s", stderr)
					}
					select {
					case code := <-done:
						t.Fatalf("the run ended (exit %d) before the warm-up was seen; stderr:\n%s", code, stderr)
					case <-time.After(10 * time.Millisecond):
					}
				}
			}
			var code int
			select {
			case code = <-done:
			case <-time.After(2 * time.Minute):
				t.Fatalf("the run did not end within 2 minutes of the signal; stderr:\n%s", stderr)
			}
			if code != tc.signal {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.signal, stderr)
			}
			// A signal at the warm-up's very end may be seen first by the
			// check before the measured phase: either way nothing runs.
			if !regexp.MustCompile(`interrupted while (warming up|reading the server's topology and sizes): nothing was measured`).MatchString(stderr.String()) {
				t.Errorf("stderr does not say the warm-up was interrupted:\n%s", stderr)
			}
			if s := stdout.String(); s != "" {
				t.Errorf("a summary of nothing was printed:\n%s", s)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a results file of nothing was written (%v)", err)
			}
			if _, err := os.Stat(out + results.JournalSuffix); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a journal of nothing was written (%v)", err)
			}
			if _, err := os.Stat(storeFile); err == nil && storedRuns(t, storeFile) != 0 {
				t.Error("a run of nothing was stored")
			}
		})
	}
}

// TestStdoutFails runs commands whose standard output refuses every write
// (a full disk, a closed pipe): what they print is their result, so each
// fails, exit 1, saying so.
func TestStdoutFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	// Two runs, not one run twice, which compare refuses.
	for i, p := range []string{a, b} {
		if err := writeResults(p, resultstest.Results(t, resultstest.Spec{Throughput: 1000 + 100*float64(i)})); err != nil {
			t.Fatal(err)
		}
	}
	storeFile := filepath.Join(dir, "runs.db")
	st, err := store.Open(storeFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save(context.Background(), resultstest.Results(t, resultstest.Spec{Throughput: 1000}), store.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"compare", a, b},
		{"history", "--store", storeFile},
		{"version"},
		{"help", "run"},
		{"report", "-h"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			var stderr bytes.Buffer
			code := Main(context.Background(), args, Env{Stdout: failingWriter{}, Stderr: &stderr, Getenv: testEnv})
			if code != ExitFailed || stderr.String() != "mongobench: cannot write standard output: no space left on device\n" {
				t.Errorf("exit %d, stderr %q: want exit %d saying standard output cannot be written", code, stderr.String(), ExitFailed)
			}
		})
	}
}

// TestSweepStoreRefusesRuns holds the store locked by another writer for
// the whole sweep: every save waits out the store's busy timeout and
// fails. The sweep goes on, its results files keep every run, and the
// command fails, exit 1, saying how many runs the store lacks.
func TestSweepStoreRefusesRuns(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	dir := t.TempDir()
	storeFile, outDir := filepath.Join(dir, "runs.db"), filepath.Join(dir, "sweep")
	st, err := store.Open(storeFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	locker, err := sql.Open("sqlite", storeFile)
	if err != nil {
		t.Fatal(err)
	}
	defer locker.Close()
	conn, err := locker.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	stderr := &triggerWriter{trigger: "trial 1/1 starts", fire: func() {
		if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
			t.Error(err)
		}
	}}
	var stdout bytes.Buffer
	code := Main(context.Background(), []string{"sweep", "run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + url,
		"-p", "readproportion=0", "-p", "insertproportion=1", "-p", "recordcount=10", "-p", "operationcount=20",
		"--vary", "threadcount=1", "--out-dir", outDir, "--store", storeFile}, Env{Stdout: &stdout, Stderr: stderr, Getenv: testEnv})
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Error(err)
	}
	if code != ExitFailed || !strings.Contains(stderr.String(), "the sweep ran, but 1 run could not be saved in the results store") {
		t.Errorf("exit %d, want %d saying the run was not saved; stderr:\n%s", code, ExitFailed, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(outDir, "*.json"))
	if len(files) != 1 {
		t.Errorf("%d results files in %s, want the run's", len(files), outDir)
	}
	if n := storedRuns(t, storeFile); n != 0 {
		t.Errorf("the store holds %d runs, want none: it was locked", n)
	}
}
