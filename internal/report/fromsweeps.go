package report

import (
	"fmt"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/stats"
)

// studyOf draws the groups' sweeps side by side (analysis.OverlayOf):
// a line each on the overlay charts, with its knee or, along the target
// rate, the targets it kept. nil when the runs make no overlay.
func studyOf(names []string, groups [][]analysis.Run, kind analysis.LatencyKind, knee stats.KneeOptions) *Study {
	ov := analysis.OverlayOf(names, groups, kind, knee)
	if ov == nil {
		return nil
	}
	st := &Study{Varied: ov.X, SeriesBy: "configuration", Alpha: knee.Alpha}
	if len(groups) == 1 {
		st.SeriesBy = strings.Join(ov.Others, ", ")
	}
	for _, l := range ov.Lines {
		s := StudySeries{Name: l.Name}
		for _, p := range l.Points {
			s.Points = append(s.Points, pointOf(p))
		}
		switch {
		case l.Rate != nil:
			s.KneeSentence = sentence(l.Rate.Text)
		case l.Knee != nil:
			s.Knee, s.KneeSentence = kneeOf(ov.X, *l.Knee, l.Beyond)
		}
		st.Series = append(st.Series, s)
	}
	return st
}

// sweepOf is the sweep section of runs marked with their sweep points
// (analysis.SweepFiguresOf): each point's means and confidence intervals
// over the trials that count, and what the sweep found. nil when the runs
// are not the points of a sweep; the notes say what was charted together
// or left out.
func sweepOf(runs []analysis.Run, kind analysis.LatencyKind, knee stats.KneeOptions) (*Sweep, []string) {
	sf, ids := analysis.SweepFiguresOf(runs, kind, knee)
	var notes []string
	if len(ids) > 1 {
		notes = append(notes, fmt.Sprintf("the runs come from %d sweeps (%s): their points are charted together", len(ids), strings.Join(ids, ", ")))
	}
	if sf == nil {
		return nil, notes
	}
	if sf.Left > 0 {
		notes = append(notes, fmt.Sprintf("%s (warm-up or interrupted) left out of the sweep's figures", count(sf.Left, "run")))
	}
	sw := &Sweep{Varied: sf.X}
	if !sf.ByValue {
		sw.Varied = "point"
	}
	for _, p := range sf.Points {
		sw.Points = append(sw.Points, pointOf(p))
	}
	switch {
	case sf.FindMax != nil:
		// The search's answer, found again from its trials; what each
		// rate tried kept is in the points.
		sw.KneeSentence = sentence("find-max " + sf.FindMax.Text)
	case sf.Rate != nil:
		sw.KneeSentence = sentence(sf.Rate.Text)
	case sf.Knee != nil:
		sw.Knee, sw.KneeSentence = kneeOf(sf.X, *sf.Knee, sf.Beyond)
		// Along a data size or a batch size no knee is sought: saying so is
		// no finding for the conclusion.
		sw.NotAlongLoad = analysis.KneeDims[sf.X] == ""
	default:
		sw.KneeSentence = "No knee: the sweep varies several properties; mongobench sweep prints the knee of each series."
	}
	return sw, notes
}
