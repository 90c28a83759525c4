package interrupt

import (
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestSignals sends this process a SIGTERM: it is the exit code asked
// for, said at once. (A second one would exit the test binary.)
func TestSignals(t *testing.T) {
	var w lockedBuffer
	codes, stop := Signals(&w, "stopping", 130, 143)
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Skip(err)
	}
	if code := <-codes; code != 143 {
		t.Errorf("code %d, want 143", code)
	}
	if got := w.String(); got != "mongobench: SIGTERM: stopping\n" {
		t.Errorf("said %q", got)
	}
}
