package report

import (
	"html/template"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
)

// studyView is the section of a study: the overlay charts, the pivot
// tables, and the regime table.
type studyView struct {
	Title   string
	Nav     string
	Intro   string
	Figures []figureView
	Pivots  []tableView
	Regime  *tableView
}

// tableView is a plain table: a header, rows of cells, a title and a note.
type tableView struct {
	Title string
	Note  string
	Head  []string
	Rows  [][]cell
}

// studyWords is how a study names its lines: "configuration" or the other
// dimension of a two-dimensional sweep.
func studyWords(st *Study) (by string) {
	return orDefault(st.SeriesBy, "configuration")
}

// buildStudy draws every configuration over the swept setting: one line
// each, with its 95% confidence band and its knee ringed, for throughput,
// average latency and p99 latency; then the tables.
func buildStudy(st *Study) *studyView {
	words := sweepWords{varied: orDefault(st.Varied, "x")}
	by := studyWords(st)
	series := make([]StudySeries, len(st.Series))
	for i, s := range st.Series {
		s.Points = slices.Clone(s.Points)
		sort.SliceStable(s.Points, func(a, b int) bool { return s.Points[a].X < s.Points[b].X })
		series[i] = s
	}
	sv := &studyView{
		Title: capitalize(plural(len(series), by)) + " against " + words.axisLabel(),
		Nav:   "Overlays",
	}
	var xs []float64
	for _, s := range series {
		for _, p := range s.Points {
			xs = append(xs, p.X)
		}
	}
	xAxis := sweepAxis(st.Varied, xs)
	var runs []*results.Results
	for _, s := range series {
		for _, p := range s.Points {
			runs = append(runs, p.Runs...)
		}
	}
	rate := rateUnitOf(runs)
	type figure struct {
		id, what, yLabel string
		get              func(SweepPoint) (v, lo, hi float64)
		trials           func(SweepPoint) []float64
		knee             func(KneeMark) float64
		format           func(float64) string
		latency          bool
	}
	figures := []figure{
		{"study-throughput", "Throughput", rate.long,
			func(p SweepPoint) (float64, float64, float64) { return p.Throughput, p.ThroughputLo, p.ThroughputHi },
			func(p SweepPoint) []float64 { return p.ThroughputTrials },
			func(k KneeMark) float64 { return k.Throughput }, rate.format, false},
		{"study-average", "Average latency", "average latency",
			func(p SweepPoint) (float64, float64, float64) { return p.AvgUs, p.AvgLo, p.AvgHi },
			func(p SweepPoint) []float64 { return p.AvgTrials },
			nil, formatLatency, true},
		{"study-p99", "p99 latency", "p99 latency",
			func(p SweepPoint) (float64, float64, float64) { return p.P99us, p.P99Lo, p.P99Hi },
			func(p SweepPoint) []float64 { return p.P99Trials },
			func(k KneeMark) float64 { return k.P99us }, formatLatency, true},
	}
	if studyHasTpmC(series) {
		// TPC-C's own figure, the paper's: drawn first.
		figures = append([]figure{{"study-tpmc", analysis.TpmCFigure, tpmCUnit.long, tpmCOfPoint, tpmCTrialsOf, nil, tpmCUnit.format, false}}, figures...)
	}
	// Each caption may call one line the best: a pair of lines tested in
	// each figure, all sharing the page's level.
	family := len(figures) * len(series) * (len(series) - 1) / 2
	family = max(family, 1)
	for _, fg := range figures {
		c := lineChart{title: fg.what + " against " + words.axisLabel(), x: xAxis, xLabel: words.axisLabel(), yLabel: fg.yLabel}
		var vs, los, his []float64
		for i, s := range series {
			ls := series_(s.Name, i)
			for _, p := range s.Points {
				v, vlo, vhi := fg.get(p)
				if !(v > 0) {
					continue
				}
				ls.points = append(ls.points, point{x: p.X, y: v, lo: vlo, hi: vhi, hasErr: vhi > vlo,
					tip: s.Name + ", " + words.at(p.X) + ": " + fg.format(v) + ciText(vlo, vhi, fg.format) + trialsText(p.Trials)})
				vs, los, his = append(vs, v), append(los, vlo), append(his, vhi)
			}
			c.series = append(c.series, ls)
			if s.Knee != nil && fg.knee != nil {
				c.marks = append(c.marks, mark{x: s.Knee.X, y: fg.knee(*s.Knee), label: s.Name + ": knee at " + words.at(s.Knee.X), color: ls.color})
			}
		}
		if len(vs) == 0 {
			continue
		}
		lo, hi := spanOf(vs, los, his)
		if fg.latency {
			c.y = latencyAxis(lo, hi)
		} else {
			c.y = newLinearAxis(0, hi, true, formatCompact)
		}
		note := "One line per " + by + "; the shaded band is the 95% confidence interval over the trials" + c.clippedNote()
		if fg.knee != nil && slices.ContainsFunc(series, func(s StudySeries) bool { return s.Knee != nil }) {
			note += "; a ring marks each line's knee"
		}
		sv.Figures = append(sv.Figures, figureView{
			ID: fg.id, Title: c.title,
			Sentence: overlayCaption(fg.what, words, series, fg.get, fg.trials, fg.format, !fg.latency, st.Alpha, family),
			Note:     note + axisNote(c.y) + ".",
			SVG:      template.HTML(c.render()),
		})
	}
	// One unit for the whole latency table.
	var avgs []float64
	for _, s := range series {
		for _, p := range s.Points {
			avgs = append(avgs, p.AvgUs)
		}
	}
	if studyHasTpmC(series) {
		sv.Pivots = append(sv.Pivots, pivotTable("tpmC", words, by, series, tpmCOfPoint, formatNum))
	}
	sv.Pivots = append(sv.Pivots,
		pivotTable("Throughput ("+rate.short+")", words, by, series, func(p SweepPoint) (float64, float64, float64) { return p.Throughput, p.ThroughputLo, p.ThroughputHi }, formatNum),
		pivotTable("Average latency", words, by, series, func(p SweepPoint) (float64, float64, float64) { return p.AvgUs, p.AvgLo, p.AvgHi }, latencyUnitFor(avgs...).format),
	)
	sv.Regime = regimeTable(words, by, series)
	return sv
}

