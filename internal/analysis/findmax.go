package analysis

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/findmax"
	"github.com/mongobench/mongobench/internal/results"
)

// What a trial at a target must show, beside meeting its thresholds, to
// sustain the target (sweep --find-max): the rate achieved close to it,
// and the workers keeping up with the schedule (NoSQLBench's findmax
// asks the same of achieved/target).
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

// Unsustained says why the run r did not sustain target, or "" when it
// did: a threshold it failed, too little of the target achieved, or a
// backlog of operations behind their schedule.
func Unsustained(r *results.Results, target float64) string {
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

// FindMaxVerdict is what a find-max sweep's trials say of the highest
// rate they sustained.
type FindMaxVerdict struct {
	Result findmax.Result
	// Objective is the thresholds every trial was judged by.
	Objective []string
	// Text says it in one line, as sweep --find-max ends: "sustains
	// 200–213 ops/s at READ:p(99)<500ms (achieved >= 95% of the target,
	// median schedule lag <= 10 ms)".
	Text string
}

// FindMaxVerdictOf judges a find-max sweep from its counted trials by
// target: a target is sustained when every trial at it is; the answer
// runs from the highest target sustained below the lowest one failed,
// which is what the search's bracketing, bisecting and confirming
// converge on.
func FindMaxVerdictOf(byTarget map[float64][]*results.Results) FindMaxVerdict {
	var v FindMaxVerdict
	targets := slices.Sorted(maps.Keys(byTarget))
	sustained := func(t float64) bool {
		for _, r := range byTarget[t] {
			if Unsustained(r, t) != "" {
				return false
			}
		}
		return len(byTarget[t]) > 0
	}
	for _, t := range targets {
		if t <= 0 {
			continue
		}
		if !sustained(t) {
			v.Result.High = t
			break
		}
		v.Result.Low = t
	}
	seen := map[string]bool{}
	for _, t := range targets {
		for _, r := range byTarget[t] {
			if r.Extra == nil {
				continue
			}
			for _, th := range r.Extra.Thresholds {
				if !seen[th.Threshold] {
					seen[th.Threshold] = true
					v.Objective = append(v.Objective, th.Threshold)
				}
			}
		}
	}
	at := ""
	if len(v.Objective) > 0 {
		at = " at " + strings.Join(v.Objective, " and ")
	}
	v.Text = fmt.Sprintf("%s%s (achieved >= %.0f%% of the target, median schedule lag <= %g ms)",
		v.Result.Text(), at, 100*MinAchieved, float64(MaxMedianLagUs)/1000)
	return v
}
