package cli

import (
	"context"
	"fmt"
	"sync"
)

// interruptWatch turns the first signal into a graceful stop: the phase
// stops issuing work, the summary and results are still written (marked
// partial), and the command exits with the signal's code.
type interruptWatch struct {
	stop     chan struct{}
	done     chan struct{}
	mu       sync.Mutex
	exitCode int
	once     sync.Once
}

func newInterrupt(signals <-chan int) *interruptWatch {
	w := &interruptWatch{stop: make(chan struct{}), done: make(chan struct{})}
	if signals == nil {
		return w
	}
	go func() {
		select {
		case code := <-signals:
			w.mu.Lock()
			w.exitCode = code
			w.mu.Unlock()
			close(w.stop)
		case <-w.done:
		}
	}()
	return w
}

// stopped is closed when a signal asked the run to stop.
func (w *interruptWatch) stopped() <-chan struct{} { return w.stop }

// code is the exit code the signal asks for, or 0.
func (w *interruptWatch) code() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.exitCode
}

func (w *interruptWatch) close() { w.once.Do(func() { close(w.done) }) }

// context returns ctx, cancelled once a signal asks the run to stop. The
// steps before a phase (starting the embedded server, connecting, counting,
// dropping, probing keys, reading the topology) run under it: the phase's
// graceful stop does not reach them, and each may otherwise wait out a
// timeout of its own on a server that does not answer.
func (w *interruptWatch) context(ctx context.Context) (context.Context, context.CancelFunc) {
	c, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-w.stop:
			cancel()
		case <-c.Done():
		}
	}()
	return c, cancel
}

// before returns the exit of a run interrupted before its phase, whose
// step failed (or was cut short) because of the signal; err otherwise.
func (w *interruptWatch) before(err error, step string) error {
	if c := w.code(); c != 0 {
		return exitError{c, fmt.Errorf("interrupted while %s: nothing was measured", step)}
	}
	return err
}
