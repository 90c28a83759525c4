package comparetext

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	tt "github.com/mongobench/mongobench/internal/texttable"
)

// group is three runs at the throughputs tps, READ latency following
// them; the first ids are the store's, the others files.
func group(t *testing.T, label string, ids []int64, tps ...float64) []analysis.Run {
	t.Helper()
	var g []analysis.Run
	for i, tp := range tps {
		var id int64
		if i < len(ids) {
			id = ids[i]
		}
		res := resultstest.Results(t, resultstest.Spec{Label: label, Throughput: tp, LatencyUs: map[string]int64{"READ": int64(tp)}})
		g = append(g, analysis.NewRun(res, "r", id))
	}
	return g
}

func newStudy(t *testing.T, groups ...[]analysis.Run) *analysis.Study {
	t.Helper()
	refs := []string{"base", "new", "other"}[:len(groups)]
	st, err := analysis.NewStudy(groups, analysis.StudyOptions{Refs: refs, Latency: analysis.ChooseLatency(groups...), Alpha: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestWriteGolden: the study in each format compare prints.
func TestWriteGolden(t *testing.T) {
	t.Parallel()
	st := newStudy(t, group(t, "base", []int64{1, 2, 3}, 1000, 1010, 990), group(t, "new", nil, 900, 905, 895))
	for _, tc := range []struct {
		name string
		f    tt.Format
	}{{"study.txt", tt.Text}, {"study.csv", tt.CSV}, {"study.md", tt.Markdown}} {
		var out bytes.Buffer
		Write(&out, tc.f, []string{"base", "new"}, st)
		golden.Check(t, tc.name, out.String())
	}
}

// TestVerdictLine: the sum of one configuration against the baseline.
func TestVerdictLine(t *testing.T) {
	t.Parallel()
	base := group(t, "", nil, 1000, 1010, 990)
	tests := []struct {
		name string
		b    []analysis.Run
		want string
	}{
		{"slower", group(t, "", nil, 900, 905, 895), "verdict: B against A is significantly better in "},
		{"the same", group(t, "", nil, 1000, 1010, 990), "verdict: no significant difference between B and A: "},
		{"one run", group(t, "", nil, 900), "verdict: "},
	}
	for _, tc := range tests {
		st := newStudy(t, base, tc.b)
		got := VerdictLine(st, st.Comparisons[0])
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %q, want it to start %q", tc.name, got, tc.want)
		}
	}
	st := newStudy(t, group(t, "", nil, 1000), group(t, "", nil, 900))
	if got, want := VerdictLine(st, st.Comparisons[0]), "verdict: no verdict possible: each figure needs at least 2 runs on each side"; got != want {
		t.Errorf("single runs: %q, want %q", got, want)
	}
}

// TestDescribeGroup: where a group's runs came from, their labels,
// sweeps and the runs cut short.
func TestDescribeGroup(t *testing.T) {
	t.Parallel()
	runs := group(t, "ssd", []int64{4, 1, 2, 3, 9}, 1, 2, 3, 4, 5, 6)
	runs[5].Res.Partial = true
	runs[0].Mark = &results.SweepMark{ID: "20260101-120000"}
	want := "6 runs (store runs 1–4, 9, 1 file), label ssd, sweep 20260101-120000, 1 partial (interrupted)"
	if got := DescribeGroup(runs); got != want {
		t.Errorf("DescribeGroup = %q, want %q", got, want)
	}
	if got, want := DescribeGroup(group(t, "", nil, 1)), "1 run (1 file)"; got != want {
		t.Errorf("DescribeGroup = %q, want %q", got, want)
	}
}
