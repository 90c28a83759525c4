package analysis

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
)

// Overlay is sweeps set side by side over their fastest-varying property:
// a line per group, per kind of work within a group, and per value of the
// sweeps' other dimensions, so that a two-dimensional sweep is a line per
// value of its second dimension rather than one line through unrelated
// configurations.
type Overlay struct {
	// X is the property along the lines; Others are the sweeps' other
	// varied properties, which tell a group's lines apart.
	X      string
	Others []string
	Lines  []OverlayLine
}

// OverlayLine is one line of an overlay, its points in increasing X.
type OverlayLine struct {
	Line
	Points []LinePoint
	// Knee is the line's knee, sought along KneeDims when the line has two
	// points or more; nil otherwise, and along the target rate, where Rate
	// says which targets the line kept instead.
	Knee *Knee
	Rate *RateVerdict
	// Beyond are the trials at the point after the knee, whose diagnoses
	// say what limited the line; none when the knee is the line's last
	// point (where a single sweep takes the knee's own trials).
	Beyond []*results.Results
}

// LinePoint is one point of a line or a sweep over its trials that count.
type LinePoint struct {
	X float64
	// Label names the point when the points are charted in order rather
	// than by X ("recordcount=10 threadcount=1"); "" otherwise.
	Label   string
	Figures PointFigures
	// Avg is each trial's mean latency over all its operations
	// (Figures.OverallAverage), with their mean and interval.
	Avg  Estimate
	Runs []*results.Results
}

// LinePointOf is a point from its trials' figures and results.
func LinePointOf(x float64, fs []Figures, runs []*results.Results) LinePoint {
	var avg []float64
	for _, f := range fs {
		if a, ok := f.OverallAverage(); ok {
			avg = append(avg, a)
		}
	}
	return LinePoint{X: x, Figures: Summarize(fs), Avg: EstimateOf(avg), Runs: runs}
}

// OverlayOf sets the groups' sweeps side by side, the groups named by
// names when there are several. Each line's knee is tested at knee.Alpha
// shared among the lines (KneeAlpha), since their knees are stated
// together. It returns nil when the runs are no sweeps, when a trial's
// value of the swept property is no finite number, or when they make a
// single line.
func OverlayOf(names []string, groups [][]Run, kind LatencyKind, knee stats.KneeOptions) *Overlay {
	ov := &Overlay{}
	for _, g := range groups {
		for _, r := range g {
			if r.Mark != nil && ov.X == "" {
				ov.X = XDim(r.Mark.Varied)
				for _, n := range r.Mark.Varied {
					if n != ov.X {
						ov.Others = append(ov.Others, n)
					}
				}
			}
		}
	}
	x := ov.X
	if x == "" {
		return nil
	}
	varied := map[string]bool{x: true}
	for _, n := range ov.Others {
		varied[n] = true
	}
	var lines []*Line
	for gi, g := range groups {
		kinds := KindNames(g, varied)
		gl, unplaced := SweepLines(g, x, func(r Run) string {
			name := strings.TrimSpace(kinds[r.Res] + " " + LineName(r.Mark, x))
			if len(groups) > 1 {
				name = strings.TrimSuffix(strings.TrimSpace(names[gi]+" · "+name), " ·")
			}
			return name
		})
		if unplaced > 0 {
			return nil
		}
		lines = mergeLines(lines, gl)
	}
	if len(lines) < 2 {
		return nil
	}
	knee.Alpha = KneeAlpha(knee.Alpha, len(lines))
	for _, l := range lines {
		ol := OverlayLine{Line: *l}
		var kneePts []stats.Point
		var rate []RatePoint
		for _, xv := range l.Xs() {
			var fs []Figures
			for _, res := range l.ByX[xv] {
				fs = append(fs, FiguresOf(res, kind))
			}
			p := LinePointOf(xv, fs, l.ByX[xv])
			ol.Points = append(ol.Points, p)
			kneePts = append(kneePts, p.Figures.KneePoint(xv))
			if x == RateDim {
				rate = append(rate, RatePointOf(xv, l.ByX[xv]))
			}
		}
		_, alongLoad := KneeDims[x]
		switch {
		case !alongLoad || len(kneePts) < 2:
		case x == RateDim:
			// Throughput follows the target by construction: a line along
			// the target rate is judged by the targets it kept.
			v := RateVerdictOf(rate)
			ol.Rate = &v
		default:
			k := KneeOf(x, kneePts, knee)
			ol.Knee = &k
			if k.Found {
				ol.Beyond = l.ByX[k.Result.Next.X]
			}
		}
		ov.Lines = append(ov.Lines, ol)
	}
	return ov
}

// mergeLines adds lines to into: a line named as one there (two groups
// given the same name) adds its trials to it.
func mergeLines(into, lines []*Line) []*Line {
	for _, l := range lines {
		i := -1
		for j, m := range into {
			if m.Name == l.Name {
				i = j
				break
			}
		}
		if i < 0 {
			into = append(into, l)
			continue
		}
		for xv, rs := range l.ByX {
			into[i].ByX[xv] = append(into[i].ByX[xv], rs...)
		}
	}
	return into
}

