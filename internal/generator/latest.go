package generator

import "math/rand/v2"

// Basis is what SkewedLatest skews towards: a counter's last value, usually
// the AcknowledgedCounter of run-phase inserts.
type Basis interface {
	Last() int64
}

var (
	_ Basis = (*AcknowledgedCounter)(nil)
	_ Basis = (*Counter)(nil)
)

// SkewedLatest is YCSB's SkewedLatestGenerator (requestdistribution=latest):
// the newest items are the most popular. With max the basis's last value it
// returns max - zipfian(max), a value in (0, max]; as the basis grows, the
// zipfian grows with it. It is safe to share.
type SkewedLatest struct {
	basis   Basis
	zipfian *Zipfian
}

var _ Chooser = (*SkewedLatest)(nil)

// NewSkewedLatest returns a SkewedLatest over the values up to basis.Last().
func NewSkewedLatest(basis Basis) *SkewedLatest {
	// YCSB builds ZipfianGenerator(basis.lastValue()): items 0..last-1.
	return &SkewedLatest{basis: basis, zipfian: NewZipfian(0, basis.Last()-1)}
}

// Next returns the next value. Like YCSB it never returns 0 once the basis
// is past it, as the zipfian draws from [0, max).
func (s *SkewedLatest) Next(r *rand.Rand) int64 {
	max := s.basis.Last()
	if max <= 0 {
		// Nothing to skew over: YCSB's arithmetic degenerates here too.
		return max
	}
	return max - s.zipfian.NextN(r, max)
}
