package calibrate

import (
	"context"
	"fmt"

	"github.com/mongobench/mongobench/internal/db/mongo"
)

// The open loop's comparison: what pacing operations to a schedule costs
// the client, against the same workers running flat out.
const (
	// OpenThreads and OpenTarget are the open loop measured: -target
	// OpenTarget with OpenThreads workers, beside the closed loop with as
	// many.
	OpenThreads = 4
	OpenTarget  = 2000
	// OpenOperations bounds the operations of each open-loop measurement
	// (and of the closed loop beside it): at OpenTarget, 20,000 take 10 s.
	OpenOperations = 20_000
	// MaxOpenRatio is the most the open loop's CPU per operation may be,
	// as a multiple of the closed loop's at the same thread count.
	MaxOpenRatio = 1.2
	// MaxLagP50Us and MaxLagP99Us bound the open loop's schedule lag: how
	// long after its due time an operation starts.
	MaxLagP50Us = 50
	MaxLagP99Us = 300
)

// OpenLoop is the open loop at OpenTarget beside the closed loop at the
// same thread count, both on the driver's path (the default): medians over
// the repeats, and every trial.
type OpenLoop struct {
	Threads    int     `json:"threads"`
	Target     float64 `json:"target"`
	Operations int64   `json:"operations"`
	Path       string  `json:"path"`
	Closed     Figures `json:"closed"`
	// Open has the schedule lag (LagP50Us, LagP99Us) besides.
	Open Figures `json:"open"`
	// Ratio is Open's CPU per operation over Closed's (medians of each).
	Ratio        float64   `json:"ratio,omitempty"`
	ClosedTrials []Figures `json:"closed_trials"`
	OpenTrials   []Figures `json:"open_trials"`
}

// openOperations is how many operations each open-loop measurement runs.
func (o *Options) openOperations() int64 { return min(o.Operations, OpenOperations) }

// measureOpenLoop measures the open loop and the closed loop Repeats
// times, taking turns, as measurePoint does.
func (m *measurer) measureOpenLoop(ctx context.Context, o *Options) (*OpenLoop, error) {
	ops := o.openOperations()
	closedPt := point{name: o.Workload, threads: OpenThreads}
	spec, err := o.spec(closedPt, OpenThreads)
	if err != nil {
		return nil, err
	}
	spec.OperationCount = ops
	openSpec := *spec
	openSpec.Target = OpenTarget
	r := &OpenLoop{Threads: OpenThreads, Target: OpenTarget, Operations: ops, Path: mongo.PathDriver}
	for i := range o.Repeats {
		trial := ""
		if o.Repeats > 1 {
			trial = fmt.Sprintf(" (%d of %d)", i+1, o.Repeats)
		}
		steps := []func() error{
			func() error {
				f, err := m.mongobench(ctx, spec, closedPt, mongo.PathDriver)
				if err != nil {
					return fmt.Errorf("closed loop at %d threads: %w", OpenThreads, err)
				}
				r.ClosedTrials = append(r.ClosedTrials, f)
				m.logf("calibrate: %-20s %4d threads  %-10s  %s%s", "closed loop", OpenThreads, "mongobench", f.brief(), trial)
				return nil
			},
			func() error {
				f, err := m.mongobench(ctx, &openSpec, closedPt, mongo.PathDriver)
				if err != nil {
					return fmt.Errorf("-target %d at %d threads: %w", OpenTarget, OpenThreads, err)
				}
				r.OpenTrials = append(r.OpenTrials, f)
				m.logf("calibrate: %-20s %4d threads  %-10s  %s  lag p50 %d µs  p99 %d µs%s",
					fmt.Sprintf("-target %d", OpenTarget), OpenThreads, "mongobench", f.brief(), f.LagP50Us, f.LagP99Us, trial)
				return nil
			},
		}
		for j := range steps {
			if err := steps[(i+j)%len(steps)](); err != nil {
				return nil, err
			}
		}
	}
	r.Closed, r.Open = medianFigures(r.ClosedTrials), medianFigures(r.OpenTrials)
	if r.Closed.CPUPerOpUs > 0 {
		r.Ratio = r.Open.CPUPerOpUs / r.Closed.CPUPerOpUs
	}
	return r, nil
}

// openLoopGoals judges the open loop's cost and its schedule lag.
func openLoopGoals(ol *OpenLoop) []Goal {
	cost := Goal{Name: fmt.Sprintf("CPU/op at -target %d with %d threads ≤ %.1f× the closed loop's at %d threads", OpenTarget, OpenThreads, MaxOpenRatio, OpenThreads)}
	p50 := Goal{Name: fmt.Sprintf("schedule lag p50 ≤ %d µs at -target %d", MaxLagP50Us, OpenTarget)}
	p99 := Goal{Name: fmt.Sprintf("schedule lag p99 ≤ %d µs at -target %d", MaxLagP99Us, OpenTarget)}
	if ol == nil {
		for _, g := range []*Goal{&cost, &p50, &p99} {
			g.Detail = "measured with the other phases (without --no-extras)"
		}
		return []Goal{cost, p50, p99}
	}
	if ol.Closed.CPUPerOpUs > 0 {
		cost.Measured, cost.Value, cost.Limit = true, ol.Ratio, MaxOpenRatio
		cost.Holds = ol.Ratio <= MaxOpenRatio
		cost.Detail = fmt.Sprintf("open %.1f µs/op, closed %.1f µs/op: %.2f×", ol.Open.CPUPerOpUs, ol.Closed.CPUPerOpUs, ol.Ratio)
	} else {
		cost.Detail = "the closed loop measured no CPU"
	}
	for _, l := range []struct {
		g     *Goal
		v     int64
		limit int64
		q     string
	}{{&p50, ol.Open.LagP50Us, MaxLagP50Us, "p50"}, {&p99, ol.Open.LagP99Us, MaxLagP99Us, "p99"}} {
		if ol.Open.Operations == 0 {
			l.g.Detail = "no operation started"
			continue
		}
		l.g.Measured, l.g.Value, l.g.Limit = true, float64(l.v), float64(l.limit)
		l.g.Holds = l.v <= l.limit
		l.g.Detail = fmt.Sprintf("%s %d µs", l.q, l.v)
	}
	return []Goal{cost, p50, p99}
}
