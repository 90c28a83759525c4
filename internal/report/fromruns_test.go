package report

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/stats"
)

// sweepRuns makes synthetic runs of a sweep: one per entry, marked with
// its point.
func sweepRuns(t *testing.T, varied []string, points []map[string]string, throughput []float64, baseUs []int64) []analysis.Run {
	t.Helper()
	var runs []analysis.Run
	for i, p := range points {
		m := &results.SweepMark{ID: "s1", Varied: varied, Point: p, Trial: 1}
		res := resultstest.Results(t, resultstest.Spec{Throughput: throughput[i], LatencyUs: map[string]int64{"READ": baseUs[i]}, Mark: m})
		runs = append(runs, analysis.NewRun(res, "synthetic", 0))
	}
	return runs
}

// findMaxRuns are the trials of a find-max search, one per target, each
// meeting its threshold and achieving the throughput given.
func findMaxRuns(t *testing.T, targets, achieved []float64) []analysis.Run {
	t.Helper()
	var runs []analysis.Run
	for i, target := range targets {
		v := strconv.FormatFloat(target, 'f', -1, 64)
		m := &results.SweepMark{ID: "s1", Varied: []string{"target"}, Point: map[string]string{"target": v}, Trial: 1, FindMax: true}
		res := resultstest.Results(t, resultstest.Spec{Throughput: achieved[i], Intended: true, Mark: m, Config: map[string]string{"target": v}})
		res.Extra.Thresholds = []results.Threshold{{Threshold: "READ:p(99)<50ms", Pass: true}}
		runs = append(runs, analysis.NewRun(res, "synthetic", 0))
	}
	return runs
}

// trialRuns are the runs of a sweep whose every point ran one trial per
// factor, each trial's throughput and latency scaled by its factor: the
// spread the knee's tests need.
func trialRuns(t *testing.T, varied []string, points []map[string]string, throughput []float64, baseUs []int64, factors ...float64) []analysis.Run {
	t.Helper()
	var runs []analysis.Run
	for i, p := range points {
		for k, f := range factors {
			m := &results.SweepMark{ID: "s1", Varied: varied, Point: p, Trial: k + 1}
			res := resultstest.Results(t, resultstest.Spec{Throughput: throughput[i] * f, LatencyUs: map[string]int64{"READ": int64(math.Round(float64(baseUs[i]) * f))}, Mark: m})
			runs = append(runs, analysis.NewRun(res, "synthetic", 0))
		}
	}
	return runs
}

