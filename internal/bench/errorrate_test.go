package bench

import (
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/measure"
)

// TestErrorRateRule feeds --max-error-rate's rule interval counts and
// checks at which interval, if any, it trips.
func TestErrorRateRule(t *testing.T) {
	t.Parallel()
	type iv struct{ ops, failed int64 }
	tests := []struct {
		name      string
		max       float64
		intervals []iv
		lastShort bool // the last interval is cut short by the phase's end
		tripAt    int  // index of the interval it trips on; -1 for never
	}{
		// The first handful of operations cannot trip it, whatever failed.
		{"first handful", 0.5, []iv{{3, 3}, {100, 1}, {100, 0}}, false, -1},
		{"over the rate", 0.5, []iv{{100, 0}, {40, 21}}, false, 1},
		// "More than F": exactly F goes on.
		{"exactly the rate", 0.5, []iv{{40, 20}, {40, 20}}, false, -1},
		// A slow run is judged over several intervals: 4 × 5 = 20.
		{"slow run", 0.5, []iv{{5, 5}, {5, 5}, {5, 5}, {5, 5}, {5, 5}}, false, 3},
		// A healthy window was judged and reset: the failures after it
		// are judged on their own.
		{"window restarts", 0.5, []iv{{20, 0}, {10, 10}, {10, 10}}, false, 2},
		// The healthy operations before the outage dilute it while they
		// are in the same window.
		{"diluted", 0.5, []iv{{15, 0}, {15, 10}}, false, -1},
		// The last interval is short: the phase ends anyway.
		{"short last interval", 0.5, []iv{{100, 0}, {100, 100}}, true, -1},
		// F = 1 stops only when more than all failed: never.
		{"rate one", 1, []iv{{100, 100}, {100, 100}}, false, -1},
		{"tiny rate", 0.01, []iv{{1000, 9}, {1000, 11}}, false, 1},
	}
	const interval = time.Second
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := NewErrorRateRule(tt.max, interval)
			got := -1
			for i, c := range tt.intervals {
				start := int64(i) * int64(interval)
				end := start + int64(interval)
				if tt.lastShort && i == len(tt.intervals)-1 {
					end = start + int64(interval)/3
				}
				if r.Observe(&measure.Interval{Index: i, StartNs: start, EndNs: end, Operations: c.ops, Failed: c.failed}) && got < 0 {
					got = i
				}
			}
			if got != tt.tripAt {
				t.Fatalf("tripped at interval %d, want %d", got, tt.tripAt)
			}
			v := r.Verdict()
			select {
			case <-r.Stop():
				if v == nil || v.Flag != "--max-error-rate" || v.Finished < MinRateOperations || float64(v.Failed) <= tt.max*float64(v.Finished) {
					t.Errorf("tripped with verdict %+v", v)
				}
			default:
				if v != nil {
					t.Errorf("verdict %+v without stopping the run", v)
				}
			}
		})
	}
	var none *ErrorRateRule // no --max-error-rate
	if none.Observe(&measure.Interval{EndNs: int64(interval), Operations: 100, Failed: 100}) || none.Stop() != nil || none.Verdict() != nil {
		t.Error("a nil rule must never trip")
	}
}
