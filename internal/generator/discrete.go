package generator

import "math/rand/v2"

// Discrete is YCSB's DiscreteGenerator: it picks an index with probability
// proportional to its weight. CoreWorkload uses it to choose the operation
// (read, update, insert, scan, read-modify-write, delete) from the
// proportions. It is immutable and safe to share.
type Discrete struct {
	// shares are the weights divided by their sum, in the order given.
	shares []float64
	// last is the highest index with a positive weight (-1: none).
	last int
}

// NewDiscrete returns a Discrete over the indexes of weights. As in YCSB the
// weights need not sum to 1: each is divided by their sum. Negative and NaN
// weights count as 0.
func NewDiscrete(weights []float64) *Discrete {
	d := &Discrete{shares: make([]float64, len(weights)), last: -1}
	sum := 0.0
	for _, w := range weights {
		if w > 0 {
			sum += w
		}
	}
	for i, w := range weights {
		if w > 0 {
			d.shares[i] = w / sum
			d.last = i
		}
	}
	return d
}

// Next returns the chosen index, or -1 if no weight is positive.
func (d *Discrete) Next(r *rand.Rand) int {
	return d.pick(r.Float64())
}

// pick is YCSB's walk over the normalised weights for a uniform val in
// [0, 1).
func (d *Discrete) pick(val float64) int {
	for i, s := range d.shares {
		if val < s {
			return i
		}
		val -= s
	}
	// The shares can sum to a hair under 1 after rounding, and YCSB then
	// fails with "oops. should not get here."; such a val belongs to the
	// last choice.
	return d.last
}
