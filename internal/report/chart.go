package report

import (
	"html"
	"math"
	"strconv"
	"strings"
)

// The chart geometry, in SVG user units. Charts scale to the page width;
// these only fix their proportions and the room for labels.
const (
	chartWidth = 760
	plotHeight = 240
	// Bars need less height than lines to be read.
	barPlotHeight = 180
	marginLeft    = 72
	marginRight   = 24
	marginTop     = 14
	marginBottom  = 46
	legendRow     = 20
	// charWidth estimates the width of one character of a 12-unit label,
	// to lay out legends and drop tick labels that would overlap.
	charWidth = 7.2
	// maxMarkers is the number of points up to which a series gets a
	// circle (and tooltip) on every point; longer series would drown in
	// them, so they are drawn as lines alone.
	maxMarkers = 60
)

// Colours, chosen from the Okabe–Ito palette so that they stay apart for
// readers with colour-blindness and in grey-scale print.
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#8C564B", "#7F7F7F"}

const (
	colorTotal   = "#333333"
	colorA       = "#9AA5B1"
	colorB       = "#0072B2"
	colorBetter  = "#1A7F37"
	colorWorse   = "#CF222E"
	colorNeutral = "#57606A"
	// The knee is drawn in near-black so that it stands out on lines of
	// any colour.
	colorKnee = "#24292F"
)

// hasMarkers reports whether a series of n points is drawn with a marker,
// and so a tooltip, on each point; builders skip formatting tooltips that
// would never be drawn.
func hasMarkers(n int) bool { return n <= maxMarkers }

// series is one line of a line chart.
type series struct {
	name   string
	color  string
	dashed bool
	// band draws the points' error ranges as a shaded band rather than
	// bars: several lines with bars each would be unreadable.
	band   bool
	points []point
}

// point is one point of a series; lo and hi bound an error bar when hasErr.
type point struct {
	x, y   float64
	lo, hi float64
	hasErr bool
	// tip is the tooltip of the point's marker.
	tip string
}

// mark is an annotated point, drawn as a vertical rule with a label: the
// knee of a sweep.
type mark struct {
	x, y  float64
	label string
	// color, when set, draws the mark as a ring in that colour on its
	// line, labelled beside it: the knees of several lines on one chart
	// would otherwise be rules crossing each other.
	color string
}

// lineChart is a chart of lines on linear, logarithmic or percentile axes.
type lineChart struct {
	title          string
	x, y           axis
	xLabel, yLabel string
	series         []series
	marks          []mark
}

// svgWriter accumulates SVG text.
type svgWriter struct{ strings.Builder }

func (w *svgWriter) printf(parts ...string) {
	for _, p := range parts {
		w.WriteString(p)
	}
}

