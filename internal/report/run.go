package report

import (
	"fmt"
	"html/template"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
)

// opColor gives each operation the same colour in every chart.
func opColor(name string) string {
	name = strings.TrimPrefix(name, "Intended-")
	name = strings.TrimSuffix(name, "-FAILED")
	op, ok := db.ParseOp(name)
	if !ok || op == db.Cleanup {
		return palette[len(palette)-1]
	}
	return palette[int(op)%(len(palette)-1)]
}

// charted reports whether an operation gets lines in the charts. CLEANUP
// is timed once per worker at the end; its few samples would only add
// noise to the charts (the summary table still lists it).
func charted(op string) bool { return op != db.Cleanup.String() }

// buildRun builds the section of one run.
func buildRun(anchor string, r *results.Results, name string) runView {
	rv := runView{ID: anchor, Name: capitalize(name), Partial: r.Partial}
	if len(r.Command) > 0 {
		rv.Command = strings.Join(redact.Args(r.Command), " ")
	}
	rv.Overall = fmt.Sprintf("[OVERALL] RunTime %s ms · Throughput %s ops/sec · %s operations",
		formatInt(r.RuntimeMs), formatNum(r.ThroughputOpsSec), formatInt(r.Operations))
	rv.Summary = summaryRows(r)
	if r.RecordStalls > 0 || r.ClampedValues > 0 {
		rv.Notes = append(rv.Notes, fmt.Sprintf("%s operations waited for the collector to record them; %s latencies fell outside the histogram's range and were recorded at its bound.",
			formatInt(r.RecordStalls), formatInt(r.ClampedValues)))
	}
	id := rv.ID
	// A chart over time of one or two intervals is a dot or a line
	// between two dots: it says nothing the summary does not.
	overTime := len(r.Intervals) >= minTimeSeriesIntervals
	if !overTime {
		rv.Notes = append(rv.Notes, fmt.Sprintf("The run lasted %s, %s of the status interval: too short for charts over time, its figures are in the summary above.",
			formatSeconds(float64(r.RuntimeMs)/1000), plural(len(r.Intervals), "interval")))
	}
	if f, ok := throughputFigure(id, r); ok && overTime {
		rv.Figures = append(rv.Figures, f)
	}
	if overTime {
		figs, notes := latencyFigures(id, r)
		rv.Figures = append(rv.Figures, figs...)
		rv.Notes = append(rv.Notes, notes...)
	}
	rv.Notes = append(rv.Notes, shardingNotes(r)...)
	rv.TPCC = tpccTable(r)
	if f, note := spectrumFigure(id, r); note != "" {
		rv.Notes = append(rv.Notes, note)
	} else {
		rv.Figures = append(rv.Figures, f)
	}
	// A series written empty gets its section, saying nothing was
	// recorded; only an absent one gets none.
	if x := r.Extra; x != nil && x.ServerMetrics != nil && overTime {
		rv.Metrics = append(rv.Metrics, metricsSection(id+"-server", "Server metrics", "server", serverSamples(x.ServerMetrics)))
	}
	if x := r.Extra; x != nil && x.HostMetrics != nil && overTime {
		rv.Metrics = append(rv.Metrics, metricsSection(id+"-host", "Host metrics", "host", hostSamples(x.HostMetrics)))
	}
	return rv
}

// minTimeSeriesIntervals is the fewest status intervals a run needs for
// its charts over time.
const minTimeSeriesIntervals = 3

// summaryRows is YCSB's text summary as a table: service latency first,
// then intended latency, each in the results file's order.
func summaryRows(r *results.Results) []summaryRow {
	var rows []summaryRow
	add := func(m results.MeasurementResult, lr *results.LatencyResult, intended bool) {
		name := m.Name
		if intended {
			name = "Intended-" + name
		}
		row := summaryRow{Name: name, Failed: m.Failed, Intended: intended, Count: formatInt(lr.Count)}
		if lr.Count > 0 {
			row.Avg = formatNum(lr.MeanUs)
			row.Max = formatInt(lr.MaxUs)
			pct := func(k string) string {
				v, ok := lr.PercentilesUs[k]
				if !ok {
					return "–"
				}
				return formatInt(v)
			}
			row.P50, row.P95, row.P99, row.P999 = pct("50"), pct("95"), pct("99"), pct("99.9")
		} else {
			row.Avg, row.Max, row.P50, row.P95, row.P99, row.P999 = "–", "–", "–", "–", "–", "–"
		}
		if !m.Failed && !intended {
			row.Returns = statusText(r.Status[m.Op])
		}
		rows = append(rows, row)
	}
	for _, m := range r.Measurements {
		if m.Service != nil {
			add(m, m.Service, false)
		}
	}
	for _, m := range r.Measurements {
		if m.Intended != nil {
			add(m, m.Intended, true)
		}
	}
	return rows
}

