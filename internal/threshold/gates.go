package threshold

import (
	"fmt"
	"io"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/texttable"
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

// Failure judges the gates on st, printing each outcome to w
// (JudgeStudy), and says how many failed; nil when none did.
func (g *Gates) Failure(w io.Writer, st *analysis.Study) error {
	if failed := JudgeStudy(w, g.Thresholds, g.Changes, st); failed > 0 {
		return fmt.Errorf("the comparison failed %s (above)", texttable.Plural(failed, "check"))
	}
	return nil
}
