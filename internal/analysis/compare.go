package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/stats"
)

// NotOKFigure names the count of operations whose status is not OK,
// failures and NOT_FOUND alike, in sweeps' tables and comparisons.
const NotOKFigure = "not OK"

// Percentiles are the latency percentiles a comparison shows, as keyed in
// results files.
var Percentiles = []string{"50", "95", "99", "99.9"}

// Row is one figure of one operation in both groups of a comparison.
type Row struct {
	Op     string // "" for the whole run
	Figure string // "throughput", "avg", "p50", ..., NotOKFigure
	Unit   string // "ops/s", "us", ""
	// HigherIsBetter is true for throughput, false for latencies and
	// counts of operations not OK.
	HigherIsBetter bool
	A, B           []float64 // the figure in each run of A and of B
	Verdict        stats.VerdictResult
	Why            string // why there are no values on a side
	// AdjustedP is the p-value corrected for every figure tested with it
	// (Holm), Family how many those were; for a row compared alone they
	// are its p-value and 1.
	AdjustedP float64
	Family    int
}

// Name is how tables print the figure: "p99 (us)".
func (r Row) Name() string {
	if r.Unit == "" || r.Unit == "ops/s" {
		return r.Figure
	}
	return r.Figure + " (" + r.Unit + ")"
}

// Tested reports whether the row's figure was tested: both sides had
// values, enough of them, and the test could be made.
func (r Row) Tested() bool { return r.Why == "" && r.Verdict.Kind != stats.NoVerdict }

// Significant reports whether the test found B different from A, after
// the correction for the figures tested with it.
func (r Row) Significant() bool {
	return r.Why == "" && (r.Verdict.Kind == stats.Better || r.Verdict.Kind == stats.Worse) && r.AdjustedP < r.Verdict.Alpha
}

// Set is the comparison of the runs of one sweep point (or of two whole
// groups).
type Set struct {
	// Kind says which kind of runs of the baseline the set holds, when it
	// has several ("load phase"); "" otherwise.
	Kind  string
	Point string // "" when the groups are compared whole
	A, B  []Run
	Rows  []Row
}

// Pair pairs the runs of two groups for comparison. Runs of sweeps are
// compared point by point over the points both groups have; without a
// point in common each group is taken whole. Warm-up trials are left out.
// notes say what was left out or mixed.
func Pair(aName, bName string, a, b []Run) (sets []Set, notes []string) {
	a, na := CountedRuns(a)
	b, nb := CountedRuns(b)
	for _, x := range []struct {
		name string
		n    int
	}{{aName, na}, {bName, nb}} {
		if x.n > 0 {
			notes = append(notes, fmt.Sprintf("%d warm-up run(s) of %s left out", x.n, x.name))
		}
	}
	pa, pb := PointsOf(a), PointsOf(b)
	var common []string
	for _, p := range pa {
		if p != "" && slices.Contains(pb, p) {
			common = append(common, p)
		}
	}
	if len(common) > 0 {
		for _, p := range common {
			sets = append(sets, Set{Point: p, A: RunsAt(a, p), B: RunsAt(b, p)})
		}
		for _, x := range []struct {
			name   string
			points []string
		}{{aName, pa}, {bName, pb}} {
			for _, p := range x.points {
				if !slices.Contains(common, p) {
					notes = append(notes, fmt.Sprintf("point %s is only in %s: not compared", orText(p, "(no sweep point)"), x.name))
				}
			}
		}
		return sets, notes
	}
	// Two single points that differ are what the user asked to compare
	// (threads=1 of one sweep against threads=8 of another); several are
	// pooled, which the note says.
	if len(pa) > 1 || len(pb) > 1 {
		notes = append(notes, "the groups have no sweep point in common: each is taken whole, mixing its points")
	}
	return []Set{{A: a, B: b}}, notes
}

// CompareRows computes every figure of two groups of runs and its verdict
// at alpha: overall throughput and, for TPC-C runs, tpmC, then for each operation its throughput,
// average latency, latency percentiles and operations not OK.
func CompareRows(a, b []Run, kind LatencyKind, alpha float64) []Row {
	fa := make([]Figures, len(a))
	fb := make([]Figures, len(b))
	var ops []string
	for i, r := range a {
		fa[i] = FiguresOf(r.Res, kind)
		ops = append(ops, fa[i].Order...)
	}
	for i, r := range b {
		fb[i] = FiguresOf(r.Res, kind)
		ops = append(ops, fb[i].Order...)
	}
	SortOpNames(ops)
	ops = slices.Compact(ops)

	type getter func(f Figures) (float64, bool)
	var rows []Row
	add := func(op, figure, unit string, higher bool, get getter) {
		row := Row{Op: op, Figure: figure, Unit: unit, HigherIsBetter: higher}
		for _, f := range fa {
			if v, ok := get(f); ok {
				row.A = append(row.A, v)
			}
		}
		for _, f := range fb {
			if v, ok := get(f); ok {
				row.B = append(row.B, v)
			}
		}
		switch {
		case len(row.A) == 0 && len(row.B) == 0:
			return
		case len(row.A) == 0:
			row.Why = "no " + strings.TrimSpace(op+" "+figure) + " on side A"
		case len(row.B) == 0:
			row.Why = "no " + strings.TrimSpace(op+" "+figure) + " on side B"
		default:
			row.Verdict = stats.Verdict(row.A, row.B, alpha, higher)
			row.AdjustedP, row.Family = row.Verdict.P, 1
		}
		rows = append(rows, row)
	}
	add("", "throughput", "ops/s", true, func(f Figures) (float64, bool) { return f.Throughput, true })
	// Only TPC-C runs have a tpmC: for others the row is left out.
	add("", TpmCFigure, "", true, func(f Figures) (float64, bool) { return f.TpmC, f.HasTpmC })
	for _, op := range ops {
		// With one operation its throughput is the overall one.
		if len(ops) > 1 {
			add(op, "throughput", "ops/s", true, func(f Figures) (float64, bool) {
				o := f.Ops[op]
				if o == nil {
					return 0, true
				}
				return o.Throughput, true
			})
		}
		// The average is the headline of most published comparisons.
		add(op, "avg", "us", false, func(f Figures) (float64, bool) { return f.Ops[op].Latency("avg") })
		for _, p := range Percentiles {
			add(op, "p"+p, "us", false, func(f Figures) (float64, bool) { return f.Ops[op].Latency(p) })
		}
		add(op, NotOKFigure, "", false, func(f Figures) (float64, bool) {
			if o := f.Ops[op]; o != nil {
				return float64(o.NotOK), true
			}
			return 0, true
		})
	}
	return rows
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
