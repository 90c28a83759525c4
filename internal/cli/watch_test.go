package cli

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// watchTimeout bounds every wait on what a command reports. The events
// waited for come within seconds; the bound only ends a test whose command
// hangs, so a busy machine never reaches it.
const watchTimeout = 2 * time.Minute

// stderrWatch is a command's stderr as it is written. Tests wait on it for
// what the command reports (a status line, a message) instead of sleeping
// and hoping the command got that far.
type stderrWatch struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	lines   []string
	tail    []byte        // the line being written
	changed chan struct{} // closed and replaced on every new line
	ended   bool
}

func newStderrWatch() *stderrWatch {
	return &stderrWatch{changed: make(chan struct{})}
}

func (w *stderrWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	w.tail = append(w.tail, p...)
	added := false
	for {
		i := bytes.IndexByte(w.tail, '\n')
		if i < 0 {
			break
		}
		w.lines = append(w.lines, string(w.tail[:i]))
		w.tail = w.tail[i+1:]
		added = true
	}
	if added {
		close(w.changed)
		w.changed = make(chan struct{})
	}
	return len(p), nil
}

// end says the command will write no more: waits for what has not come
// yet fail at once.
func (w *stderrWatch) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.ended {
		w.ended = true
		close(w.changed)
	}
}

func (w *stderrWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// waitFor returns once cond holds for the lines written so far, and fails
// the test if the command ends first or nothing comes for watchTimeout.
func (w *stderrWatch) waitFor(t *testing.T, what string, cond func(lines []string) bool) {
	t.Helper()
	timeout := time.NewTimer(watchTimeout)
	defer timeout.Stop()
	for {
		w.mu.Lock()
		ok, ended, changed := cond(w.lines), w.ended, w.changed
		w.mu.Unlock()
		if ok {
			return
		}
		if ended {
			t.Fatalf("the command ended before %s; stderr:\n%s", what, w.String())
		}
		select {
		case <-changed:
		case <-timeout.C:
			t.Fatalf("no %s within %v; stderr:\n%s", what, watchTimeout, w.String())
		}
	}
}

// statusLineOps matches a status line and the operations done so far.
var statusLineOps = regexp.MustCompile(` sec: (\d+) operations;`)

// statusLines are the status lines among lines.
func statusLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		if statusLineOps.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// waitStatusLines waits until n status lines are out: n intervals of the
// run have been measured.
func (w *stderrWatch) waitStatusLines(t *testing.T, n int) {
	t.Helper()
	w.waitFor(t, strconv.Itoa(n)+" status lines", func(lines []string) bool { return len(statusLines(lines)) >= n })
}

// statusCount is how many status lines are out.
func (w *stderrWatch) statusCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(statusLines(w.lines))
}

// waitStatus waits for a status line after the first n that cond accepts,
// given the status line before it ("" for the first), and returns how many
// status lines are out up to the one accepted.
func (w *stderrWatch) waitStatus(t *testing.T, n int, what string, cond func(prev, line string) bool) int {
	t.Helper()
	seen := 0
	w.waitFor(t, what, func(lines []string) bool {
		sl := statusLines(lines)
		for i := n; i < len(sl); i++ {
			prev := ""
			if i > 0 {
				prev = sl[i-1]
			}
			if cond(prev, sl[i]) {
				seen = i + 1
				return true
			}
		}
		return false
	})
	return seen
}

// statusOps is the operations done so far that a status line counts.
func statusOps(line string) int64 {
	m := statusLineOps.FindStringSubmatch(line)
	if m == nil {
		return -1
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	return n
}

// hasSection says whether a status line has a latency section for name,
// as "[READ-FAILED: Count=3, ...]".
func hasSection(line, name string) bool {
	return strings.Contains(line, "["+name+": Count=")
}

// background is a command line running in-process beside the test.
type background struct {
	stderr *stderrWatch
	done   chan cmdResult
}

// startBackground runs the command line in-process in the background,
// with its stderr watched.
func startBackground(t *testing.T, args ...string) *background {
	t.Helper()
	return startBackgroundInterruptible(t, nil, args...)
}

// startBackgroundInterruptible is startBackground with the command's
// interrupts (ExitSIGINT, ExitSIGTERM) sent on interrupt.
func startBackgroundInterruptible(t *testing.T, interrupt <-chan int, args ...string) *background {
	t.Helper()
	b := &background{stderr: newStderrWatch(), done: make(chan cmdResult, 1)}
	go func() {
		var stdout bytes.Buffer
		code := Main(context.Background(), args, Env{Stdout: &stdout, Stderr: b.stderr, Getenv: testEnv, Interrupt: interrupt})
		b.stderr.end()
		b.done <- cmdResult{code, stdout.String(), b.stderr.String()}
	}()
	return b
}

// wait returns the command's result once it ends; one still running after
// watchTimeout has hung.
func (b *background) wait(t *testing.T) cmdResult {
	t.Helper()
	select {
	case r := <-b.done:
		return r
	case <-time.After(watchTimeout):
		t.Fatalf("the command did not end within %v; stderr:\n%s", watchTimeout, b.stderr.String())
	}
	return cmdResult{}
}