// TestSweepOf checks the sweep section built from marked runs: points
// by value with the knee for one series, by order for a matrix.
func TestSweepOf(t *testing.T) {
	t.Parallel()
	threads := func(vs ...string) []map[string]string {
		var out []map[string]string
		for _, v := range vs {
			out = append(out, map[string]string{"threadcount": v})
		}
		return out
	}
	tests := []struct {
		name      string
		runs      []analysis.Run
		varied    string
		xs        []float64
		labels    []string
		knee      *KneeMark
		sentence  string
		wantNil   bool
		noteParts []string
	}{
		{
			name: "knee",
			// 2 → 4 threads still gains 2.5%, significantly with trials
			// this steady; 4 → 8 gains nothing while p99 doubles: the knee
			// lies between 2 and 4.
			runs:     trialRuns(t, []string{"threadcount"}, threads("1", "2", "4", "8"), []float64{1000, 2000, 2050, 2040}, []int64{500, 550, 1500, 3000}, 0.99, 1, 1.01),
			varied:   "threadcount",
			xs:       []float64{1, 2, 4, 8},
			labels:   []string{"", "", "", ""},
			knee:     &KneeMark{X: 4},
			sentence: "Knee: throughput stops rising between 2 and 4 threads (2050 ops/s at 4): later points add no significant throughput, while p99 grows 2.0× by 8 threads (p<0.001).",
		},
		{
			// The same sweep with one trial per point: no knee stated.
			name:     "knee untested",
			runs:     sweepRuns(t, []string{"threadcount"}, threads("1", "2", "4", "8"), []float64{1000, 2000, 2050, 2040}, []int64{500, 550, 1500, 3000}),
			varied:   "threadcount",
			xs:       []float64{1, 2, 4, 8},
			labels:   []string{"", "", "", ""},
			sentence: "No knee: with one trial per point no knee can be tested (throughput peaked at 2050 ops/s at 4 threads); repeat each point (--repeat 3)",
		},
		{
			name:     "still rising",
			runs:     trialRuns(t, []string{"threadcount"}, threads("1", "2"), []float64{1000, 2000}, []int64{500, 510}, 0.99, 1, 1.01),
			varied:   "threadcount",
			xs:       []float64{1, 2},
			labels:   []string{"", ""},
			sentence: "No knee: throughput still rises significantly at the last point",
		},
		{
			name: "matrix",
			runs: sweepRuns(t, []string{"recordcount", "threadcount"},
				[]map[string]string{{"recordcount": "10", "threadcount": "1"}, {"recordcount": "10", "threadcount": "2"}, {"recordcount": "20", "threadcount": "1"}},
				[]float64{100, 200, 90}, []int64{500, 500, 600}),
			varied:   "point",
			xs:       []float64{1, 2, 3},
			labels:   []string{"recordcount=10 threadcount=1", "recordcount=10 threadcount=2", "recordcount=20 threadcount=1"},
			sentence: "No knee: the sweep varies several properties",
		},
		{
			name:     "no knee along batchsize",
			runs:     sweepRuns(t, []string{"batchsize"}, []map[string]string{{"batchsize": "1"}, {"batchsize": "10"}}, []float64{100, 200}, []int64{500, 400}),
			varied:   "batchsize",
			xs:       []float64{1, 10},
			labels:   []string{"", ""},
			sentence: "No knee: a knee is sought along threadcount, target or mongodb.maxconnections, and this sweep varies batchsize.",
		},
		{
			// A find-max search: every rate it tried, and its answer found
			// again from the trials (400 held, 800 not: under 95%).
			name:     "find-max",
			runs:     findMaxRuns(t, []float64{100, 200, 400, 800}, []float64{100, 200, 400, 700}),
			varied:   "target",
			xs:       []float64{100, 200, 400, 800},
			labels:   []string{"", "", "", ""},
			sentence: "Find-max sustains 400–800 ops/s at READ:p(99)<50ms (achieved >= 95% of the target, median schedule lag <= 10 ms).",
		},
		{
			name:    "one point is no sweep",
			runs:    sweepRuns(t, []string{"threadcount"}, threads("1", "1"), []float64{100, 110}, []int64{500, 500}),
			wantNil: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sw, notes := sweepOf(tc.runs, analysis.ServiceLatency, stats.KneeOptions{})
			if tc.wantNil {
				if sw != nil {
					t.Fatalf("got a sweep of %d points", len(sw.Points))
				}
				return
			}
			if sw == nil {
				t.Fatal("no sweep")
			}
			if sw.Varied != tc.varied || len(sw.Points) != len(tc.xs) {
				t.Fatalf("varied %q with %d points, want %q with %d", sw.Varied, len(sw.Points), tc.varied, len(tc.xs))
			}
			for i, p := range sw.Points {
				if p.X != tc.xs[i] || p.Label != tc.labels[i] || p.Trials != len(tc.runs)/len(tc.xs) || p.Throughput <= 0 || p.P99us <= 0 {
					t.Errorf("point %d: %+v, want X %g label %q", i, p, tc.xs[i], tc.labels[i])
				}
			}
			if (sw.Knee == nil) != (tc.knee == nil) || (sw.Knee != nil && sw.Knee.X != tc.knee.X) {
				t.Errorf("knee %+v, want %+v", sw.Knee, tc.knee)
			}
			if !strings.HasPrefix(sw.KneeSentence, tc.sentence) {
				t.Errorf("knee sentence %q, want it to start %q", sw.KneeSentence, tc.sentence)
			}
			for _, n := range tc.noteParts {
				if !strings.Contains(strings.Join(notes, "; "), n) {
					t.Errorf("notes %q lack %q", notes, n)
				}
			}
		})
	}
}

