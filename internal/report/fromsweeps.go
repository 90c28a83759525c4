package report

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
)

// studyOf draws the groups side by side over the swept setting: one line
// per group, and per value of the sweep's other dimensions, so that a
// two-dimensional sweep is a line per value of its second dimension rather
// than one line through unrelated configurations. It returns nil when the
// runs are not sweeps over numbers, or when they make a single line.
func studyOf(names []string, groups [][]analysis.Run, kind analysis.LatencyKind, knee stats.KneeOptions) *Study {
	x := ""
	var others []string
	for _, g := range groups {
		for _, r := range g {
			if r.Mark != nil && x == "" {
				x = analysis.XDim(r.Mark.Varied)
				for _, n := range r.Mark.Varied {
					if n != x {
						others = append(others, n)
					}
				}
			}
		}
	}
	if x == "" {
		return nil
	}
	varied := map[string]bool{x: true}
	for _, n := range others {
		varied[n] = true
	}
	var lines []*analysis.Line
	for gi, g := range groups {
		kinds := analysis.KindNames(g, varied)
		gl, unplaced := analysis.SweepLines(g, x, func(r analysis.Run) string {
			name := strings.TrimSpace(kinds[r.Res] + " " + analysis.LineName(r.Mark, x))
			if len(groups) > 1 {
				name = strings.TrimSuffix(strings.TrimSpace(names[gi]+" · "+name), " ·")
			}
			return name
		})
		if unplaced > 0 {
			return nil
		}
		// Two groups given the same name draw one line.
		for _, l := range gl {
			if i := indexLine(lines, l.Name); i >= 0 {
				for xv, rs := range l.ByX {
					lines[i].ByX[xv] = append(lines[i].ByX[xv], rs...)
				}
			} else {
				lines = append(lines, l)
			}
		}
	}
	if len(lines) < 2 {
		return nil
	}
	st := &Study{Varied: x, SeriesBy: "configuration", Alpha: knee.Alpha}
	if len(groups) == 1 {
		st.SeriesBy = strings.Join(others, ", ")
	}
	// The lines' knees are stated together: they share the level.
	knee.Alpha = analysis.KneeAlpha(knee.Alpha, len(lines))
	for _, l := range lines {
		s := StudySeries{Name: l.Name}
		var kneePts []stats.Point
		for _, xv := range l.Xs() {
			var fs []analysis.Figures
			for _, res := range l.ByX[xv] {
				fs = append(fs, analysis.FiguresOf(res, kind))
			}
			p, pf := pointOf(fs, l.ByX[xv])
			p.X = xv
			s.Points = append(s.Points, p)
			kneePts = append(kneePts, pf.KneePoint(xv))
		}
		if x == analysis.RateDim && len(kneePts) >= 2 {
			s.KneeSentence = rateSentence(l.ByX)
		} else if _, ok := analysis.KneeDims[x]; ok && len(kneePts) >= 2 {
			s.Knee, s.KneeSentence = kneeOf(x, kneePts, knee, func(k stats.KneeResult) []*results.Results { return l.ByX[k.Next.X] })
		}
		st.Series = append(st.Series, s)
	}
	return st
}

func indexLine(lines []*analysis.Line, name string) int {
	for i, l := range lines {
		if l.Name == name {
			return i
		}
	}
	return -1
}

