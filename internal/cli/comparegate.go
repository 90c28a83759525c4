package cli

import (
	"fmt"

	"github.com/mongobench/mongobench/internal/analysis"
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
	if failed := threshold.JudgeStudy(w, g.thresholds, g.changes, st); failed > 0 {
		return exitError{ExitThresholds, fmt.Errorf("the comparison failed %s (above)", plural(failed, "check"))}
	}
	return nil
}
