package results

import (
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
)

// clientResults is the run of one client machine: reads of the given
// latencies, all OK, over 10 s from start, in one interval.
func clientResults(t *testing.T, start time.Time, label string, config map[string]string, reads []int64) *Results {
	t.Helper()
	h := hist(t, reads...)
	ls := measure.Summarize(h)
	s := &measure.Summary{
		EndNs:        10 * int64(time.Second),
		Start:        start,
		End:          start.Add(10 * time.Second),
		Operations:   int64(len(reads)),
		Measurements: []measure.Measurement{{Name: "READ", Op: db.Read, Service: h}},
		RecordStalls: 1,
		// Each read started as many µs behind schedule as it took.
		ScheduleLag: hist(t, reads...),
		Intervals: []measure.IntervalStats{{
			EndNs: 10 * int64(time.Second), Operations: int64(len(reads)), OpsPerSec: float64(len(reads)) / 10,
			Measurements: []measure.MeasurementStats{{Name: "READ", Op: db.Read, Service: &ls}},
		}},
	}
	s.Status[db.Read][db.OK] = int64(len(reads))
	r, err := NewResults(s, Meta{Tool: Tool{Name: "mongobench"}, Label: label, Phase: PhaseRun, Config: config})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestMerge(t *testing.T) {
	t.Parallel()
	// Two clients split the reads 1..1000 µs between them; the second
	// started 200 ms later.
	a := clientResults(t, testStart, "sweep", map[string]string{"threadcount": "8", "insertstart": "0"}, span(1, 999, 2))
	b := clientResults(t, testStart.Add(200*time.Millisecond), "sweep", map[string]string{"threadcount": "8", "insertstart": "500"}, span(2, 1000, 2))
	b.Partial = true
	m, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Summary()
	if err != nil {
		t.Fatal(err)
	}
	// The merged histogram is exactly the one of all the reads.
	if want := hist(t, span(1, 1000, 1)...); !s.Measurements[0].Service.Equals(want) {
		t.Error("merged READ histogram differs from the histogram of all reads")
	}
	if want := hist(t, span(1, 1000, 1)...); !s.ScheduleLag.Equals(want) {
		t.Error("merged schedule lag differs from the lag of all reads")
	}
	read := m.Measurements[0].Service
	if read.Count != 1000 || read.PercentilesUs["50"] != 500 || read.PercentilesUs["99.9"] != 999 || read.MeanUs != 500.5 {
		t.Errorf("merged READ %+v", read)
	}
	if m.Operations != 1000 || m.Status["READ"]["OK"] != 1000 || m.RecordStalls != 2 {
		t.Errorf("operations %d, status %v, stalls %d", m.Operations, m.Status, m.RecordStalls)
	}
	if !m.Start.Equal(testStart) || m.End.Sub(m.Start) != 10200*time.Millisecond || m.RuntimeMs != 10200 {
		t.Errorf("span %v..%v (%d ms), want 10.2 s from the first start", m.Start, m.End, m.RuntimeMs)
	}
	if m.Label != "sweep" || !m.Partial || m.Phase != PhaseRun {
		t.Errorf("label %q partial %v phase %q", m.Label, m.Partial, m.Phase)
	}
	if len(m.Config) != 1 || m.Config["threadcount"] != "8" {
		t.Errorf("config %v, want only what both parts share", m.Config)
	}
	if m.Extra == nil || len(m.Extra.MergedFrom) != 2 || m.Extra.MergedFrom[0].Operations != a.Operations ||
		!m.Extra.MergedFrom[1].Start.Equal(b.Start) || m.Extra.MergedFrom[1].Label != "sweep" {
		t.Errorf("extra %+v, want the two parts listed in order", m.Extra)
	}
	// Intervals combine by index: counts and rates add up, the mean is the
	// weighted mean, percentiles are left out.
	iv := m.Intervals[0]
	if iv.Operations != 1000 || iv.OpsPerSec != 100 || iv.StartS != 0 || iv.EndS != 10.2 {
		t.Errorf("interval %+v", iv)
	}
	is := iv.Measurements[0].Service
	if is.Count != 1000 || is.MinUs != 1 || is.MaxUs != 1000 || is.MeanUs != 500.5 || is.PercentilesUs != nil {
		t.Errorf("interval READ %+v", is)
	}
}

func TestMergeIsExactForWideBuckets(t *testing.T) {
	t.Parallel()
	// Values in wide buckets, unevenly split: an average of the parts'
	// percentiles would be wrong, the merged histogram is not.
	slow := span(100_000, 900_000, 7919)
	fast := span(10, 2000, 3)
	a := clientResults(t, testStart, "", nil, slow)
	b := clientResults(t, testStart, "", nil, fast)
	m, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	all := hist(t, append(append([]int64{}, slow...), fast...)...)
	want := measure.Percentiles(all, measure.StandardPercentiles[:])
	for i, p := range measure.StandardPercentiles {
		if got := m.Measurements[0].Service.PercentilesUs[measure.PercentileKey(p)]; got != want[i] {
			t.Errorf("p%v = %d, want %d", p, got, want[i])
		}
	}
}

func TestMergeErrors(t *testing.T) {
	t.Parallel()
	run := clientResults(t, testStart, "", nil, []int64{5})
	load := clientResults(t, testStart, "", nil, []int64{5})
	load.Phase = PhaseLoad
	broken := clientResults(t, testStart, "", nil, []int64{5})
	broken.Measurements[0].Service.Histogram = "HISTFAAAAB!"
	tests := []struct {
		name  string
		parts []*Results
		want  string
	}{
		{"nothing", nil, "no results"},
		{"phases differ", []*Results{run, load}, `part 2 is a "load" phase`},
		{"broken histogram", []*Results{run, broken}, "part 2"},
	}
	for _, tt := range tests {
		if _, err := Merge(tt.parts...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}
