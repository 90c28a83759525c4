package stats

import (
	"fmt"
	"math"
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

// String returns a short name for the kind.
func (k VerdictKind) String() string {
	switch k {
	case NoVerdict:
		return "no verdict"
	case NoDifference:
		return "no significant difference"
	case Better:
		return "better"
	case Worse:
		return "worse"
	}
	return fmt.Sprintf("VerdictKind(%d)", int(k))
}

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

// String states the verdict in one line, e.g.
// "significant: B is 12.3% better than A (p=0.0021)".
func (v VerdictResult) String() string {
	switch v.Kind {
	case NoVerdict:
		return "no verdict possible: " + v.Reason
	case NoDifference:
		return fmt.Sprintf("no significant difference (p=%s)", formatP(v.P))
	}
	word := "better"
	if v.Kind == Worse {
		word = "worse"
	}
	if !v.RelDiffOK {
		return fmt.Sprintf("significant: B is %s than A (p=%s; A's mean is 0, so no relative change)", word, formatP(v.P))
	}
	return fmt.Sprintf("significant: B is %s %s than A (p=%s)", formatRel(v.RelDiff), word, formatP(v.P))
}

// formatP formats a p-value with three significant digits, so that a value
// just under 0.05 never prints as "0.05".
func formatP(p float64) string {
	return fmt.Sprintf("%.3g", p)
}

// formatRel formats |rel| as a percentage: one decimal, or two significant
// digits for changes below 0.1% so that they do not print as "0.0%".
func formatRel(rel float64) string {
	pct := 100 * math.Abs(rel)
	if pct < 0.1 {
		return fmt.Sprintf("%.2g%%", pct)
	}
	return fmt.Sprintf("%.1f%%", pct)
}
