package cli

import (
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
