package report

import (
	"strconv"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/workload"
)

// scheduledSeries is the rate an open-loop run's schedule asked for in
// each charted interval: -target's constant, or a ramp of --stages
// (config "stages"), which is where a throughput that falls away from it
// shows the system, or the client, not keeping up. ok is false for a
// closed loop.
func scheduledSeries(r *results.Results, ivs []results.IntervalResult) (series, bool) {
	var stages []workload.Stage
	if v := r.Config["stages"]; v != "" {
		st, err := workload.ParseStages(v)
		if err != nil {
			return series{}, false
		}
		stages = st
	} else if t, err := strconv.ParseFloat(r.Config["target"], 64); err == nil && t > 0 {
		// A constant rate from the start, not a climb from 0.
		return scheduled(ivs, func(s float64) float64 { return t * s }), true
	} else {
		return series{}, false
	}
	return scheduled(ivs, func(s float64) float64 { return rampOps(stages, s) }), true
}

// scheduled is the series of the operations due per second in each
// interval, from the count due by each instant.
func scheduled(ivs []results.IntervalResult, due func(s float64) float64) series {
	sr := series{name: "scheduled", color: colorNeutral, dashed: true}
	for _, iv := range ivs {
		if d := iv.EndS - iv.StartS; d > 0 {
			sr.points = append(sr.points, point{x: iv.EndS, y: (due(iv.EndS) - due(iv.StartS)) / d})
		}
	}
	return sr
}

// rampOps is the operations a ramp schedules in its first s seconds: the
// integral of a rate linear within each stage, from 0.
func rampOps(stages []workload.Stage, s float64) float64 {
	ops, from, at := 0.0, 0.0, 0.0
	for _, st := range stages {
		d := st.Duration.Seconds()
		if s <= at+d {
			tau := max(s-at, 0)
			return ops + from*tau + (st.Target-from)/d*tau*tau/2
		}
		ops += (from + st.Target) / 2 * d
		from, at = st.Target, at+d
	}
	return ops
}

func scheduledNote(paced bool) string {
	if paced {
		return "; the dashed grey line is the rate the schedule asked for (-target or --stages): throughput below it is operations that could not start on time"
	}
	return ""
}
