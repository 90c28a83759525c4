package sweep

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
)

func TestSustained(t *testing.T) {
	t.Parallel()
	trial := func(tp float64, late, lagP50 int64, th []results.Threshold, partial bool) Trial {
		r := resultstest.Results(t, resultstest.Spec{Throughput: tp})
		r.Partial = partial
		r.ScheduleLag = &results.LatencyResult{PercentilesUs: map[string]int64{"50": lagP50}}
		started := int64(tp * 10)
		r.Extra = &results.Extra{Runner: &results.Runner{LateStarts: late, OperationsStarted: started}, Thresholds: th}
		return Trial{Trial: 1, Results: r}
	}
	met := []results.Threshold{{Threshold: "READ:p(99)<10ms", Pass: true}}
	missed := []results.Threshold{{Threshold: "READ:p(99)<10ms", Reason: "READ intended latency p(99) was 12ms, not <10ms"}}
	tests := []struct {
		name   string
		trials []Trial
		pass   bool
		why    string
	}{
		{"sustained, a few late starts", []Trial{trial(1000, 4000, 900, met, false)}, true, ""},
		{"the objective missed", []Trial{trial(1000, 0, 100, missed, false)}, false, "READ intended latency p(99) was 12ms, not <10ms"},
		{"achieved under 95%", []Trial{trial(940, 0, 100, met, false)}, false, "achieved 940 ops/s, under 95% of the target"},
		{"95% achieved is enough", []Trial{trial(950, 0, 100, met, false)}, true, ""},
		{"a backlog", []Trial{trial(1000, 9000, 10_001, met, false)}, false, "a backlog: the median operation started 10.0 ms behind schedule (9000 started late)"},
		{"a median lag of 10 ms is no backlog yet", []Trial{trial(1000, 9000, 10_000, met, false)}, true, ""},
		{"one trial of two fails", []Trial{trial(1000, 0, 100, met, false), trial(1000, 0, 100, missed, false)}, false, "12ms"},
		{"only a partial trial", []Trial{trial(1000, 0, 100, met, true)}, false, "no trial ran to its end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Sustained(PointResult{Trials: tt.trials}, 1000)
			if v.Pass != tt.pass || !strings.Contains(v.Why, tt.why) || (tt.pass && v.Why != "") {
				t.Errorf("%+v, want pass %v saying %q", v, tt.pass, tt.why)
			}
		})
	}
}