// SweepFigures are the points of a single sweep (or of several sweeps'
// runs charted together) over the trials that count, in the order the
// points were first run, and what the sweep found.
type SweepFigures struct {
	// X is the property the knee is sought along (XDim of the varied).
	X string
	// ByValue is true when the points chart against their values of X:
	// one series of numbers. Otherwise (a matrix of several series, or
	// values that are no numbers) each point's X is its place in the
	// order, from 1, and its Label names it in full.
	ByValue bool
	Points  []LinePoint
	// Knee is the knee along X, sought when the points chart by value or
	// X is no load (which KneeOf says has none); nil along the target
	// rate, where Rate says which targets were kept, and for a matrix.
	Knee *Knee
	Rate *RateVerdict
	// FindMax is what a find-max sweep's trials sustained, along the
	// target rate; nil for any other sweep.
	FindMax *FindMaxVerdict
	// Beyond are the trials at the point past the knee (the knee itself
	// when it is the last), whose diagnoses say what limited it.
	Beyond []*results.Results
	// Left counts the sweeps' runs left out: warm-ups and interrupted
	// trials.
	Left int
}

// SweepFiguresOf computes the figures of the sweep whose runs are
// marked with their points; runs outside sweeps are ignored. It returns
// nil when fewer than two points have trials that count, and in any case
// the ids of the sweeps the runs come from, sorted.
func SweepFiguresOf(runs []Run, kind LatencyKind, knee stats.KneeOptions) (sf *SweepFigures, sweepIDs []string) {
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
	sweepIDs = slices.Sorted(maps.Keys(ids))
	counted := make(map[string][]Figures)
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
		counted[p] = append(counted[p], FiguresOf(r.Res, kind))
		trials[p] = append(trials[p], r.Res)
	}
	if len(order) < 2 {
		return nil, sweepIDs
	}
	sf = &SweepFigures{X: XDim(varied), Left: left}
	x := sf.X
	point := map[string]map[string]string{}
	for _, r := range runs {
		if r.Mark != nil {
			point[r.Point()] = r.Mark.Point
		}
	}
	sf.ByValue = true
	series := map[string]bool{}
	for _, p := range order {
		if _, err := strconv.ParseFloat(point[p][x], 64); err != nil {
			sf.ByValue = false
		}
		rest := maps.Clone(point[p])
		delete(rest, x)
		m := results.SweepMark{Point: rest}
		series[m.Label()] = true
	}
	sf.ByValue = sf.ByValue && len(series) == 1
	var kneePts []stats.Point
	for i, p := range order {
		xv := float64(i + 1)
		if sf.ByValue {
			xv, _ = strconv.ParseFloat(point[p][x], 64)
		}
		lp := LinePointOf(xv, counted[p], trials[p])
		if !sf.ByValue {
			lp.Label = p
		}
		sf.Points = append(sf.Points, lp)
		kneePts = append(kneePts, lp.Figures.KneePoint(xv))
	}
	sf.find(kneePts, knee)
	return sf, sweepIDs
}

// find states what the sweep found from its points (kneePts as knee
// detection takes them): along the target rate the targets kept, else
// the knee and the trials past it; nothing for a matrix.
func (sf *SweepFigures) find(kneePts []stats.Point, knee stats.KneeOptions) {
	switch {
	case sf.ByValue && sf.X == RateDim:
		// Throughput follows the target by construction: a rate sweep is
		// judged by whether each target was kept, not by a knee.
		byTarget := map[float64][]*results.Results{}
		for _, p := range sf.Points {
			byTarget[p.X] = append(byTarget[p.X], p.Runs...)
		}
		var pts []RatePoint
		for _, t := range slices.Sorted(maps.Keys(byTarget)) {
			pts = append(pts, RatePointOf(t, byTarget[t]))
		}
		v := RateVerdictOf(pts)
		sf.Rate = &v
		if findMaxTrials(byTarget) {
			fm := FindMaxVerdictOf(byTarget)
			sf.FindMax = &fm
		}
	case sf.ByValue || KneeDims[sf.X] == "":
		k := KneeOf(sf.X, kneePts, knee)
		sf.Knee = &k
		if k.Found {
			at := k.Result.Next
			if at.X == 0 {
				at = k.Result.Knee
			}
			for _, p := range sf.Points {
				if p.X == at.X {
					sf.Beyond = append(sf.Beyond, p.Runs...)
				}
			}
		}
	}
}

// findMaxTrials says whether the trials are a find-max search's.
func findMaxTrials(byTarget map[float64][]*results.Results) bool {
	for _, rs := range byTarget {
		for _, r := range rs {
			if r.Extra != nil && r.Extra.Sweep != nil && r.Extra.Sweep.FindMax {
				return true
			}
		}
	}
	return false
}
