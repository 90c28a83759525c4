package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/stats"
)

const compareAbout = `usage: mongobench compare [flags] A B [C...]

Compares groups of runs: B (and C, ...) against A. Each argument is one group:
  FILE.json            a results file (--out, or a sweep's --out-dir)
  FILE.intervals.jsonl the journal of a run that was killed before its end
  DIR                  every results file in DIR (a sweep's --out-dir)
  'PATTERN*.json'      the results files the pattern matches
  ID                   a run in the results store (mongobench history lists them)
  LABEL                every run with that label (-l)
  sweep:ID             every run of a sweep
  X,Y,...              the runs of several of the above together
Runs of sweeps are compared point by point (threads=4 of A against threads=4
of B); warm-up trials (--discard-first) are left out. For each operation the
table shows throughput, p50/p95/p99/p99.9 latency and the operations not OK
(failed or NOT_FOUND), each as the mean over the group's runs with its 95%
confidence interval, the relative change and a verdict from Welch's t-test. With one run on a side no verdict is
possible: repeat the runs (sweep --repeat N).

flags:`

// compareOptions are compare's parsed command line.
type compareOptions struct {
	refs  []string
	alpha float64
	store storeFlags
	help  bool
}

// compareFlags are compare's flags, bound to o and alpha.
func compareFlags(o *compareOptions, alpha *string) []flagDef {
	defs := []flagDef{textFlag("alpha", "P", "significance level of the verdicts (default 0.05)", true, alpha)}
	defs = append(defs, o.store.defs("the results store to look runs up in (default mongobench.db,\nor $MONGOBENCH_STORE)", readOnlyNoStore)...)
	return append(defs, helpFlag(&o.help))
}

// compareHelp is compare's help.
func compareHelp() string {
	return compareAbout + "\n" + flagsHelp(compareFlags(&compareOptions{}, new(string)))
}

func parseCompareArgs(args []string) (*compareOptions, error) {
	o := &compareOptions{}
	alpha := strconv.FormatFloat(stats.DefaultAlpha, 'g', -1, 64)
	defs := compareFlags(o, &alpha)
	refs, err := newFlagSet("compare", defs).parseInterleaved(args)
	if errors.Is(err, flag.ErrHelp) {
		o.help, err = true, nil
	}
	if err != nil {
		return nil, badInputf("compare: %s: accepted flags are %s", flagMessage(err), acceptedFlags(defs, true))
	}
	o.refs = refs
	if o.help {
		return o, nil
	}
	if o.alpha, err = parseAlpha(alpha); err != nil {
		return nil, badInputf("compare: %w", err)
	}
	if len(o.refs) < 2 {
		return nil, badInputf("compare: need at least two groups of runs to compare (A B), got %d: see mongobench compare -h", len(o.refs))
	}
	return o, nil
}

// runCompare is "mongobench compare".
func runCompare(ctx context.Context, args []string, env Env) error {
	o, err := parseCompareArgs(args)
	if err != nil {
		return err
	}
	o.store.fromEnv(env)
	if o.help {
		fmt.Fprintln(env.Stdout, compareHelp())
		return nil
	}
	src := &runSource{storePath: o.store.path}
	defer src.close()
	groups, err := src.loadGroups(ctx, o.refs)
	if err != nil {
		return err
	}
	kind := analysis.ChooseLatency(groups...)
	w := env.Stdout
	for i := 1; i < len(groups); i++ {
		if i > 1 {
			fmt.Fprintln(w)
		}
		if len(groups) > 2 {
			fmt.Fprintf(w, "== %s against %s ==\n", o.refs[i], o.refs[0])
		}
		writeComparison(w, o.refs[0], o.refs[i], groups[0], groups[i], kind, o.alpha)
	}
	return nil
}

