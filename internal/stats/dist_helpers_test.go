package stats

import "math"

// The distribution functions as the tests compare them with scipy; the
// package itself uses the tail and upper-quantile functions behind them.

// StudentTCDF returns P(T ≤ t) for Student's t distribution with df degrees
// of freedom. df may be fractional (Welch's test needs that) or +Inf (the
// standard normal distribution). It returns NaN when t is NaN or df is not
// positive.
func StudentTCDF(t, df float64) float64 {
	if math.IsNaN(t) || !(df > 0) {
		return math.NaN()
	}
	if t < 0 {
		return studentTail(-t, df)
	}
	return 1 - studentTail(t, df)
}

// StudentTQuantile returns the t such that P(T ≤ t) = p for Student's t
// distribution with df degrees of freedom (df may be fractional or +Inf).
// It returns -Inf for p = 0, +Inf for p = 1 and NaN when p is outside [0, 1]
// or df is not positive.
func StudentTQuantile(p, df float64) float64 {
	switch {
	case math.IsNaN(p) || p < 0 || p > 1 || !(df > 0):
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p == 0.5:
		return 0
	case p < 0.5:
		return -studentTUpperQuantile(p, df)
	default:
		// 1-p is exact for p ≥ 0.5 (Sterbenz), so no precision is lost here.
		return studentTUpperQuantile(1-p, df)
	}
}
