package report

import (
	"math"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/results"
)

func TestScheduledSeries(t *testing.T) {
	t.Parallel()
	ivs := []results.IntervalResult{{StartS: 0, EndS: 10}, {StartS: 10, EndS: 20}, {StartS: 20, EndS: 25}, {StartS: 25, EndS: 30}}
	tests := []struct {
		name   string
		config map[string]string
		want   []float64
	}{
		// 0 → 100/s over 10 s (500 ops), 100/s for 10 s, 100 → 0 over 10 s:
		// 250 in 20–25 s, 62.5 in 25–30 s.
		{"a ramp", map[string]string{"stages": "10s:100,10s:100,10s:0"}, []float64{50, 100, 75, 25}},
		{"-target", map[string]string{"target": "40"}, []float64{40, 40, 40, 40}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := scheduledSeries(&results.Results{Config: tt.config}, ivs)
			if !ok || len(s.points) != len(tt.want) || !s.dashed {
				t.Fatalf("%+v, %v", s, ok)
			}
			for i, w := range tt.want {
				if math.Abs(s.points[i].y-w) > 1e-9 || s.points[i].x != ivs[i].EndS {
					t.Errorf("point %d: %+v, want %v at %v", i, s.points[i], w, ivs[i].EndS)
				}
			}
		})
	}
	for _, c := range []map[string]string{{"threadcount": "4"}, {"target": "0"}, {"stages": "bad"}} {
		if _, ok := scheduledSeries(&results.Results{Config: c}, ivs); ok {
			t.Errorf("%v: a schedule drawn for a closed loop or a bad ramp", c)
		}
	}
}

// A run at -target draws the scheduled rate beside its throughput, and
// says what the dashed line is.
func TestScheduledOnThePage(t *testing.T) {
	t.Parallel()
	in := singleInput(t)
	in.Runs[0].Config["target"] = "1000"
	page := render(t, in)
	if !strings.Contains(page, "the dashed grey line is the rate the schedule asked for") || !strings.Contains(page, ">scheduled<") {
		t.Error("no scheduled rate on the page of a -target run")
	}
}
