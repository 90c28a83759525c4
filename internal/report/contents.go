package report

import "github.com/mongobench/mongobench/internal/texttable"

// Contents says in a few words what the page holds, for the line that
// says it was written (digits as the terminal's other counts, no
// thousands separator): its runs and, for a comparison, the groups
// compared (names as shown, the baseline first), or a sweep's points.
func (in *Input) Contents(names []string) string {
	what := texttable.Plural(len(in.Runs), "run")
	switch {
	case in.Comparison != nil && len(names) > 1:
		what += ", " + names[1] + " compared against " + names[0]
	case in.Sweep != nil:
		what += ", " + texttable.Plural(len(in.Sweep.Points), "sweep point")
	}
	return what
}
