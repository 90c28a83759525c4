package stats

import (
	"fmt"
	"math"
)

// The tests read verdicts and intervals as one line of text; the commands
// word them their own way (compare, report), so these live with the tests.

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

// String formats the interval as "mean [lo, hi] (95% CI)".
func (iv Interval) String() string {
	if !iv.OK {
		return fmt.Sprintf("%.6g (no interval: %s)", iv.Mean, iv.Note)
	}
	return fmt.Sprintf("%.6g [%.6g, %.6g] (%s CI)", iv.Mean, iv.Lo, iv.Hi, formatPercent(iv.Level))
}

// formatPercent formats a fraction as a percentage with as few digits as
// it needs: 0.95 → "95%", 0.999 → "99.9%".
func formatPercent(f float64) string {
	return fmt.Sprintf("%.4g%%", 100*f)
}
