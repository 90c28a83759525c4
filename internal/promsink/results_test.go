package promsink

import (
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
)

// TestRunOptions: a finished run's series are labelled with the run id
// its endpoint used, else its parts' run id, else its start; its
// workload is its -P files by base name.
func TestRunOptions(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name string
		r    results.Results
		want Options
	}{
		{"live id", results.Results{RunID: "live-1", Label: "a", Start: start,
			Command: []string{"mongobench", "run", "mongodb", "-P", "workloads/workloada", "-P=mine.properties"}},
			Options{Part: 0, Parts: 1, RunID: "live-1", Label: "a", Workload: "workloada+mine.properties"}},
		{"a part", results.Results{Start: start, Extra: &results.Extra{Part: &results.Part{Index: 2, Count: 4, RunID: "job-uid"}}},
			Options{Part: 2, Parts: 4, RunID: "job-uid"}},
		{"merged", results.Results{Start: start, Extra: &results.Extra{Merged: &results.Merged{RunID: "job-uid", Parts: 4}}},
			Options{Part: 0, Parts: 1, RunID: "job-uid"}},
		{"no id", results.Results{Start: start}, Options{Part: 0, Parts: 1, RunID: "20260102T030405Z"}},
	}
	for _, tt := range tests {
		if got := RunOptions(&tt.r); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestFromResults: a finished run's series hold its counts, its
// histograms' counts and sums, its target and its labels.
func TestFromResults(t *testing.T) {
	t.Parallel()
	r := resultstest.Results(t, resultstest.Spec{Label: "x", Throughput: 100, Errors: 3, Intended: true,
		LatencyUs: map[string]int64{"READ": 1000, "UPDATE": 2000}, Config: map[string]string{"target": "120"}})
	r.RunID = "run-7"
	s, err := FromResults(r, RunOptions(r))
	if err != nil {
		t.Fatal(err)
	}
	f := families{}
	for _, mf := range gather(t, s) {
		f[mf.GetName()] = mf
	}
	for op, counts := range r.Status {
		for st, n := range counts {
			m := f.find(OperationsName, map[string]string{"op": op, "status": st, RunIDLabel: "run-7", LabelLabel: "x"})
			if got := m.GetCounter().GetValue(); got != float64(n) {
				t.Errorf("%s %s: %v operations, want %d", op, st, got, n)
			}
		}
	}
	for _, mr := range r.Measurements {
		for name, lr := range map[string]*results.LatencyResult{LatencyName: mr.Service, IntendedLatencyName: mr.Intended} {
			h := f.find(name, map[string]string{"op": mr.Op, "outcome": "ok"}).GetHistogram()
			if h.GetSampleCount() != uint64(lr.Count) {
				t.Errorf("%s %s: %d samples, want %d", name, mr.Op, h.GetSampleCount(), lr.Count)
			}
			// The sum is of the histogram's values (µs, in seconds): the
			// mean it gives is the results' within the histogram's 3
			// significant digits.
			if mean := h.GetSampleSum() / float64(h.GetSampleCount()) * 1e6; mean < lr.MeanUs*0.999 || mean > lr.MeanUs*1.001 {
				t.Errorf("%s %s: mean %.1f µs, want %.1f", name, mr.Op, mean, lr.MeanUs)
			}
		}
	}
	if v := f.find(TargetRateName, nil).GetGauge().GetValue(); v != 120 {
		t.Errorf("target %v, want 120", v)
	}
	if v := f.find(RunningName, nil).GetGauge().GetValue(); v != 0 {
		t.Errorf("a finished run shows as running (%v)", v)
	}
	if v := f.find(AchievedRateName, nil).GetGauge().GetValue(); v != r.ThroughputOpsSec {
		t.Errorf("achieved %v, want the run's %v", v, r.ThroughputOpsSec)
	}
	r.Config["target"] = "fast"
	if _, err := FromResults(r, RunOptions(r)); err == nil {
		t.Error("a target that is no number was taken")
	}
}
