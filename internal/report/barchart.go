package report

import "math"

// barChart is a chart of grouped bars with error bars: the same figure of
// A and B side by side, one group per figure.
type barChart struct {
	title       string
	yLabel      string
	seriesNames []string
	colors      []string
	groups      []barGroup
	format      func(float64) string
}

// barGroup is one group of bars with its label and a note under it (the
// verdict), in the note's colour.
type barGroup struct {
	label     string
	note      string
	noteColor string
	bars      []bar
}

// bar is one bar; lo and hi bound its error bar when hasErr.
type bar struct {
	value, lo, hi float64
	hasErr        bool
	tip           string
}

// render returns the chart as an SVG element.
func (c *barChart) render() string {
	items := make([]legendItem, len(c.seriesNames))
	for i, n := range c.seriesNames {
		items[i] = legendItem{name: n, color: c.colors[i%len(c.colors)], bar: true}
	}
	lx, ly, lh := layoutLegend(items)
	hi := 0.0
	for _, g := range c.groups {
		for _, b := range g.bars {
			for _, v := range []float64{b.value, b.hi} {
				if isFinite(v) && v > hi && (v == b.value || b.hasErr) {
					hi = v
				}
			}
		}
	}
	y := newLinearAxis(0, hi, true, c.format)
	left := plotLeft(&y)
	f := frame{left: left, top: marginTop + lh + 6, width: chartWidth - left - marginRight, height: barPlotHeight}
	band := f.width / float64(max(1, len(c.groups)))
	// Labels wrap to the band; when a word is still too wide, all labels
	// of the chart go to small print, wrapped to the band at that size.
	room := band - 6
	tight := ""
	for _, g := range c.groups {
		for _, l := range wrapLabel(g.label, room) {
			if textWidth(l) > room {
				tight, room = ` class="tight"`, room/tightScale
				break
			}
		}
		if tight != "" {
			break
		}
	}
	labels := make([][]string, len(c.groups))
	notes := make([][]string, len(c.groups))
	lines, noteLines := 1, 0
	for i, g := range c.groups {
		labels[i] = wrapLabel(g.label, room)
		lines = max(lines, len(labels[i]))
		if g.note != "" {
			notes[i] = wrapLabel(g.note, band-6)
			noteLines = max(noteLines, len(notes[i]))
		}
	}
	bottom := float64(marginBottom) + 14*float64(lines+max(1, noteLines)-2) + 10
	var w svgWriter
	svgOpen(&w, c.title, f.top+f.height+bottom)
	writeLegend(&w, items, lx, ly)
	x := axis{kind: linearAxis, lo: 0, hi: 1}
	writeAxes(&w, f, &x, &y, "", c.yLabel, false)
	if len(c.groups) == 0 {
		w.printf(`</svg>`)
		return w.String()
	}
	for gi, g := range c.groups {
		n := max(1, len(g.bars))
		bw := math.Min(56, band*0.72/float64(n))
		x0 := f.left + band*float64(gi) + (band-bw*float64(n))/2
		w.printf(`<g class="bars">`)
		for bi, b := range g.bars {
			color := c.colors[bi%len(c.colors)]
			bx := x0 + bw*float64(bi)
			v := b.value
			if math.IsNaN(v) {
				// No such bar (a configuration that did not run the
				// task): its place stays empty.
				continue
			}
			if !isFinite(v) || v < 0 {
				v = 0
			}
			top := f.py(&y, v)
			w.printf(`<rect x="`, num(bx+1), `" y="`, num(top), `" width="`, num(bw-2), `" height="`, num(f.top+f.height-top), `" fill="`, color, `"><title>`, esc(b.tip), `</title></rect>`)
			cx := bx + bw/2
			labelY := top - 4
			if b.hasErr && isFinite(b.lo) && isFinite(b.hi) {
				plo, phi := f.py(&y, math.Max(b.lo, 0)), f.py(&y, b.hi)
				w.printf(`<path class="err" d="M`, num(cx), ` `, num(plo), `V`, num(phi), `M`, num(cx-5), ` `, num(plo), `h10M`, num(cx-5), ` `, num(phi), `h10" stroke="#24292F" fill="none"/>`)
				labelY = math.Min(labelY, phi-4)
			}
			if bw >= 30 {
				w.printf(`<text class="value" x="`, num(cx), `" y="`, num(labelY), `" text-anchor="middle">`, esc(c.format(b.value)), `</text>`)
			}
		}
		cx := f.left + band*(float64(gi)+0.5)
		for li, l := range labels[gi] {
			w.printf(`<text`, tight, ` x="`, num(cx), `" y="`, num(f.top+f.height+16+14*float64(li)), `" text-anchor="middle">`, esc(l), `</text>`)
		}
		for li, l := range notes[gi] {
			w.printf(`<text class="verdict" x="`, num(cx), `" y="`, num(f.top+f.height+32+14*float64(lines-1+li)), `" text-anchor="middle" fill="`, g.noteColor, `">`, esc(l), `</text>`)
		}
		w.printf(`</g>`)
	}
	w.printf(`</svg>`)
	return w.String()
}
