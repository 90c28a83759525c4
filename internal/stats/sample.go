package stats

import (
	"fmt"
	"math"
)

// Sample describes one sample: the results of repeated runs of one setup.
type Sample struct {
	N      int
	Mean   float64
	StdDev float64 // sample standard deviation (divisor N−1); 0 when N < 2
}

// Describe returns the size, mean and standard deviation of xs. The values
// must be finite; MeanCI and Welch check that, Describe does not.
func Describe(xs []float64) Sample {
	e := scaleExp(xs)
	mean, variance := moments(xs, e)
	return Sample{N: len(xs), Mean: math.Ldexp(mean, e), StdDev: math.Ldexp(math.Sqrt(variance), e)}
}

// Interval is a point estimate (a mean, or a difference of two means) with
// a two-sided confidence interval from Student's t distribution.
//
// When OK is false no interval could be formed (Note says why): Lo and Hi
// then equal Mean and StdErr and DF are zero. The fields stay finite in
// that case so that an Interval can always be written out as JSON.
type Interval struct {
	Mean   float64
	Lo, Hi float64
	Level  float64 // confidence level, e.g. 0.95
	StdErr float64 // standard error of Mean
	DF     float64 // degrees of freedom of the t distribution used
	OK     bool
	Note   string
}

// HalfWidth returns half the width of the interval: Mean ± HalfWidth.
func (iv Interval) HalfWidth() float64 { return (iv.Hi - iv.Lo) / 2 }

// RelHalfWidth returns HalfWidth relative to |Mean| (0.03 for "±3%"). It is
// +Inf when Mean is 0 and the interval has a width, 0 when it has none.
func (iv Interval) RelHalfWidth() float64 {
	h := iv.HalfWidth()
	if h == 0 {
		return 0
	}
	return h / math.Abs(iv.Mean)
}

// MeanCI returns the mean of xs with a two-sided confidence interval at the
// given level (0.95 for 95%) from Student's t distribution with n−1 degrees
// of freedom. That assumes the values are independent draws from a roughly
// normal distribution, which repeated benchmark runs usually are; with few
// runs the t distribution widens the interval accordingly.
//
// The interval is undefined (OK false) for fewer than 2 values, a level
// outside (0, 1) or a value that is not finite.
func MeanCI(xs []float64, level float64) Interval {
	iv := Interval{Level: level}
	if i := firstNonFinite(xs); i >= 0 {
		iv.Note = fmt.Sprintf("value %d is not a finite number (%g)", i, xs[i])
		return iv
	}
	e := scaleExp(xs)
	mean, variance := moments(xs, e)
	iv.Mean = math.Ldexp(mean, e)
	iv.Lo, iv.Hi = iv.Mean, iv.Mean
	if !(level > 0 && level < 1) {
		iv.Note = fmt.Sprintf("confidence level must be between 0 and 1, got %g", level)
		return iv
	}
	n := len(xs)
	if n < 2 {
		iv.Note = fmt.Sprintf("need at least 2 values for an interval, have %d", n)
		return iv
	}
	se := math.Sqrt(variance / float64(n))
	df := float64(n - 1)
	half := studentTUpperQuantile((1-level)/2, df) * se
	iv.Lo = math.Ldexp(mean-half, e)
	iv.Hi = math.Ldexp(mean+half, e)
	iv.StdErr = math.Ldexp(se, e)
	iv.DF = df
	iv.OK = true
	return iv
}

// firstNonFinite returns the index of the first NaN or infinity in xs, or -1.
func firstNonFinite(xs []float64) int {
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return i
		}
	}
	return -1
}

// scaleExp returns the binary exponent of the largest magnitude in the
// samples. Working on x·2^-e keeps every value below 1, so sums of values
// and of squares cannot overflow however large the inputs; scaling by a
// power of two is exact, and t, df and p do not depend on the scale at all.
func scaleExp(samples ...[]float64) int {
	largest := 0.0
	for _, xs := range samples {
		for _, x := range xs {
			largest = math.Max(largest, math.Abs(x))
		}
	}
	if largest == 0 || math.IsInf(largest, 0) || math.IsNaN(largest) {
		return 0
	}
	_, e := math.Frexp(largest)
	return e
}

// moments returns the mean and the sample variance (divisor n−1) of the
// values x·2^-e. A constant sample gets exactly its value and zero variance,
// so that identical runs are recognised as such and not as rounding noise.
func moments(xs []float64, e int) (mean, variance float64) {
	n := len(xs)
	if n == 0 {
		return 0, 0
	}
	constant := true
	for _, x := range xs[1:] {
		if x != xs[0] {
			constant = false
			break
		}
	}
	if constant {
		return math.Ldexp(xs[0], -e), 0
	}
	// Summing deviations from the first value keeps the digits that
	// matter when the runs agree in their leading digits, as they usually
	// do. Rounding can still put the mean an ulp outside the values, which
	// the clamp undoes.
	shift := math.Ldexp(xs[0], -e)
	lo, hi := shift, shift
	sum := 0.0
	for _, x := range xs {
		x = math.Ldexp(x, -e)
		sum += x - shift
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	mean = min(max(shift+sum/float64(n), lo), hi)
	// Two passes with the correction term of Chan, Golub and LeVeque: the
	// sum of deviations would be 0 in exact arithmetic, and subtracting its
	// square removes most of the rounding error of the mean.
	var ss, comp float64
	for _, x := range xs {
		d := math.Ldexp(x, -e) - mean
		ss += d * d
		comp += d
	}
	variance = (ss - comp*comp/float64(n)) / float64(n-1)
	return mean, math.Max(variance, 0)
}