// synthFiles makes synthetic runs, each as if read from its own file,
// and returns them by name.
func synthFiles(t *testing.T, specs map[string]resultstest.Spec) func(name string) analysis.Run {
	t.Helper()
	runs := map[string]analysis.Run{}
	for name, s := range specs {
		runs[name] = analysis.NewRun(resultstest.Results(t, s), name+".json", 0)
	}
	return func(name string) analysis.Run { return runs[name] }
}

// TestFromRunsComparison checks a comparison of two groups of runs: a run
// in both groups is shown once, and the rows carry the verdicts, without
// the error counts that are compare's.
func TestFromRunsComparison(t *testing.T) {
	t.Parallel()
	file := synthFiles(t, map[string]resultstest.Spec{
		"a1": {Label: "a", Throughput: 1000}, "a2": {Label: "a", Throughput: 1010},
		"b1": {Label: "b", Throughput: 2000}, "b2": {Label: "b", Throughput: 2020},
	})
	o := Options{Names: []string{"A", "B"}, Alpha: 0.05}
	// A run in both groups is shown once.
	in, _, err := FromRuns([][]analysis.Run{{file("a1"), file("a2")}, {file("b1"), file("b2"), file("a1")}}, o)
	if err != nil {
		t.Fatal(err)
	}
	if in.Comparison == nil || in.Sweep != nil || len(in.Runs) != 4 {
		t.Fatalf("comparison %v, sweep %v, %d runs; want a comparison of 4 runs", in.Comparison != nil, in.Sweep != nil, len(in.Runs))
	}
	if in, _, err = FromRuns([][]analysis.Run{{file("a1"), file("a2")}, {file("b1"), file("b2")}}, o); err != nil {
		t.Fatal(err)
	}
	row := in.Comparison.Rows[0]
	if row.Figure != "throughput" || !row.Significant || !strings.HasPrefix(row.Verdict, "significant: B is 100.0% better than A") || row.ALo < 0 {
		t.Errorf("first row %+v", row)
	}
	for _, r := range in.Comparison.Rows {
		if r.Figure == analysis.NotOKFigure {
			t.Errorf("error counts are compare's, not the report's: %+v", r)
		}
	}
}

