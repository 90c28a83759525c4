package generator

import (
	"math"
	"math/rand/v2"
)

// Exponential is YCSB's ExponentialGenerator (requestdistribution=
// exponential): small values are the most frequent and there is no upper
// bound. CoreWorkload subtracts each value from the last inserted key, so
// the newest keys are the most popular. It is immutable and safe to share.
type Exponential struct {
	gamma float64
}

var _ Chooser = (*Exponential)(nil)

// NewExponential returns the Exponential for which percentile percent of
// draws fall below rangeSize: YCSB's ExponentialGenerator(percentile, range),
// which CoreWorkload builds as (exponential.percentile,
// recordcount*exponential.frac). percentile must be in (0, 100) and
// rangeSize positive.
func NewExponential(percentile, rangeSize float64) *Exponential {
	return &Exponential{gamma: -math.Log(1.0-percentile/100.0) / rangeSize}
}

// Next returns the next value, truncated toward zero as CoreWorkload's
// intValue() does (to 64 bits here, where YCSB truncates to 32).
func (e *Exponential) Next(r *rand.Rand) int64 {
	// YCSB takes -log(u) with u in [0, 1), which is +Inf for u == 0;
	// 1-u is uniform over (0, 1] and has the same distribution.
	return javaLong(-math.Log(1-r.Float64()) / e.gamma)
}
