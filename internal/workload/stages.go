package workload

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Stage is one stage of a ramp (--stages): over Duration the rate moves
// in a straight line from the previous stage's Target (0 before the
// first) to this one's, as k6's ramping-arrival-rate does.
type Stage struct {
	Duration time.Duration
	Target   float64 // operations per second at the stage's end
}

// maxRampDuration bounds a ramp: a week, far beyond any benchmark, and
// far from the schedule's int64 nanoseconds.
const maxRampDuration = 7 * 24 * time.Hour

const stagesAccepted = "comma-separated DURATION:RATE stages, such as 30s:1000,2m:5000,30s:0 (durations in ms, s, m or h; rates from 0 to 1e9 operations per second; at most a week in all)"

// ParseStages reads a ramp: "30s:1000,2m:5000,30s:0".
func ParseStages(v string) ([]Stage, error) {
	var stages []Stage
	var total time.Duration
	peak := 0.0
	for _, part := range strings.Split(v, ",") {
		d, r, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok {
			return nil, fmt.Errorf("stage %q has no ':' between its duration and its rate", strings.TrimSpace(part))
		}
		dur, err := time.ParseDuration(strings.TrimSpace(d))
		if err != nil || dur <= 0 {
			return nil, fmt.Errorf("stage %q: duration %q is not a positive duration", strings.TrimSpace(part), strings.TrimSpace(d))
		}
		rate, err := ParseFloat(strings.TrimSpace(r), 0, maxTarget)
		if err != nil || math.IsNaN(rate) {
			return nil, fmt.Errorf("stage %q: rate %q is not a number of operations per second from 0 to 1e9", strings.TrimSpace(part), strings.TrimSpace(r))
		}
		total += dur
		if total > maxRampDuration {
			return nil, fmt.Errorf("the stages last over a week")
		}
		peak = max(peak, rate)
		stages = append(stages, Stage{Duration: dur, Target: rate})
	}
	if peak < minTarget {
		return nil, fmt.Errorf("every stage's rate is 0: nothing would run")
	}
	return stages, nil
}

// OpenLoop says whether the phase follows a schedule: a -target rate or a
// ramp of --stages.
func (s *Spec) OpenLoop() bool { return s.Target > 0 || len(s.Stages) > 0 }

// PeakTarget is the highest rate the schedule asks for: -target, or the
// ramp's highest stage; 0 in closed loop.
func (s *Spec) PeakTarget() float64 {
	peak := s.Target
	for _, st := range s.Stages {
		peak = max(peak, st.Target)
	}
	return peak
}

// stages reads the stages property; a ramp sets the rate itself, so it
// and -target exclude each other.
func (r *resolver) stages(s *Spec) {
	v := r.str("stages")
	if v == "" || r.err != nil {
		return
	}
	st, err := ParseStages(v)
	if err != nil {
		r.fail("stages", v, stagesAccepted+": "+err.Error())
		return
	}
	if s.Target > 0 {
		r.fail("stages", v, "no -target beside it: a ramp of stages sets the rate itself (drop -target, or drop --stages)")
		return
	}
	s.Stages = st
}