// TestStudyOf checks the overlays built from sweeps: one line per
// group over the swept threads, and for a two-dimensional sweep one line
// per value of the other dimension, never a line through both.
func TestStudyOf(t *testing.T) {
	t.Parallel()
	points := func(dims ...map[string]string) []map[string]string { return dims }
	ssd := trialRuns(t, []string{"threadcount"}, points(map[string]string{"threadcount": "1"}, map[string]string{"threadcount": "2"}, map[string]string{"threadcount": "4"}),
		[]float64{1000, 2000, 2050}, []int64{500, 550, 1500}, 0.99, 1, 1.01)
	essd := sweepRuns(t, []string{"threadcount"}, points(map[string]string{"threadcount": "1"}, map[string]string{"threadcount": "2"}, map[string]string{"threadcount": "4"}),
		[]float64{900, 1900, 3000}, []int64{500, 520, 600})
	matrix := sweepRuns(t, []string{"recordcount", "threadcount"},
		points(map[string]string{"recordcount": "10", "threadcount": "1"}, map[string]string{"recordcount": "10", "threadcount": "2"},
			map[string]string{"recordcount": "20", "threadcount": "1"}, map[string]string{"recordcount": "20", "threadcount": "2"}),
		[]float64{100, 200, 90, 150}, []int64{500, 500, 600, 700})
	for _, tc := range []struct {
		name       string
		refs       []string
		groups     [][]analysis.Run
		by         string
		series     []string
		xs         []float64
		throughput map[string][]float64
		knee       map[string]float64
	}{
		{"two configurations", []string{"ssd", "essd"}, [][]analysis.Run{ssd, essd}, "configuration", []string{"ssd", "essd"}, []float64{1, 2, 4},
			map[string][]float64{"ssd": {1000, 2000, 2050}, "essd": {900, 1900, 3000}}, map[string]float64{"ssd": 2}},
		{"two dimensions", []string{"sweep:s1"}, [][]analysis.Run{matrix}, "recordcount", []string{"recordcount=10", "recordcount=20"}, []float64{1, 2},
			map[string][]float64{"recordcount=10": {100, 200}, "recordcount=20": {90, 150}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := studyOf(tc.refs, tc.groups, analysis.ServiceLatency, stats.KneeOptions{})
			if st == nil {
				t.Fatal("no study")
			}
			if st.Varied != "threadcount" || st.SeriesBy != tc.by || len(st.Series) != len(tc.series) {
				t.Fatalf("study of %q by %q with %d lines, want threadcount by %q with %d", st.Varied, st.SeriesBy, len(st.Series), tc.by, len(tc.series))
			}
			for i, s := range st.Series {
				if s.Name != tc.series[i] || len(s.Points) != len(tc.xs) {
					t.Fatalf("line %d: %q with %d points, want %q with %d", i, s.Name, len(s.Points), tc.series[i], len(tc.xs))
				}
				for j, p := range s.Points {
					if p.X != tc.xs[j] || math.Abs(p.Throughput-tc.throughput[s.Name][j]) > 1e-9*tc.throughput[s.Name][j] || len(p.Runs) != p.Trials || !(p.AvgUs > 0) {
						t.Errorf("%s point %d: X %g throughput %g avg %g runs %d, want X %g throughput %g", s.Name, j, p.X, p.Throughput, p.AvgUs, len(p.Runs), tc.xs[j], tc.throughput[s.Name][j])
					}
				}
				if k, ok := tc.knee[s.Name]; ok != (s.Knee != nil) || ok && s.Knee.X != k {
					t.Errorf("%s: knee %+v, want at %v (%v)", s.Name, s.Knee, k, ok)
				}
			}
		})
	}
	// One group holding two mixes' thread sweeps (an engine's 95:5 and
	// 90:10 under one label) draws a line per mix, named by what sets
	// them apart, never one line through both.
	mix := func(read string, tp []float64) []analysis.Run {
		runs := sweepRuns(t, []string{"threadcount"}, points(map[string]string{"threadcount": "1"}, map[string]string{"threadcount": "4"}), tp, []int64{500, 600})
		for _, r := range runs {
			r.Res.Config["readproportion"] = read
		}
		return runs
	}
	engine := append(mix("0.95", []float64{1000, 3000}), mix("0.9", []float64{800, 2000})...)
	st := studyOf([]string{"A", "B"}, [][]analysis.Run{engine, mix("0.95", []float64{1100, 3100})}, analysis.ServiceLatency, stats.KneeOptions{})
	if st == nil || len(st.Series) != 3 {
		t.Fatalf("two mixes in one group and one in another: %+v, want 3 lines", st)
	}
	for i, want := range []string{"A · read=0.95", "A · read=0.9", "B"} {
		if s := st.Series[i]; s.Name != want || len(s.Points) != 2 || s.Points[1].Throughput != map[int]float64{0: 3000, 1: 2000, 2: 3100}[i] {
			t.Errorf("line %d: %q %+v, want %q", i, s.Name, s.Points, want)
		}
	}
	// Plain runs, or one sweep of one dimension, are no study.
	if st := studyOf([]string{"ssd"}, [][]analysis.Run{ssd}, analysis.ServiceLatency, stats.KneeOptions{}); st != nil {
		t.Errorf("one sweep drew %d lines", len(st.Series))
	}
	// A line's knee names what limited the point past it, as a single
	// sweep's page does: ssd's knee is at 2 threads, so 4 threads' runs.
	for _, r := range ssd {
		if r.Mark.Point["threadcount"] == "4" {
			r.Res.Extra.Diagnosis = &results.Diagnosis{Verdict: "server CPU", Limits: []results.Limit{{Kind: "server CPU"}}}
		}
	}
	st = studyOf([]string{"ssd", "essd"}, [][]analysis.Run{ssd, essd}, analysis.ServiceLatency, stats.KneeOptions{})
	if got := st.Series[0].KneeSentence; !strings.HasSuffix(got, "; beyond 2 threads the server host's CPU is saturated.") {
		t.Errorf("ssd's knee sentence %q does not name the limit past the knee", got)
	}
}

