package comparetext

import (
	"fmt"
	"strconv"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/stats"
	tt "github.com/mongobench/mongobench/internal/texttable"
	"github.com/mongobench/mongobench/internal/threshold"
)

// About is compare's help before its flags: the arguments it accepts and
// what it does with them.
const About = `usage: mongobench compare [flags] A B [C...]

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

// Args are compare's flag values as given, checked by Options once the
// command line is parsed.
type Args struct {
	Alpha, Baseline, Allowed, Format string
	Gates                            threshold.Gates // --threshold, --fail-on
}

// NewArgs are the flags' defaults.
func NewArgs() *Args {
	return &Args{Alpha: strconv.FormatFloat(stats.DefaultAlpha, 'g', -1, 64)}
}

// Flags are compare's own flags and its gates', bound to a.
func (a *Args) Flags() []cmdflag.Def {
	defs := []cmdflag.Def{
		cmdflag.Text("alpha", "P", "significance level of the verdicts, over all figures\ntogether (default 0.05)", true, &a.Alpha),
		cmdflag.Text("baseline", "GROUP", "the group the others are compared against: one of the\narguments as given, or its letter (default A, the first)", true, &a.Baseline),
		cmdflag.Text("allow-different", "NAME,...", "properties (or phase) in which the groups may differ;\nevery output names the differences", true, &a.Allowed),
		cmdflag.Text("format", "FORMAT", "text (default), csv or markdown", true, &a.Format),
	}
	return append(defs, a.Gates.Flags()...)
}

// Options are a compare command line checked: the groups' arguments and
// what the flags chose.
type Options struct {
	Refs     []string
	Alpha    float64
	Baseline int
	Allowed  []string
	Format   tt.Format
}

// Options checks the flags' values and the groups refs name; a refusal
// says what is wrong and what is accepted.
func (a *Args) Options(refs []string) (Options, error) {
	o := Options{Refs: refs}
	var err error
	if o.Alpha, err = analysis.ParseAlpha(a.Alpha); err != nil {
		return o, err
	}
	if o.Format, err = tt.ParseFormat(a.Format); err != nil {
		return o, err
	}
	if o.Allowed, err = analysis.ParseAllowed(a.Allowed); err != nil {
		return o, err
	}
	if len(refs) < 2 {
		return o, fmt.Errorf("need at least two groups of runs to compare (A B), got %d: see mongobench compare -h", len(refs))
	}
	if len(refs) > len(analysis.GroupLetters) {
		return o, fmt.Errorf("%d groups given: at most %d can be compared at once", len(refs), len(analysis.GroupLetters))
	}
	o.Baseline, err = analysis.ParseBaseline(a.Baseline, refs)
	return o, err
}