// series_ is the line of the i-th series, in its palette colour, banded.
func series_(name string, i int) series {
	return series{name: name, color: palette[i%len(palette)], band: true}
}

// overlayCaption says how the lines compare at the highest value of the
// swept setting they share. One line is called the best only when
// Welch's test on the trials sets it apart from the next, at the page's
// level shared (Bonferroni) among every pair of lines in each of the
// figures captioned; otherwise the caption says the lines are within the
// noise, or that single trials cannot tell them apart.
func overlayCaption(what string, w sweepWords, ss []StudySeries, get func(SweepPoint) (float64, float64, float64), trials func(SweepPoint) []float64, format func(float64) string, higherBetter bool, alpha float64, family int) string {
	if len(ss) == 0 {
		return "Nothing to draw."
	}
	// The highest value of the swept setting that every line reached.
	common := map[float64]int{}
	for _, s := range ss {
		for _, p := range s.Points {
			if v, _, _ := get(p); v > 0 {
				common[p.X]++
			}
		}
	}
	x, found := math.Inf(-1), false
	for v, n := range common {
		if n == len(ss) && v > x {
			x, found = v, true
		}
	}
	if !found {
		return what + " of each line is in the table below; the lines share no value of " + w.axisLabel() + "."
	}
	type at struct {
		name   string
		v      float64
		trials []float64
	}
	var vals []at
	for _, s := range ss {
		for _, p := range s.Points {
			if p.X == x {
				v, _, _ := get(p)
				vals = append(vals, at{s.Name, v, trials(p)})
				break
			}
		}
	}
	sort.SliceStable(vals, func(i, j int) bool {
		if higherBetter {
			return vals[i].v > vals[j].v
		}
		return vals[i].v < vals[j].v
	})
	if len(vals) == 1 {
		return "At " + w.at(x) + ", " + what + " was " + format(vals[0].v) + "."
	}
	best, next, last := vals[0], vals[1], vals[len(vals)-1]
	lo, hi := last, best
	if !higherBetter {
		lo, hi = best, last
	}
	spread := spreadText(format(lo.v), lo.name, format(hi.v), hi.name, false)
	if len(best.trials) < 2 || len(next.trials) < 2 {
		return "At " + w.at(x) + ", " + lowerFirst(what) + " " + spread + "; with one trial per point the lines cannot be told apart: repeat each point (--repeat 3) to test them."
	}
	level := alphaOf(alpha) / float64(family)
	v := stats.Verdict(next.trials, best.trials, level, higherBetter)
	tested := "Welch's t-test at α=" + strconv.FormatFloat(level, 'g', 2, 64) + ", " + alphaText(alpha) + " shared among " + plural(family, "comparison")
	if v.Kind != stats.Better {
		return "At " + w.at(x) + ", no line's " + lowerFirst(what) + " stands apart from the next: " + lowerFirst(what) + " " + spread + ", within the noise of the trials (" + tested + ", " + stats.PText(v.P) + ")."
	}
	lead := "higher"
	rel := (best.v - next.v) / next.v
	if !higherBetter {
		lead = "lower"
		rel = (next.v - best.v) / next.v
	}
	return "At " + w.at(x) + ", " + best.name + " has the best " + lowerFirst(what) + ", " + format(best.v) + ", " + formatPct(rel) + " " + lead + " than " + next.name + "'s " + format(next.v) + " (" + tested + ", " + stats.PText(v.P) + ")."
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}

// pivotTable is one figure as a matrix: a row per value of the swept
// setting, a column per line (the 002 report's docs/s table).
func pivotTable(title string, w sweepWords, by string, ss []StudySeries, get func(SweepPoint) (float64, float64, float64), format func(float64) string) tableView {
	t := tableView{Title: title + " by " + w.axisLabel() + " and " + by, Head: []string{w.axisLabel()}}
	var xs []float64
	for _, s := range ss {
		t.Head = append(t.Head, s.Name)
		for _, p := range s.Points {
			xs = append(xs, p.X)
		}
	}
	for _, x := range uniqueSorted(xs) {
		row := []cell{{V: formatX(x)}}
		for _, s := range ss {
			c := cell{V: "–"}
			for _, p := range s.Points {
				if p.X == x {
					v, lo, hi := get(p)
					if v > 0 {
						c = cell{V: format(v), Sub: rangeText(lo, hi, format)}
					}
					break
				}
			}
			row = append(row, c)
		}
		t.Rows = append(t.Rows, row)
	}
	t.Note = "Means over the trials of each point; the small print is the 95% confidence interval."
	return t
}

// studyFindings are the study's conclusions: each line's knee, or why it
// has none.
func studyFindings(st *Study) []string {
	var out []string
	for _, s := range st.Series {
		if s.KneeSentence != "" {
			out = append(out, s.Name+": "+lowerKnee(s.KneeSentence))
		}
	}
	return out
}

// lowerKnee makes "Knee: …" or "No knee …" read after a series name.
func lowerKnee(s string) string {
	if len(s) > 0 && s[0] >= 'A' && s[0] <= 'Z' {
		return string(s[0]+'a'-'A') + s[1:]
	}
	return s
}
