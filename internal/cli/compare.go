package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/comparetext"
	"github.com/mongobench/mongobench/internal/stats"
)

const compareAbout = `usage: mongobench compare [flags] A B [C...]

Compares configurations, each a group of runs: B, C, ... against A (or the
--baseline). Each argument is one group:
  FILE.json            a results file (--out, or a sweep's --out-dir)
  FILE.intervals.jsonl the journal of a run that was killed before its end
  DIR                  every results file in DIR (a sweep's --out-dir)
  'PATTERN*.json'      the results files the pattern matches
  ID, run:ID           a run in the results store (mongobench history lists them)
  LABEL, label:LABEL   every run with that label (-l)
  sweep:ID             every run of a sweep
  dir:DIR, file:FILE   a directory or file, whatever the store holds
  X,Y,...              the runs of several of the above together
A bare word (ws, 12) is a path here or a run id or label in the store,
whichever exists, and the output says which; one that is both is refused:
say dir:ws or label:ws. A run may be in one group only (compare 1 1, a part
beside its merged whole are refused).
Runs are compared only with runs that did the same work: the same phase and
the same properties, except what their sweeps vary, the server they ran
against and how they were observed. A group holding several kinds of runs
(a load and a run phase, two read/insert mixes) is compared kind by kind;
two groups that did different work are refused, naming what differs,
unless --allow-different names it. Runs of sweeps are compared point by
point (threads=4 of A against threads=4 of B); warm-up trials
(--discard-first) are left out. For each operation the table shows
throughput, average and p50/p95/p99/p99.9 latency and the operations not
OK (failed or NOT_FOUND), each as the mean over the group's runs with its
95% confidence interval, the relative change and a verdict from Welch's
t-test, corrected for the number of figures tested together (Holm). With
one run on a side no verdict is possible: repeat the runs (sweep --repeat N).

flags:`

// compareOptions are compare's parsed command line.
type compareOptions struct {
	refs     []string
	alpha    float64
	baseline int
	allowed  []string
	format   tableFormat
	store    storeFlags
	help     bool

	gates ciGates // --threshold, --fail-on
}

// compareTexts are compare's flag values as given, checked after parsing.
type compareTexts struct {
	alpha, baseline, allowed, format string
}

// compareFlags are compare's flags, bound to o and t.
func compareFlags(o *compareOptions, t *compareTexts) []flagDef {
	defs := []flagDef{
		textFlag("alpha", "P", "significance level of the verdicts, over all figures\ntogether (default 0.05)", true, &t.alpha),
		textFlag("baseline", "GROUP", "the group the others are compared against: one of the\narguments as given, or its letter (default A, the first)", true, &t.baseline),
		textFlag("allow-different", "NAME,...", "properties (or phase) in which the groups may differ;\nevery output names the differences", true, &t.allowed),
		textFlag("format", "FORMAT", "text (default), csv or markdown", true, &t.format),
	}
	defs = append(defs, o.gates.defs()...)
	defs = append(defs, o.store.defs("the results store to look runs up in (default mongobench.db,\nor $MONGOBENCH_STORE)", readOnlyNoStore)...)
	return append(defs, helpFlag(&o.help))
}

// compareHelp is compare's help.
func compareHelp() string {
	return compareAbout + "\n" + flagsHelp(compareFlags(&compareOptions{}, &compareTexts{}))
}

func parseCompareArgs(args []string) (*compareOptions, error) {
	o := &compareOptions{}
	t := compareTexts{alpha: strconv.FormatFloat(stats.DefaultAlpha, 'g', -1, 64)}
	defs := compareFlags(o, &t)
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
	if o.alpha, err = parseAlpha(t.alpha); err != nil {
		return nil, badInputf("compare: %w", err)
	}
	if o.format, err = parseTableFormat(t.format); err != nil {
		return nil, badInputf("compare: %w", err)
	}
	if o.allowed, err = analysis.ParseAllowed(t.allowed); err != nil {
		return nil, badInputf("compare: %w", err)
	}
	if len(o.refs) < 2 {
		return nil, badInputf("compare: need at least two groups of runs to compare (A B), got %d: see mongobench compare -h", len(o.refs))
	}
	if len(o.refs) > len(analysis.GroupLetters) {
		return nil, badInputf("compare: %d groups given: at most %d can be compared at once", len(o.refs), len(analysis.GroupLetters))
	}
	if o.baseline, err = analysis.ParseBaseline(t.baseline, o.refs); err != nil {
		return nil, badInputf("compare: %w", err)
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
	if err := separateRuns(src.shown(o.refs, false), groups); err != nil {
		return badInputf("compare: %w", err)
	}
	st, err := newStudy(o.refs, groups, o.baseline, o.alpha, o.allowed)
	if err != nil {
		return badInputf("compare: %w", err)
	}
	// The table is all or nothing: none once a signal is heard.
	if err := ctx.Err(); err != nil {
		return err
	}
	comparetext.Write(env.Stdout, o.format, src.shown(o.refs, o.format == textFormat), st)
	return o.gates.judge(env, o.format, st)
}

// newStudy builds the study of groups named by refs, their letters naming
// them in its words. A refusal names the groups by letter and argument.
func newStudy(refs []string, groups [][]analysis.Run, baseline int, alpha float64, allowed []string) (*analysis.Study, error) {
	return analysis.NewStudy(groups, analysis.StudyOptions{
		Refs: refs, Baseline: baseline, Latency: analysis.ChooseLatency(groups...), Alpha: alpha, Allowed: allowed,
	})
}

// separateRuns refuses groups that share a run (analysis.SeparateRuns),
// naming each group by its letter and reference; the refusal is bad input.
func separateRuns(shown []string, groups [][]analysis.Run) error {
	names := make([]string, len(shown))
	for i, s := range shown {
		names[i] = fmt.Sprintf("%s (%s)", analysis.GroupLetter(i), s)
	}
	if err := analysis.SeparateRuns(names, groups); err != nil {
		return badInput{err}
	}
	return nil
}