// statusText lists status counts in the order YCSB defines the statuses:
// "OK 196,890 · NOT_FOUND 12".
func statusText(counts map[string]int64) string {
	names := sortedKeys(counts)
	sort.SliceStable(names, func(i, j int) bool {
		a, aok := db.ParseStatus(names[i])
		b, bok := db.ParseStatus(names[j])
		if aok != bok {
			return aok
		}
		return aok && a < b
	})
	parts := make([]string, 0, len(names))
	for _, n := range names {
		if counts[n] != 0 {
			parts = append(parts, n+" "+formatInt(counts[n]))
		}
	}
	return strings.Join(parts, " · ")
}

// chartedIntervals returns the status intervals to chart over time. A run
// that stops between two status lines ends with an interval of a few
// milliseconds, the stop itself: its rate, often 0 ops/s, says nothing of
// the server, yet it drew a cliff at the end of the throughput chart and
// dragged the caption's "last third" down. A last interval shorter than a
// tenth of the one before it is left out, and its length returned for the
// chart's note; its operations stay in the summary.
func chartedIntervals(ivs []results.IntervalResult) ([]results.IntervalResult, float64) {
	n := len(ivs)
	if n < 2 {
		return ivs, 0
	}
	last, prev := ivs[n-1].EndS-ivs[n-1].StartS, ivs[n-2].EndS-ivs[n-2].StartS
	if prev > 0 && last < prev/10 {
		return ivs[:n-1], last
	}
	return ivs, 0
}

// cutNote is the note on a chart over time whose last sliver of an
// interval was left out.
func cutNote(cut float64) string {
	if cut <= 0 {
		return ""
	}
	return "; the run's last " + formatLatency(cut*1e6) + ", too short an interval for a rate, are left out"
}

// throughputFigure charts the operations per second of every status
// interval, in total and per operation.
func throughputFigure(id string, r *results.Results) (figureView, bool) {
	ivs, cut := chartedIntervals(r.Intervals)
	if len(ivs) == 0 {
		return figureView{}, false
	}
	total := series{name: "all operations", color: colorTotal}
	perOp := map[string]*series{}
	var opOrder []string
	end := 0.0
	var capPts []tsPoint
	tips := hasMarkers(len(ivs))
	for _, iv := range ivs {
		end = math.Max(end, iv.EndS)
		pt := point{x: iv.EndS, y: iv.OpsPerSec}
		if tips {
			pt.tip = formatSeconds(iv.EndS) + ": " + formatRate(iv.OpsPerSec)
		}
		total.points = append(total.points, pt)
		capPts = append(capPts, tsPoint{t: iv.EndS, v: iv.OpsPerSec})
		dur := iv.EndS - iv.StartS
		for _, m := range iv.Measurements {
			lr := m.Service
			if lr == nil {
				lr = m.Intended
			}
			if lr == nil || !charted(m.Op) {
				continue
			}
			s := perOp[m.Name]
			if s == nil {
				s = &series{name: m.Name, color: opColor(m.Name), dashed: m.Failed}
				perOp[m.Name] = s
				opOrder = append(opOrder, m.Name)
			}
			v := math.NaN()
			if dur > 0 {
				v = float64(lr.Count) / dur
			}
			pt := point{x: iv.EndS, y: v}
			if tips {
				pt.tip = formatSeconds(iv.EndS) + ": " + m.Name + " " + formatRate(v)
			}
			s.points = append(s.points, pt)
		}
	}
	c := lineChart{
		title:  "Throughput over time",
		x:      timeAxis(end),
		xLabel: "time since start",
		yLabel: "operations per second",
	}
	c.series = append(c.series, total)
	sched, paced := scheduledSeries(r, ivs)
	if paced {
		c.series = append(c.series, sched)
	}
	// With one kind of operation its line would lie on the total's.
	if len(opOrder) > 1 || (len(opOrder) == 1 && opOrder[0] != "" && hasFailed(perOp)) {
		sortOps(opOrder)
		for _, n := range opOrder {
			c.series = append(c.series, *perOp[n])
		}
	}
	hi := 0.0
	for _, s := range c.series {
		for _, p := range s.points {
			if isFinite(p.y) {
				hi = math.Max(hi, p.y)
			}
		}
	}
	c.y = newLinearAxis(0, hi, true, formatCompact)
	return figureView{
		ID:       id + "-throughput",
		Title:    "Throughput over time",
		Sentence: throughputCaption(capPts),
		Note:     "Operations completed per second in each status interval, plotted at the interval's end" + perOpNote(hasFailed(perOp)) + scheduledNote(paced) + cutNote(cut) + ".",
		SVG:      template.HTML(c.render()),
	}, true
}

