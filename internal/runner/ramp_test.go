package runner

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/workload"
)

func stages(t *testing.T, v string) []workload.Stage {
	t.Helper()
	st, err := workload.ParseStages(v)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestRampPacer: due times on fixed ramps, worked out by hand from the
// integral of the rate.
func TestRampPacer(t *testing.T) {
	t.Parallel()
	// 0 → 100/s over 10 s (500 operations: i is due at √(i/5) s), then
	// 100/s for 10 s (1,000 more), then 100 → 0 over 10 s (500 more).
	p, err := NewRampPacer(stages(t, "10s:100,10s:100,10s:0"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Total() != 2000 || p.Duration() != 30*time.Second {
		t.Fatalf("total %d over %v, want 2000 over 30s", p.Total(), p.Duration())
	}
	sec := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	for _, tc := range []struct {
		i    int64
		want time.Duration
	}{
		{0, 0},
		{5, sec(1)},                          // 5 = 5·1²
		{125, sec(5)},                        // 5·5²
		{500, sec(10)},                       // the end of the climb
		{1000, sec(15)},                      // 500 at 100/s
		{1500, sec(20)},                      // the start of the descent
		{1875, sec(20 + 10 - math.Sqrt(25))}, // 125 left: 5·τ'² with τ' = 5 s before the end
		{1999, sec(30 - math.Sqrt(1.0/5))},
		{2000, sec(30)}, // past the ramp: its end
		{5000, sec(30)},
	} {
		got := p.Due(tc.i)
		if d := got - tc.want; d < -time.Microsecond || d > time.Microsecond {
			t.Errorf("Due(%d) = %v, want %v", tc.i, got, tc.want)
		}
	}
	// The rate at the due times: 50/s half-way up, 100 on the flat, 1
	// (the floor) at the very end.
	if r := p.Rate(125); math.Abs(r-50) > 1e-6 {
		t.Errorf("Rate(125) = %v, want 50", r)
	}
	if r := p.Rate(1000); r != 100 {
		t.Errorf("Rate(1000) = %v, want 100", r)
	}
	if r := p.Rate(2000); r != 1 {
		t.Errorf("Rate(2000) = %v, want the floor 1", r)
	}
	// Non-decreasing everywhere.
	prev := time.Duration(-1)
	for i := range int64(2100) {
		d := p.Due(i)
		if d < prev {
			t.Fatalf("Due(%d) = %v < Due(%d) = %v", i, d, i-1, prev)
		}
		prev = d
	}
	// A pause (0 → 0) schedules nothing: the next stage climbs from 0
	// after it.
	q, err := NewRampPacer(stages(t, "5s:0,10s:100"))
	if err != nil {
		t.Fatal(err)
	}
	if q.Total() != 500 || q.Due(0) != sec(5) || q.Due(5) != sec(6) {
		t.Errorf("after a pause: total %d, Due(0) %v, Due(5) %v; want 500, 5s, 6s", q.Total(), q.Due(0), q.Due(5))
	}
	if _, err := NewRampPacer(stages(t, "1s:0.5")); err == nil {
		t.Error("a ramp of a quarter of an operation accepted")
	}
}

// TestRampOnTheFakeClock: a phase paced by a ramp waits for the ramp's due
// times; a worker whose calls outlast the climbing rate's gaps starts
// late, and each such start is counted.
func TestRampOnTheFakeClock(t *testing.T) {
	t.Parallel()
	const ms = time.Millisecond
	// 0 → 1000/s over 20 ms: 10 operations, i due at √(i/50000) s.
	ramp, err := NewRampPacer(stages(t, "20ms:1000"))
	if err != nil {
		t.Fatal(err)
	}
	if ramp.Total() != 10 {
		t.Fatalf("total %d", ramp.Total())
	}
	p := newPhase(t, true, 1, ramp.Total(), 0)
	p.cfg.Pacer = ramp
	// 2.5 ms per call: on time while the gaps are longer, late once the
	// rate passes 400/s.
	p.db.service = 2500 * time.Microsecond
	res, sum := p.run(t)
	if res.Started != 10 || sum.Operations != 10 {
		t.Fatalf("started %d, recorded %d; want 10", res.Started, sum.Operations)
	}
	// The worker waits for operation i at max(due(i), end of i−1).
	var want []int64
	free := int64(0)
	late := int64(0)
	for i := range int64(10) {
		due := int64(ramp.Due(i))
		start := max(due, free)
		if start-due > int64(ms) {
			late++
		}
		want = append(want, due)
		free = start + int64(2500*time.Microsecond)
	}
	dues := p.clock.waitedFor()
	slices.Sort(dues)
	if !slices.Equal(dues, want) {
		t.Errorf("waited for %v, want the ramp's due times %v", dues, want)
	}
	if res.LateStarts != late || late == 0 {
		t.Errorf("%d late starts, want %d (and some)", res.LateStarts, late)
	}
}
