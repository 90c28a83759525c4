package cli

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/store"
)

// fewRuns is about the fewest runs in which even a clean step can be
// significant at p <= 0.01 with 199 permutations: fewer arrangements of
// the runs exist than the test needs.
const fewRuns = 12

// historyChanges is history --changes: for each configuration among the
// runs f selects (the runs that did the same work), the change points of
// its throughput and of each operation's p99, in time order.
func historyChanges(ctx context.Context, env Env, st *store.Store, f store.Filter, format tableFormat) error {
	infos, err := st.List(ctx, f)
	if err != nil {
		return err
	}
	if len(infos) == 0 {
		return noRunsMatch(ctx, env, st, f)
	}
	slices.Reverse(infos) // oldest first
	var runs []analysis.Run
	skipped := 0
	for _, ri := range infos {
		if err := ctx.Err(); err != nil {
			return err
		}
		res, err := st.Get(ctx, ri.ID)
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
	head := []string{"figure", "change at", "before", "after", "change", "p"}
	for i, k := range kinds {
		if i > 0 {
			fmt.Fprintln(env.Stdout)
		}
		fmt.Fprintln(env.Stdout, kindHeading(k, kinds))
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
					formatFigure(c.Before, s.Unit), formatFigure(c.After, s.Unit), changePercent(c.Rel()), strconv.FormatFloat(c.P, 'g', 2, 64)})
			}
		}
		if len(rows) > 0 {
			writeTableAs(env.Stdout, format, head, rows, map[int]bool{0: true, 1: true})
		}
		if len(steady) > 0 {
			fmt.Fprintf(env.Stdout, "no significant change in: %s\n", strings.Join(steady, ", "))
		}
		if n := len(k.Runs); n < fewRuns && len(steady) > 0 {
			fmt.Fprintf(env.Stdout, "note: %s are too few to tell most changes from noise: about %d are needed, 3 of them after the change\n", plural(n, "run"), fewRuns)
		}
	}
	if skipped > 0 {
		fmt.Fprintf(env.Stderr, "mongobench: %s left out: partial runs and warm-up trials measured less than the others\n", plural(skipped, "run"))
	}
	fmt.Fprintln(env.Stderr, "mongobench: change points by E-Divisive means, each significant at p <= 0.01 by 199 seeded permutations; a change is found once 3 runs follow it")
	return nil
}

// kindHeading names a configuration: its phase and labels, its runs,
// and, among several, what sets it apart.
func kindHeading(k analysis.Kind, kinds []analysis.Kind) string {
	first, last := k.Runs[0], k.Runs[len(k.Runs)-1]
	labels := map[string]bool{}
	for _, r := range k.Runs {
		if r.Res.Label != "" {
			labels[r.Res.Label] = true
		}
	}
	s := k.Phase() + " phase"
	if len(labels) > 0 {
		s += ", label " + printable.String(strings.Join(sortedSet(labels), ", "))
	}
	if len(kinds) > 1 {
		for _, o := range kinds {
			if o.Runs[0].ID != first.ID {
				if d := analysis.Differences(first.Res, o.Runs[0].Res, nil); len(d) > 0 {
					var kv []string
					for _, x := range d {
						if x.Property != analysis.PhaseProperty {
							kv = append(kv, x.Property+"="+printable.String(orText(x.A, "(unset)")))
						}
					}
					if len(kv) > 0 {
						s += " (" + strings.Join(kv, " ") + ")"
					}
					break
				}
			}
		}
	}
	return fmt.Sprintf("%s: %s, run %d (%s) to run %d (%s)", s, plural(len(k.Runs), "run"),
		first.ID, first.Res.Start.UTC().Format("2006-01-02 15:04"), last.ID, last.Res.Start.UTC().Format("2006-01-02 15:04"))
}

func changePercent(rel float64) string {
	if rel != rel {
		return "–"
	}
	return fmt.Sprintf("%+.1f%%", 100*rel)
}
