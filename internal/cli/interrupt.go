package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
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

// stopContext is ctx, also ended when stop is closed: for the libraries'
// loops, which take a context rather than the stop channel.
func stopContext(ctx context.Context, stop <-chan struct{}) (context.Context, context.CancelFunc) {
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

// stopsOnSignal makes a command that measures nothing (it reads, adds up
// and writes) end on the first SIGINT or SIGTERM: its context is
// cancelled, its loops and any child process stop, and it exits with the
// signal's code. Such a command writes each output whole or not at all,
// and none once the signal is heard: there is no partial merge, report or
// comparison worth keeping.
func stopsOnSignal(name string, run func(context.Context, []string, Env) error) func(context.Context, []string, Env) error {
	return func(ctx context.Context, args []string, env Env) error {
		if env.Interrupt == nil {
			return run(ctx, args, env)
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var heard atomic.Int32
		stop := func(code int) {
			heard.Store(int32(code))
			cancel()
		}
		// A signal heard before the command starts stops it before its
		// first step, not at some later one.
		select {
		case code := <-env.Interrupt:
			stop(code)
		default:
			go func() {
				select {
				case code := <-env.Interrupt:
					stop(code)
				case <-ctx.Done():
				}
			}()
		}
		err := run(ctx, args, env)
		code := int(heard.Load())
		if code == 0 {
			return err
		}
		switch {
		case errors.Is(err, context.Canceled):
			return exitError{code, fmt.Errorf("%s: interrupted: nothing was written", name)}
		case err != nil:
			return exitError{code, fmt.Errorf("%s: interrupted: %w", name, err)}
		}
		// The signal came as the command finished: what it wrote is whole.
		return exitError{code, fmt.Errorf("%s: interrupted as it finished: what it wrote is whole", name)}
	}
}

// ctxWriter fails its writes once ctx is done, so that a renderer which
// knows no context stops at its next write.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
