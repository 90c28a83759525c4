package analysis

import (
	"fmt"
	"math"
	"strconv"

	"github.com/mongobench/mongobench/internal/stats"
)

// ChangeText is the relative change from A's mean to B's: "+9.7%".
func ChangeText(r Row) string {
	if len(r.A) == 0 || len(r.B) == 0 {
		return "–"
	}
	ma, mb := stats.Describe(r.A).Mean, stats.Describe(r.B).Mean
	if ma == 0 {
		if mb == 0 {
			return "0%"
		}
		return "–"
	}
	s := fmt.Sprintf("%+.1f%%", 100*(mb-ma)/ma)
	if s == "-0.0%" {
		// A change too small to show has no direction either.
		s = "+0.0%"
	}
	return s
}

// VerdictText states a row's verdict, naming the groups a and b.
// Comparisons of single runs get the short form: the section's heading
// already says why.
func VerdictText(r Row, a, b string) string {
	v := r.Verdict
	switch {
	case r.Why != "":
		return "no verdict possible: " + r.Why
	case v.Kind == stats.NoVerdict && len(r.A) < 2 && len(r.B) < 2:
		return "no verdict possible"
	case v.Kind == stats.NoVerdict && (len(r.A) < 2 || len(r.B) < 2):
		return fmt.Sprintf("no verdict possible: %s has %s and %s %s, and each side needs at least 2", a, plural(len(r.A), "run"), b, plural(len(r.B), "run"))
	case v.Kind == stats.NoVerdict:
		return "no verdict possible: " + v.Reason
	case v.Kind == stats.NoDifference && r.Figure == NotOKFigure && allZero(r.A) && allZero(r.B):
		return "every operation OK on both sides"
	case v.Kind == stats.NoDifference:
		return fmt.Sprintf("no significant difference (p=%.3g)", v.P)
	case !r.Significant():
		// Alone it would pass; among the figures tested with it, a p this
		// small is what chance alone gives.
		return fmt.Sprintf("no significant difference once corrected for %d figures (p=%.3g, Holm %.3g)", r.Family, v.P, r.AdjustedP)
	}
	word := "better"
	if v.Kind == stats.Worse {
		word = "worse"
	}
	pText := fmt.Sprintf("p=%.3g", v.P)
	if r.Family > 1 {
		pText += fmt.Sprintf(", Holm %.3g", r.AdjustedP)
	}
	if !v.RelDiffOK {
		return fmt.Sprintf("significant: %s is %s than %s (%s)", b, word, a, pText)
	}
	rel := 100 * math.Abs(v.RelDiff)
	relText := fmt.Sprintf("%.1f%%", rel)
	if rel < 0.1 {
		relText = fmt.Sprintf("%.2g%%", rel)
	}
	return fmt.Sprintf("significant: %s is %s %s than %s (%s)", b, relText, word, a, pText)
}

func allZero(xs []float64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// SensitivityText says what a comparison without a significant
// difference could have told: "with 2 trials per side, throughput
// differences smaller than about ±38% cannot be told from the run-to-run
// noise (80% power); about 17 trials per side would detect ±10%". ""
// when nothing was tested.
func SensitivityText(s stats.Sensitivity) string {
	if !s.OK {
		return ""
	}
	t := fmt.Sprintf("with %s per side, throughput differences smaller than about ±%s cannot be told from the run-to-run noise (%.0f%% power)",
		plural(s.Trials, "trial"), pct(s.Detectable), 100*stats.DefaultPower)
	switch {
	case s.Detectable <= s.Goal:
	case s.TrialsForGoal > 0:
		t += fmt.Sprintf("; about %d trials per side would detect ±%s", s.TrialsForGoal, pct(s.Goal))
	default:
		t += fmt.Sprintf("; even %d trials per side would not detect ±%s: the runs vary too much, so steady them first (warm-up, a quieter host)", stats.MaxSensitivityTrials, pct(s.Goal))
	}
	return t
}

// pct is a fraction as a rounded percentage: "38%", "1.5%".
func pct(f float64) string {
	if f < 0.1 {
		return strconv.FormatFloat(100*f, 'g', 2, 64) + "%"
	}
	return strconv.FormatFloat(math.Round(100*f), 'f', 0, 64) + "%"
}
