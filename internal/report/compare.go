package report

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/mongobench/mongobench/internal/db"
)

// buildComparison builds the comparison section: bars of A and B for each
// figure with their confidence intervals and verdicts, throughputs in one
// chart and latencies in another (or, when there are too many to read
// side by side, one chart per operation), then the table.
func buildComparison(c *Comparison, bars bool, rate rateUnit) *compView {
	a, b := orDefault(c.A, "A"), orDefault(c.B, "B")
	cv := &compView{A: a, B: b, Notes: c.Notes}
	if !bars {
		cv.Rows = compareRows(c, rate)
		return cv
	}
	var rates, tpmC []CompareRow
	latency := map[string][]CompareRow{}
	var opOrder []string
	for _, r := range c.Rows {
		if isTpmC(r) {
			tpmC = append(tpmC, r)
			continue
		}
		if isRate(r) {
			rates = append(rates, r)
			continue
		}
		if _, ok := latency[r.Op]; !ok {
			opOrder = append(opOrder, r.Op)
		}
		latency[r.Op] = append(latency[r.Op], r)
	}
	vs := " against "
	// The whole run's throughput and one operation's differ by the mix:
	// on one axis a 5% INSERT share is a sliver beside the total, so
	// each gets its own chart.
	var overall, perOp []CompareRow
	for _, r := range rates {
		if opOf(r.Op) {
			perOp = append(perOp, r)
		} else {
			overall = append(overall, r)
		}
	}
	// tpmC counts per minute, throughput per second: a chart each.
	cv.Figures = append(cv.Figures, compareFigures("comparison-tpmc", "tpmC: "+b+vs+a, a, b, tpmC, &tpmCUnit)...)
	cv.Figures = append(cv.Figures, compareFigures("comparison-throughput", "Throughput: "+b+vs+a, a, b, overall, &rate)...)
	cv.Figures = append(cv.Figures, compareFigures("comparison-op-throughput", "Throughput per operation: "+b+vs+a, a, b, perOp, &rate)...)
	var all []CompareRow
	for _, op := range opOrder {
		all = append(all, latency[op]...)
	}
	if len(all) <= maxBarGroups {
		// Few enough to read side by side: one chart, every operation.
		cv.Figures = append(cv.Figures, compareFigures("comparison-latency", "Latency: "+b+vs+a, a, b, all, nil)...)
	} else {
		for _, op := range opOrder {
			name := orDefault(op, "Overall")
			cv.Figures = append(cv.Figures, compareFigures("comparison-"+slug(name), name+" latency: "+b+vs+a, a, b, latency[op], nil)...)
		}
	}
	cv.Rows = compareRows(c, rate)
	return cv
}

// compareRows are the comparison's table.
func compareRows(c *Comparison, rate rateUnit) []compRow {
	var rows []compRow
	for _, r := range c.Rows {
		// A row's figures and their intervals in one unit.
		f := latencyUnitFor(r.A, r.B).format
		switch {
		case isTpmC(r):
			f = tpmCUnit.format
		case isRate(r):
			f = rate.format
		}
		word, _ := verdictWord(r)
		class := "neutral"
		if r.Significant && isFinite(r.RelDiff) {
			if (r.RelDiff > 0) == r.HigherIsBetter {
				class = "better"
			} else {
				class = "worse"
			}
		}
		verdict := r.Verdict
		if verdict == "" {
			verdict = word
		}
		name := figureName(r)
		if (r.Op == "" || strings.EqualFold(r.Op, "OVERALL")) && !isTpmC(r) {
			// "Throughput", but never "Threadcount=8 READ p99".
			name = capitalize(name)
		}
		rows = append(rows, compRow{
			Name:    name,
			A:       cell{f(r.A), rangeText(r.ALo, r.AHi, f)},
			B:       cell{f(r.B), rangeText(r.BLo, r.BHi, f)},
			Change:  signedPct(r.RelDiff),
			Verdict: verdict,
			Class:   class,
		})
	}
	return rows
}

func signedPct(r float64) string {
	switch {
	case !isFinite(r):
		return "–"
	case r > 0:
		return "+" + formatPct(r)
	case r < 0:
		return "−" + formatPct(r)
	}
	return "0%"
}

// maxBarGroups is the number of groups of bars that fit one chart.
const maxBarGroups = 8

// compareFigures draws rows as bar charts of at most maxBarGroups groups
// each, throughputs in rate's unit (nil for latencies); nothing for no
// rows.
func compareFigures(id, title, a, b string, rows []CompareRow, rate *rateUnit) []figureView {
	n := (len(rows) + maxBarGroups - 1) / maxBarGroups
	var figs []figureView
	for i := 0; i < n; i++ {
		part := rows[i*maxBarGroups : min(len(rows), (i+1)*maxBarGroups)]
		pid, ptitle := id, title
		if n > 1 {
			pid = fmt.Sprintf("%s-%d", id, i+1)
			ptitle = fmt.Sprintf("%s (%d of %d)", title, i+1, n)
		}
		figs = append(figs, compareFigure(pid, ptitle, a, b, part, rate))
	}
	return figs
}

// slug makes a name usable in an element id: "threadcount=8 READ" →
// "threadcount-8-read".
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// compareFigure draws the bars of one group of comparison rows.
func compareFigure(id, title, a, b string, rows []CompareRow, rate *rateUnit) figureView {
	var vs []float64
	for _, r := range rows {
		vs = append(vs, r.A, r.B)
	}
	lu := latencyUnitFor(vs...)
	format, unit := lu.tick, "latency"
	if rate != nil {
		format, unit = formatCompact, rate.long
	}
	bc := barChart{title: title, yLabel: unit, seriesNames: []string{a, b}, colors: []string{colorA, colorB}, format: format}
	ops := map[string]bool{}
	for _, r := range rows {
		ops[r.Op] = true
	}
	for _, r := range rows {
		// A chart of one operation names it in its title; its bars need
		// only the figure.
		label := figureName(r)
		if rate == nil && len(ops) == 1 {
			label = r.Figure
		}
		note, color := verdictWord(r)
		tipF := lu.format
		if rate != nil {
			tipF = rate.format
		}
		bc.groups = append(bc.groups, barGroup{label: label, note: note, noteColor: color, bars: []bar{
			{value: r.A, lo: r.ALo, hi: r.AHi, hasErr: r.AHi > r.ALo, tip: a + " " + figureName(r) + ": " + tipF(r.A) + ciText(r.ALo, r.AHi, tipF)},
			{value: r.B, lo: r.BLo, hi: r.BHi, hasErr: r.BHi > r.BLo, tip: b + " " + figureName(r) + ": " + tipF(r.B) + ciText(r.BLo, r.BHi, tipF)},
		}})
	}
	return figureView{
		ID:       id,
		Title:    title,
		Sentence: compareCaption(a, b, rows),
		Note:     "Means of each group; error bars are 95% confidence intervals; the verdict under each pair is the significance test's.",
		SVG:      template.HTML(bc.render()),
	}
}

// opOf reports whether a comparison row's Op names an operation ("READ",
// "threadcount=4 INSERT") rather than the whole run ("OVERALL",
// "threadcount=4").
func opOf(op string) bool {
	f := strings.Fields(op)
	if len(f) == 0 || strings.EqualFold(f[len(f)-1], "OVERALL") {
		return false
	}
	_, ok := db.ParseOp(f[len(f)-1])
	return ok
}
