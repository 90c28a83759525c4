package analysis

import (
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/stats"
)

// runOf is a synthetic run of a phase and properties at a throughput.
func runOf(t *testing.T, phase string, tput float64, props ...string) Run {
	t.Helper()
	cfg := map[string]string{"threadcount": "1", "fieldcount": "10", "readproportion": "0.95", "insertproportion": "0.05", "mongodb.url": "mongodb://a/"}
	for i := 0; i+1 < len(props); i += 2 {
		cfg[props[i]] = props[i+1]
	}
	res := resultstest.Results(t, resultstest.Spec{Throughput: tput, Phase: phase, Config: cfg})
	return Run{Res: res, Source: phase}
}

// TestStudyKinds checks that runs pair only with runs that did the same
// work: a load beside a run phase, or two read/insert mixes, are told
// apart and compared kind by kind.
func TestStudyKinds(t *testing.T) {
	t.Parallel()
	load, run := results.PhaseLoad, results.PhaseRun
	tests := []struct {
		name   string
		groups [][]Run
		// sets are "kind|point:runs of A/runs of B" of the one comparison.
		sets  []string
		notes []string
	}{
		{"load and run phases",
			[][]Run{{runOf(t, load, 100), runOf(t, run, 200)}, {runOf(t, load, 110), runOf(t, run, 210)}},
			[]string{"load phase|:1/1", "run phase|:1/1"}, []string{"A holds runs of 2 kinds, compared apart: load phase (1 run); run phase (1 run)"}},
		{"two mixes",
			[][]Run{
				{runOf(t, run, 100), runOf(t, run, 100, "readproportion", "0.9", "insertproportion", "0.1"), runOf(t, run, 101)},
				{runOf(t, run, 100, "readproportion", "0.9", "insertproportion", "0.1"), runOf(t, run, 120)},
			},
			[]string{"run phase, insertproportion=0.05 readproportion=0.95|:2/1", "run phase, insertproportion=0.1 readproportion=0.9|:1/1"},
			[]string{"A holds runs of 2 kinds", "B holds runs of 2 kinds"}},
		// Another server, collection, shard key and seed measured the
		// same work.
		{"server differs", [][]Run{{runOf(t, run, 100)}, {runOf(t, run, 90, "mongodb.url", "mongodb://b/", "seed", "7", "table", "t2", "mongodb.shardkey", "_id:hashed")}}, []string{"|:1/1"}, nil},
		// Only the baseline has a load phase: said, not compared.
		{"kind only in A", [][]Run{{runOf(t, load, 100), runOf(t, run, 200)}, {runOf(t, run, 210)}},
			[]string{"run phase|:1/1"}, []string{"A's load phase runs have no counterpart in B: not compared"}},
	}
	for _, tc := range tests {
		st, err := NewStudy(tc.groups, StudyOptions{Names: []string{"A", "B"}, Alpha: 0.05})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []string
		for _, s := range st.Comparisons[0].Sets {
			got = append(got, s.Kind+"|"+s.Point+":"+itoa(len(s.A))+"/"+itoa(len(s.B)))
		}
		if strings.Join(got, ";") != strings.Join(tc.sets, ";") {
			t.Errorf("%s: sets %q, want %q", tc.name, got, tc.sets)
		}
		all := strings.Join(st.Notes, "; ")
		for _, n := range tc.notes {
			if !strings.Contains(all, n) {
				t.Errorf("%s: notes %q lack %q", tc.name, all, n)
			}
		}
		if len(tc.notes) == 0 && len(st.Notes) > 0 {
			t.Errorf("%s: unexpected notes %q", tc.name, st.Notes)
		}
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

// TestStudyRefuses checks that groups that did different work are refused
// with the differing properties named, unless they are allowed, and that
// an allowed difference is then carried to every output.
func TestStudyRefuses(t *testing.T) {
	t.Parallel()
	a := []Run{runOf(t, results.PhaseRun, 100), runOf(t, results.PhaseRun, 102)}
	b := []Run{runOf(t, results.PhaseRun, 200, "fieldcount", "1", "readproportion", "0.5"), runOf(t, results.PhaseRun, 204, "fieldcount", "1", "readproportion", "0.5")}
	_, err := NewStudy([][]Run{a, b}, StudyOptions{Names: []string{"A", "B"}, Alpha: 0.05})
	var de *DifferentError
	if !errors.As(err, &de) {
		t.Fatalf("different work compared: err %v", err)
	}
	want := "A and B ran different things (fieldcount 10 vs 1, readproportion 0.95 vs 0.5): compare like with like, or name what may differ with --allow-different fieldcount,readproportion"
	if err.Error() != want {
		t.Errorf("error\n%q, want\n%q", err.Error(), want)
	}
	// Allowing one of two is not enough.
	if _, err := NewStudy([][]Run{a, b}, StudyOptions{Names: []string{"A", "B"}, Alpha: 0.05, Allowed: []string{"fieldcount"}}); !errors.As(err, &de) || len(de.Differences) != 1 {
		t.Errorf("one difference allowed of two: err %v", err)
	}
	st, err := NewStudy([][]Run{a, b}, StudyOptions{Names: []string{"A", "B"}, Alpha: 0.05, Allowed: []string{"fieldcount", "readproportion"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := DifferencesText(st.Comparisons[0].Differences); got != "fieldcount 10 vs 1, readproportion 0.95 vs 0.5" {
		t.Errorf("allowed differences %q", got)
	}
	// A load against a run phase: the phase is what differs.
	l := []Run{runOf(t, results.PhaseLoad, 100)}
	if _, err := NewStudy([][]Run{l, a}, StudyOptions{Names: []string{"A", "B"}}); !errors.As(err, &de) || de.Differences[0].Property != PhaseProperty {
		t.Errorf("load against run: err %v", err)
	}
	// A property only one run recorded is unknown, not different.
	old := runOf(t, results.PhaseRun, 100)
	old.Res.Config = maps.Clone(old.Res.Config)
	delete(old.Res.Config, "fieldcount")
	if d := Differences(old.Res, b[0].Res, map[string]bool{"readproportion": true}); len(d) != 0 {
		t.Errorf("unrecorded property counted as a difference: %v", d)
	}
}

// TestStudyConfigurations checks a study of six configurations against a
// baseline other than the first, with Holm's correction over all their
// figures.
func TestStudyConfigurations(t *testing.T) {
	t.Parallel()
	names := []string{"A", "B", "C", "D", "E", "F"}
	var groups [][]Run
	for i := range names {
		tput := 1000.0
		if i == 4 {
			tput = 2000 // E is twice as fast as the others
		}
		groups = append(groups, []Run{runOf(t, results.PhaseRun, tput), runOf(t, results.PhaseRun, tput*1.01), runOf(t, results.PhaseRun, tput*0.99)})
	}
	st, err := NewStudy(groups, StudyOptions{Names: names, Baseline: 2, Alpha: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Comparisons) != 5 || st.Comparisons[0].Config != 0 || st.Comparisons[2].Config != 3 {
		t.Fatalf("comparisons of configs %v, want A B D E F against C", st.Comparisons)
	}
	// 5 comparisons of throughput, avg, 4 percentiles and not OK; those
	// with no difference at all (identical runs) still count as tested.
	perComparison := len(st.Comparisons[0].Sets[0].Rows)
	if st.Tested == 0 || st.Tested > 5*perComparison {
		t.Errorf("%d figures tested, at most %d expected", st.Tested, 5*perComparison)
	}
	for _, c := range st.Comparisons {
		better := c.Config == 4
		if (c.Better > 0) != better {
			t.Errorf("%s: %d better, %d worse; want better only for E", names[c.Config], c.Better, c.Worse)
		}
		for _, r := range c.Sets[0].Rows {
			if r.Tested() && (r.Family != st.Tested || r.AdjustedP < r.Verdict.P) {
				t.Errorf("%s %s: adjusted p %g of family %d, raw %g", names[c.Config], r.Name(), r.AdjustedP, r.Family, r.Verdict.P)
			}
		}
	}
	if len(st.Configs[4].Kinds) != 1 || len(st.Configs[4].Kinds[0].Runs) != 3 {
		t.Errorf("E's kinds %+v, want one of 3 runs", st.Configs[4].Kinds)
	}
}

// TestVerdictHolm checks the words of a verdict that passes alone but not
// once corrected.
func TestVerdictHolm(t *testing.T) {
	t.Parallel()
	r := Row{Figure: "p99", A: []float64{100, 101, 99}, B: []float64{103, 104, 102}}
	r.Verdict = stats.Verdict(r.A, r.B, 0.05, false)
	r.AdjustedP, r.Family = 0.3, 20
	want := "no significant difference once corrected for 20 figures (p="
	if got := VerdictText(r, "A", "B"); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, ", Holm 0.3)") || r.Significant() {
		t.Errorf("got %q (significant %v), want %q…", got, r.Significant(), want)
	}
	r.AdjustedP = 0.01
	if got := VerdictText(r, "A", "B"); !strings.HasPrefix(got, "significant: B is 3.0% worse than A (p=") || !strings.HasSuffix(got, ", Holm 0.01)") {
		t.Errorf("got %q", got)
	}
}
