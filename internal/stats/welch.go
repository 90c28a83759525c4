package stats

import (
	"fmt"
	"math"
)

// TTest is the result of Welch's unequal-variance t-test of B against A.
// Differences are B − A, so a positive T or Diff means B has the larger mean
// (scipy.stats.ttest_ind(a, b) reports the opposite sign).
//
// When OK is false no test was possible (Note says why). P is then 1, so
// that code which forgets to look at OK never claims a significant
// difference; T, DF and StdErr are 0 and CI collapses onto Diff.
type TTest struct {
	OK   bool
	Note string // why no test was possible, or how a degenerate case was decided
	A, B Sample
	// Diff is B.Mean − A.Mean.
	Diff float64
	// RelDiff is Diff / A.Mean, the relative change from A to B; it is only
	// meaningful when RelDiffOK (A.Mean ≠ 0).
	RelDiff   float64
	RelDiffOK bool
	// StdErr is the standard error of Diff: √(s²A/nA + s²B/nB).
	StdErr float64
	// T is Diff / StdErr. It is ±Inf when both samples are constant and
	// their means differ.
	T float64
	// DF is the Welch–Satterthwaite degrees of freedom (fractional).
	DF float64
	// P is the two-sided p-value: the probability of a |T| at least this
	// large if both means were equal.
	P float64
	// CI is the 95% confidence interval of Diff.
	CI Interval
}

// Welch runs Welch's t-test, which unlike Student's does not assume that
// both samples have the same variance: two machines or configurations often
// differ in their run-to-run noise as well as in their mean.
//
// Degenerate cases: with fewer than 2 values on either side, or a value
// that is not finite, no test is possible (OK false). When both samples have
// zero variance the t statistic is 0/0 or x/0: equal means give T = 0 and
// P = 1, different means give T = ±Inf and P = 0, each with a Note.
func Welch(a, b []float64) TTest {
	r := TTest{P: 1}
	for _, s := range []struct {
		name string
		xs   []float64
	}{{"A", a}, {"B", b}} {
		if i := firstNonFinite(s.xs); i >= 0 {
			r.Note = fmt.Sprintf("value %d of %s is not a finite number (%g)", i, s.name, s.xs[i])
			r.A.N, r.B.N = len(a), len(b)
			r.CI = Interval{Level: 0.95, Note: r.Note}
			return r
		}
	}

	e := scaleExp(a, b)
	ma, va := moments(a, e)
	mb, vb := moments(b, e)
	na, nb := float64(len(a)), float64(len(b))
	r.A = Sample{N: len(a), Mean: math.Ldexp(ma, e), StdDev: math.Ldexp(math.Sqrt(va), e)}
	r.B = Sample{N: len(b), Mean: math.Ldexp(mb, e), StdDev: math.Ldexp(math.Sqrt(vb), e)}
	r.Diff = math.Ldexp(mb-ma, e)
	if ma != 0 {
		// Computed on the scaled values: the ratio is the same and cannot
		// overflow in the subtraction.
		if rel := (mb - ma) / ma; !math.IsInf(rel, 0) {
			r.RelDiff, r.RelDiffOK = rel, true
		}
	}
	r.CI = Interval{Mean: r.Diff, Lo: r.Diff, Hi: r.Diff, Level: 0.95}

	if len(a) < 2 || len(b) < 2 {
		r.Note = fmt.Sprintf("need at least 2 values per sample, A has %d and B has %d", len(a), len(b))
		r.CI.Note = r.Note
		return r
	}

	ua, ub := va/na, vb/nb
	s := ua + ub
	if s == 0 {
		r.OK = true
		// The Welch–Satterthwaite formula is 0/0 here; with both variances
		// equal (to zero) the pooled degrees of freedom are the natural value.
		r.DF = na + nb - 2
		r.CI.OK, r.CI.DF = true, r.DF
		if mb == ma {
			r.Note = "both samples are constant and equal"
			return r
		}
		r.T = math.Copysign(math.Inf(1), mb-ma)
		r.P = 0
		r.Note = "both samples are constant and their means differ: the difference is exact (p = 0)"
		return r
	}
	se := math.Sqrt(s)
	// The variance shares, each in [0, 1], keep the Welch–Satterthwaite
	// formula free of the underflow that squaring tiny variances would cause.
	fa, fb := ua/s, ub/s
	r.DF = 1 / (fa*fa/(na-1) + fb*fb/(nb-1))
	r.T = (mb - ma) / se
	r.P = twoSidedP(r.T, r.DF)
	r.StdErr = math.Ldexp(se, e)
	r.OK = true
	r.CI = r.DiffInterval(0.95)
	return r
}

// DiffInterval returns the confidence interval of Diff at the given level,
// using the test's standard error and Welch–Satterthwaite degrees of
// freedom. Up to rounding, it excludes 0 exactly when P < 1 − level.
func (r TTest) DiffInterval(level float64) Interval {
	iv := Interval{Mean: r.Diff, Lo: r.Diff, Hi: r.Diff, Level: level}
	switch {
	case !r.OK:
		iv.Note = r.Note
		return iv
	case !(level > 0 && level < 1):
		iv.Note = fmt.Sprintf("confidence level must be between 0 and 1, got %g", level)
		return iv
	}
	iv.StdErr, iv.DF, iv.OK = r.StdErr, r.DF, true
	if r.StdErr == 0 {
		return iv
	}
	half := studentTUpperQuantile((1-level)/2, r.DF) * r.StdErr
	iv.Lo, iv.Hi = r.Diff-half, r.Diff+half
	// Only inputs near the float64 limit get here: an infinite difference
	// with an infinite half-width leaves the interval unbounded.
	if math.IsNaN(iv.Lo) {
		iv.Lo = math.Inf(-1)
	}
	if math.IsNaN(iv.Hi) {
		iv.Hi = math.Inf(1)
	}
	return iv
}