func perOpNote(perOp bool) string {
	if perOp {
		return "; dashed lines are failed operations"
	}
	return ""
}

func hasFailed(m map[string]*series) bool {
	for _, s := range m {
		if s.dashed {
			return true
		}
	}
	return false
}

// sortOps orders measurement names as the summary does: by operation, then
// successes before failures.
func sortOps(names []string) {
	rank := func(n string) int {
		failed := strings.HasSuffix(n, "-FAILED")
		op, ok := db.ParseOp(strings.TrimSuffix(n, "-FAILED"))
		r := db.NumOps * 2
		if ok {
			r = int(op) * 2
		}
		if failed {
			r++
		}
		return r
	}
	sort.SliceStable(names, func(i, j int) bool {
		ri, rj := rank(names[i]), rank(names[j])
		if ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
}

// Colours of the percentile lines of latency over time: light to dark as the
// percentile rises.
var percentileColors = map[string]string{"50": "#009E73", "95": "#E69F00", "99": "#D55E00"}

// latencyFigures charts p50, p95 and p99 over time, one chart per
// operation.
func latencyFigures(id string, r *results.Results) ([]figureView, []string) {
	type opSeries struct {
		name string
		pts  map[string][]tsPoint
	}
	byOp := map[string]*opSeries{}
	var order []string
	end := 0.0
	missing := false
	intended := false
	// The same intervals as the throughput chart, so that the time axes
	// of a run's charts line up.
	ivs, _ := chartedIntervals(r.Intervals)
	for _, iv := range ivs {
		end = math.Max(end, iv.EndS)
		for _, m := range iv.Measurements {
			if m.Failed || !charted(m.Op) {
				continue
			}
			lr := m.Service
			if lr == nil {
				lr, intended = m.Intended, true
			}
			if lr == nil || lr.Count == 0 {
				continue
			}
			if lr.PercentilesUs == nil {
				missing = true
				continue
			}
			s := byOp[m.Name]
			if s == nil {
				s = &opSeries{name: m.Name, pts: map[string][]tsPoint{}}
				byOp[m.Name] = s
				order = append(order, m.Name)
			}
			for _, k := range []string{"50", "95", "99"} {
				if v, ok := lr.PercentilesUs[k]; ok {
					s.pts[k] = append(s.pts[k], tsPoint{t: iv.EndS, v: float64(v)})
				}
			}
		}
	}
	var notes []string
	if missing && len(order) == 0 {
		notes = append(notes, "Latency over time is not shown: these intervals carry no percentiles (intervals merged from several clients cannot combine them).")
	}
	kind := "service"
	if intended {
		kind = "intended"
	}
	sortOps(order)
	var figs []figureView
	for _, name := range order {
		s := byOp[name]
		lo, hi := math.Inf(1), 0.0
		for _, pts := range s.pts {
			for _, p := range pts {
				if p.v > 0 {
					lo = math.Min(lo, p.v)
				}
				hi = math.Max(hi, p.v)
			}
		}
		c := lineChart{
			title:  name + " latency over time",
			x:      timeAxis(end),
			y:      latencyAxis(lo, hi),
			xLabel: "time since start",
			yLabel: kind + " latency",
		}
		for _, k := range []string{"50", "95", "99"} {
			ls := series{name: "p" + k, color: percentileColors[k]}
			tips := hasMarkers(len(s.pts[k]))
			for _, p := range s.pts[k] {
				pt := point{x: p.t, y: p.v}
				if tips {
					pt.tip = formatSeconds(p.t) + ": " + name + " p" + k + " " + formatLatency(p.v)
				}
				ls.points = append(ls.points, pt)
			}
			c.series = append(c.series, ls)
		}
		figs = append(figs, figureView{
			ID:       id + "-latency-" + strings.ToLower(name),
			Title:    name + " latency over time",
			Sentence: latencyTimeCaption(name, s.pts["50"], s.pts["99"]),
			Note:     "The " + kind + " latency percentiles of each status interval, plotted at the interval's end" + axisNote(c.y) + ".",
			SVG:      template.HTML(c.render()),
		})
	}
	return figs, notes
}

func axisNote(a axis) string {
	if a.kind == logAxis {
		return "; the latency axis is logarithmic"
	}
	return ""
}

// metricsSection charts a run's server or host metrics.
func metricsSection(id, title, who string, samples []metricSample) metricsView {
	mv := metricsView{Title: title}
	d := parseMetrics(samples)
	if d.skipped > 0 {
		mv.Notes = append(mv.Notes, fmt.Sprintf("%s samples without a time were left out.", formatInt(int64(d.skipped))))
	}
	if d.truncated {
		mv.Notes = append(mv.Notes, fmt.Sprintf("Only the first %d fields are shown.", maxMetricSeries))
	}

	if len(d.absent) > 0 {
		mv.Absent = "Not reported by this " + who + ": " + strings.Join(d.absent, ", ") + "."
	}
	var constant []string
	for gi, g := range d.groups {
		if !g.hasValues() {
			continue
		}
		// A figure that never moved is a fact, not a chart: it is listed
		// with its value below the charts.
		varying := g.series[:0:0]
		for _, s := range g.series {
			vs := finiteValues(s.points)
			if len(vs) == 0 {
				continue
			}
			lo, hi := slices.Min(vs), slices.Max(vs)
			if hi-lo <= 1e-9*math.Max(math.Abs(lo), math.Abs(hi)) {
				constant = append(constant, metricWords(g.prefix, s.name, who)+" "+formatUnit(lo, g.unit))
				continue
			}
			s.name = leafWords(s.name)
			varying = append(varying, s)
		}
		if len(varying) == 0 {
			continue
		}
		g.series = varying
		vs := g.allValues()
		hi := slices.Max(vs)
		lo := math.Min(0, slices.Min(vs))
		y := newLinearAxis(lo, hi, true, unitTick(g.unit))
		switch {
		case (g.unit == "bytes" || g.unit == "bytes/s") && lo >= 0:
			y = newBytesAxis(hi, unitTick(g.unit))
		case g.unit == "µs":
			y = inOneUnit(y)
		case g.unit == "ms":
			y = inOneUnitOf(y, 1000)
		}
		c := lineChart{
			x:      timeAxis(g.lastTime()),
			y:      y,
			xLabel: "time since start",
			yLabel: unitTitle(g.unit),
		}
		name := metricGroupWords(g.prefix, who)
		c.title = name
		if g.unit != "" {
			c.title += " (" + unitTitle(g.unit) + ")"
		}
		for si, s := range g.series {
			ls := series{name: s.name, color: palette[si%len(palette)]}
			tips := hasMarkers(len(s.points))
			for _, p := range s.points {
				pt := point{x: p.t, y: p.v}
				if tips {
					pt.tip = formatSeconds(p.t) + ": " + s.name + " " + formatUnit(p.v, g.unit)
				}
				ls.points = append(ls.points, pt)
			}
			c.series = append(c.series, ls)
		}
		mv.Figures = append(mv.Figures, figureView{
			ID:       fmt.Sprintf("%s-%d", id, gi+1),
			Title:    c.title,
			Sentence: metricsCaption(name, g.series, g.unit),
			SVG:      template.HTML(c.render()),
		})
	}
	if len(constant) > 0 {
		const shown = 12
		more := ""
		if len(constant) > shown {
			more = fmt.Sprintf(", and %d more", len(constant)-shown)
			constant = constant[:shown]
		}
		mv.Notes = append(mv.Notes, "Held constant over the run (not charted): "+strings.Join(constant, "; ")+more+".")
	}
	if len(mv.Figures) == 0 && mv.Absent == "" && len(mv.Notes) == 0 {
		mv.Notes = append(mv.Notes, "No "+who+" metric was recorded.")
	}
	// Said only where a chart lost the sample: samples without a metric
	// in them are no chart.
	if d.cut > 0 && len(mv.Figures) > 0 {
		mv.Notes = append(mv.Notes, "The last sample, over the run's last "+formatLatency(d.cut*1e6)+", too short for a rate, is left out.")
	}
	return mv
}
