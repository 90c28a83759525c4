package sweep

import (
	"context"
	"strconv"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/findmax"
)

// What a find-max trial must also show, beside its thresholds, to
// sustain its target: analysis's rule, which the report applies again to
// the trials.
const (
	MinAchieved    = analysis.MinAchieved
	MaxMedianLagUs = analysis.MaxMedianLagUs
)

// FindMax searches the plan's one series over its target (the plan
// varies target alone): each probe is a point at a rate, with its
// trials, judged by Sustained. The series is told as done at the end,
// every probe in it.
func (s *Sweep) FindMax(ctx context.Context, o findmax.Options) (findmax.Result, error) {
	sr := s.plan.Series[0]
	// Its trials say so in their marks, so that the page finds the
	// answer again from them.
	s.findMax = true
	var done []PointResult
	probe := func(ctx context.Context, target float64) (findmax.Verdict, error) {
		p, err := s.plan.Point(withValue(sr.Fixed, "target", strconv.FormatFloat(target, 'f', -1, 64)))
		if err != nil {
			return findmax.Verdict{}, err
		}
		pr, err := s.runPoint(ctx, p)
		if len(pr.Trials) > 0 {
			done = append(done, pr)
		}
		if err != nil {
			return findmax.Verdict{}, err
		}
		return Sustained(pr, target), nil
	}
	res, err := findmax.Search(ctx, o, probe)
	s.cfg.Events.SeriesDone(sr, done)
	return res, err
}

// Sustained judges a point's trials at target: each counted trial must
// meet its thresholds, achieve MinAchieved of the target and start at
// most MaxMedianLagUs behind its schedule at the median (analysis's
// Unsustained).
func Sustained(pr PointResult, target float64) findmax.Verdict {
	counted := 0
	for _, t := range pr.Trials {
		if !t.Counts() {
			continue
		}
		counted++
		if why := analysis.Unsustained(t.Results, target); why != "" {
			return findmax.Verdict{Why: why}
		}
	}
	if counted == 0 {
		return findmax.Verdict{Why: "no trial ran to its end"}
	}
	return findmax.Verdict{Pass: true}
}
