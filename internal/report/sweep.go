package report

import (
	"html/template"
	"math"
	"slices"
	"sort"

	"github.com/mongobench/mongobench/internal/results"
)

// sweepAxis returns the axis of a sweep's varied values: logarithmic when
// they span a factor of 8 or more (thread counts 1 … 256), linear
// otherwise, and always for a sweep of target rates: achieved against
// target is read against the diagonal it should follow, which a
// logarithmic x under a linear y would bend.
func sweepAxis(varied string, xs []float64) axis {
	vs := uniqueSorted(xs)
	if varied != "target" && len(vs) > 0 && vs[0] > 0 && vs[len(vs)-1]/vs[0] >= 8 {
		return newLogAxisAt(vs, formatX)
	}
	return newLinearAxisAt(vs, formatX)
}

// buildSweep builds the sweep section: throughput and p99 against the
// varied setting with their confidence intervals and the knee, latency per
// operation, and the table of points.
func buildSweep(sw *Sweep) *sweepView {
	words := sweepWords{varied: orDefault(sw.Varied, "x")}
	pts := slices.Clone(sw.Points)
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].X < pts[j].X })
	// A sweep that varies no load setting has no knee to find: saying so
	// is a note, not an alarm.
	sv := &sweepView{Title: "Sweep of " + words.varied, KneeSentence: sw.KneeSentence, KneeIsNote: sw.NotAlongLoad}
	xs := make([]float64, len(pts))
	for i, p := range pts {
		xs[i] = p.X
	}
	xAxis := sweepAxis(sw.Varied, xs)
	var marks func(y float64) []mark
	marks = func(float64) []mark { return nil }
	if sw.Knee != nil {
		k := *sw.Knee
		marks = func(y float64) []mark { return []mark{{x: k.X, y: y, label: "knee: " + words.at(k.X)}} }
	}

	var runs []*results.Results
	for _, p := range pts {
		runs = append(runs, p.Runs...)
	}
	rate := rateUnitOf(runs)
	tp := series{name: "throughput", color: colorB}
	var vs, los, his []float64
	for _, p := range pts {
		pt := point{x: p.X, y: p.Throughput, lo: p.ThroughputLo, hi: p.ThroughputHi, hasErr: p.ThroughputHi > p.ThroughputLo,
			tip: words.at(p.X) + ": " + rate.format(p.Throughput) + ciText(p.ThroughputLo, p.ThroughputHi, formatNum) + trialsText(p.Trials)}
		tp.points = append(tp.points, pt)
		vs, los, his = append(vs, p.Throughput), append(los, p.ThroughputLo), append(his, p.ThroughputHi)
	}
	_, hi := spanOf(vs, los, his)
	tc := lineChart{title: "Throughput against " + words.axisLabel(), x: xAxis, y: newLinearAxis(0, hi, true, formatCompact),
		xLabel: words.axisLabel(), yLabel: rate.long, series: []series{tp}}
	if sw.Knee != nil {
		tc.marks = marks(sw.Knee.Throughput)
	}
	sv.Figures = append(sv.Figures, figureView{
		ID: "sweep-throughput", Title: "Throughput against " + words.axisLabel(),
		Sentence: sweepThroughputCaption(words, pts),
		Note:     "Mean throughput at each point; error bars are 95% confidence intervals over the trials" + tc.clippedNote() + kneeNote(sw.Knee) + ".",
		SVG:      template.HTML(tc.render()),
	})

	if f, ok := sweepTpmCFigure(words, xAxis, pts); ok {
		// TPC-C's own figure, the paper's: drawn first.
		sv.Figures = append([]figureView{f}, sv.Figures...)
	}

	lat := series{name: "p99", color: percentileColors["99"]}
	vs, los, his = nil, nil, nil
	for _, p := range pts {
		lat.points = append(lat.points, point{x: p.X, y: p.P99us, lo: p.P99Lo, hi: p.P99Hi, hasErr: p.P99Hi > p.P99Lo,
			tip: words.at(p.X) + ": p99 " + formatLatency(p.P99us) + ciText(p.P99Lo, p.P99Hi, formatLatency) + trialsText(p.Trials)})
		vs, los, his = append(vs, p.P99us), append(los, p.P99Lo), append(his, p.P99Hi)
	}
	lo, lhi := spanOf(vs, los, his)
	lc := lineChart{title: "p99 latency against " + words.axisLabel(), x: xAxis, y: latencyAxis(lo, lhi),
		xLabel: words.axisLabel(), yLabel: "p99 latency", series: []series{lat}}
	if sw.Knee != nil {
		lc.marks = marks(sw.Knee.P99us)
	}
	sv.Figures = append(sv.Figures, figureView{
		ID: "sweep-p99", Title: "p99 latency against " + words.axisLabel(),
		Sentence: sweepLatencyCaption(words, pts, sw.Knee),
		Note:     "Mean p99 latency at each point; error bars are 95% confidence intervals over the trials" + lc.clippedNote() + axisNote(lc.y) + kneeNote(sw.Knee) + ".",
		SVG:      template.HTML(lc.render()),
	})

	ops := sweepOps(pts)
	if len(ops) > 0 {
		oc := lineChart{title: "Latency per operation against " + words.axisLabel(), x: xAxis, xLabel: words.axisLabel(), yLabel: "latency"}
		lo, hi := math.Inf(1), 0.0
		for _, op := range ops {
			avg := series{name: op + " avg", color: opColor(op), dashed: true}
			p99 := series{name: op + " p99", color: opColor(op)}
			for _, p := range pts {
				f, ok := p.PerOp[op]
				if !ok {
					continue
				}
				avg.points = append(avg.points, point{x: p.X, y: f.AvgUs, tip: words.at(p.X) + ": " + op + " average " + formatLatency(f.AvgUs)})
				p99.points = append(p99.points, point{x: p.X, y: f.P99us, tip: words.at(p.X) + ": " + op + " p99 " + formatLatency(f.P99us)})
				for _, v := range []float64{f.AvgUs, f.P99us} {
					if v > 0 {
						lo = math.Min(lo, v)
					}
					hi = math.Max(hi, v)
				}
			}
			oc.series = append(oc.series, p99, avg)
		}
		oc.y = latencyAxis(lo, hi)
		sv.Figures = append(sv.Figures, figureView{
			ID: "sweep-ops", Title: "Latency per operation against " + words.axisLabel(),
			Sentence: sweepOpCaption(words, pts, ops),
			Note:     "Solid lines are p99, dashed lines the average, of each operation" + axisNote(oc.y) + ".",
			SVG:      template.HTML(oc.render()),
		})
	}

	// The table's latencies in one unit: "36.9" under "p99 (ms)", not
	// "36,863" under "p99 (µs)".
	var lats []float64
	for _, p := range pts {
		lats = append(lats, p.P99us)
		for _, f := range p.PerOp {
			lats = append(lats, f.AvgUs, f.P99us)
		}
	}
	lu := latencyUnitFor(lats...)
	in := func(us float64) float64 { return us / lu.us }
	sv.Head = []string{words.axisLabel(), "trials", "throughput (" + rate.short + ")", "p99 (" + lu.name + ")"}
	for _, op := range ops {
		sv.Head = append(sv.Head, op+" avg ("+lu.name+")", op+" p99 ("+lu.name+")")
	}
	for _, p := range pts {
		cells := []cell{{V: orDefault(p.Label, formatX(p.X))}, {V: formatInt(int64(p.Trials))},
			{formatNum(p.Throughput), ciRange(p.ThroughputLo, p.ThroughputHi)},
			{formatNum(in(p.P99us)), ciRange(in(p.P99Lo), in(p.P99Hi))}}
		for _, op := range ops {
			f, ok := p.PerOp[op]
			if !ok {
				cells = append(cells, cell{V: "–"}, cell{V: "–"})
				continue
			}
			cells = append(cells, cell{V: formatNum(in(f.AvgUs))}, cell{V: formatNum(in(f.P99us))})
		}
		sv.Rows = append(sv.Rows, sweepRow{Cells: cells, Knee: sw.Knee != nil && p.X == sw.Knee.X})
	}
	sv.Regime = sweepRegime(words, pts)
	return sv
}

func kneeNote(k *KneeMark) string {
	if k == nil {
		return ""
	}
	return "; the dashed rule marks the knee"
}

// sweepOps lists the operations of a sweep's points in summary order.
func sweepOps(pts []SweepPoint) []string {
	seen := map[string]bool{}
	var ops []string
	for _, p := range pts {
		for op := range p.PerOp {
			if !seen[op] {
				seen[op] = true
				ops = append(ops, op)
			}
		}
	}
	sort.Strings(ops)
	sortOps(ops)
	return ops
}

func ciText(lo, hi float64, f func(float64) string) string {
	if !(hi > lo) {
		return ""
	}
	return " (95% CI " + f(lo) + " – " + f(hi) + ")"
}

// rangeText formats a confidence interval for the small print of a cell;
// empty when there is none.
func rangeText(lo, hi float64, f func(float64) string) string {
	if !(hi > lo) {
		return ""
	}
	return "95% CI " + f(lo) + " – " + f(hi)
}

func ciRange(lo, hi float64) string { return rangeText(lo, hi, formatNum) }

func trialsText(n int) string {
	switch {
	case n == 1:
		return ", 1 trial"
	case n > 1:
		return ", " + formatInt(int64(n)) + " trials"
	}
	return ""
}
