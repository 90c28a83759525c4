package report

import (
	"math"
	"slices"
)

// latencyUnit is the one unit in which a chart's axis, a table or a row
// states its latencies, so that "800 µs" never stands beside "1.2 ms" and
// a reader compares digits, not units.
type latencyUnit struct {
	name string
	us   float64 // microseconds in one unit
}

var (
	microseconds = latencyUnit{"µs", 1}
	milliseconds = latencyUnit{"ms", 1e3}
	seconds      = latencyUnit{"s", 1e6}
)

// latencyUnitFor is the unit for vs (their positive finite values): the
// one their largest reads best in, or a smaller one while the smallest
// would read under 0.1 of it. 800 µs … 36 ms is then in ms throughout
// (0.8 ms … 36.9 ms), and 50 µs beside 2 ms stays in µs rather than
// turning into 0.05 ms.
func latencyUnitFor(vs ...float64) latencyUnit {
	lo, hi := math.Inf(1), 0.0
	for _, v := range vs {
		if v > 0 && isFinite(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	units := []latencyUnit{microseconds, milliseconds, seconds}
	i := 0
	for i+1 < len(units) && hi >= units[i+1].us {
		i++
	}
	for i > 0 && lo < 0.1*units[i].us {
		i--
	}
	return units[i]
}

// format writes a latency in microseconds in the unit: "0.8 ms".
func (u latencyUnit) format(us float64) string {
	if math.IsNaN(us) || math.IsInf(us, 0) {
		return "–"
	}
	return sig3(us/u.us) + " " + u.name
}

// tick labels an axis tick: "0" at zero, else as format.
func (u latencyUnit) tick(us float64) string {
	if us == 0 {
		return "0"
	}
	return u.format(us)
}

// inOneUnit relabels a latency axis's ticks in one unit (latencyUnitFor
// of the ticks), so that an axis never reads "500 µs, 1 ms, 1.5 ms".
func inOneUnit(a axis) axis { return inOneUnitOf(a, 1) }

// inOneUnitOf is inOneUnit for an axis whose values are latencies of us
// microseconds each (1000 for one in milliseconds).
func inOneUnitOf(a axis, us float64) axis {
	vs := make([]float64, len(a.ticks))
	for i, t := range a.ticks {
		vs[i] = t.v * us
	}
	u := latencyUnitFor(vs...)
	a.ticks = slices.Clone(a.ticks)
	for i := range a.ticks {
		a.ticks[i].label = u.tick(vs[i])
	}
	return a
}
