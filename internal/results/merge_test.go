package results

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
)

// partResults is part index of count of run "r1": reads of the given
// latencies, all OK, over 10 s from start, in one interval.
func partResults(t testing.TB, index, count int, start time.Time, config map[string]string, reads []int64) *Results {
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
		ScheduleLag:  hist(t, reads...),
		ErrorWindows: []measure.ErrorWindow{{StartNs: int64(time.Second), EndNs: 2 * int64(time.Second), Errors: 1}},
		Intervals: []measure.IntervalStats{{
			EndNs: 10 * int64(time.Second), Operations: int64(len(reads)), OpsPerSec: float64(len(reads)) / 10,
			Measurements: []measure.MeasurementStats{{Name: "READ", Op: db.Read, Service: &ls}},
		}},
	}
	s.Status[db.Read][db.OK] = int64(len(reads))
	whole := Share{OperationCount: 1000, Target: 100}
	r, err := NewResults(s, Meta{Tool: Tool{Name: "mongobench"}, Label: "sweep", Phase: PhaseRun, Config: config,
		Extra: &Extra{
			Runner: &Runner{OperationsStarted: int64(len(reads)), MeasuredOperations: int64(len(reads)), LateStarts: 2},
			Part:   &Part{Index: index, Count: count, RunID: "r1", Whole: whole, StartAt: testStart, Sync: "barrier"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestMerge(t *testing.T) {
	t.Parallel()
	// Two parts split the reads 1..1000 µs between them; the second
	// started 200 ms later, and has a seed of its own.
	a := partResults(t, 0, 2, testStart, map[string]string{"threadcount": "8", "seed": "1"}, span(1, 999, 2))
	b := partResults(t, 1, 2, testStart.Add(200*time.Millisecond), map[string]string{"threadcount": "8", "seed": "2"}, span(2, 1000, 2))
	b.Partial = true
	// In any order: the parts are listed by index.
	m, err := Merge(b, a)
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
		t.Errorf("config %v, want what both parts share, without their own seeds", m.Config)
	}
	x := m.Extra
	if x == nil || len(x.MergedFrom) != 2 || x.MergedFrom[0].Part != 0 || x.MergedFrom[0].Operations != a.Operations ||
		x.MergedFrom[0].Source != "argument 2" || !x.MergedFrom[1].Start.Equal(b.Start) || x.MergedFrom[1].Label != "sweep" {
		t.Fatalf("extra %+v, want the two parts listed by index", x)
	}
	if x.Merged == nil || *x.Merged != (Merged{RunID: "r1", Parts: 2, StartSkewMs: 200, StartAt: testStart}) {
		t.Errorf("merged %+v, want run r1 of 2 parts, 200 ms apart", x.Merged)
	}
	if x.Part != nil || x.Runner == nil || x.OperationsStarted != 1000 || x.LateStarts != 4 {
		t.Errorf("part %+v runner %+v: want no part, the runners' counts added", x.Part, x.Runner)
	}
	// The error windows on the common start: one at 1 s, one at 1.2 s.
	if len(m.ErrorWindows) != 2 || m.ErrorWindows[0].StartS != 1 || m.ErrorWindows[1].StartS != 1.2 {
		t.Errorf("error windows %+v", m.ErrorWindows)
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
	// The merged results are results like any other: they write and read.
	var buf bytes.Buffer
	if err := WriteJSON(&buf, m); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadJSON(&buf); err != nil {
		t.Errorf("merged results do not read back: %v", err)
	}
}

func TestMergeIsExactForWideBuckets(t *testing.T) {
	t.Parallel()
	// Values in wide buckets, unevenly split: an average of the parts'
	// percentiles would be wrong, the merged histogram is not.
	slow := span(100_000, 900_000, 7919)
	fast := span(10, 2000, 3)
	a := partResults(t, 0, 2, testStart, nil, slow)
	b := partResults(t, 1, 2, testStart, nil, fast)
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

func TestMergeRefuses(t *testing.T) {
	t.Parallel()
	part := func(index, count int, edit func(*Results)) *Results {
		r := partResults(t, index, count, testStart, map[string]string{"threadcount": "8", "seed": "7"}, []int64{5})
		if edit != nil {
			edit(r)
		}
		return r
	}
	p0 := part(0, 2, nil)
	tests := []struct {
		name  string
		parts []*Results
		want  string
	}{
		{"nothing", nil, "no results"},
		{"not a part", []*Results{p0, part(1, 2, func(r *Results) { r.Extra.Part = nil })},
			"argument 2 is not a part of a partitioned run"},
		{"other run", []*Results{p0, part(1, 2, func(r *Results) { r.Extra.Part.RunID = "r2" })},
			`argument 1 and argument 2 are parts of different runs: run id "r2", not "r1"`},
		{"other phase", []*Results{p0, part(1, 2, func(r *Results) { r.Phase = PhaseLoad })},
			"a load phase, not a run phase"},
		{"other count", []*Results{p0, part(1, 3, nil)}, "3 parts, not 2"},
		{"other whole", []*Results{p0, part(1, 2, func(r *Results) { r.Extra.Part.Whole.OperationCount = 5 })}, "the whole run is"},
		{"other label", []*Results{p0, part(1, 2, func(r *Results) { r.Label = "x" })}, `label "x", not "sweep"`},
		{"other config", []*Results{p0, part(1, 2, func(r *Results) { r.Config["threadcount"] = "16" })}, "threadcount=16, not 8"},
		{"config missing", []*Results{p0, part(1, 2, func(r *Results) { delete(r.Config, "threadcount") })}, "threadcount is not set"},
		{"config added", []*Results{p0, part(1, 2, func(r *Results) { r.Config["target"] = "5" })}, "target=5 is set"},
		{"twice", []*Results{p0, part(0, 2, nil)}, "argument 1 and argument 2 are both part 0"},
		{"missing", []*Results{part(1, 4, nil), part(3, 4, nil)}, `parts 0, 2 are missing of the 4 parts of run "r1"`},
		{"one missing", []*Results{p0}, "part 1 is missing"},
		{"broken histogram", []*Results{p0, part(1, 2, func(r *Results) { r.Measurements[0].Service.Histogram = "HISTFAAAAB!" })},
			"argument 2"},
	}
	for _, tt := range tests {
		if _, err := Merge(tt.parts...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// syntheticParts are count parts of one run as their files hold them:
// reads and updates with latencies spread over three decades.
func syntheticParts(b *testing.B, count int) [][]byte {
	b.Helper()
	files := make([][]byte, count)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range files {
		reads, updates := make([]int64, 2000), make([]int64, 200)
		for j := range reads {
			reads[j] = 100 + r.Int64N(100_000)
		}
		for j := range updates {
			updates[j] = 200 + r.Int64N(1_000_000)
		}
		p := partResults(b, i, count, testStart.Add(time.Duration(i)*time.Millisecond), map[string]string{"seed": fmt.Sprint(i)}, reads)
		u := hist(b, updates...)
		ur, err := histogramResult(u)
		if err != nil {
			b.Fatal(err)
		}
		p.Measurements = append(p.Measurements, MeasurementResult{Name: "UPDATE", Op: "UPDATE", Service: ur, Intended: ur})
		p.Status["UPDATE"] = map[string]int64{"OK": int64(len(updates))}
		p.Operations += int64(len(updates))
		var buf bytes.Buffer
		if err := WriteJSON(&buf, p); err != nil {
			b.Fatal(err)
		}
		files[i] = buf.Bytes()
	}
	return files
}

// BenchmarkMerge1000Parts merges 1,000 parts' results files as the merge
// command does: each read, added and dropped in turn.
func BenchmarkMerge1000Parts(b *testing.B) {
	files := syntheticParts(b, 1000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m := NewMerger()
		for i, f := range files {
			r, err := ReadJSON(bytes.NewReader(f))
			if err != nil {
				b.Fatal(err)
			}
			if err := m.Add(fmt.Sprint(i), r); err != nil {
				b.Fatal(err)
			}
		}
		res, err := m.Results()
		if err != nil {
			b.Fatal(err)
		}
		if res.Operations != 1000*2200 {
			b.Fatalf("%d operations", res.Operations)
		}
	}
}

// TestMergeAlignsALatePart: a part that started a whole interval after the
// others (past its --start-at) adds its intervals where they were in time.
func TestMergeAlignsALatePart(t *testing.T) {
	t.Parallel()
	a := partResults(t, 0, 3, testStart, nil, span(1, 100, 1))
	b := partResults(t, 1, 3, testStart.Add(40*time.Millisecond), nil, span(1, 200, 1))
	c := partResults(t, 2, 3, testStart.Add(10*time.Second), nil, span(1, 300, 1))
	m, err := Merge(a, b, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Intervals) != 2 {
		t.Fatalf("%d intervals, want 2: %+v", len(m.Intervals), m.Intervals)
	}
	// a and b within 40 ms of each other share interval 0; c's first
	// interval is the whole's second.
	if m.Intervals[0].Operations != 300 || m.Intervals[1].Operations != 300 ||
		m.Intervals[1].StartS != 10 || m.Intervals[1].EndS != 20 || m.Intervals[0].EndS != 10.04 {
		t.Errorf("intervals %+v", m.Intervals)
	}
	if m.Extra.Merged.StartSkewMs != 10000 {
		t.Errorf("start skew %v ms, want 10000", m.Extra.Merged.StartSkewMs)
	}
}
