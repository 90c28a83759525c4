package bench

import (
	"slices"
	"testing"

	"github.com/mongobench/mongobench/internal/results"
)

// TestSpecOf: a results file's configuration gives back the workload its
// summary was printed for, with the percentiles every summary adds; a
// configuration that does not resolve gives none.
func TestSpecOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		config   map[string]string
		want     []float64
		intended bool
	}{
		{"defaults", map[string]string{"recordcount": "10", "operationcount": "10"}, []float64{50, 95, 99, 99.9, 99.99}, false},
		{"percentiles given", map[string]string{"recordcount": "10", "operationcount": "10", "hdrhistogram.percentiles": "90,99.99"}, []float64{90, 99.9, 99.99}, false},
		{"intended latency", map[string]string{"recordcount": "10", "operationcount": "10", "measurement.interval": "both"}, []float64{50, 95, 99, 99.9, 99.99}, true},
		{"does not resolve", map[string]string{"recordcount": "10", "operationcount": "10", "threadcount": "zero"}, nil, false},
		{"no recordcount", nil, nil, false},
	} {
		spec := SpecOf(&results.Results{Phase: results.PhaseRun, Config: tc.config})
		if tc.want == nil {
			if spec != nil {
				t.Errorf("%s: %+v, want none", tc.name, spec)
			}
			continue
		}
		if spec == nil || !slices.Equal(spec.Percentiles, tc.want) || spec.MeasureIntended != tc.intended {
			t.Errorf("%s: %+v, want percentiles %v and intended %v", tc.name, spec, tc.want, tc.intended)
		}
	}
}
