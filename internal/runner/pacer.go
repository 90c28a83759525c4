package runner

import (
	"fmt"
	"math"
	"time"
)

// Pacer says when each operation of an open loop is due: Due(i) is how
// long after the phase's start operation i (counted from 0 over all
// workers) should start. It is the schedule alone, apart from who waits
// for it and from what ends the phase (vegeta's pacer, by operation
// rather than by elapsed time), so that a ramp is one more Pacer and the
// workers need not change. Due must be non-decreasing in i and cheap: it
// is called once per operation.
type Pacer interface {
	Due(i int64) time.Duration
	// Rate is the pace at operation i, in operations per second: what
	// caps how long before a due time the workers' timers go off (the
	// lead), and so how long they may yield.
	Rate(i int64) float64
}

// ConstantPacer starts operations at a fixed rate: operation i is due at
// i / PerSecond seconds.
type ConstantPacer struct {
	PerSecond float64
	period    float64 // nanoseconds between operations
}

// NewConstantPacer paces perSecond operations per second; perSecond must
// be positive and finite.
func NewConstantPacer(perSecond float64) (*ConstantPacer, error) {
	if !(perSecond > 0) || math.IsInf(perSecond, 0) {
		return nil, fmt.Errorf("a pace of %g operations per second: need a positive, finite rate", perSecond)
	}
	return &ConstantPacer{PerSecond: perSecond, period: float64(time.Second) / perSecond}, nil
}

// Due is i periods after the start, computed from i alone so that no
// rounding accumulates over a long phase.
func (p *ConstantPacer) Due(i int64) time.Duration {
	return time.Duration(float64(i) * p.period)
}

// Rate is the constant rate.
func (p *ConstantPacer) Rate(int64) float64 { return p.PerSecond }
