package cli

import (
	"strconv"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/sweep"
)

// countedResults are the results of a point's trials that count.
func countedResults(trials []sweep.Trial) []*results.Results {
	var rs []*results.Results
	for _, t := range trials {
		if t.Counts() {
			rs = append(rs, t.Results)
		}
	}
	return rs
}

// sweepRate is the verdict of a series along the target rate: up to
// which target it kept its schedule, over its finished points.
func sweepRate(x string, done []sweep.PointResult) analysis.RateVerdict {
	var pts []analysis.RatePoint
	for _, pr := range done {
		v, err := strconv.ParseFloat(pr.Point.Values[x], 64)
		if rs := countedResults(pr.Trials); err == nil && len(rs) > 0 {
			pts = append(pts, analysis.RatePointOf(v, rs))
		}
	}
	return analysis.RateVerdictOf(pts)
}

// sweepConfounder says when the data size changed along a series whose
// varied properties do not shape the data; "" when it did not.
func sweepConfounder(varied []string, x string, done []sweep.PointResult) string {
	var pts []analysis.SizePoint
	for _, pr := range done {
		v, err := strconv.ParseFloat(pr.Point.Values[x], 64)
		if err != nil {
			continue
		}
		if b, ok := analysis.PointDataSize(countedResults(pr.Trials)); ok {
			pts = append(pts, analysis.SizePoint{Label: x + "=" + pr.Point.Values[x], X: v, Bytes: b})
		}
	}
	return analysis.DataSizeConfounder(varied, pts)
}
