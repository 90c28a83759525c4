package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/threshold"
)

// ciGates are what fails a comparison in CI: thresholds every run of the
// configurations compared with the baseline must meet, and changes
// against the baseline that must not be significant (--fail-on).
type ciGates struct {
	thresholds []threshold.Threshold
	changes    []threshold.Change
}

func (g *ciGates) defs() []flagDef {
	return []flagDef{
		thresholdFlag(&g.thresholds),
		funcFlag("fail-on", "CHANGES", "exit 99 when a change against the baseline is significant (the\nverdict's Welch test, Holm-corrected) and beyond a limit, such as\n'throughput<-5%,p(99)>+10%': throughput alone is the whole run's,\na latency without OP: any operation's", true, func(v string) (err error) {
			g.changes, err = threshold.ParseChanges(v)
			return err
		}),
	}
}

// judge prints the gates' outcomes after the comparison (on stderr when
// stdout is a table for a program) and is exit 99 when one failed.
func (g *ciGates) judge(env Env, format tableFormat, st *analysis.Study) error {
	if len(g.thresholds) == 0 && len(g.changes) == 0 {
		return nil
	}
	w := env.Stdout
	if format != textFormat {
		w = env.Stderr
	}
	failed := g.judgeThresholds(w, st)
	if len(g.changes) > 0 {
		breaches, unjudged := threshold.Breaches(g.changes, st)
		names := make([]string, len(g.changes))
		for i, c := range g.changes {
			names[i] = c.String()
		}
		fmt.Fprintln(w)
		if len(breaches) == 0 {
			fmt.Fprintf(w, "fail-on %s: pass: no significant change beyond it\n", strings.Join(names, ","))
		}
		for _, b := range breaches {
			fmt.Fprintf(w, "fail-on %s: fail: %s\n", strings.Join(names, ","), b.Sentence())
		}
		for _, c := range threshold.Unmatched(g.changes, st) {
			fmt.Fprintf(w, "fail-on %s: fail: no figure of the comparison answers it (an operation the runs did not do?), which fails it\n", printable.String(c.String()))
			failed++
		}
		if unjudged > 0 {
			fmt.Fprintf(w, "note: %s without a verdict (one run a side) could not fail --fail-on: repeat the runs (sweep --repeat 3) to judge them\n", plural(unjudged, "figure"))
		}
		failed += len(breaches)
	}
	if failed > 0 {
		return exitError{ExitThresholds, fmt.Errorf("the comparison failed %s (above)", plural(failed, "check"))}
	}
	return nil
}

// judgeThresholds judges the thresholds on every run of the
// configurations compared with the baseline: the baseline is what they
// are measured against, not what must meet them. It returns how many
// thresholds failed on some run.
func (g *ciGates) judgeThresholds(w io.Writer, st *analysis.Study) int {
	if len(g.thresholds) == 0 {
		return 0
	}
	failed := 0
	fmt.Fprintln(w)
	for i, c := range st.Configs {
		if i == st.Baseline {
			continue
		}
		for _, t := range g.thresholds {
			var why []string
			for _, r := range c.Runs {
				d, err := threshold.DataOf(r.Res)
				if err != nil {
					why = append(why, fmt.Sprintf("%s: %v", printable.String(r.Source), err))
					continue
				}
				if o := threshold.Evaluate(t, d); !o.Pass {
					why = append(why, fmt.Sprintf("%s: %s", printable.String(r.Source), o.Sentence()))
				}
			}
			if len(why) == 0 {
				fmt.Fprintf(w, "threshold %s: %s: pass in %s\n", c.Name, t, plural(len(c.Runs), "run"))
				continue
			}
			failed++
			fmt.Fprintf(w, "threshold %s: %s: fail in %d of %s: %s\n", c.Name, t, len(why), plural(len(c.Runs), "run"), strings.Join(why, "; "))
		}
	}
	return failed
}
