package generator

import (
	"math"
	"math/rand/v2"
)

// Hotspot is YCSB's HotspotIntegerGenerator (requestdistribution=hotspot):
// a fraction hotOpnFraction of draws fall uniformly in the hot set, the
// lowest hotsetFraction of [lb, ub]; the others fall uniformly in the rest.
// It is immutable and safe to share.
type Hotspot struct {
	lb     int64
	hot    uint64 // items in the hot set, which starts at lb
	cold   uint64 // items after it
	hotOpn float64
}

var _ Chooser = (*Hotspot)(nil)

// NewHotspot returns a Hotspot over [lb, ub] inclusive. As in YCSB, a
// fraction outside [0, 1] is taken as 0 and bounds in the wrong order are
// swapped; the workload's validation should have rejected both already.
func NewHotspot(lb, ub int64, hotsetFraction, hotOpnFraction float64) *Hotspot {
	if !(hotsetFraction >= 0 && hotsetFraction <= 1) {
		hotsetFraction = 0
	}
	if !(hotOpnFraction >= 0 && hotOpnFraction <= 1) {
		hotOpnFraction = 0
	}
	if lb > ub {
		lb, ub = ub, lb
	}
	interval := uint64(ub-lb) + 1
	if interval == 0 {
		interval = math.MaxUint64 // the full 2^64 range, one short
	}
	// YCSB truncates interval*fraction (to an int, which caps the hot set
	// at 2^31-1 items; counts are 64-bit here).
	hf := float64(interval) * hotsetFraction
	hot := interval
	if hf < float64(interval) {
		hot = uint64(hf)
	}
	return &Hotspot{lb: lb, hot: hot, cold: interval - hot, hotOpn: hotOpnFraction}
}

// Next returns the next value. When the hot or the cold set is empty every
// draw goes to the other one, where YCSB would divide by zero.
func (h *Hotspot) Next(r *rand.Rand) int64 {
	if h.cold == 0 || (h.hot != 0 && r.Float64() < h.hotOpn) {
		return h.lb + int64(r.Uint64N(h.hot))
	}
	return h.lb + int64(h.hot) + int64(r.Uint64N(h.cold))
}
