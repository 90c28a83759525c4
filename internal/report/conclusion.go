package report

import (
	"fmt"
	"html/template"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/results"
)

// conclusionView is what the page says first: the author's own
// conclusion, then what the figures establish.
type conclusionView struct {
	Notes    template.HTML
	Caveats  []string
	Verdicts []verdictLine
	// More says how many significant differences the list leaves to the
	// tables below.
	More     string
	Findings []string
	// Chance says how many "significant" verdicts chance alone would make
	// among the figures tested, or how the correction bounds them.
	Chance string
}

// verdictLine is one significant difference, in words.
type verdictLine struct{ Text, Class string }

// maxHeadlines is how many significant differences the conclusion lists.
const maxHeadlines = 6

// buildConclusion states the page's conclusion. It headlines only
// significant differences, largest first: a change the test cannot tell
// from noise is no finding, however large it looks.
func buildConclusion(in *Input) *conclusionView {
	cv := &conclusionView{}
	if in.Notes != "" {
		cv.Notes = markdown(in.Notes)
	}
	cv.Caveats = in.Caveats
	if cs := in.comparisons(); len(cs) > 0 {
		comparisonConclusion(cv, cs)
	}
	if st := in.Study; st != nil {
		cv.Findings = append(cv.Findings, studyFindings(st)...)
	}
	if f := limitsFinding(in); f != "" {
		cv.Findings = append(cv.Findings, f)
	}
	if sw := in.Sweep; sw != nil {
		if sw.KneeSentence != "" && !sw.NotAlongLoad {
			cv.Findings = append(cv.Findings, sw.KneeSentence)
		}
		pts := slices.Clone(sw.Points)
		sort.SliceStable(pts, func(i, j int) bool { return pts[i].X < pts[j].X })
		if f := regimeFinding(sweepWords{varied: orDefault(sw.Varied, "x")}, pts); f != "" {
			cv.Findings = append(cv.Findings, f)
		}
	}
	if cv.Notes == "" && len(cv.Caveats) == 0 && len(cv.Verdicts) == 0 && len(cv.Findings) == 0 && cv.Chance == "" {
		return nil
	}
	return cv
}

// comparisonConclusion adds the significant differences of the
// comparisons (each configuration against the baseline), largest first, and
// what chance says of them.
func comparisonConclusion(cv *conclusionView, cs []*Comparison) {
	type headline struct {
		a, b string
		r    CompareRow
	}
	var sig []headline
	tested := 0
	for _, c := range cs {
		a, b := orDefault(c.A, "A"), orDefault(c.B, "B")
		ctested, csig := 0, 0
		for _, r := range c.Rows {
			if r.P > 0 || r.Significant {
				ctested++
			}
			if r.Significant && isFinite(r.RelDiff) {
				sig = append(sig, headline{a, b, r})
				csig++
			}
		}
		tested += ctested
		switch {
		case len(c.Rows) == 0:
		case ctested == 0:
			cv.Findings = append(cv.Findings, fmt.Sprintf("No difference between %s and %s can be called significant: with a single run on a side there is no test. Repeat the runs (sweep --repeat 3) to test them.", b, a))
		case csig == 0:
			f := fmt.Sprintf("No difference between %s and %s is significant: %s compared at %s.", b, a, plural(ctested, "figure"), alphaText(c.Alpha))
			if c.Sensitivity != "" {
				f += " " + capitalize(c.Sensitivity) + "."
			}
			cv.Findings = append(cv.Findings, f)
		}
	}
	sort.SliceStable(sig, func(i, j int) bool { return math.Abs(sig[i].r.RelDiff) > math.Abs(sig[j].r.RelDiff) })
	for i, h := range sig {
		if i == maxHeadlines {
			cv.More = fmt.Sprintf("%s more significant differences are in the comparison's table.", formatInt(int64(len(sig)-maxHeadlines)))
			break
		}
		_, class := verdictClass(h.r)
		cv.Verdicts = append(cv.Verdicts, verdictLine{Text: compareSentence(h.a, h.b, h.r), Class: class})
	}
	if tested == 0 {
		return
	}
	alpha := alphaOf(cs[0].Alpha)
	if c := cs[0].Correction; c != "" {
		cv.Chance = fmt.Sprintf("Significance is %s-corrected across the %s tested: the chance that any of them is called significant by chance alone is at most %s.",
			c, plural(tested, "figure"), formatPct(alpha))
		return
	}
	cv.Chance = fmt.Sprintf("Every figure is a test of its own: of the %s tested at %s, about %s would be called significant by chance alone. Read a lone significant difference against that, and confirm it with more trials.",
		plural(tested, "figure"), alphaText(alpha), strconv.FormatFloat(float64(tested)*alpha, 'f', 1, 64))
}

// alphaOf is a comparison's significance level, 0.05 when unset.
func alphaOf(alpha float64) float64 {
	if !(alpha > 0 && alpha < 1) {
		return 0.05
	}
	return alpha
}

// alphaText is "α=0.05".
func alphaText(alpha float64) string {
	return "α=" + strconv.FormatFloat(alphaOf(alpha), 'g', -1, 64)
}

// verdictClass is the page's class for a row: "better", "worse" or
// "neutral" when the difference is not significant.
func verdictClass(r CompareRow) (bool, string) {
	if !r.Significant || !isFinite(r.RelDiff) {
		return false, "neutral"
	}
	if (r.RelDiff > 0) == r.HigherIsBetter {
		return true, "better"
	}
	return true, "worse"
}

// plural is "1 figure", "3 figures".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return formatInt(int64(n)) + " " + word + "s"
}

// idleDiskPct is the busiest disk's mean utilisation below which the
// conclusion says the disks were hardly used: the lesson of a study whose
// disks were never exercised while the CPU was the limit.
const idleDiskPct = 10

// limitsFinding says what limited a study's runs, verdict by verdict, and
// how busy their busiest disk got: what a reader must know before
// crediting a disk, an engine or a version with a difference. Empty for
// fewer than two runs, whose verdict is in their own section.
func limitsFinding(in *Input) string {
	if len(in.Runs) < 2 {
		return ""
	}
	diags := make([]*results.Diagnosis, len(in.Runs))
	maxUtil, disk := math.NaN(), false
	for i, r := range in.Runs {
		diags[i] = runDiagnosis(r, in.DiskBaselines)
		if u := regimeOf(r).utilPct; isFinite(u) {
			disk = true
			if !(u <= maxUtil) {
				maxUtil = u
			}
		}
	}
	tally := diagnosis.Tally(diags)
	if tally == diagnosis.Verdict(nil) {
		// Runs recorded without metrics: nothing to say of them.
		return ""
	}
	f := "What limited the runs: " + tally + "."
	switch {
	case !disk:
	case maxUtil < idleDiskPct:
		f += fmt.Sprintf(" The disks were hardly used: the busiest was %s busy on average in the busiest run, so no difference here can be the disk's.", formatNum(maxUtil)+"%")
	default:
		f += fmt.Sprintf(" The busiest disk was %s busy on average in the busiest run.", formatNum(maxUtil)+"%")
	}
	return f
}
