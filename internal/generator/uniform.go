package generator

import "math/rand/v2"

// Uniform picks integers uniformly from [lb, ub], both included, like YCSB's
// UniformLongGenerator. It is immutable and safe to share.
type Uniform struct {
	lb int64
	// span is ub-lb+1 as an unsigned number; 0 stands for the whole 2^64
	// range, the one span that does not fit.
	span uint64
}

var _ Chooser = (*Uniform)(nil)

// NewUniform returns a Uniform over [lb, ub] inclusive. Bounds given in the
// wrong order are swapped, as YCSB's HotspotIntegerGenerator does, rather
// than producing values outside both.
func NewUniform(lb, ub int64) *Uniform {
	if lb > ub {
		lb, ub = ub, lb
	}
	return &Uniform{lb: lb, span: uint64(ub-lb) + 1}
}

// Next returns the next value.
//
// YCSB computes Math.abs(nextLong()) % interval, which is slightly biased
// towards small values and breaks on Long.MIN_VALUE; an unbiased draw is
// the distribution it means.
func (u *Uniform) Next(r *rand.Rand) int64 {
	if u.span == 0 {
		return int64(r.Uint64())
	}
	return u.lb + int64(r.Uint64N(u.span))
}

// Constant always returns the same value, like YCSB's
// ConstantIntegerGenerator (fieldlengthdistribution=constant).
type Constant struct {
	v int64
}

var _ Chooser = (*Constant)(nil)

// NewConstant returns a Constant that always yields v.
func NewConstant(v int64) *Constant { return &Constant{v: v} }

// Next returns the constant; r is not used.
func (c *Constant) Next(*rand.Rand) int64 { return c.v }
