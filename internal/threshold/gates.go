package threshold

import (
	"io"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/cmdflag"
)

// Gates are what fails a comparison in CI: thresholds every run of the
// configurations compared with the baseline must meet, and changes
// against the baseline that must not be significant (--fail-on).
type Gates struct {
	Thresholds []Threshold
	Changes    []Change
}

// Flags are --threshold and --fail-on, bound to g.
func (g *Gates) Flags() []cmdflag.Def {
	return []cmdflag.Def{
		Flag(&g.Thresholds),
		cmdflag.Func("fail-on", "CHANGES", "exit 99 when a change against the baseline is significant (the\nverdict's Welch test, Holm-corrected) and beyond a limit, such as\n'throughput<-5%,p(99)>+10%': throughput alone is the whole run's,\na latency without OP: any operation's", true, func(v string) (err error) {
			g.Changes, err = ParseChanges(v)
			return err
		}),
	}
}

// Set is whether any gate was given.
func (g *Gates) Set() bool { return len(g.Thresholds) > 0 || len(g.Changes) > 0 }

// Judge prints each gate's outcome on st to w (JudgeStudy) and returns
// how many failed.
func (g *Gates) Judge(w io.Writer, st *analysis.Study) int {
	return JudgeStudy(w, g.Thresholds, g.Changes, st)
}