// sweepOf builds the sweep section from runs marked with their sweep
// points: the mean and confidence interval of each figure over the trials
// that count (no warm-ups, no interrupted runs), and the knee. It returns
// nil when the runs are not the points of a sweep; the notes say what
// was charted together or left out.
func sweepOf(runs []analysis.Run, kind analysis.LatencyKind, knee stats.KneeOptions) (*Sweep, []string) {
	var varied []string
	ids := map[string]bool{}
	for _, r := range runs {
		if r.Mark != nil {
			ids[r.Mark.ID] = true
			if varied == nil {
				varied = r.Mark.Varied
			}
		}
	}
	var notes []string
	if len(ids) > 1 {
		notes = append(notes, fmt.Sprintf("the runs come from %d sweeps (%s): their points are charted together", len(ids), strings.Join(sortedKeys(ids), ", ")))
	}
	counted := make(map[string][]analysis.Figures)
	trials := make(map[string][]*results.Results)
	var order []string
	left := 0
	for _, r := range runs {
		if r.Mark == nil {
			continue
		}
		if r.Mark.Warmup || r.Res.Partial {
			left++
			continue
		}
		p := r.Point()
		if _, ok := counted[p]; !ok {
			order = append(order, p)
		}
		counted[p] = append(counted[p], analysis.FiguresOf(r.Res, kind))
		trials[p] = append(trials[p], r.Res)
	}
	if len(order) < 2 {
		return nil, notes
	}
	if left > 0 {
		notes = append(notes, fmt.Sprintf("%s (warm-up or interrupted) left out of the sweep's figures", count(left, "run")))
	}
	x := analysis.XDim(varied)
	point := map[string]map[string]string{}
	for _, r := range runs {
		if r.Mark != nil {
			point[r.Point()] = r.Mark.Point
		}
	}
	// One series of numbers charts against its values; a matrix of
	// several series, or values that are no numbers, against the points'
	// order, each point named in full.
	byValue := true
	series := map[string]bool{}
	for _, p := range order {
		if _, err := strconv.ParseFloat(point[p][x], 64); err != nil {
			byValue = false
		}
		rest := maps.Clone(point[p])
		delete(rest, x)
		m := results.SweepMark{Point: rest}
		series[m.Label()] = true
	}
	byValue = byValue && len(series) == 1
	sw := &Sweep{Varied: x}
	if !byValue {
		sw.Varied = "point"
	}
	var kneePts []stats.Point
	for i, p := range order {
		sp, pf := pointOf(counted[p], trials[p])
		if byValue {
			sp.X, _ = strconv.ParseFloat(point[p][x], 64)
		} else {
			sp.X = float64(i + 1)
			sp.Label = p
		}
		sw.Points = append(sw.Points, sp)
		kneePts = append(kneePts, pf.KneePoint(sp.X))
	}
	sweepVerdict(sw, x, byValue, order, trials, kneePts, knee)
	return sw, notes
}

// sweepVerdict states what a single sweep found: for a sweep of the target
// rate, the targets it kept; along a load dimension, its knee (marked on
// the charts) and what limited the point past it.
func sweepVerdict(sw *Sweep, x string, byValue bool, order []string, trials map[string][]*results.Results, kneePts []stats.Point, knee stats.KneeOptions) {
	switch {
	case byValue && x == analysis.RateDim:
		// Throughput follows the target by construction: a rate sweep is
		// judged by whether each target was kept, not by a knee.
		byTarget := map[float64][]*results.Results{}
		for i, p := range order {
			byTarget[sw.Points[i].X] = append(byTarget[sw.Points[i].X], trials[p]...)
		}
		sw.KneeSentence = rateSentence(byTarget)
	case byValue || analysis.KneeDims[x] == "":
		sw.Knee, sw.KneeSentence = kneeOf(x, kneePts, knee, func(k stats.KneeResult) []*results.Results {
			// As the sweep says it: the point after the knee, or the knee
			// itself when it is the last.
			at := k.Next
			if at.X == 0 {
				at = k.Knee
			}
			var rs []*results.Results
			for i, p := range order {
				if sw.Points[i].X == at.X {
					rs = append(rs, trials[p]...)
				}
			}
			return rs
		})
		// Along a data size or a batch size no knee is sought: saying so is
		// no finding for the conclusion.
		sw.NotAlongLoad = analysis.KneeDims[x] == ""
	default:
		sw.KneeSentence = "No knee: the sweep varies several properties; mongobench sweep prints the knee of each series."
	}
}
