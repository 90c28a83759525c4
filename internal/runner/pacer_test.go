package runner

import (
	"slices"
	"testing"
	"time"
)

func TestConstantPacer(t *testing.T) {
	t.Parallel()
	p, err := NewConstantPacer(3)
	if err != nil {
		t.Fatal(err)
	}
	// A third of a second apart, computed from i alone: operation 3·10⁹
	// is due at exactly 10⁹ s, with no rounding carried from earlier ones.
	for i, want := range map[int64]time.Duration{0: 0, 1: 333333333, 3: time.Second, 3_000_000_000: 1_000_000_000 * time.Second} {
		if got := p.Due(i); got != want {
			t.Errorf("Due(%d) = %d, want %d", i, got, want)
		}
	}
	if p.Rate(7) != 3 {
		t.Errorf("Rate = %g, want 3", p.Rate(7))
	}
	for _, bad := range []float64{0, -1, 1 / zero(), -1 / zero()} {
		if _, err := NewConstantPacer(bad); err == nil {
			t.Errorf("NewConstantPacer(%g) accepted", bad)
		}
	}
}

func zero() float64 { return 0 }

// stepPacer runs its first operations at one rate and the rest at
// another: a two-step ramp.
type stepPacer struct {
	first      int64
	slow, fast time.Duration // between operations
}

func (p stepPacer) Due(i int64) time.Duration {
	if i <= p.first {
		return time.Duration(i) * p.slow
	}
	return time.Duration(p.first)*p.slow + time.Duration(i-p.first)*p.fast
}

func (p stepPacer) Rate(i int64) float64 {
	if i < p.first {
		return float64(time.Second) / float64(p.slow)
	}
	return float64(time.Second) / float64(p.fast)
}

// TestPacerDrivesTheSchedule: a phase given a Pacer waits for the due
// times it says, whoever runs each operation, on the fake clock.
func TestPacerDrivesTheSchedule(t *testing.T) {
	t.Parallel()
	const ms = time.Millisecond
	p := newPhase(t, true, 3, 8, 0)
	p.cfg.Pacer = stepPacer{first: 4, slow: 10 * ms, fast: 2 * ms}
	res, sum := p.run(t)
	if res.Started != 8 || sum.Operations != 8 {
		t.Fatalf("started %d, recorded %d; want 8", res.Started, sum.Operations)
	}
	dues := p.clock.waitedFor()
	slices.Sort(dues)
	want := []int64{0, 10, 20, 30, 40, 42, 44, 46}
	for i := range want {
		want[i] *= int64(ms)
	}
	if !slices.Equal(dues, want) {
		t.Errorf("due times %v, want %v", dues, want)
	}
}