// writeComparison prints the comparison of group b against group a.
func writeComparison(w io.Writer, aName, bName string, a, b []analysis.Run, kind analysis.LatencyKind, alpha float64) {
	fmt.Fprintf(w, "A: %s: %s\n", aName, describeGroup(a))
	fmt.Fprintf(w, "B: %s: %s\n", bName, describeGroup(b))
	if pa, pb := phasesOf(a), phasesOf(b); pa != pb {
		fmt.Fprintf(w, "note: A holds %s phases and B %s phases\n", pa, pb)
	}
	fmt.Fprintf(w, "latency: %s\n", kind)
	sets, notes := analysis.Pair("A", "B", a, b)
	for _, n := range notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	var better, worse, same, none int
	for _, set := range sets {
		set.Rows = analysis.CompareRows(set.A, set.B, kind, alpha)
		fmt.Fprintln(w)
		head := fmt.Sprintf("%s of A against %s of B", plural(len(set.A), "run"), plural(len(set.B), "run"))
		if set.Point != "" {
			head = set.Point + ": " + head
		}
		if len(set.A) < 2 && len(set.B) < 2 {
			head += ": one run per side, so no verdict is possible (repeat the runs, e.g. sweep --repeat 3)"
		}
		fmt.Fprintln(w, head)
		rows := make([][]string, 0, len(set.Rows))
		for _, r := range set.Rows {
			rows = append(rows, []string{orText(r.Op, "OVERALL"), r.Name(), meanText(r.A, r.Unit), meanText(r.B, r.Unit), analysis.ChangeText(r), analysis.VerdictText(r, "A", "B")})
			switch {
			case !r.Tested():
				none++
			case r.Verdict.Kind == stats.Better:
				better++
			case r.Verdict.Kind == stats.Worse:
				worse++
			default:
				same++
			}
		}
		writeTable(w, []string{"op", "figure", "A", "B", "change", "verdict"}, rows, map[int]bool{0: true, 1: true, 5: true})
	}
	fmt.Fprintln(w)
	if better+worse+same == 0 {
		fmt.Fprintln(w, "verdict: no verdict possible: each figure needs at least 2 runs on each side")
		return
	}
	fmt.Fprintf(w, "verdict: B is significantly better in %s, worse in %s, not significantly different in %s (alpha %g)",
		plural(better, "figure"), plural(worse, "figure"), plural(same, "figure"), alpha)
	if none > 0 {
		fmt.Fprintf(w, "; %s without a verdict", plural(none, "figure"))
	}
	fmt.Fprintln(w)
	// Each figure is its own test: among many, some pass alpha by chance.
	// Saying how many keeps a lone "significant" from being read as a
	// finding when it is about what chance alone would give.
	if tested := better + worse + same; tested > 1 && better+worse > 0 {
		fmt.Fprintf(w, "note: with %d figures tested at alpha %g, about %.1f would be called significant by chance alone if nothing had changed\n",
			tested, alpha, float64(tested)*alpha)
	}
}

// describeGroup says what a group holds: "4 runs (store runs 1–4), label
// baseline, sweep 20260101-120000, 1 partial".
func describeGroup(runs []analysis.Run) string {
	parts := []string{plural(len(runs), "run")}
	var ids []int64
	files := 0
	labels, sweeps := map[string]bool{}, map[string]bool{}
	partial := 0
	for _, r := range runs {
		if r.ID > 0 {
			ids = append(ids, r.ID)
		} else {
			files++
		}
		if r.Res.Label != "" {
			labels[r.Res.Label] = true
		}
		if r.Mark != nil {
			sweeps[r.Mark.ID] = true
		}
		if r.Res.Partial {
			partial++
		}
	}
	var from []string
	if len(ids) > 0 {
		from = append(from, "store "+idList(ids))
	}
	if files > 0 {
		from = append(from, plural(files, "file"))
	}
	parts[0] += " (" + strings.Join(from, ", ") + ")"
	if len(labels) > 0 {
		parts = append(parts, "label "+strings.Join(sortedSet(labels), ", "))
	}
	if len(sweeps) > 0 {
		parts = append(parts, "sweep "+strings.Join(sortedSet(sweeps), ", "))
	}
	if partial > 0 {
		parts = append(parts, fmt.Sprintf("%d partial (interrupted)", partial))
	}
	return strings.Join(parts, ", ")
}

func phasesOf(runs []analysis.Run) string {
	set := map[string]bool{}
	for _, r := range runs {
		set[r.Res.Phase] = true
	}
	return strings.Join(sortedSet(set), "+")
}
