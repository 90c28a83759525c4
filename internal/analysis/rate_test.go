package analysis

import (
	"testing"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
)

// TestRateVerdict judges rate sweeps on recorded figures: the sweep of
// the issue that asked for it (targets 50 to 400, where 200 was missed),
// one of a busy two-core machine with the embedded server (a target
// missed by late starts while the rate was kept, and one held above it),
// and sweeps that kept every target or none.
func TestRateVerdict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		pts        []RatePoint
		held, miss int
		heldAbove  int
		text       string
	}{
		{"the issue's sweep: 200 missed",
			[]RatePoint{
				{Target: 100, Achieved: 99.9, LateStarts: 3, Operations: 1000, IntendedP99: 67_000, Trials: 1},
				{Target: 50, Achieved: 50, LateStarts: 0, Operations: 1000, IntendedP99: 12_000, Trials: 1},
				{Target: 200, Achieved: 185, LateStarts: 574, Operations: 1000, IntendedP99: 1_180_000, Trials: 1},
				{Target: 400, Achieved: 190, LateStarts: 990, Operations: 1000, IntendedP99: 3_400_000, Trials: 1},
			},
			1, 2, 0,
			"kept up to 100 ops/s (99.9 ops/s achieved); at 200 ops/s only 185 ops/s were achieved (93%), 574 operations (57%) started late and intended p99 reached 1.18 s (67.0 ms at 100 ops/s)"},
		{"recorded on a busy machine: late starts at 1,000 while the rate was kept",
			[]RatePoint{
				{Target: 500, Achieved: 500.25, LateStarts: 62, Operations: 2000, IntendedP99: 15_183, Trials: 1},
				{Target: 1000, Achieved: 507.87, LateStarts: 1789, Operations: 2000, IntendedP99: 1_909_759, Trials: 1},
				{Target: 2000, Achieved: 376.93, LateStarts: 1999, Operations: 2000, IntendedP99: 4_280_319, Trials: 1},
			},
			0, 1, 0,
			"kept up to 500 ops/s (500 ops/s achieved); at 1,000 ops/s only 508 ops/s were achieved (51%), 1,789 operations (89%) started late and intended p99 reached 1.91 s (15.2 ms at 500 ops/s)"},
		{"a miss held again above",
			[]RatePoint{
				{Target: 250, Achieved: 250.09, LateStarts: 876, Operations: 2000, IntendedP99: 160_383, Trials: 1},
				{Target: 500, Achieved: 500.25, LateStarts: 62, Operations: 2000, IntendedP99: 15_183, Trials: 1},
			},
			-1, 0, 1,
			"kept none of the targets: at 250 ops/s the rate was reached (250 ops/s) but 876 operations (44%) started late and intended p99 reached 160 ms; yet 1 target above it held: the miss may be the noise of a busy machine rather than a limit, repeat the sweep (--repeat 3) to tell"},
		{"every target kept",
			[]RatePoint{
				{Target: 50, Achieved: 50.1, Operations: 400, IntendedP99: 4_627, Trials: 1},
				{Target: 400, Achieved: 401, LateStarts: 27, Operations: 400, IntendedP99: 6_431, Trials: 1},
				{Target: 0, Achieved: 1500, Operations: 400, Trials: 1},
			},
			1, -1, 0,
			"kept every target up to 400 ops/s (401 ops/s achieved, 6.8% of operations started late); intended p99 went from 4.63 ms to 6.43 ms"},
		{"short by more than the tolerance, with no late start",
			[]RatePoint{
				{Target: 100, Achieved: 94.9, Operations: 1000, Trials: 2},
				{Target: 200, Achieved: 150, Operations: 1000, Trials: 2},
			},
			-1, 0, 0,
			"kept none of the targets: at 100 ops/s only 94.9 ops/s were achieved (94%), 0 operations started late"},
		{"one target",
			[]RatePoint{{Target: 100, Achieved: 100, Operations: 1000, Trials: 1}},
			-1, -1, 0,
			"no rate verdict: a rate sweep needs at least two targets above 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := RateVerdictOf(tt.pts)
			if v.Held != tt.held || v.Missed != tt.miss || v.HeldAbove != tt.heldAbove {
				t.Errorf("held %d, missed %d, held above %d; want %d, %d, %d", v.Held, v.Missed, v.HeldAbove, tt.held, tt.miss, tt.heldAbove)
			}
			if v.Text != tt.text {
				t.Errorf("text\n got %q\nwant %q", v.Text, tt.text)
			}
		})
	}
}

// TestRatePointHeld checks the thresholds at their edges.
func TestRatePointHeld(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p    RatePoint
		want bool
	}{
		{RatePoint{Target: 100, Achieved: 95, Operations: 100, LateStarts: 10}, true},
		{RatePoint{Target: 100, Achieved: 94.9, Operations: 100}, false},
		{RatePoint{Target: 100, Achieved: 100, Operations: 100, LateStarts: 11}, false},
		{RatePoint{Target: 100, Achieved: 100}, true},
	}
	for _, tt := range tests {
		if got := tt.p.Held(); got != tt.want {
			t.Errorf("%+v held = %v, want %v", tt.p, got, tt.want)
		}
	}
}

// TestRatePointOf checks that a point's figures are the means over its
// trials: the rate achieved, late starts, operations started and the p99
// of intended latency over all operations.
func TestRatePointOf(t *testing.T) {
	t.Parallel()
	trial := func(tput float64, late, started int64) *results.Results {
		r := resultstest.Results(t, resultstest.Spec{Throughput: tput, Intended: true, LatencyUs: map[string]int64{"READ": 500_000}})
		r.Extra = &results.Extra{Runner: &results.Runner{LateStarts: late, OperationsStarted: started}}
		return r
	}
	p := RatePointOf(200, []*results.Results{trial(180, 500, 1800), trial(190, 600, 1900), nil})
	// Intended latencies run from 1 s to 2 s: their p99 is 1.99 s, within
	// the histogram's three digits.
	if p.Target != 200 || p.Trials != 2 || p.Achieved != 185 || p.LateStarts != 550 || p.Operations != 1850 {
		t.Errorf("point %+v: want target 200, 2 trials, 185 ops/s, 550 late of 1850", p)
	}
	if p.IntendedP99 < 1_980_000 || p.IntendedP99 > 2_000_000 {
		t.Errorf("intended p99 %v µs, want about 1.99 s", p.IntendedP99)
	}
	if p.Held() {
		t.Error("185 of 200 ops/s with 30% late starts counted as held")
	}
}

// TestRateShortfallShare checks that a rate short of the tolerance never
// reads as within it: 189 of 200 ops/s (94.5%) is "94%", not "95%".
func TestRateShortfallShare(t *testing.T) {
	t.Parallel()
	got := missedText(RatePoint{Target: 200, Achieved: 189, Operations: 400, LateStarts: 126, IntendedP99: 123_519, Trials: 1})
	want := "at 200 ops/s only 189 ops/s were achieved (94%), 126 operations (32%) started late and intended p99 reached 124 ms"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
