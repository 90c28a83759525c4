package analysis

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
)

// TestFindMaxVerdictOf: the answer is the highest target sustained below
// the lowest one failed, a target failing when any of its trials missed
// a threshold, achieved under 95% of it or fell behind its schedule.
func TestFindMaxVerdictOf(t *testing.T) {
	t.Parallel()
	trial := func(target, achieved float64, pass bool, lagUs int64) *results.Results {
		r := resultstest.Results(t, resultstest.Spec{Throughput: achieved, Intended: true})
		r.Extra = &results.Extra{
			Thresholds: []results.Threshold{{Threshold: "READ:p(99)<10ms", Pass: pass, Reason: "READ intended latency p(99) 12 ms, not < 10 ms"}},
			Sweep:      &results.SweepMark{FindMax: true},
		}
		r.ScheduleLag = &results.LatencyResult{Count: 1, PercentilesUs: map[string]int64{"50": lagUs}}
		return r
	}
	ok := func(target float64) *results.Results { return trial(target, target, true, 100) }
	tests := []struct {
		name     string
		byTarget map[float64][]*results.Results
		want     string
	}{
		{"bracketed", map[float64][]*results.Results{
			100: {ok(100)}, 200: {ok(200)}, 300: {ok(300), ok(300), ok(300)}, 350: {trial(350, 350, false, 100)}, 400: {trial(400, 400, false, 100)},
		}, "sustains 300–350 ops/s at READ:p(99)<10ms"},
		{"a confirmation failed", map[float64][]*results.Results{
			100: {ok(100)}, 200: {ok(200), trial(200, 200, false, 100)}, 400: {trial(400, 400, false, 100)},
		}, "sustains 100–200 ops/s"},
		{"achieved too little", map[float64][]*results.Results{
			100: {ok(100)}, 200: {trial(200, 180, true, 100)},
		}, "sustains 100–200 ops/s"},
		{"a backlog", map[float64][]*results.Results{
			100: {ok(100)}, 200: {trial(200, 200, true, 20_000)},
		}, "sustains 100–200 ops/s"},
		{"every rate held", map[float64][]*results.Results{100: {ok(100)}, 200: {ok(200)}}, "sustains at least 200 ops/s, the most tried"},
		{"none held", map[float64][]*results.Results{100: {trial(100, 100, false, 100)}, 200: {trial(200, 200, false, 100)}}, "sustains no rate tried: even 100 ops/s failed"},
	}
	for _, tt := range tests {
		v := FindMaxVerdictOf(tt.byTarget)
		if !strings.HasPrefix(v.Text, tt.want) || !strings.HasSuffix(v.Text, "(achieved >= 95% of the target, median schedule lag <= 10 ms)") {
			t.Errorf("%s: %q, want it to start %q", tt.name, v.Text, tt.want)
		}
	}
	if why := Unsustained(trial(200, 200, true, 20_000), 200); !strings.Contains(why, "20.0 ms behind schedule") {
		t.Errorf("a backlog: %q", why)
	}
}
