package threshold

import (
	"fmt"
	"io"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/texttable"
)

// JudgeStudy judges compare's gates on a study and prints each outcome
// to w: the thresholds on every run of the configurations compared with
// the baseline, and the changes against the baseline (--fail-on). It
// returns how many checks failed.
func JudgeStudy(w io.Writer, thresholds []Threshold, changes []Change, st *analysis.Study) int {
	failed := judgeRuns(w, thresholds, st)
	if len(changes) == 0 {
		return failed
	}
	breaches, unjudged := Breaches(changes, st)
	names := make([]string, len(changes))
	for i, c := range changes {
		names[i] = c.String()
	}
	fmt.Fprintln(w)
	if len(breaches) == 0 {
		fmt.Fprintf(w, "fail-on %s: pass: no significant change beyond it\n", strings.Join(names, ","))
	}
	for _, b := range breaches {
		fmt.Fprintf(w, "fail-on %s: fail: %s\n", strings.Join(names, ","), b.Sentence())
	}
	for _, c := range Unmatched(changes, st) {
		fmt.Fprintf(w, "fail-on %s: fail: no figure of the comparison answers it (an operation the runs did not do?), which fails it\n", printable.String(c.String()))
		failed++
	}
	if unjudged > 0 {
		fmt.Fprintf(w, "note: %s without a verdict (one run a side) could not fail --fail-on: repeat the runs (sweep --repeat 3) to judge them\n", texttable.Plural(unjudged, "figure"))
	}
	return failed + len(breaches)
}

// judgeRuns judges the thresholds on every run of the configurations
// compared with the baseline: the baseline is what they are measured
// against, not what must meet them. It returns how many thresholds
// failed on some run.
func judgeRuns(w io.Writer, thresholds []Threshold, st *analysis.Study) int {
	if len(thresholds) == 0 {
		return 0
	}
	failed := 0
	fmt.Fprintln(w)
	for i, c := range st.Configs {
		if i == st.Baseline {
			continue
		}
		for _, t := range thresholds {
			var why []string
			for _, r := range c.Runs {
				d, err := DataOf(r.Res)
				if err != nil {
					why = append(why, fmt.Sprintf("%s: %v", printable.String(r.Source), err))
					continue
				}
				if o := Evaluate(t, d); !o.Pass {
					why = append(why, fmt.Sprintf("%s: %s", printable.String(r.Source), o.Sentence()))
				}
			}
			if len(why) == 0 {
				fmt.Fprintf(w, "threshold %s: %s: pass in %s\n", c.Name, t, texttable.Plural(len(c.Runs), "run"))
				continue
			}
			failed++
			fmt.Fprintf(w, "threshold %s: %s: fail in %d of %s: %s\n", c.Name, t, len(why), texttable.Plural(len(c.Runs), "run"), strings.Join(why, "; "))
		}
	}
	return failed
}
