package interrupt

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

func TestWatch(t *testing.T) {
	t.Parallel()
	sigs := make(chan int, 1)
	w := New(sigs)
	defer w.Close()
	if w.Code() != 0 {
		t.Fatalf("code %d before any signal", w.Code())
	}
	sigs <- 143
	<-w.Stopped()
	if w.Code() != 143 {
		t.Errorf("code %d, want 143", w.Code())
	}
}

func TestWatchWithoutSignals(t *testing.T) {
	t.Parallel()
	w := New(nil)
	w.Close()
	w.Close() // twice is fine
	select {
	case <-w.Stopped():
		t.Error("stopped without a signal")
	default:
	}
}

func TestContextEndsOnStop(t *testing.T) {
	t.Parallel()
	stop := make(chan struct{})
	ctx, cancel := Context(context.Background(), stop)
	defer cancel()
	if ctx.Err() != nil {
		t.Fatal("ended before the stop")
	}
	close(stop)
	<-ctx.Done()
}

func TestRun(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	// No signals: run's own error, code 0.
	if code, err := Run(context.Background(), nil, func(context.Context) error { return boom }); code != 0 || err != boom {
		t.Errorf("no signals: %d, %v", code, err)
	}
	// A signal sent before Run: the context is cancelled before run starts.
	sigs := make(chan int, 1)
	sigs <- 130
	code, err := Run(context.Background(), sigs, func(ctx context.Context) error { return ctx.Err() })
	if code != 130 || !errors.Is(err, context.Canceled) {
		t.Errorf("signal before: %d, %v", code, err)
	}
	// A signal during the run cancels its context.
	sigs = make(chan int, 1)
	code, err = Run(context.Background(), sigs, func(ctx context.Context) error {
		sigs <- 143
		<-ctx.Done()
		return ctx.Err()
	})
	if code != 143 || !errors.Is(err, context.Canceled) {
		t.Errorf("signal during: %d, %v", code, err)
	}
	// No signal though one could come: code 0, run's result.
	code, err = Run(context.Background(), make(chan int), func(context.Context) error { return nil })
	if code != 0 || err != nil {
		t.Errorf("no signal: %d, %v", code, err)
	}
}

func TestWriter(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	w := Writer{Ctx: ctx, W: &buf}
	if n, err := w.Write([]byte("ab")); n != 2 || err != nil {
		t.Fatalf("write before the end: %d, %v", n, err)
	}
	cancel()
	if n, err := w.Write([]byte("cd")); n != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("write after the end: %d, %v", n, err)
	}
	if buf.String() != "ab" {
		t.Errorf("written %q, want %q", buf.String(), "ab")
	}
}