// num formats a coordinate with one decimal: enough for any screen, and
// short, since long time series have thousands of them.
func num(v float64) string {
	if !isFinite(v) {
		v = 0
	}
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

// esc escapes text for SVG inside HTML.
func esc(s string) string { return html.EscapeString(s) }

// legendItem is one entry of a legend.
type legendItem struct {
	name   string
	color  string
	dashed bool
	bar    bool
}

// layoutLegend places legend items in rows across the chart's width and
// returns their positions and the height the rows take.
func layoutLegend(items []legendItem) (xs, ys []float64, height float64) {
	if len(items) < 2 {
		return nil, nil, 0
	}
	x, row := float64(marginLeft), 0
	for _, it := range items {
		w := 26 + charWidth*float64(len([]rune(it.name))) + 18
		if x+w > chartWidth-marginRight && x > marginLeft {
			x, row = marginLeft, row+1
		}
		xs = append(xs, x)
		ys = append(ys, float64(row)*legendRow+10)
		x += w
	}
	return xs, ys, float64(row+1) * legendRow
}

func writeLegend(w *svgWriter, items []legendItem, xs, ys []float64) {
	if len(xs) == 0 {
		return
	}
	w.printf(`<g class="legend">`)
	for i, it := range items {
		x, y := xs[i], ys[i]
		if it.bar {
			w.printf(`<rect x="`, num(x), `" y="`, num(y-5), `" width="18" height="10" fill="`, it.color, `"/>`)
		} else {
			dash := ""
			if it.dashed {
				dash = ` stroke-dasharray="5 3"`
			}
			w.printf(`<line x1="`, num(x), `" y1="`, num(y), `" x2="`, num(x+18), `" y2="`, num(y), `" stroke="`, it.color, `" stroke-width="2.5"`, dash, `/>`)
		}
		w.printf(`<text x="`, num(x+24), `" y="`, num(y+4), `">`, esc(it.name), `</text>`)
	}
	w.printf(`</g>`)
}

// frame holds the plot area of a chart.
type frame struct {
	left, top, width, height float64
}

func (f frame) px(a *axis, v float64) float64 { return f.left + a.frac(v)*f.width }
func (f frame) py(a *axis, v float64) float64 { return f.top + (1-a.frac(v))*f.height }

// pyIn is py held inside the plot area: an interval's end beyond the axis
// is drawn cut at its edge (and marked, see cutEnds).
func (f frame) pyIn(a *axis, v float64) float64 {
	return math.Max(f.top, math.Min(f.top+f.height, f.py(a, v)))
}

// beyond reports whether an interval's ends lie past the axis: above its
// top, below its bottom. A low of 0 on a logarithmic axis is its floor,
// not a cut.
func beyond(a *axis, p point) (above, below bool) {
	if !p.hasErr || !isFinite(p.lo) || !isFinite(p.hi) {
		return false, false
	}
	below = a.frac(p.lo) < -1e-9 && (a.kind != logAxis || p.lo > 0)
	return a.frac(p.hi) > 1+1e-9, below
}

// clippedNote is the figure note's clause for a chart whose intervals
// were cut at the axis's edge; "" when none was.
func (c *lineChart) clippedNote() string {
	for _, s := range c.series {
		for _, p := range s.points {
			if above, below := beyond(&c.y, p); above || below {
				return "; an interval that runs past the axis is cut at its edge, marked ▲ (or ▼)"
			}
		}
	}
	return ""
}

// cutEnds marks the intervals of a series that run past the axis with a
// small triangle at the edge they cross, so that a cut band is not read
// as a narrow one.
func cutEnds(w *svgWriter, f frame, x, y *axis, s series) {
	for _, p := range s.points {
		above, below := beyond(y, p)
		if !isFinite(p.x) || !above && !below {
			continue
		}
		px := f.px(x, p.x)
		if above {
			w.printf(`<path class="cut" d="M`, num(px-4), ` `, num(f.top+6), `L`, num(px), ` `, num(f.top), `L`, num(px+4), ` `, num(f.top+6), `Z" fill="`, s.color, `"><title>`, esc(p.tip+": the interval runs past the top of the axis"), `</title></path>`)
		}
		if below {
			b := f.top + f.height
			w.printf(`<path class="cut" d="M`, num(px-4), ` `, num(b-6), `L`, num(px), ` `, num(b), `L`, num(px+4), ` `, num(b-6), `Z" fill="`, s.color, `"><title>`, esc(p.tip+": the interval runs past the bottom of the axis"), `</title></path>`)
		}
	}
}

// writeAxes draws the grid, the tick labels and the axis titles. Tick labels
// that would overlap the previous one are left out.
func writeAxes(w *svgWriter, f frame, x, y *axis, xLabel, yLabel string, xTicks bool) {
	w.printf(`<g class="grid">`)
	for _, t := range y.ticks {
		py := f.py(y, t.v)
		w.printf(`<line x1="`, num(f.left), `" y1="`, num(py), `" x2="`, num(f.left+f.width), `" y2="`, num(py), `"/>`)
	}
	if xTicks {
		for _, t := range x.ticks {
			px := f.px(x, t.v)
			w.printf(`<line x1="`, num(px), `" y1="`, num(f.top), `" x2="`, num(px), `" y2="`, num(f.top+f.height), `"/>`)
		}
	}
	w.printf(`</g>`)
	w.printf(`<g class="axis">`)
	w.printf(`<line x1="`, num(f.left), `" y1="`, num(f.top+f.height), `" x2="`, num(f.left+f.width), `" y2="`, num(f.top+f.height), `"/>`)
	w.printf(`<line x1="`, num(f.left), `" y1="`, num(f.top), `" x2="`, num(f.left), `" y2="`, num(f.top+f.height), `"/>`)
	lastY := math.Inf(1)
	for _, t := range y.ticks {
		py := f.py(y, t.v)
		if lastY-py < 14 {
			continue
		}
		lastY = py
		w.printf(`<text x="`, num(f.left-6), `" y="`, num(py+4), `" text-anchor="end">`, esc(t.label), `</text>`)
	}
	if xTicks {
		lastRight := math.Inf(-1)
		for _, t := range x.ticks {
			px := f.px(x, t.v)
			half := charWidth * float64(len([]rune(t.label))) / 2
			if px-half < lastRight+6 {
				continue
			}
			lastRight = px + half
			w.printf(`<text x="`, num(px), `" y="`, num(f.top+f.height+16), `" text-anchor="middle">`, esc(t.label), `</text>`)
		}
	}
	if xLabel != "" {
		w.printf(`<text class="label" x="`, num(f.left+f.width/2), `" y="`, num(f.top+f.height+38), `" text-anchor="middle">`, esc(xLabel), `</text>`)
	}
	if yLabel != "" {
		cy := f.top + f.height/2
		w.printf(`<text class="label" x="14" y="`, num(cy), `" text-anchor="middle" transform="rotate(-90 14 `, num(cy), `)">`, esc(yLabel), `</text>`)
	}
	w.printf(`</g>`)
}

// plotLeft returns the left edge of the plot area: room for the longest
// tick label of y and, left of it, the rotated axis title.
func plotLeft(y *axis) float64 {
	longest := 0
	for _, t := range y.ticks {
		longest = max(longest, len([]rune(t.label)))
	}
	return math.Max(marginLeft, 34+charWidth*float64(longest))
}

// svgOpen starts a chart's SVG element with its accessible name.
func svgOpen(w *svgWriter, title string, height float64) {
	w.printf(`<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 `, strconv.Itoa(chartWidth), ` `, num(height),
		`" role="img" aria-label="`, esc(title), `"><title>`, esc(title), `</title>`)
}

// render returns the chart as an SVG element.
func (c *lineChart) render() string {
	items := make([]legendItem, len(c.series))
	for i, s := range c.series {
		items[i] = legendItem{name: s.name, color: s.color, dashed: s.dashed}
	}
	lx, ly, lh := layoutLegend(items)
	left := plotLeft(&c.y)
	f := frame{left: left, top: marginTop + lh, width: chartWidth - left - marginRight, height: plotHeight}
	var w svgWriter
	svgOpen(&w, c.title, f.top+f.height+marginBottom)
	writeLegend(&w, items, lx, ly)
	writeAxes(&w, f, &c.x, &c.y, c.xLabel, c.yLabel, true)
	// The rings take room first: a label goes where it covers neither
	// another label nor another line's ring.
	var placed []labelBox
	for _, m := range c.marks {
		if m.color != "" && isFinite(m.y) && (c.y.kind != logAxis || m.y > 0) {
			placed = append(placed, labelBox{f.px(&c.x, m.x), f.py(&c.y, m.y) + 4, 16})
		}
	}
	for _, m := range c.marks {
		px := f.px(&c.x, m.x)
		if m.color != "" {
			if isFinite(m.y) && (c.y.kind != logAxis || m.y > 0) {
				py := f.py(&c.y, m.y)
				ly := placeLabel(&placed, px, py, textWidth("knee"))
				w.printf(`<g class="mark"><circle cx="`, num(px), `" cy="`, num(py), `" r="7" fill="none" stroke="`, m.color, `" stroke-width="2.5"><title>`, esc(m.label), `</title></circle>`,
					`<text x="`, num(px), `" y="`, num(ly), `" text-anchor="middle" fill="`, m.color, `" class="label">knee</text></g>`)
			}
			continue
		}
		w.printf(`<g class="mark"><line x1="`, num(px), `" y1="`, num(f.top), `" x2="`, num(px), `" y2="`, num(f.top+f.height),
			`" stroke="`, colorKnee, `" stroke-dasharray="4 3"/>`)
		if isFinite(m.y) {
			w.printf(`<circle cx="`, num(px), `" cy="`, num(f.py(&c.y, m.y)), `" r="7" fill="none" stroke="`, colorKnee, `" stroke-width="2"><title>`, esc(m.label), `</title></circle>`)
		}
		anchor, dx := "start", 5.0
		if px > f.left+f.width*0.75 {
			anchor, dx = "end", -5
		}
		w.printf(`<text x="`, num(px+dx), `" y="`, num(f.top+12), `" text-anchor="`, anchor, `" fill="`, colorKnee, `">`, esc(m.label), `</text></g>`)
	}
	for _, s := range c.series {
		writeSeries(&w, f, &c.x, &c.y, s)
	}
	w.printf(`</svg>`)
	return w.String()
}

// labelBox is the room a label takes: its centre x, its baseline y and
// its width.
type labelBox struct{ x, y, w float64 }

// labelHeight is the height a 12-unit label takes, with a little air.
const labelHeight = 14

// placeLabel returns the baseline of a label of width w for a ring at
// (px, py): just above the ring, else just below, else further above and
// below in turn, the first place where it overlaps no label placed before
// it; it records the place. Several lines that saturate at the same point
// then get their "knee" labels stacked rather than printed over each
// other.
func placeLabel(placed *[]labelBox, px, py, w float64) float64 {
	overlaps := func(y float64) bool {
		for _, b := range *placed {
			if math.Abs(b.x-px) < (b.w+w)/2+2 && math.Abs(b.y-y) < labelHeight {
				return true
			}
		}
		return false
	}
	y := py - 11
	for i := 0; i < 2*maxStackedLabels; i++ {
		step := float64(i / 2)
		cand := py - 11 - step*labelHeight
		if i%2 == 1 {
			cand = py + 21 + step*labelHeight
		}
		if !overlaps(cand) {
			y = cand
			break
		}
	}
	*placed = append(*placed, labelBox{px, y, w})
	return y
}

// maxStackedLabels bounds how far labels stack on each side of a ring.
const maxStackedLabels = 8

// writeSeries draws one series: its error bars, its line, and its markers
// when it is short enough for them. Non-finite values break the line.
func writeSeries(w *svgWriter, f frame, x, y *axis, s series) {
	w.printf(`<g class="series">`)
	var errs strings.Builder
	for _, p := range s.points {
		if !p.hasErr || !isFinite(p.x) || !isFinite(p.lo) || !isFinite(p.hi) {
			continue
		}
		px, plo, phi := f.px(x, p.x), f.pyIn(y, p.lo), f.pyIn(y, p.hi)
		errs.WriteString("M" + num(px) + " " + num(plo) + "V" + num(phi) +
			"M" + num(px-4) + " " + num(plo) + "h8M" + num(px-4) + " " + num(phi) + "h8")
	}
	if band := bandPath(f, x, y, s); band != "" {
		w.printf(`<path class="band" d="`, band, `" fill="`, s.color, `" fill-opacity="0.14" stroke="none"/>`)
	} else if errs.Len() > 0 {
		w.printf(`<path class="err" d="`, errs.String(), `" stroke="`, s.color, `" fill="none"/>`)
	}
	cutEnds(w, f, x, y, s)
	var d strings.Builder
	pen := false
	drawn := 0
	for _, p := range s.points {
		if !isFinite(p.x) || !isFinite(p.y) || (y.kind == logAxis && p.y <= 0) {
			pen = false
			continue
		}
		cmd := "L"
		if !pen {
			cmd = "M"
		}
		d.WriteString(cmd + num(f.px(x, p.x)) + " " + num(f.py(y, p.y)))
		pen = true
		drawn++
	}
	if drawn == 1 {
		// A single point has no line to draw: a dot of the line's width
		// keeps it visible.
		d.WriteString("h0.1")
	}
	if d.Len() > 0 {
		dash := ""
		if s.dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		w.printf(`<path class="line" d="`, d.String(), `" stroke="`, s.color, `"`, dash, ` fill="none" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"><title>`, esc(s.name), `</title></path>`)
	}
	if hasMarkers(len(s.points)) {
		// Dense series get smaller dots, so that the line still shows.
		r := "3"
		if len(s.points) > 20 {
			r = "2"
		}
		for _, p := range s.points {
			if !isFinite(p.x) || !isFinite(p.y) || (y.kind == logAxis && p.y <= 0) {
				continue
			}
			w.printf(`<circle cx="`, num(f.px(x, p.x)), `" cy="`, num(f.py(y, p.y)), `" r="`, r, `" fill="`, s.color, `"><title>`, esc(p.tip), `</title></circle>`)
		}
	}
	w.printf(`</g>`)
}

// bandPath is the outline of a banded series' error ranges: along the
// highs, back along the lows; "" when the series is not banded or has
// fewer than two ranges.
func bandPath(f frame, x, y *axis, s series) string {
	if !s.band {
		return ""
	}
	var pts []point
	for _, p := range s.points {
		// On a logarithmic axis a range down to 0 reaches the floor.
		if p.hasErr && isFinite(p.x) && isFinite(p.lo) && isFinite(p.hi) {
			pts = append(pts, p)
		}
	}
	if len(pts) < 2 {
		return ""
	}
	var d strings.Builder
	for i, p := range pts {
		cmd := "L"
		if i == 0 {
			cmd = "M"
		}
		d.WriteString(cmd + num(f.px(x, p.x)) + " " + num(f.pyIn(y, p.hi)))
	}
	for i := len(pts) - 1; i >= 0; i-- {
		d.WriteString("L" + num(f.px(x, pts[i].x)) + " " + num(f.pyIn(y, pts[i].lo)))
	}
	return d.String() + "Z"
}

// textWidth estimates the width of a 12-unit label.
func textWidth(s string) float64 { return charWidth * float64(len([]rune(s))) }

// tightScale is the size of the small print that crowded bar labels
// switch to, relative to the normal 12 units.
const tightScale = 10.0 / 12

// maxLabelLines bounds how many lines a bar group's label wraps to.
const maxLabelLines = 3

// wrapLabel breaks a label at spaces into lines that fit width, at most
// maxLabelLines of them, the last cut short with "…" if need be. A word
// too long for a line is broken after its '=' ("threadcount=" "128").
func wrapLabel(label string, width float64) []string {
	fits := func(s string) bool { return textWidth(s) <= width }
	if fits(label) {
		return []string{label}
	}
	var words []string
	for _, w := range strings.Fields(label) {
		if k, v, ok := strings.Cut(w, "="); ok && !fits(w) && v != "" {
			words = append(words, k+"=", v)
			continue
		}
		words = append(words, w)
	}
	var lines []string
	cur := ""
	for _, word := range words {
		switch {
		case cur == "":
			cur = word
		case fits(cur + " " + word):
			cur += " " + word
		default:
			lines = append(lines, cur)
			cur = word
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if len(lines) > maxLabelLines {
		lines = lines[:maxLabelLines]
		lines[maxLabelLines-1] += "…"
	}
	return lines
}
