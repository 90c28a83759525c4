package txnretry

import (
	"context"
	"testing"
	"time"
)

// TestBackoff: the ceiling doubles from Base to Max and stays there; a
// draw scales it.
func TestBackoff(t *testing.T) {
	t.Parallel()
	b := Backoff{Base: 5 * time.Millisecond, Max: 30 * time.Millisecond}
	for n, want := range map[int]time.Duration{1: 5 * time.Millisecond, 2: 10 * time.Millisecond, 3: 20 * time.Millisecond, 4: 30 * time.Millisecond, 40: 30 * time.Millisecond} {
		if got := b.Ceiling(n); got != want {
			t.Errorf("ceiling before retry %d: %v, want %v", n, got, want)
		}
	}
	if got := b.Wait(2, 0.25); got != 2500*time.Microsecond {
		t.Errorf("wait before retry 2 at draw 0.25: %v, want 2.5ms", got)
	}
}

// TestSleepStops: a stopped context ends the wait with its error.
func TestSleepStops(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, time.Hour); err != context.Canceled {
		t.Errorf("Sleep on a cancelled context: %v", err)
	}
	if err := Sleep(context.Background(), 0); err != nil {
		t.Errorf("Sleep(0): %v", err)
	}
}
