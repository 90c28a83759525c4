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
	// log1p keeps a tiny percentile from rounding 1-p to 1, which would
	// make gamma 0 and every draw infinite.
	return &Exponential{gamma: -math.Log1p(-percentile/100.0) / rangeSize}
}

// Next returns the next value, truncated toward zero as CoreWorkload's
// intValue() does (to 64 bits here, where YCSB truncates to 32).
func (e *Exponential) Next(r *rand.Rand) int64 {
	// YCSB takes -log(u) with u in [0, 1), which is +Inf for u == 0;
	// 1-u is uniform over (0, 1] and has the same distribution.
	return javaLong(-math.Log(1-r.Float64()) / e.gamma)
}

// NextUpTo returns a value in [0, limit] with the distribution of Next's
// values that are at most limit. CoreWorkload gets it by drawing again
// until a value fits, which never ends when hardly any do (a tiny
// exponential.percentile): here a draw that does not fit is followed by
// one from the truncated distribution, by inverting its CDF, so the cost
// is bounded and the distribution the same.
func (e *Exponential) NextUpTo(r *rand.Rand, limit int64) int64 {
	if limit <= 0 {
		return 0
	}
	// Compared before truncation: Next saturates at the largest int64,
	// which would pass for a fit when limit is that.
	end := float64(limit) + 1
	if x := -math.Log(1-r.Float64()) / e.gamma; x < end {
		return min(javaLong(x), limit)
	}
	// fits is the share of Next's draws below end; 0 when gamma is so
	// small that the distribution is flat there, as it is in the limit.
	fits := -math.Expm1(-e.gamma * end)
	u := r.Float64()
	x := u * end
	if fits > 0 {
		x = -math.Log1p(-u*fits) / e.gamma
	}
	return min(max(javaLong(x), 0), limit)
}
