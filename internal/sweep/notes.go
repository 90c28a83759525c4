package sweep

import (
	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/stats"
)

// SeriesNotes are what a finished series of p found: its finding
// (SeriesFinding), judged at the significance level the plan's series
// share, since their knees are stated together; and a data size that
// changed along it (DataSizeConfounder), named by the series' label; ""
// for none.
func (p *Plan) SeriesNotes(knee stats.KneeOptions, sr *Series, done []PointResult) (finding, confounder string) {
	knee.Alpha = analysis.KneeAlpha(0, len(p.Series))
	finding = SeriesFinding(p.X, knee, sr, done)
	if c := DataSizeConfounder(p.Varied, p.X, done); c != "" && sr.Label != "" {
		confounder = sr.Label + ": " + c
	} else {
		confounder = c
	}
	return finding, confounder
}
