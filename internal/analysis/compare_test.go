package analysis

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/stats"
)

// TestPairRuns checks how groups are paired: point by point for sweeps,
// whole otherwise, warm-ups left out.
func TestPairRuns(t *testing.T) {
	t.Parallel()
	run := func(point string, warm bool) Run {
		if point == "" {
			return Run{Res: &results.Results{}}
		}
		return Run{Res: &results.Results{}, Mark: &results.SweepMark{ID: "s", Varied: []string{"threadcount"}, Point: map[string]string{"threadcount": point}, Warmup: warm}}
	}
	tests := []struct {
		name      string
		a, b      []Run
		sets      []string // point: runs of A / runs of B
		noteParts []string
	}{
		{"lone runs", []Run{run("", false)}, []Run{run("", false), run("", false)}, []string{":1/2"}, nil},
		{"same points", []Run{run("1", false), run("2", false)}, []Run{run("1", false), run("2", false)}, []string{"threadcount=1:1/1", "threadcount=2:1/1"}, nil},
		// Only the shared point is compared; the others are named.
		{"overlap", []Run{run("1", false), run("2", false)}, []Run{run("2", false), run("4", false)}, []string{"threadcount=2:1/1"},
			[]string{"threadcount=1 is only in A", "threadcount=4 is only in B"}},
		{"warm-up left out", []Run{run("1", true), run("1", false)}, []Run{run("1", false)}, []string{"threadcount=1:1/1"}, []string{"1 warm-up run(s) of A left out"}},
		// A sweep against a lone run: nothing to pair, so both are whole.
		{"no common point", []Run{run("1", false), run("2", false)}, []Run{run("", false)}, []string{":2/1"}, []string{"no sweep point in common"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sets, notes := Pair("A", "B", tc.a, tc.b)
			var got []string
			for _, s := range sets {
				got = append(got, s.Point+":"+strconv.Itoa(len(s.A))+"/"+strconv.Itoa(len(s.B)))
			}
			if !slices.Equal(got, tc.sets) {
				t.Errorf("sets %v, want %v", got, tc.sets)
			}
			all := strings.Join(notes, "; ")
			for _, part := range tc.noteParts {
				if !strings.Contains(all, part) {
					t.Errorf("notes %q lack %q", all, part)
				}
			}
			if len(tc.noteParts) == 0 && len(notes) > 0 {
				t.Errorf("unexpected notes %q", notes)
			}
		})
	}
}

// TestFiguresOf checks the figures read from a results file: throughput
// per operation, operations not OK (failures and NOT_FOUND), the choice of latency
// and the p99 over all operations from the merged histograms.
func TestFiguresOf(t *testing.T) {
	t.Parallel()
	res := resultstest.Results(t, resultstest.Spec{Throughput: 1000, LatencyUs: map[string]int64{"READ": 1000, "UPDATE": 10000}, Errors: 7, Intended: true})
	res.Status["READ"]["NOT_FOUND"] = 11
	f := FiguresOf(res, ServiceLatency)
	if !slices.Equal(f.Order, []string{"READ", "UPDATE"}) {
		t.Fatalf("ops %v", f.Order)
	}
	// 7 ERROR and 11 NOT_FOUND.
	if f.NotOK != 18 || f.Ops["READ"].NotOK != 18 || f.Ops["UPDATE"].NotOK != 0 {
		t.Errorf("not OK %d (READ %d, UPDATE %d), want 18, 18, 0", f.NotOK, f.Ops["READ"].NotOK, f.Ops["UPDATE"].NotOK)
	}
	if got := f.Ops["READ"].Throughput; got != 500 {
		t.Errorf("READ throughput %g, want 500", got)
	}
	merged := hdrhistogram.New(measure.LowestTrackableUs, measure.HighestTrackableUs, measure.SignificantFigures)
	sum, err := res.Summary()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range sum.Measurements {
		merged.Merge(m.Service)
	}
	if want := float64(merged.ValueAtQuantile(99)); f.P99 != want || f.P99 <= f.Ops["READ"].Pct["99"] {
		t.Errorf("overall p99 %g, want %g (above READ's %g)", f.P99, want, f.Ops["READ"].Pct["99"])
	}
	if fi := FiguresOf(res, IntendedLatency); fi.Ops["READ"].Pct["50"] <= f.Ops["READ"].Pct["50"] {
		t.Errorf("intended p50 %g is not the intended histogram's (service %g)", fi.Ops["READ"].Pct["50"], f.Ops["READ"].Pct["50"])
	}
	one := []Run{{Res: res}}
	if k := ChooseLatency(one); k != IntendedLatency {
		t.Errorf("runs that all recorded intended latency: %v", k)
	}
	svc := []Run{{Res: resultstest.Results(t, resultstest.Spec{Throughput: 10})}}
	if k := ChooseLatency(one, svc); k != ServiceLatency {
		t.Errorf("one run without intended latency: %v", k)
	}
}

