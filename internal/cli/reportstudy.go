package cli

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/diagnosis"
	htmlreport "github.com/mongobench/mongobench/internal/report"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
)

// reportStudy draws the groups side by side over the swept setting: one
// line per group, and per value of the sweep's other dimensions, so that a
// two-dimensional sweep is a line per value of its second dimension rather
// than one line through unrelated configurations. It returns nil when the
// runs are not sweeps over numbers, or when they make a single line.
func reportStudy(refs []string, groups [][]analysis.Run, kind analysis.LatencyKind, knee stats.KneeOptions) *htmlreport.Study {
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
	type line struct {
		name string
		byX  map[float64][]*results.Results
	}
	var lines []*line
	find := map[string]*line{}
	varied := map[string]bool{x: true}
	for _, n := range others {
		varied[n] = true
	}
	for gi, g := range groups {
		kinds := sweepKindNames(g, varied)
		for _, r := range g {
			if r.Mark == nil || r.Mark.Warmup || r.Res.Partial {
				continue
			}
			xv, err := strconv.ParseFloat(r.Mark.Point[x], 64)
			if err != nil || math.IsNaN(xv) || math.IsInf(xv, 0) {
				return nil
			}
			name := strings.TrimSpace(kinds[r.Res] + " " + lineName(r.Mark, x))
			if len(groups) > 1 {
				name = strings.TrimSpace(refs[gi] + " · " + name)
				name = strings.TrimSuffix(name, " ·")
			}
			l := find[name]
			if l == nil {
				l = &line{name: name, byX: map[float64][]*results.Results{}}
				find[name] = l
				lines = append(lines, l)
			}
			l.byX[xv] = append(l.byX[xv], r.Res)
		}
	}
	if len(lines) < 2 {
		return nil
	}
	st := &htmlreport.Study{Varied: x, SeriesBy: "configuration", Alpha: knee.Alpha}
	if len(groups) == 1 {
		st.SeriesBy = strings.Join(others, ", ")
	}
	// The lines' knees are stated together: they share the level.
	knee.Alpha = analysis.KneeAlpha(knee.Alpha, len(lines))
	for _, l := range lines {
		s := htmlreport.StudySeries{Name: l.name}
		var kneePts []stats.Point
		for _, xv := range slices.Sorted(maps.Keys(l.byX)) {
			var fs []analysis.Figures
			for _, res := range l.byX[xv] {
				fs = append(fs, analysis.FiguresOf(res, kind))
			}
			p, pf := sweepPointOf(fs, l.byX[xv])
			p.X = xv
			s.Points = append(s.Points, p)
			kneePts = append(kneePts, pf.KneePoint(xv))
		}
		if x == analysis.RateDim && len(kneePts) >= 2 {
			s.KneeSentence = rateSentence(l.byX)
		} else if _, ok := analysis.KneeDims[x]; ok && len(kneePts) >= 2 {
			k := analysis.KneeOf(x, kneePts, knee)
			text := k.Text
			if k.Found {
				kp := k.Result.Knee
				s.Knee = &htmlreport.KneeMark{X: kp.X, Throughput: kp.Throughput, P99us: kp.P99}
				// As a single sweep's page says it: what limited the
				// point past the knee.
				if b := diagnosis.BeyondMost(kp.X, analysis.KneeDims[x], diagnosesOf(l.byX[k.Result.Next.X])); b != "" {
					text += "; " + b
				}
			}
			s.KneeSentence = sentence(text)
		}
		st.Series = append(st.Series, s)
	}
	return st
}

// sweepPointOf is the report's point from its trials' figures: the means
// of throughput, p99 and average latency with their 95% confidence
// intervals, each operation's mean latencies, and the trials' results
// (for the regime table).
func sweepPointOf(fs []analysis.Figures, runs []*results.Results) (htmlreport.SweepPoint, analysis.PointFigures) {
	pf := analysis.Summarize(fs)
	sp := htmlreport.SweepPoint{Trials: pf.Trials, PerOp: map[string]htmlreport.OpFigures{}, Runs: runs}
	sp.Throughput, sp.ThroughputLo, sp.ThroughputHi = pf.Throughput.Bounds()
	sp.P99us, sp.P99Lo, sp.P99Hi = pf.P99.Bounds()
	var avg []float64
	for _, f := range fs {
		if a, ok := overallAverage(f); ok {
			avg = append(avg, a)
		}
	}
	sp.AvgUs, sp.AvgLo, sp.AvgHi = analysis.MeanAndCI(avg)
	sp.ThroughputTrials, sp.P99Trials, sp.AvgTrials = pf.Throughput.Values, pf.P99.Values, avg
	for name, o := range pf.Ops {
		if o.HasLatency() {
			of := htmlreport.OpFigures{AvgUs: o.Avg.Mean()}
			of.P99us, of.P99Lo, of.P99Hi = o.P99.Bounds()
			sp.PerOp[name] = of
		}
	}
	return sp, pf
}

// overallAverage is the mean latency over every operation of a run: each
// operation's mean weighted by its count.
func overallAverage(f analysis.Figures) (float64, bool) {
	sum, n := 0.0, int64(0)
	for _, o := range f.Ops {
		if avg, ok := o.Latency("avg"); ok && o.Count > 0 {
			sum += avg * float64(o.Count)
			n += o.Count
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// sweepKindNames names the kinds of a group's sweep runs when there are
// several (an engine's 95:5 and 90:10 thread sweeps under one label), by
// the properties that set them apart ("insert=0.05 read=0.95"), so that
// each is a line of its own rather than one line through both. Empty when
// the group's sweeps did one kind of work.
func sweepKindNames(g []analysis.Run, varied map[string]bool) map[*results.Results]string {
	var swept []analysis.Run
	for _, r := range g {
		if r.Mark != nil && r.Counted() && !r.Res.Partial {
			swept = append(swept, r)
		}
	}
	kinds := analysis.Separate(swept, varied)
	names := map[*results.Results]string{}
	if len(kinds) < 2 {
		return names
	}
	apart := map[string]bool{}
	for i := range kinds {
		for j := range i {
			for _, d := range analysis.Differences(kinds[j].Runs[0].Res, kinds[i].Runs[0].Res, varied) {
				apart[d.Property] = true
			}
		}
	}
	props := slices.Sorted(maps.Keys(apart))
	for _, k := range kinds {
		var parts []string
		for _, n := range props {
			v := k.Runs[0].Res.Config[n]
			if n == analysis.PhaseProperty {
				v = k.Runs[0].Res.Phase
			}
			parts = append(parts, shortName(n)+"="+v)
		}
		for _, r := range k.Runs {
			names[r.Res] = strings.Join(parts, " ")
		}
	}
	return names
}

// shortName is a property as a legend or a table's header names it: the
// last part of its name, a proportion by its operation ("read=0.95" for
// readproportion), short enough for a column of a pivot table.
func shortName(n string) string {
	n = n[strings.LastIndexByte(n, '.')+1:]
	if op := strings.TrimSuffix(n, "proportion"); op != "" {
		return op
	}
	return n
}

// lineName names a line by the values of the dimensions other than x, in
// command-line order and by the last part of each property's name
// ("maxconnections=4" for mongodb.maxconnections), so that the legend and
// the pivot table's headers stay short enough to read.
func lineName(m *results.SweepMark, x string) string {
	var parts []string
	for _, n := range m.Varied {
		if v, ok := m.Point[n]; ok && n != x {
			parts = append(parts, n[strings.LastIndexByte(n, '.')+1:]+"="+v)
		}
	}
	return strings.Join(parts, " ")
}
