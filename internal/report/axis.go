package report

import (
	"math"
	"slices"
	"strconv"
)

// axisKind is how an axis maps values to positions.
type axisKind int

const (
	linearAxis axisKind = iota
	logAxis
	// percentileAxis takes percentiles (0 … 100) and places them on the
	// usual HDR scale, log10(1 / (1 − q)): 90%, 99% and 99.9% are equally
	// far apart, so that the tail gets as much room as the body.
	percentileAxis
)

// axis is one axis of a chart: its kind, domain and ticks.
type axis struct {
	kind   axisKind
	lo, hi float64
	ticks  []tick
}

// tick is a labelled value on an axis.
type tick struct {
	v     float64
	label string
}

// maxTicks bounds the ticks of any axis, whatever the input: a chart with
// more would be unreadable, and a pathological domain must not build a
// million of them.
const maxTicks = 64

// frac returns where v lies on the axis, 0 at lo and 1 at hi, clamped to a
// little beyond that so that a stray value cannot throw a line off the page.
func (a *axis) frac(v float64) float64 {
	var f float64
	switch a.kind {
	case logAxis:
		if v <= 0 {
			return 0
		}
		f = (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
	case percentileAxis:
		f = hdrOdds(v) / hdrOdds(a.hi)
	default:
		f = (v - a.lo) / (a.hi - a.lo)
	}
	if math.IsNaN(f) {
		return 0
	}
	return math.Max(-0.05, math.Min(1.05, f))
}

// hdrOdds is log10(1 / (1 − q)) for a percentile q, the position of q on a
// percentile axis; 100% and beyond are capped at one in a billion.
func hdrOdds(pct float64) float64 {
	rest := 1 - pct/100
	if rest < 1e-9 {
		rest = 1e-9
	}
	if rest > 1 {
		rest = 1
	}
	return -math.Log10(rest)
}

// newLinearAxis returns a linear axis covering lo … hi, widened to nice
// tick values (multiples of 1, 2 or 5 × 10ⁿ), with about five ticks.
// withZero makes the axis start at zero, as an axis of rates or counts
// should, so that bar lengths and line heights compare honestly.
func newLinearAxis(lo, hi float64, withZero bool, format func(float64) string) axis {
	if withZero {
		lo, hi = math.Min(lo, 0), math.Max(hi, 0)
	}
	vs, nlo, nhi := niceTicks(lo, hi, 5)
	a := axis{kind: linearAxis, lo: nlo, hi: nhi}
	for _, v := range vs {
		a.ticks = append(a.ticks, tick{v: v, label: format(v)})
	}
	return a
}

// niceTicks returns about target tick values covering lo … hi at a nice
// step, and the domain they span. Empty or non-finite ranges get a sensible
// domain rather than an error, since a chart of one constant value is still
// a chart.
func niceTicks(lo, hi float64, target int) (ticks []float64, nlo, nhi float64) {
	if !isFinite(lo) || !isFinite(hi) {
		lo, hi = 0, 1
	}
	if hi < lo {
		lo, hi = hi, lo
	}
	// A range narrower than float64 can step through is one value.
	if hi-lo <= math.Max(math.Abs(lo), math.Abs(hi))*1e-9 {
		if lo == 0 && hi == 0 {
			lo, hi = 0, 1
		} else {
			d := math.Max(math.Abs(lo), math.Abs(hi)) * 0.1
			lo, hi = lo-d, hi+d
		}
	}
	if target < 2 {
		target = 2
	}
	mant, exp := niceStepParts((hi - lo) / float64(target-1))
	step := mant * math.Pow(10, exp)
	if !isFinite(step) || step <= 0 {
		return []float64{lo, hi}, lo, hi
	}
	kLo, kHi := math.Floor(lo/step), math.Ceil(hi/step)
	n := kHi - kLo
	if !(n >= 1 && n <= maxTicks) {
		return []float64{lo, hi}, lo, hi
	}
	for k := kLo; k <= kHi; k++ {
		ticks = append(ticks, stepValue(k*mant, exp))
	}
	return ticks, ticks[0], ticks[len(ticks)-1]
}

// stepValue returns n × 10^exp for a whole n, rounded once: dividing by an
// exact power of ten gives 0.3 for 3 × 10⁻¹, where multiplying by 0.1
// would give 0.30000000000000004.
func stepValue(n, exp float64) float64 {
	if exp < 0 && exp >= -22 {
		return n / math.Pow(10, -exp)
	}
	return n * math.Pow(10, exp)
}

// niceStepParts returns the nice step for raw as mantissa (1, 2, 5 or 10)
// and exponent of ten; 0, 0 for a raw step that is not positive.
func niceStepParts(raw float64) (mant, exp float64) {
	if !(raw > 0) || !isFinite(raw) {
		return 0, 0
	}
	exp = math.Floor(math.Log10(raw))
	f := raw / math.Pow(10, exp)
	switch {
	case f < 1.5:
		mant = 1
	case f < 3:
		mant = 2
	case f < 7:
		mant = 5
	default:
		mant = 10
	}
	return mant, exp
}

// newLogAxis returns a logarithmic axis covering lo … hi (both positive).
// Over two decades or more it spans whole decades with a tick on each; over
// less, it ends on and ticks at 1, 2 and 5 × 10ⁿ, since a single decade
// tick would leave the axis unlabelled.
func newLogAxis(lo, hi float64, format func(float64) string) axis {
	// Well inside float64's range, so that rounding the domain out to
	// whole steps of decades cannot underflow to 0 or overflow to +Inf.
	const tiny, huge = 1e-200, 1e200
	if !(lo > 0) || !isFinite(lo) {
		lo = 1
	}
	lo = math.Min(math.Max(lo, tiny), huge)
	if !(hi > lo) || !isFinite(hi) {
		hi = lo * 10
	}
	hi = math.Min(hi, huge*10)
	d0, d1 := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	a := axis{kind: logAxis}
	if d1-d0 >= 3 {
		step := math.Max(1, math.Ceil((d1-d0)/8))
		d0 = math.Floor(d0/step) * step
		d1 = math.Ceil(d1/step) * step
		a.lo, a.hi = math.Pow(10, d0), math.Pow(10, d1)
		for d := d0; d <= d1; d += step {
			v := math.Pow(10, d)
			a.ticks = append(a.ticks, tick{v: v, label: format(v)})
		}
		return a
	}
	var cand []float64
	for d := d0 - 1; d <= d1; d++ {
		p := math.Pow(10, d)
		cand = append(cand, p, 2*p, 5*p)
	}
	a.lo, a.hi = cand[0], cand[len(cand)-1]
	for _, v := range cand {
		if v <= lo*(1+1e-12) {
			a.lo = v
		}
	}
	for i := len(cand) - 1; i >= 0; i-- {
		if cand[i] >= hi*(1-1e-12) && cand[i] > a.lo {
			a.hi = cand[i]
		}
	}
	for _, v := range cand {
		if v >= a.lo && v <= a.hi {
			a.ticks = append(a.ticks, tick{v: v, label: format(v)})
		}
	}
	return a
}

// newLogAxisAt returns a logarithmic axis with ticks at the given values
// (a sweep's thread counts), the domain padded by a little so that the
// first and last points do not sit on the frame.
func newLogAxisAt(values []float64, format func(float64) string) axis {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if v > 0 && isFinite(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if math.IsInf(lo, 1) {
		return newLogAxis(1, 10, format)
	}
	if hi <= lo {
		hi = lo * 10
	}
	pad := math.Pow(hi/lo, 0.04)
	a := axis{kind: logAxis, lo: lo / pad, hi: hi * pad}
	for _, v := range uniqueSorted(values) {
		if v > 0 && isFinite(v) && len(a.ticks) < maxTicks {
			a.ticks = append(a.ticks, tick{v: v, label: format(v)})
		}
	}
	return a
}

// newLinearAxisAt is newLinearAxis for a sweep: the varied values are the
// ticks when they are few, nice ticks otherwise.
func newLinearAxisAt(values []float64, format func(float64) string) axis {
	vs := uniqueSorted(values)
	if len(vs) == 0 {
		return newLinearAxis(0, 1, false, format)
	}
	lo, hi := vs[0], vs[len(vs)-1]
	if len(vs) > 12 || hi == lo {
		return newLinearAxis(lo, hi, false, format)
	}
	pad := (hi - lo) * 0.04
	a := axis{kind: linearAxis, lo: lo - pad, hi: hi + pad}
	for _, v := range vs {
		a.ticks = append(a.ticks, tick{v: v, label: format(v)})
	}
	return a
}

// newBytesAxis returns a linear axis from zero for sizes, ticked at nice
// multiples of the binary unit that fits (2 GiB, 4 GiB, not 1.86 GiB), and
// labelled with format.
func newBytesAxis(hi float64, format func(float64) string) axis {
	unit := 1.0
	for unit*1024 <= hi && unit < 1<<50 {
		unit *= 1024
	}
	vs, _, nhi := niceTicks(0, hi/unit, 5)
	a := axis{kind: linearAxis, lo: 0, hi: nhi * unit}
	for _, v := range vs {
		a.ticks = append(a.ticks, tick{v: v * unit, label: format(v * unit)})
	}
	return a
}

// newPercentileAxis returns a percentile axis reaching at least maxPct, and
// at least 99%, with a tick at every "nine": 0%, 90%, 99%, 99.9%, …
func newPercentileAxis(maxPct float64) axis {
	nines := int(math.Ceil(hdrOdds(maxPct) - 1e-9))
	nines = max(2, min(nines, 7))
	a := axis{kind: percentileAxis, lo: 0}
	for n := 0; n <= nines; n++ {
		q := 100 * (1 - math.Pow(10, -float64(n)))
		a.ticks = append(a.ticks, tick{v: q, label: percentileLabel(n)})
		a.hi = q
	}
	return a
}

// percentileLabel is the label of the tick with n nines: "0%", "90%",
// "99.9%".
func percentileLabel(n int) string {
	switch n {
	case 0:
		return "0%"
	case 1:
		return "90%"
	}
	s := "99"
	if n > 2 {
		s += "."
		for range n - 2 {
			s += "9"
		}
	}
	return s + "%"
}

// bandReach bounds how far an axis stretches past its data for the data's
// confidence intervals: to bandReach times the largest value (and down to
// the smallest over bandReach, for a logarithmic axis). An interval that
// reaches further is cut at the axis's edge and marked there, so that a
// few wide intervals of a handful of trials do not press the lines into a
// strip at the bottom (lines at 300–600 drawn on an axis to 3,000).
const bandReach = 1.5

// spanOf is the span an axis covers for values and their intervals
// (lows and highs): the values, and the intervals within bandReach of
// them. Only positive lows count, for a logarithmic axis; lo is +Inf and
// hi 0 when there is no positive value.
func spanOf(values, lows, highs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), 0
	for _, v := range values {
		if v > 0 && isFinite(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if hi == 0 {
		return lo, hi
	}
	blo, bhi := lo, hi
	for _, v := range lows {
		if v > 0 && isFinite(v) {
			blo = math.Min(blo, v)
		}
	}
	for _, v := range highs {
		if isFinite(v) {
			bhi = math.Max(bhi, v)
		}
	}
	return math.Max(blo, lo/bandReach), math.Min(bhi, hi*bandReach)
}

// latencyAxis returns an axis for latencies in microseconds: logarithmic
// when they span more than a factor of 30, so that a heavy tail does not
// flatten the rest into the floor, linear from zero otherwise; its ticks
// in one unit.
func latencyAxis(lo, hi float64) axis {
	if lo > 0 && hi/lo > 30 {
		return inOneUnit(newLogAxis(lo, hi, formatLatencyTick))
	}
	return inOneUnit(newLinearAxis(0, hi, true, formatLatencyTick))
}

// formatLatencyTick labels a latency tick: "500 µs", "2 ms", "1.5 s".
func formatLatencyTick(us float64) string {
	if us == 0 {
		return "0"
	}
	return formatLatency(us)
}

// formatSecondsTick labels a time axis in seconds, or minutes for long
// runs.
func formatSecondsTick(s float64) string {
	if s == 0 {
		return "0"
	}
	// Four significant digits: a bar's mean of several runs (0.461 s) is
	// labelled as measured, not with the float's noise
	// (0.46099999999999997); the axis's round ticks are unchanged.
	return strconv.FormatFloat(roundSignificant(s, 4), 'f', -1, 64) + " s"
}

// roundSignificant rounds v to digits significant digits.
func roundSignificant(v float64, digits int) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	scale := math.Pow(10, float64(digits)-math.Ceil(math.Log10(math.Abs(v))))
	return math.Round(v*scale) / scale
}

// formatMinutesTick labels a time axis in minutes.
func formatMinutesTick(s float64) string {
	if s == 0 {
		return "0"
	}
	return strconv.FormatFloat(s/60, 'f', -1, 64) + " min"
}

// timeAxis returns the axis of a time series lasting end seconds, ticked in
// seconds or, past ten minutes, at whole minutes.
func timeAxis(end float64) axis {
	// Samplers wake a hair after the second they aim at (6.0002 s): an
	// axis that ran on to the next tick for that would leave a quarter of
	// every chart empty. The last point then sits on the axis's end.
	if r := math.Round(end); r >= 1 && math.Abs(end-r) < 0.001*r {
		end = r
	}
	if end > 600 {
		// Nice steps in minutes, not in seconds: 5 min, not 500 s.
		vs, _, nhi := niceTicks(0, end/60, 6)
		a := axis{kind: linearAxis, lo: 0, hi: nhi * 60}
		for _, v := range vs {
			a.ticks = append(a.ticks, tick{v: v * 60, label: formatMinutesTick(v * 60)})
		}
		return a
	}
	return newLinearAxis(0, end, true, formatSecondsTick)
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// uniqueSorted returns the finite values of vs, sorted, without repeats.
func uniqueSorted(vs []float64) []float64 {
	out := make([]float64, 0, len(vs))
	for _, v := range vs {
		if isFinite(v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	n := 0
	for i, v := range out {
		if i == 0 || v != out[n-1] {
			out[n] = v
			n++
		}
	}
	return out[:n]
}