// TestVerdictText checks each kind of verdict sentence.
func TestVerdictText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		row  Row
		want string
	}{
		{"better", Row{Figure: "throughput", HigherIsBetter: true, A: []float64{100, 101, 99}, B: []float64{200, 201, 199}}, `^significant: new is 100\.0% better than base \(p=[0-9.e-]+\)$`},
		{"worse latency", Row{Figure: "p99", A: []float64{100, 101, 99}, B: []float64{200, 201, 199}}, `^significant: new is 100\.0% worse than base`},
		{"no difference", Row{Figure: "p99", A: []float64{100, 150, 99}, B: []float64{120, 80, 130}}, `^no significant difference \(p=0\.[0-9]+\)$`},
		{"every operation OK", Row{Figure: NotOKFigure, A: []float64{0, 0}, B: []float64{0, 0}}, `^every operation OK on both sides$`},
		{"single runs", Row{Figure: "p99", A: []float64{1}, B: []float64{2}}, `^no verdict possible$`},
		{"one side single", Row{Figure: "p99", A: []float64{1}, B: []float64{2, 3}}, `^no verdict possible: base has 1 run and new 2 runs, and each side needs at least 2$`},
		{"missing", Row{Figure: "p99", B: []float64{2, 3}, Why: "no READ p99 on side A"}, `^no verdict possible: no READ p99 on side A$`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tc.row
			if r.Why == "" {
				r.Verdict = stats.Verdict(r.A, r.B, 0.05, r.HigherIsBetter)
			}
			if got := VerdictText(r, "base", "new"); !regexp.MustCompile(tc.want).MatchString(got) {
				t.Errorf("got %q, want %s", got, tc.want)
			}
		})
	}
}

// BenchmarkFiguresOf measures reading a run's figures, which reports and
// comparisons do for every run, with the histogram merge for p99.
func BenchmarkFiguresOf(b *testing.B) {
	res := resultstest.Results(b, resultstest.Spec{Throughput: 10000, LatencyUs: map[string]int64{"READ": 500, "UPDATE": 2000, "SCAN": 9000}})
	b.ReportAllocs()
	for b.Loop() {
		_ = FiguresOf(res, ServiceLatency)
	}
}

// TestLoadGroup checks the forms a group takes on the command line, and

// TestChangeText checks the relative change printed beside a figure.
func TestChangeText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a, b []float64
		want string
	}{
		{"rise", []float64{100}, []float64{150}, "+50.0%"},
		{"fall of a mean", []float64{100, 300}, []float64{150, 150}, "-25.0%"},
		{"both zero", []float64{0}, []float64{0}, "0%"},
		// From zero no relative change exists.
		{"from zero", []float64{0}, []float64{3}, "–"},
		{"a side empty", nil, []float64{3}, "–"},
		// A fall of 0.01% rounds to nothing: no minus sign on a zero.
		{"rounds to zero", []float64{10000}, []float64{9999}, "+0.0%"},
	}
	for _, tc := range tests {
		if got := ChangeText(Row{A: tc.a, B: tc.b}); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
