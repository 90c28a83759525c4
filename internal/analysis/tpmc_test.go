package analysis

import (
	"math"
	"testing"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/stats"
)

// tpccTrial is a made-up TPC-C trial at a throughput and a tpmC; a tpmC
// below 0 makes a run without extra.tpcc.
func tpccTrial(t *testing.T, tput, tpmC float64, mark *results.SweepMark) Run {
	t.Helper()
	res := resultstest.Results(t, resultstest.Spec{Throughput: tput, Mark: mark,
		Config: map[string]string{"threadcount": "1", "workload": "tpcc"}})
	if tpmC >= 0 {
		if res.Extra == nil {
			res.Extra = &results.Extra{}
		}
		res.Extra.TPCC = &results.TPCC{TpmC: tpmC, Warehouses: 1}
	}
	id := ""
	if mark != nil {
		id = mark.ID
	}
	return NewRun(res, id, 0)
}

func tpccTrials(t *testing.T, tput float64, tpmCs ...float64) []Run {
	var rs []Run
	for _, v := range tpmCs {
		rs = append(rs, tpccTrial(t, tput, v, nil))
	}
	return rs
}

// TestTpmCFigures checks tpmC as a figure of a run, of a point and of a
// comparison: taken from extra.tpcc, absent (not 0) without it.
func TestTpmCFigures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// tpmC of each trial of A and B; -1 is a run without extra.tpcc.
		a, b []float64
		// The point's mean and interval over A's trials; trials counts
		// those that have a tpmC (0: none, and no interval).
		mean, lo, hi float64
		trials       int
		// row says whether the comparison has a tpmC row, sig whether it
		// is significant and better.
		row, sig bool
	}{
		{"no TPC-C", []float64{-1, -1, -1}, []float64{-1, -1, -1}, 0, 0, 0, 0, false, false},
		// Mean 100, s=10, t(0.975, 2)=4.303: 100 ± 4.303·10/√3.
		{"TPC-C apart", []float64{90, 100, 110}, []float64{200, 210, 220}, 100, 100 - 4.302652729749464*10/math.Sqrt(3), 100 + 4.302652729749464*10/math.Sqrt(3), 3, true, true},
		{"TPC-C within noise", []float64{90, 100, 110}, []float64{95, 105, 115}, 100, 100 - 4.302652729749464*10/math.Sqrt(3), 100 + 4.302652729749464*10/math.Sqrt(3), 3, true, false},
		// One trial: the mean, no interval.
		{"one trial", []float64{120}, []float64{130}, 120, 120, 120, 1, true, false},
		// A run without the section among TPC-C ones counts nowhere; two
		// constant sides that differ differ exactly.
		{"one run without", []float64{100, -1, 100}, []float64{300, 300}, 100, 100, 100, 2, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, b := tpccTrials(t, 1000, tc.a...), tpccTrials(t, 1000, tc.b...)
			var fs []Figures
			for i, r := range a {
				f := FiguresOf(r.Res, ServiceLatency)
				if want := tc.a[i] >= 0; f.HasTpmC != want || want && f.TpmC != tc.a[i] {
					t.Errorf("trial %d: tpmC %v (has %v), want %v", i, f.TpmC, f.HasTpmC, tc.a[i])
				}
				fs = append(fs, f)
			}
			p := Summarize(fs)
			if p.HasTpmC() != (tc.trials > 0) || len(p.TpmC.Values) != tc.trials {
				t.Fatalf("point: %d tpmC values, want %d", len(p.TpmC.Values), tc.trials)
			}
			if m, lo, hi := p.TpmC.Bounds(); !near(m, tc.mean) || !near(lo, tc.lo) || !near(hi, tc.hi) {
				t.Errorf("point: tpmC %v [%v, %v], want %v [%v, %v]", m, lo, hi, tc.mean, tc.lo, tc.hi)
			}
			rows := CompareRows(a, b, ServiceLatency, 0.05)
			var row *Row
			for i := range rows {
				if rows[i].Figure == TpmCFigure {
					row = &rows[i]
				}
			}
			if (row != nil) != tc.row {
				t.Fatalf("tpmC row %+v, want one: %v", row, tc.row)
			}
			if row == nil {
				if rows[0].Figure != "throughput" || rows[0].Op != "" {
					t.Errorf("first row %s %s, want the throughput", rows[0].Op, rows[0].Figure)
				}
				return
			}
			if rows[1].Figure != TpmCFigure || row.Op != "" || !row.HigherIsBetter || row.Name() != "tpmC" {
				t.Errorf("tpmC row %+v, want the second, of the whole run, higher is better", *row)
			}
			if got := row.Significant() && row.Verdict.Kind == stats.Better; got != tc.sig {
				t.Errorf("tpmC verdict %+v (p=%v), want significant and better: %v", row.Verdict, row.AdjustedP, tc.sig)
			}
		})
	}
}

// TestTpmCStudy checks that tpmC is tested with the study's other
// figures, its p-value Holm-corrected over all of them, and that a study
// of other runs tests what it tested before.
func TestTpmCStudy(t *testing.T) {
	t.Parallel()
	study := func(tpmA, tpmB []float64) *Study {
		t.Helper()
		st, err := NewStudy([][]Run{tpccTrials(t, 1000, tpmA...), tpccTrials(t, 1000, tpmB...)}, StudyOptions{Refs: []string{"a", "b"}, Alpha: 0.05})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	plain := study([]float64{-1, -1, -1}, []float64{-1, -1, -1})
	tpcc := study([]float64{90, 100, 110}, []float64{200, 210, 220})
	if tpcc.Tested != plain.Tested+1 {
		t.Fatalf("%d figures tested with tpmC, %d without: want one more", tpcc.Tested, plain.Tested)
	}
	for _, r := range tpcc.Comparisons[0].Sets[0].Rows {
		if r.Figure != TpmCFigure {
			continue
		}
		if r.Family != tpcc.Tested || r.AdjustedP < r.Verdict.P || !r.Significant() {
			t.Errorf("tpmC row: family %d, p %v adjusted to %v, significant %v; want the study's %d, no lower, significant",
				r.Family, r.Verdict.P, r.AdjustedP, r.Significant(), tpcc.Tested)
		}
		return
	}
	t.Error("the study has no tpmC row")
}

// TestTpmCOverlay checks that each line's points carry their trials'
// tpmC.
func TestTpmCOverlay(t *testing.T) {
	t.Parallel()
	line := func(id string, tpm ...float64) []Run {
		var rs []Run
		for i, th := range []string{"1", "2"} {
			for k := range 2 {
				m := &results.SweepMark{ID: id, Varied: []string{"threadcount"}, Point: map[string]string{"threadcount": th}, Trial: k + 1}
				rs = append(rs, tpccTrial(t, 1000, tpm[2*i+k], m))
			}
		}
		return rs
	}
	ov := OverlayOf([]string{"on", "off"}, [][]Run{line("a", 10, 20, 30, 50), line("b", 1, 1, 2, 2)}, ServiceLatency, stats.KneeOptions{})
	if ov == nil || len(ov.Lines) != 2 {
		t.Fatalf("overlay %+v, want two lines", ov)
	}
	want := [][]float64{{15, 40}, {1, 2}}
	for i, l := range ov.Lines {
		for j, p := range l.Points {
			if !p.Figures.HasTpmC() || p.Figures.TpmC.Mean() != want[i][j] {
				t.Errorf("%s at %v: tpmC %v, want %v", l.Name, p.X, p.Figures.TpmC.Values, want[i][j])
			}
		}
	}
}
