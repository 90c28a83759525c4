package cli

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/store"
)

// testServer is one embedded server for the package's tests; each test
// uses its own database so tests do not see each other's data.
var testServer *embedded.Server

func TestMain(m *testing.M) {
	// Subprocess tests run the test binary itself as mongobench.
	if os.Getenv("MONGOBENCH_AS_MAIN") == "1" {
		os.Exit(RunProcess(os.Args[1:]))
	}
	raiseParallelism()
	srv, err := embedded.Start(context.Background(), embedded.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot start the embedded server:", err)
		os.Exit(1)
	}
	testServer = srv
	// Runs are recorded in a store of the tests' own, never in a
	// mongobench.db beside the sources (subprocess tests inherit this).
	storeDir, err := os.MkdirTemp("", "mongobench-test-store")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(storeEnv, filepath.Join(storeDir, "mongobench.db"))
	_, existed := os.Stat(store.DefaultPath)
	code := m.Run()
	srv.Close()
	os.RemoveAll(storeDir)
	if _, err := os.Stat(store.DefaultPath); err == nil && existed != nil {
		fmt.Fprintf(os.Stderr, "a test wrote %s into the package directory: it must use its own store\n", store.DefaultPath)
		os.Remove(store.DefaultPath)
		code = 1
	}
	os.Exit(code)
}

// testEnv is an empty environment but for the tests' results store.
func testEnv(k string) string {
	if k == storeEnv {
		return os.Getenv(storeEnv)
	}
	return ""
}

// raiseParallelism runs more of the package's parallel tests at once
// than go test's default of one per CPU, unless -test.parallel is given:
// most of them wait, on a phase's time limit, a server held still or a
// timeout, rather than compute, and one per CPU left the package's tests
// waiting one after another for twice as long. None asserts a duration,
// so running beside more others changes what they take, not what they
// check.
func raiseParallelism() {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
}

var dbCounter atomic.Int64

// freshURL returns the test server's URL with a database of its own.
func freshURL(t *testing.T) string {
	t.Helper()
	return fmt.Sprintf("%stest%d", testServer.URI(), dbCounter.Add(1))
}

type cmdResult struct {
	code           int
	stdout, stderr string
}

// mongobench runs the command line in-process.
func mongobench(t *testing.T, args ...string) cmdResult {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, Env{Stdout: &out, Stderr: &errb, Getenv: testEnv})
	return cmdResult{code, out.String(), errb.String()}
}

// summary is a parsed YCSB text summary: summary["READ"]["Return=OK"].
type summary map[string]map[string]string

func parseSummary(t *testing.T, text string) summary {
	t.Helper()
	s := summary{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ", ", 3)
		if len(parts) != 3 || !strings.HasPrefix(parts[0], "[") || strings.Count(sc.Text(), ",") != 2 {
			t.Fatalf("not a summary line of three comma-separated fields: %q", sc.Text())
		}
		metric := strings.Trim(parts[0], "[]")
		if s[metric] == nil {
			s[metric] = map[string]string{}
		}
		s[metric][parts[1]] = parts[2]
	}
	return s
}

// checkThreeFields checks that every line of a summary in YCSB's shape
// splits on commas into exactly three fields, as awk -F', ' and CSV
// readers split it.
func checkThreeFields(t *testing.T, text string) {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "[") && strings.Count(l, ",") != 2 {
			t.Errorf("summary line %q has %d comma-separated fields, want 3", l, strings.Count(l, ",")+1)
		}
	}
}

func (s summary) int(t *testing.T, metric, name string) int64 {
	t.Helper()
	v, ok := s[metric][name]
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		t.Fatalf("[%s], %s = %q: not a whole number", metric, name, v)
	}
	return n
}

func (s summary) float(t *testing.T, metric, name string) float64 {
	t.Helper()
	v, ok := s[metric][name]
	if !ok {
		t.Fatalf("summary has no [%s], %s", metric, name)
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t.Fatalf("[%s], %s = %q: not a number", metric, name, v)
	}
	return f
}
