package threshold

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/stats"
)

// Change is one condition of compare's --fail-on: a figure whose change
// against the baseline fails the comparison when it is significant and
// beyond the limit ("throughput<-5%", "READ:p(99)>+10%").
type Change struct {
	// Op is the operation whose row is judged, Overall for the whole
	// run's, "" for any row of the figure.
	Op string
	// Figure is the comparison's name of it: throughput, avg, p50, p95,
	// p99, p99.9, "not OK".
	Figure string
	Cmp    string  // "<" or ">"
	Limit  float64 // a relative change: -0.05 for -5%
}

// AcceptedChanges is --fail-on's grammar, for error messages.
const AcceptedChanges = `comma-separated [OP:]FIGURE<-N% or [OP:]FIGURE>+N%, FIGURE one of throughput, avg, p(50), p(95), p(99), p(99.9), notok, such as 'throughput<-5%,p(99)>+10%'`

// ParseChanges parses --fail-on.
func ParseChanges(s string) ([]Change, error) {
	var cs []Change
	for _, part := range strings.Split(s, ",") {
		c, err := parseChange(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("--fail-on %q: %v; accepted: %s", s, err, AcceptedChanges)
		}
		cs = append(cs, c)
	}
	return cs, nil
}

func parseChange(s string) (Change, error) {
	var c Change
	if op, rest, ok := strings.Cut(s, ":"); ok {
		t, err := parse(op + ":throughput>0")
		if err != nil {
			return c, fmt.Errorf("unknown operation %q", strings.TrimSpace(op))
		}
		c.Op, s = t.Op, strings.TrimSpace(rest)
	}
	i := strings.IndexAny(s, "<>")
	if i < 0 {
		return c, fmt.Errorf("%q has no comparison (< or >)", s)
	}
	fig, value := strings.ToLower(strings.TrimSpace(s[:i])), strings.TrimSpace(s[i+1:])
	c.Cmp = s[i : i+1]
	switch {
	case fig == "throughput", fig == "avg":
		c.Figure = fig
	case fig == "notok" || fig == "not ok" || fig == "errors":
		c.Figure = analysis.NotOKFigure
	case strings.HasPrefix(fig, "p"):
		p := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(fig, "p"), "("), ")")
		known := false
		for _, k := range analysis.Percentiles {
			known = known || k == p
		}
		if !known {
			return c, fmt.Errorf("percentile %q: a comparison has %s", fig, "p(50), p(95), p(99) and p(99.9)")
		}
		c.Figure = "p" + p
	default:
		return c, fmt.Errorf("unknown figure %q", fig)
	}
	if c.Figure == "throughput" && c.Op == "" {
		// The whole run's throughput, unless an operation is named: a
		// mix's operations move with it.
		c.Op = Overall
	}
	v, ok := strings.CutSuffix(value, "%")
	if !ok {
		return c, fmt.Errorf("limit %q: expected a relative change in percent, such as -5%% or +10%%", value)
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return c, fmt.Errorf("limit %q: expected a relative change in percent, such as -5%% or +10%%", value)
	}
	c.Limit = f / 100
	return c, nil
}

// String is the condition as --fail-on spells it.
func (c Change) String() string {
	op := ""
	if c.Op != "" {
		op = c.Op + ":"
	}
	fig := c.Figure
	if strings.HasPrefix(fig, "p") {
		fig = "p(" + fig[1:] + ")"
	}
	return fmt.Sprintf("%s%s%s%+g%%", op, strings.ReplaceAll(fig, " ", ""), c.Cmp, c.Limit*100)
}

// Breach is a row of a comparison that fails a condition.
type Breach struct {
	Change Change
	Config string // the configuration compared with the baseline
	Set    string // the set's kind and point, "" for whole groups
	Row    analysis.Row
	// Rel is the row's relative change of means, B against A.
	Rel float64
}

// matches says whether c judges row.
func (c Change) matches(row analysis.Row) bool {
	if row.Figure != c.Figure {
		return false
	}
	switch c.Op {
	case "":
		return true
	case Overall:
		return row.Op == ""
	}
	return row.Op == c.Op
}

// Breaches are the rows of st that fail one of cs: the change of means
// beyond the limit, and significant by the study's own verdict (Welch's
// test, Holm-corrected over every figure tested), so that noise never
// fails a CI job. A row without a verdict (one run a side) breaches
// nothing: NoVerdicts counts the rows a condition could not judge.
func Breaches(cs []Change, st *analysis.Study) (breaches []Breach, noVerdicts int) {
	breaches, noVerdicts, _ = breachesOf(cs, st)
	return breaches, noVerdicts
}

// Unmatched are the conditions of cs that no figure of the study
// answers: an operation the runs did not do, a latency they did not
// record. Like a threshold without data, such a condition fails: a CI
// gate that cannot see what it guards must not pass.
func Unmatched(cs []Change, st *analysis.Study) []Change {
	_, _, matched := breachesOf(cs, st)
	var out []Change
	for i, c := range cs {
		if !matched[i] {
			out = append(out, c)
		}
	}
	return out
}

func breachesOf(cs []Change, st *analysis.Study) (breaches []Breach, noVerdicts int, matched []bool) {
	matched = make([]bool, len(cs))
	for _, cmp := range st.Comparisons {
		name := st.Configs[cmp.Config].Name
		for _, set := range cmp.Sets {
			where := strings.Trim(set.Kind+", "+set.Point, ", ")
			for _, row := range set.Rows {
				for i, c := range cs {
					if !c.matches(row) {
						continue
					}
					matched[i] = true
					if !row.Tested() {
						noVerdicts++
						continue
					}
					ma, mb := stats.Describe(row.A).Mean, stats.Describe(row.B).Mean
					if ma == 0 {
						continue
					}
					rel := (mb - ma) / ma
					beyond := rel < c.Limit
					if c.Cmp == ">" {
						beyond = rel > c.Limit
					}
					if beyond && row.Significant() {
						breaches = append(breaches, Breach{Change: c, Config: name, Set: where, Row: row, Rel: rel})
					}
				}
			}
		}
	}
	return breaches, noVerdicts, matched
}

// Sentence says what breached: "B: READ p99 +23.4% (significant,
// adjusted p=0.002), beyond p(99)>+10%".
func (b Breach) Sentence() string {
	what := b.Row.Figure
	if b.Row.Op != "" {
		what = b.Row.Op + " " + what
	}
	where := b.Config
	if b.Set != "" {
		where += " (" + b.Set + ")"
	}
	return fmt.Sprintf("%s: %s %+.1f%% (significant, adjusted p=%.3g), beyond %s", where, what, 100*b.Rel, b.Row.AdjustedP, b.Change)
}
