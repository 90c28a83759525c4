package analysis

import (
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/results/resultstest"
)

// TestHistoryOf: a throughput that drops by a fifth from run 16 of 30 is
// found changed at run 16, by about that much; the READ p99, whose
// synthetic latencies move by a third of a percent with the count of
// operations and have no noise, changes by no more than that.
func TestHistoryOf(t *testing.T) {
	t.Parallel()
	var runs []Run
	for i := 1; i <= 30; i++ {
		tput := 1000 + float64(i%3)*10
		if i >= 16 {
			tput *= 0.8
		}
		r := resultstest.Results(t, resultstest.Spec{Throughput: tput})
		r.Start = r.Start.Add(time.Duration(i) * time.Hour)
		runs = append(runs, NewRun(r, "synthetic", int64(i)))
	}
	series, err := HistoryOf(runs)
	if err != nil {
		t.Fatal(err)
	}
	if len(series) != 2 || series[0].Name != "throughput" || series[1].Name != "READ p99 (us)" {
		t.Fatalf("series %+v", series)
	}
	tp := series[0]
	if len(tp.Changes) != 1 || tp.IDs[tp.Changes[0].Index] != 16 || tp.Changes[0].Rel() > -0.15 {
		t.Errorf("throughput changes %+v, want one at run 16 of about -20%%", tp.Changes)
	}
	for _, c := range series[1].Changes {
		if r := c.Rel(); r > 0.01 || r < -0.01 {
			t.Errorf("READ p99 change %+v: %.1f%%, want within 1%%", c, 100*r)
		}
	}
}
