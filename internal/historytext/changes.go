package historytext

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
	tt "github.com/mongobench/mongobench/internal/texttable"
)

// FewRuns is about the fewest runs in which even a clean step can be
// significant at p <= 0.01 with 199 permutations: fewer arrangements of
// the runs exist than the test needs.
const FewRuns = 12

// Getter reads a run's results by its id (a *store.Store).
type Getter interface {
	Get(ctx context.Context, id int64) (*results.Results, error)
}

// WriteChanges is history --changes: for each configuration among runs
// (newest first, as the store lists them; the runs that did the same work
// make a configuration), the change points of its throughput and of each
// operation's p99, in time order, in format f on w; what was left out and
// how the changes were found go to notes.
func WriteChanges(ctx context.Context, w, notes io.Writer, g Getter, infos []store.RunInfo, f tt.Format) error {
	infos = slices.Clone(infos)
	slices.Reverse(infos) // oldest first
	var runs []analysis.Run
	skipped := 0
	for _, ri := range infos {
		if err := ctx.Err(); err != nil {
			return err
		}
		res, err := g.Get(ctx, ri.ID)
		if err != nil {
			return err
		}
		r := analysis.NewRun(res, "run "+strconv.FormatInt(ri.ID, 10), ri.ID)
		// A run cut short or a warm-up trial measured less than the
		// others: a change found there would be theirs.
		if res.Partial || !r.Counted() {
			skipped++
			continue
		}
		runs = append(runs, r)
	}
	kinds := analysis.Separate(runs, nil)
	for i, k := range kinds {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, KindHeading(k, kinds))
		if err := writeKind(w, k, f); err != nil {
			return err
		}
	}
	if skipped > 0 {
		fmt.Fprintf(notes, "mongobench: %s left out: partial runs and warm-up trials measured less than the others\n", tt.Plural(skipped, "run"))
	}
	fmt.Fprintln(notes, "mongobench: change points by E-Divisive means, each significant at p <= 0.01 by 199 seeded permutations; a change is found once 3 runs follow it")
	return nil
}

// writeKind prints the change points of one configuration's series, and
// those without any.
func writeKind(w io.Writer, k analysis.Kind, f tt.Format) error {
	series, err := analysis.HistoryOf(k.Runs)
	if err != nil {
		return err
	}
	var rows [][]string
	var steady []string
	for _, s := range series {
		if len(s.Changes) == 0 {
			steady = append(steady, s.Name)
		}
		for _, c := range s.Changes {
			rows = append(rows, []string{s.Name, "run " + strconv.FormatInt(s.IDs[c.Index], 10),
				tt.Figure(c.Before, s.Unit), tt.Figure(c.After, s.Unit), tt.Percent(c.Rel()), strconv.FormatFloat(c.P, 'g', 2, 64)})
		}
	}
	if len(rows) > 0 {
		tt.WriteAs(w, f, []string{"figure", "change at", "before", "after", "change", "p"}, rows, map[int]bool{0: true, 1: true})
	}
	if len(steady) > 0 {
		fmt.Fprintf(w, "no significant change in: %s\n", strings.Join(steady, ", "))
	}
	if n := len(k.Runs); n < FewRuns && len(steady) > 0 {
		fmt.Fprintf(w, "note: %s are too few to tell most changes from noise: about %d are needed, 3 of them after the change\n", tt.Plural(n, "run"), FewRuns)
	}
	return nil
}

// KindHeading names a configuration: its phase and labels, its runs,
// and, among several, what sets it apart.
func KindHeading(k analysis.Kind, kinds []analysis.Kind) string {
	first, last := k.Runs[0], k.Runs[len(k.Runs)-1]
	labels := map[string]bool{}
	for _, r := range k.Runs {
		if r.Res.Label != "" {
			labels[r.Res.Label] = true
		}
	}
	s := k.Phase() + " phase"
	if len(labels) > 0 {
		s += ", label " + printable.String(strings.Join(tt.SortedSet(labels), ", "))
	}
	if len(kinds) > 1 {
		s += apart(first, kinds)
	}
	return fmt.Sprintf("%s: %s, run %d (%s) to run %d (%s)", s, tt.Plural(len(k.Runs), "run"),
		first.ID, first.Res.Start.UTC().Format("2006-01-02 15:04"), last.ID, last.Res.Start.UTC().Format("2006-01-02 15:04"))
}

// apart is what sets the configuration of first apart from the first
// other configuration that differs from it: " (fieldcount=10)".
func apart(first analysis.Run, kinds []analysis.Kind) string {
	for _, o := range kinds {
		if o.Runs[0].ID == first.ID {
			continue
		}
		d := analysis.Differences(first.Res, o.Runs[0].Res, nil)
		if len(d) == 0 {
			continue
		}
		var kv []string
		for _, x := range d {
			if x.Property != analysis.PhaseProperty {
				kv = append(kv, x.Property+"="+printable.String(tt.Or(x.A, "(unset)")))
			}
		}
		if len(kv) > 0 {
			return " (" + strings.Join(kv, " ") + ")"
		}
		return ""
	}
	return ""
}