// TestSweepOfNotAlongLoad checks that a sweep along a setting that is
// no load says so, which keeps its knee sentence out of the conclusion.
func TestSweepOfNotAlongLoad(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		dim  string
		want bool
	}{{"recordcount", true}, {"threadcount", false}} {
		runs := sweepRuns(t, []string{tc.dim}, []map[string]string{{tc.dim: "1"}, {tc.dim: "10"}}, []float64{100, 200}, []int64{500, 400})
		sw, _ := sweepOf(runs, analysis.ServiceLatency, stats.KneeOptions{})
		if sw == nil || sw.NotAlongLoad != tc.want {
			t.Errorf("%s: sweep %+v, want NotAlongLoad %t", tc.dim, sw, tc.want)
		}
	}
}

// TestFromRunsThreeConfigurations checks that every group after the first is
// compared against it on the page, not only the second.
func TestFromRunsThreeConfigurations(t *testing.T) {
	t.Parallel()
	file := synthFiles(t, map[string]resultstest.Spec{
		"a1": {Label: "a", Throughput: 1000}, "a2": {Label: "a", Throughput: 1010},
		"b1": {Label: "b", Throughput: 2000}, "b2": {Label: "b", Throughput: 2020},
		"c1": {Label: "c", Throughput: 500}, "c2": {Label: "c", Throughput: 505},
	})
	o := Options{Names: []string{"A", "B", "C"}, Alpha: 0.05}
	in, _, err := FromRuns([][]analysis.Run{{file("a1"), file("a2")}, {file("b1"), file("b2")}, {file("c1"), file("c2")}}, o)
	if err != nil {
		t.Fatal(err)
	}
	if in.Comparison == nil || len(in.Comparisons) != 1 {
		t.Fatalf("comparison %v and %d more, want B and C against A", in.Comparison != nil, len(in.Comparisons))
	}
	if c := in.Comparisons[0]; c.A != "A" || c.B != "C" || len(c.Rows) == 0 || c.Rows[0].Figure != "throughput" || !(c.Rows[0].RelDiff < -0.4) {
		t.Errorf("third group's comparison: %s against %s, rows %+v", c.B, c.A, c.Rows)
	}
}

// TestFromRunsSeveralDifferentGroups checks that three groups that ran
// different things still make a page, without verdicts and saying why,
// while two such groups are refused as compare refuses them.
func TestFromRunsSeveralDifferentGroups(t *testing.T) {
	t.Parallel()
	file := synthFiles(t, map[string]resultstest.Spec{
		"a": {Label: "a", Throughput: 1000, Phase: results.PhaseLoad}, "b": {Label: "b", Throughput: 2000},
		"c": {Label: "c", Throughput: 500},
	})
	o := Options{Names: []string{"A", "B", "C"}, Alpha: 0.05}
	in, notes, err := FromRuns([][]analysis.Run{{file("a")}, {file("b")}, {file("c")}}, o)
	if err != nil {
		t.Fatalf("three different groups: %v", err)
	}
	if in.Comparison != nil || len(in.Comparisons) != 0 || len(in.Configurations) != 3 {
		t.Errorf("comparison %v, %d more, %d configurations; want no verdicts and 3 configurations", in.Comparison != nil, len(in.Comparisons), len(in.Configurations))
	}
	if n := strings.Join(notes, "; "); !strings.Contains(n, "no verdicts on the page: ") || !strings.Contains(n, "phase load vs run") {
		t.Errorf("notes %q do not say why there are no verdicts", notes)
	}
	// The page itself says it, not only stderr: a reader of the page alone
	// must not take the missing verdicts for "no difference".
	var page strings.Builder
	if err := Render(&page, in); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "No verdicts on the page: ") || !strings.Contains(page.String(), "phase load vs run") {
		t.Errorf("the page does not say why it has no verdicts")
	}
	o.Names = o.Names[:2]
	if _, _, err := FromRuns([][]analysis.Run{{file("a")}, {file("b")}}, o); err == nil {
		t.Errorf("two groups that ran different things were compared")
	}
}
