package runner

import (
	"errors"
	"math"
	"sort"
	"time"

	"github.com/mongobench/mongobench/internal/workload"
)

// RampPacer schedules a ramp of rates (--stages): within each stage the
// rate moves linearly from the previous stage's target to its own, and
// operation i is due when the operations scheduled so far, the integral
// of the rate, reach i. An operation that cannot start on time because
// no worker is free counts as a late start, as under ConstantPacer.
type RampPacer struct {
	segs []rampSeg
	// total is the operations the whole ramp schedules.
	total int64
	end   time.Duration
}

// rampSeg is one stage on the schedule's axes.
type rampSeg struct {
	start      float64 // seconds from the phase's start
	dur        float64 // seconds
	from, to   float64 // rates at its ends, operations per second
	opsBefore  float64 // operations scheduled before it
	ops        float64 // operations scheduled in it
	slope      float64 // (to−from)/dur
	opsBeyond  float64 // opsBefore+ops
	constantAt bool    // from == to: a constant rate
}

// NewRampPacer paces stages; they must schedule at least one operation.
func NewRampPacer(stages []workload.Stage) (*RampPacer, error) {
	p := &RampPacer{}
	prev, at, ops := 0.0, 0.0, 0.0
	for _, st := range stages {
		d := st.Duration.Seconds()
		if !(d > 0) || !(st.Target >= 0) || math.IsInf(st.Target, 0) {
			return nil, errors.New("a ramp needs stages of positive durations and finite rates of 0 or more")
		}
		s := rampSeg{start: at, dur: d, from: prev, to: st.Target, opsBefore: ops, ops: (prev + st.Target) / 2 * d}
		s.slope = (s.to - s.from) / d
		s.constantAt = s.from == s.to
		s.opsBeyond = s.opsBefore + s.ops
		p.segs = append(p.segs, s)
		prev, at, ops = st.Target, at+d, ops+s.ops
	}
	p.total = int64(math.Floor(ops))
	p.end = time.Duration(at * float64(time.Second))
	if p.total < 1 {
		return nil, errors.New("the stages schedule no operation: their rates are all 0, or too low for their durations")
	}
	return p, nil
}

// Total is the number of operations the ramp schedules: the phase ends
// after them.
func (p *RampPacer) Total() int64 { return p.total }

// Duration is the ramp's length.
func (p *RampPacer) Duration() time.Duration { return p.end }

// seg finds the stage operation i falls in: the first whose operations
// reach past it.
func (p *RampPacer) seg(i int64) *rampSeg {
	x := float64(i)
	k := sort.Search(len(p.segs), func(k int) bool { return p.segs[k].opsBeyond > x })
	if k == len(p.segs) {
		k = len(p.segs) - 1
	}
	return &p.segs[k]
}

// Due solves opsBefore + from·τ + slope·τ²/2 = i for τ within the stage,
// in the form that stays exact as slope goes to 0.
func (p *RampPacer) Due(i int64) time.Duration {
	if i >= p.total {
		return p.end
	}
	s := p.seg(i)
	n := float64(i) - s.opsBefore
	var tau float64
	switch {
	case n <= 0:
		tau = 0
	case s.constantAt:
		tau = n / s.from
	default:
		disc := s.from*s.from + 2*s.slope*n
		tau = 2 * n / (s.from + math.Sqrt(max(disc, 0)))
	}
	tau = min(max(tau, 0), s.dur)
	return time.Duration((s.start + tau) * float64(time.Second))
}

// Rate is the rate at operation i's due time; never below one operation
// per second, which only caps the lead of the workers' timers.
func (p *RampPacer) Rate(i int64) float64 {
	s := p.seg(min(i, p.total))
	tau := (p.Due(i)).Seconds() - s.start
	return max(s.from+s.slope*tau, 1)
}
