package report

import (
	"html/template"
	"math"
	"strconv"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
)

// spectrumFigure charts the percentile distribution of every operation's
// whole-run histogram, or says why it cannot.
func spectrumFigure(id string, r *results.Results) (figureView, string) {
	sum, err := r.Summary()
	if err != nil {
		return figureView{}, "The percentile spectrum is not shown: the histograms of this results file cannot be read (" + err.Error() + ")."
	}
	var ss []series
	var lines []spectrumLine
	lo, hi, maxCount := math.Inf(1), 0.0, int64(0)
	hasIntended := false
	for _, m := range sum.Measurements {
		if m.Failed || !charted(m.Op.String()) {
			continue
		}
		for _, h := range []struct {
			hist     *hdrhistogram.Histogram
			intended bool
		}{{m.Service, false}, {m.Intended, true}} {
			if h.hist == nil || h.hist.TotalCount() == 0 {
				continue
			}
			name := m.Name
			if h.intended {
				name += " (intended)"
				hasIntended = true
			}
			pts := spectrumPoints(h.hist, name)
			for _, p := range pts {
				if p.y > 0 {
					lo = math.Min(lo, p.y)
				}
				hi = math.Max(hi, p.y)
			}
			maxCount = max(maxCount, h.hist.TotalCount())
			ss = append(ss, series{name: name, color: opColor(m.Name), dashed: h.intended, points: pts})
			if !h.intended || m.Service == nil {
				ps := measure.Percentiles(h.hist, []float64{50, 99, 99.9})
				lines = append(lines, spectrumLine{name: m.Name, count: h.hist.TotalCount(),
					p50: float64(ps[0]), p99: float64(ps[1]), p999: float64(ps[2]), maxV: float64(h.hist.Max())})
			}
		}
	}
	if len(ss) == 0 {
		return figureView{}, "The percentile spectrum is not shown: no operation succeeded."
	}
	c := lineChart{
		title:  "Percentile spectrum",
		x:      newPercentileAxis(100 * (1 - 1/float64(min(maxCount, 1_000_000)))),
		y:      latencyAxis(lo, hi),
		xLabel: "percentile (each step to the right is ten times rarer)",
		yLabel: "latency",
		series: ss,
	}
	note := "Latency at each percentile of the whole run, from the HDR histograms; the last point of each line is its maximum" + axisNote(c.y) + "."
	if hasIntended {
		note += " Dashed lines are intended latency, counted from when each operation should have started."
	}
	return figureView{
		ID:       id + "-spectrum",
		Title:    "Percentile spectrum",
		Sentence: spectrumCaption(lines),
		Note:     note,
		SVG:      template.HTML(c.render()),
	}, ""
}

// spectrumPoints samples h at ten percentiles per decade of the HDR scale
// (0%, 20.6%, 36.9%, … 90%, … 99%, …) up to one in as many values as it
// holds (one in a million at most), then its maximum.
func spectrumPoints(h *hdrhistogram.Histogram, name string) []point {
	n := h.TotalCount()
	if n == 0 {
		return nil
	}
	top := float64(min(n, 1_000_000))
	var ps []float64
	for k := 0; ; k++ {
		odds := math.Pow(10, float64(k)/10)
		if odds >= top*(1-1e-9) {
			break
		}
		ps = append(ps, 100*(1-1/odds))
	}
	vals := measure.Percentiles(h, ps)
	pts := make([]point, 0, len(ps)+1)
	for i, q := range ps {
		pts = append(pts, point{x: q, y: float64(vals[i]), tip: name + " p" + formatPercentile(q) + ": " + formatLatency(float64(vals[i]))})
	}
	pts = append(pts, point{x: 100 * (1 - 1/top), y: float64(h.Max()), tip: name + " max: " + formatLatency(float64(h.Max()))})
	return pts
}

// formatPercentile formats a percentile with the digits that matter: one
// decimal in the body, one more for each nine of the tail ("36.9",
// "99.99"), and none that are zero.
func formatPercentile(q float64) string {
	decimals := max(1, int(math.Ceil(hdrOdds(q)))-2)
	return trimZeros(strconv.FormatFloat(q, 'f', decimals, 64))
}
