package stats

import (
	"fmt"
)

// VerdictKind is the outcome of comparing B against A.
type VerdictKind int

// The outcomes of a comparison.
const (
	// NoVerdict: no test was possible (fewer than 2 runs on a side, a value
	// that is not finite, or an invalid alpha).
	NoVerdict VerdictKind = iota
	// NoDifference: the test found no significant difference at alpha.
	NoDifference
	// Better: B is significantly better than A.
	Better
	// Worse: B is significantly worse than A.
	Worse
)

// DefaultAlpha is the significance level used when Verdict is given 0.
const DefaultAlpha = 0.05

// VerdictResult is the verdict on B against A with the numbers behind it.
type VerdictResult struct {
	Kind   VerdictKind
	Reason string // why there is no verdict (Kind == NoVerdict)
	Alpha  float64
	// HigherIsBetter tells how Better and Worse were read from the sign of
	// the difference: true for throughput, false for latency.
	HigherIsBetter bool
	// RelDiff is (mean B − mean A) / mean A, valid when RelDiffOK.
	RelDiff   float64
	RelDiffOK bool
	// P is the two-sided p-value of Welch's test (1 when no test was possible).
	P float64
	// CI is the confidence interval of mean B − mean A at level 1 − Alpha,
	// the interval that agrees with the verdict: it excludes 0 exactly when
	// the difference is significant.
	CI Interval
	// Test holds everything Welch's test computed.
	Test TTest
}

// Verdict compares the runs of B against those of A with Welch's t-test at
// significance level alpha (0 means DefaultAlpha). higherIsBetter says
// which direction is an improvement: true for throughput, false for
// latency.
func Verdict(a, b []float64, alpha float64, higherIsBetter bool) VerdictResult {
	if alpha == 0 {
		alpha = DefaultAlpha
	}
	t := Welch(a, b)
	v := VerdictResult{
		Alpha:          alpha,
		HigherIsBetter: higherIsBetter,
		RelDiff:        t.RelDiff,
		RelDiffOK:      t.RelDiffOK,
		P:              t.P,
		CI:             t.CI,
		Test:           t,
	}
	switch {
	case !(alpha > 0 && alpha < 1):
		v.Reason = fmt.Sprintf("alpha must be between 0 and 1, got %g", alpha)
		return v
	case len(a) < 2 && len(b) < 2:
		v.Reason = "single run per side"
		return v
	case len(a) < 2 || len(b) < 2:
		v.Reason = fmt.Sprintf("need at least 2 runs per side, A has %d and B has %d", len(a), len(b))
		return v
	case !t.OK:
		v.Reason = t.Note
		return v
	}
	v.CI = t.DiffInterval(1 - alpha)
	switch {
	case !(t.P < alpha):
		v.Kind = NoDifference
	case (t.Diff > 0) == higherIsBetter:
		v.Kind = Better
	default:
		v.Kind = Worse
	}
	return v
}
