// Package interrupt turns the signals a command is sent into what its
// steps can wait on: a stop channel and the exit code the signal asks
// for (Watch), a context that ends with the stop (Context), a command run
// that ends on the first signal (Run), and a writer that fails once its
// context is done (Writer).
package interrupt

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
)

// Watch turns the first signal into a graceful stop: the phase stops
// issuing work, the summary and results are still written (marked
// partial), and the command exits with the signal's code.
type Watch struct {
	stop     chan struct{}
	done     chan struct{}
	mu       sync.Mutex
	exitCode int
	once     sync.Once
}

// New watches signals, each the exit code it asks for; nil means none
// come.
func New(signals <-chan int) *Watch {
	w := &Watch{stop: make(chan struct{}), done: make(chan struct{})}
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

// Stopped is closed when a signal asked the run to stop.
func (w *Watch) Stopped() <-chan struct{} { return w.stop }

// Code is the exit code the signal asks for, or 0.
func (w *Watch) Code() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.exitCode
}

// Close stops watching.
func (w *Watch) Close() { w.once.Do(func() { close(w.done) }) }

// Context is ctx, also ended when stop is closed: for the libraries'
// loops, which take a context rather than the stop channel.
func Context(ctx context.Context, stop <-chan struct{}) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// Run runs run with a context that the first of signals cancels, and
// returns its error with the code the signal asked for (0 for none). A
// signal that came before Run cancels the context before run starts, so
// that a command stops before its first step, not at some later one.
func Run(ctx context.Context, signals <-chan int, run func(context.Context) error) (code int, err error) {
	if signals == nil {
		return 0, run(ctx)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var heard atomic.Int32
	stop := func(code int) {
		heard.Store(int32(code))
		cancel()
	}
	select {
	case code := <-signals:
		stop(code)
	default:
		go func() {
			select {
			case code := <-signals:
				stop(code)
			case <-ctx.Done():
			}
		}()
	}
	err = run(ctx)
	return int(heard.Load()), err
}

// Writer fails its writes once Ctx is done, so that a renderer which
// knows no context stops at its next write.
type Writer struct {
	Ctx context.Context
	W   io.Writer
}

func (c Writer) Write(p []byte) (int, error) {
	if err := c.Ctx.Err(); err != nil {
		return 0, err
	}
	return c.W.Write(p)
}
