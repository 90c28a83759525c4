package analysis

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// markedRun is a run of a sweep at point, with the data size it started
// on (0: not read).
func markedRun(varied []string, point map[string]string, startBytes float64) Run {
	res := &results.Results{Phase: results.PhaseRun, Config: map[string]string{}, Extra: &results.Extra{}}
	if startBytes > 0 {
		res.Extra.Sizes = &results.Sizes{Start: &metrics.SizeStats{Coll: metrics.SizeFigures{DataSize: metrics.Known(startBytes)}}}
	}
	res.Extra.Sweep = &results.SweepMark{ID: "s1", Varied: varied, Point: point, Trial: 1}
	return NewRun(res, "synthetic", 0)
}

// TestSweepLines checks the split of a group's sweep into lines: one per
// value of the other dimension, in the order first seen, with warm-ups,
// interrupted trials and unmarked runs left out and a trial whose x is no
// number counted as unplaced.
func TestSweepLines(t *testing.T) {
	t.Parallel()
	varied := []string{"recordcount", "threadcount"}
	at := func(rc, tc string) Run {
		return markedRun(varied, map[string]string{"recordcount": rc, "threadcount": tc}, 0)
	}
	warm := at("10", "1")
	warm.Mark.Warmup = true
	partial := at("10", "2")
	partial.Res.Partial = true
	plain := NewRun(&results.Results{Phase: results.PhaseRun}, "plain", 0)
	runs := []Run{at("20", "2"), warm, at("10", "1"), partial, plain, at("20", "1"), at("10", "2"), at("10", "2"), at("10", "many"), at("10", "NaN")}
	lines, unplaced := SweepLines(runs, "threadcount", func(r Run) string { return LineName(r.Mark, "threadcount") })
	if unplaced != 2 {
		t.Errorf("unplaced %d, want 2 (many and NaN threads)", unplaced)
	}
	var got []string
	for _, l := range lines {
		var xs []string
		for _, x := range l.Xs() {
			xs = append(xs, numText(x)+"×"+numText(float64(len(l.ByX[x]))))
		}
		got = append(got, l.Name+": "+strings.Join(xs, " "))
	}
	if want := []string{"recordcount=20: 1×1 2×1", "recordcount=10: 1×1 2×2"}; !slices.Equal(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
}

func TestLineAndShortNames(t *testing.T) {
	t.Parallel()
	m := &results.SweepMark{Varied: []string{"mongodb.maxconnections", "threadcount", "recordcount"}, Point: map[string]string{"mongodb.maxconnections": "4", "threadcount": "8", "recordcount": "1000"}}
	if got, want := LineName(m, "threadcount"), "maxconnections=4 recordcount=1000"; got != want {
		t.Errorf("LineName = %q, want %q", got, want)
	}
	if got := LineName(&results.SweepMark{Varied: []string{"threadcount"}, Point: map[string]string{"threadcount": "8"}}, "threadcount"); got != "" {
		t.Errorf("LineName of a one-dimension sweep = %q, want empty", got)
	}
	for _, tc := range []struct{ in, want string }{
		{"readproportion", "read"}, {"mongodb.maxconnections", "maxconnections"}, {"proportion", "proportion"}, {"fieldcount", "fieldcount"},
	} {
		if got := ShortName(tc.in); got != tc.want {
			t.Errorf("ShortName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestOverallAverage checks the weighting by count: a rare slow operation
// weighs as little as it happened.
func TestOverallAverage(t *testing.T) {
	t.Parallel()
	f := Figures{Ops: map[string]*OpFigures{
		"READ":   {Count: 3, Avg: 100, HasLatency: true},
		"UPDATE": {Count: 1, Avg: 500, HasLatency: true},
		"SCAN":   {Count: 5, Avg: 9999}, // no latency measured: not counted
		"INSERT": {Count: 0, Avg: 9999, HasLatency: true},
	}}
	if got, ok := f.OverallAverage(); !ok || got != 200 {
		t.Errorf("got %v, %v; want 200 ((3×100 + 500) / 4)", got, ok)
	}
	if _, ok := (Figures{}).OverallAverage(); ok {
		t.Error("a run without latencies has an average")
	}
}

// TestConfounders checks that the line whose data grew is named, by group
// when there are several, and the others are not.
func TestConfounders(t *testing.T) {
	t.Parallel()
	const mib = 1024 * 1024.0
	sweep := func(sizes ...float64) []Run {
		var runs []Run
		for i, s := range sizes {
			runs = append(runs, markedRun([]string{"threadcount"}, map[string]string{"threadcount": numText(float64(int(1) << i))}, s))
		}
		return runs
	}
	grew, flat := sweep(1*mib, 1.5*mib, 2*mib), sweep(1*mib, 1.01*mib, 1*mib)
	got := Confounders([]string{"ssd", "essd"}, [][]Run{flat, grew})
	if len(got) != 1 || got[0].Where != "essd" || !strings.HasPrefix(got[0].What, "the data size at the start changed from 1 MiB at threadcount=1 to 2 MiB at threadcount=4 along the sweep (2×)") {
		t.Fatalf("got %+v, want essd's growth alone", got)
	}
	if s := got[0].String(); !strings.HasPrefix(s, "essd: the data size") {
		t.Errorf("String() = %q", s)
	}
	if got := Confounders([]string{"ssd"}, [][]Run{grew}); len(got) != 1 || got[0].Where != "" || !strings.HasPrefix(got[0].String(), "the data size") {
		t.Errorf("one group: %+v, want one confounder without a place", got)
	}
	// A sweep of the data itself is meant to change its size.
	data := []Run{markedRun([]string{"recordcount"}, map[string]string{"recordcount": "1000"}, 1*mib), markedRun([]string{"recordcount"}, map[string]string{"recordcount": "2000"}, 2*mib)}
	if got := Confounders([]string{"a"}, [][]Run{data}); len(got) != 0 {
		t.Errorf("a recordcount sweep flagged: %+v", got)
	}
	// So is a sweep of a native workload's parameter, which its runs
	// record as native.NAME; a native sweep of the threads is not.
	native := func(varied string, point map[string]string, docs string, size float64) Run {
		r := markedRun([]string{varied}, point, size)
		r.Res.Config["native"] = "insert1k"
		r.Res.Config["native.documents"] = docs
		return r
	}
	docs := []Run{native("documents", map[string]string{"documents": "100"}, "100", 1*mib), native("documents", map[string]string{"documents": "200"}, "200", 2*mib)}
	if got := Confounders([]string{"a"}, [][]Run{docs}); len(got) != 0 {
		t.Errorf("a sweep of a native workload's documents flagged: %+v", got)
	}
	threads := []Run{native("threadcount", map[string]string{"threadcount": "1"}, "100", 1*mib), native("threadcount", map[string]string{"threadcount": "4"}, "100", 2*mib)}
	if got := Confounders([]string{"a"}, [][]Run{threads}); len(got) != 1 {
		t.Errorf("a native thread sweep whose data doubled: %+v, want it flagged", got)
	}
}

// TestStudyRefusalNamesRefs checks that groups left unnamed are lettered,
// and that a refusal names each by its letter and its reference.
func TestStudyRefusalNamesRefs(t *testing.T) {
	t.Parallel()
	groups := [][]Run{{runOf(t, results.PhaseLoad, 100)}, {runOf(t, results.PhaseRun, 100)}}
	_, err := NewStudy(groups, StudyOptions{Refs: []string{"label:ssd", "hdd"}, Alpha: 0.05})
	var de *DifferentError
	if !errors.As(err, &de) || !strings.HasPrefix(err.Error(), "A (label:ssd) and B (hdd) ran different things (phase load vs run)") {
		t.Errorf("got %v, want the refusal naming A (label:ssd) and B (hdd)", err)
	}
	st, err := NewStudy([][]Run{{runOf(t, results.PhaseRun, 100)}, {runOf(t, results.PhaseRun, 110)}}, StudyOptions{Refs: []string{"x", "y"}, Alpha: 0.05})
	if err != nil || st.Configs[0].Name != "A" || st.Configs[1].Name != "B" {
		t.Errorf("got %v, %+v; want configurations A and B", err, st)
	}
}
