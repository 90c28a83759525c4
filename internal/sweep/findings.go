package sweep

import (
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/tpcc"

	"slices"
	"strconv"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
	"github.com/mongobench/mongobench/internal/workload"
)

// Ops adds the operations a point's workload issues to ops, so that a
// table's columns are known before anything runs and its rows can print
// as they come: a load inserts; a run issues each operation of non-zero
// proportion.
func Ops(ops []string, command string, spec *workload.Spec) []string {
	if command == "load" {
		if !slices.Contains(ops, "INSERT") {
			ops = append(ops, "INSERT")
		}
		return ops
	}
	if spec.TPCC {
		for _, n := range tpcc.OpNames {
			if !slices.Contains(ops, n) {
				ops = append(ops, n)
			}
		}
		return ops
	}
	names := [...]string{
		workload.TxRead: "READ", workload.TxUpdate: "UPDATE", workload.TxInsert: "INSERT",
		workload.TxScan: "SCAN", workload.TxReadModifyWrite: "READ-MODIFY-WRITE", workload.TxDelete: "DELETE",
	}
	for tx, p := range spec.Proportions {
		if p > 0 && !slices.Contains(ops, names[tx]) {
			ops = append(ops, names[tx])
		}
	}
	return ops
}

// CountedResults are the results of a point's trials that count.
func CountedResults(trials []Trial) []*results.Results {
	var rs []*results.Results
	for _, t := range trials {
		if t.Counts() {
			rs = append(rs, t.Results)
		}
	}
	return rs
}

// CountedDiagnoses are the diagnoses of the trials that count in a
// point's figures, made now for results written before runs were
// diagnosed.
func CountedDiagnoses(trials []Trial) []*results.Diagnosis {
	var ds []*results.Diagnosis
	for _, t := range trials {
		if t.Counts() {
			ds = append(ds, diagnosis.Of(t.Results))
		}
	}
	return ds
}

// SeriesFinding states what a series found over its finished points: along
// the target rate, the targets it kept; along another dimension, its knee
// (or why there is none) and what limited the point past it. Prefixed by
// the series' label when it has one; "" when the sweep varies nothing to
// seek a knee along.
func SeriesFinding(x string, opts stats.KneeOptions, sr *Series, done []PointResult) string {
	if x == "" {
		return ""
	}
	prefix := ""
	if sr.Label != "" {
		prefix = sr.Label + ": "
	}
	if x == analysis.RateDim {
		// Throughput follows the target by construction: a rate sweep is
		// judged by whether each target was kept.
		return prefix + "rate: " + RateVerdict(x, done).Text
	}
	k := analysis.KneeOf(x, KneePoints(x, done, false), opts)
	if k.Found {
		if b := BeyondKnee(x, k, done); b != "" {
			return prefix + k.Text + "; " + b
		}
	}
	return prefix + k.Text
}

// BeyondKnee names what limited the runs past the knee: the point after
// it, where the step showed saturation (the knee itself when it is the
// last), by its trials' most frequent verdict.
func BeyondKnee(x string, k analysis.Knee, done []PointResult) string {
	at := k.Result.Next
	if at.X == 0 {
		at = k.Result.Knee
	}
	for _, pr := range done {
		if v, err := strconv.ParseFloat(pr.Point.Values[x], 64); err == nil && v == at.X {
			return diagnosis.BeyondMost(k.Result.Knee.X, analysis.KneeDims[x], CountedDiagnoses(pr.Trials))
		}
	}
	return ""
}

// RateVerdict is the verdict of a series along the target rate: up to
// which target it kept its schedule, over its finished points.
func RateVerdict(x string, done []PointResult) analysis.RateVerdict {
	var pts []analysis.RatePoint
	for _, pr := range done {
		v, err := strconv.ParseFloat(pr.Point.Values[x], 64)
		if rs := CountedResults(pr.Trials); err == nil && len(rs) > 0 {
			pts = append(pts, analysis.RatePointOf(v, rs))
		}
	}
	return analysis.RateVerdictOf(pts)
}

// DataSizeConfounder says when the data size changed along a series whose
// varied properties do not shape the data (analysis.ShapesData: a native
// workload's parameter does, as its runs record it); "" when it did not.
func DataSizeConfounder(varied []string, x string, done []PointResult) string {
	var pts []analysis.SizePoint
	var config map[string]string
	for _, pr := range done {
		counted := CountedResults(pr.Trials)
		if config == nil && len(counted) > 0 {
			config = counted[0].Config
		}
		v, err := strconv.ParseFloat(pr.Point.Values[x], 64)
		if err != nil {
			continue
		}
		if b, ok := analysis.PointDataSize(counted); ok {
			pts = append(pts, analysis.SizePoint{Label: x + "=" + pr.Point.Values[x], X: v, Bytes: b})
		}
	}
	return analysis.DataSizeConfounder(varied, config, pts)
}

// TableOps are the operations a sweep's table has columns for: those
// command's phase issues at any point of p, or those of the native
// workload nf (nil for none), in the order tables show them.
func (p *Plan) TableOps(command string, nf *native.File) []string {
	var ops []string
	for _, pt := range p.Points {
		ops = Ops(ops, command, pt.Settings.Spec)
	}
	if nf != nil {
		ops = nf.OpNames(command)
	}
	analysis.SortOpNames(ops)
	return ops
}
