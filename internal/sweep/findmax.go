package sweep

import (
	"context"
	"fmt"
	"strconv"

	"github.com/mongobench/mongobench/internal/findmax"
	"github.com/mongobench/mongobench/internal/results"
)

// What a find-max trial must also show to sustain its target: the rate
// achieved close to it, and the workers keeping up with the schedule
// (NoSQLBench's findmax asks the same of achieved/target).
const (
	// MinAchieved is the least share of the target a trial must achieve.
	MinAchieved = 0.95
	// MaxMedianLagUs is the most the median operation may start behind
	// its schedule, in µs: beyond it operations queue for workers, a
	// backlog, whatever the latency of each says. A few late starts are
	// the host's timer and scheduler, and say nothing of a backlog: on a
	// busy host half the operations of a healthy run start over 1 ms late
	// while the median stays under one.
	MaxMedianLagUs = 10_000
)

// FindMax searches the plan's one series over its target (the plan
// varies target alone): each probe is a point at a rate, with its
// trials, judged by Sustained. The series is told as done at the end,
// every probe in it.
func (s *Sweep) FindMax(ctx context.Context, o findmax.Options) (findmax.Result, error) {
	sr := s.plan.Series[0]
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
// most MaxLateShare of its operations late.
func Sustained(pr PointResult, target float64) findmax.Verdict {
	counted := 0
	for _, t := range pr.Trials {
		if !t.Counts() {
			continue
		}
		counted++
		if why := unsustained(t.Results, target); why != "" {
			return findmax.Verdict{Why: why}
		}
	}
	if counted == 0 {
		return findmax.Verdict{Why: "no trial ran to its end"}
	}
	return findmax.Verdict{Pass: true}
}

func unsustained(r *results.Results, target float64) string {
	if r.Extra != nil {
		for _, th := range r.Extra.Thresholds {
			if !th.Pass {
				return th.Reason
			}
		}
	}
	if r.ThroughputOpsSec < MinAchieved*target {
		return fmt.Sprintf("achieved %.0f ops/s, under %.0f%% of the target", r.ThroughputOpsSec, 100*MinAchieved)
	}
	if lag := r.ScheduleLag; lag != nil && lag.PercentilesUs["50"] > MaxMedianLagUs {
		late := int64(0)
		if r.Extra != nil && r.Extra.Runner != nil {
			late = r.Extra.LateStarts
		}
		return fmt.Sprintf("a backlog: the median operation started %.1f ms behind schedule (%d started late)", float64(lag.PercentilesUs["50"])/1000, late)
	}
	return ""
}
