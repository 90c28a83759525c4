package report

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/interrupt"
	"github.com/mongobench/mongobench/internal/outfile"
	"github.com/mongobench/mongobench/internal/stats"
)

// About is report's help before its flags: what the page holds.
const About = `usage: mongobench report RESULTS... [-o report.html] [--title TEXT] [--notes FILE]

Writes one self-contained HTML page (no scripts, charts inline) about runs.
RESULTS are what compare accepts: results files, directories (a sweep's
--out-dir), run ids, labels and sweep:ID from the results store.
  - first, the conclusion: your --notes, then only the significant differences
  - one sweep: its points with means and 95% confidence intervals, and the knee
  - sweeps in several arguments, or a sweep of two dimensions: one line per
    configuration (or per value of the second dimension) on throughput,
    average and p99 latency charts, a pivot table, and the regime table
  - two or more arguments: each compared against the first, figure by figure,
    with verdicts (Holm-corrected)
  - always: every run's summary, throughput and latency over time, percentiles,
    server and host metrics

flags:`

// DefaultFile is the page report writes when no -o names one.
const DefaultFile = "report.html"

// Args are report's flag values as given, checked by Options once the
// command line is parsed.
type Args struct {
	Out string
	// OutNamed is whether -o was given: the default page is written only
	// where no file stands, since nobody named the file it would replace.
	OutNamed                                           bool
	Title, Notes                                       string
	Alpha, KneeThroughput, KneeLatency, AllowDifferent string
}

// NewArgs are the flags' defaults.
func NewArgs() *Args {
	return &Args{Out: DefaultFile, Alpha: strconv.FormatFloat(stats.DefaultAlpha, 'g', -1, 64)}
}

// Flags are report's own flags, bound to a.
func (a *Args) Flags() []cmdflag.Def {
	return []cmdflag.Def{
		cmdflag.Func("o", "FILE", "the page to write (default report.html, which is never replaced\nunless named)", false, func(v string) error {
			a.Out, a.OutNamed = v, true
			return nil
		}),
		cmdflag.Text("title", "TEXT", "the page's title (default: from the runs)", true, &a.Title),
		cmdflag.Text("notes", "FILE", "your conclusion, in Markdown, shown first on the page", true, &a.Notes),
		cmdflag.Text("alpha", "P", "significance level of a comparison's verdicts (default 0.05)", true, &a.Alpha),
		cmdflag.Text("knee-throughput", "F", "knee threshold of throughput gain, as for sweep (default 0.05)", true, &a.KneeThroughput),
		cmdflag.Text("knee-latency", "F", "knee threshold of p99 growth, as for sweep (default 0.20)", true, &a.KneeLatency),
		cmdflag.Text("allow-different", "NAME,...", "properties (or phase) in which two compared groups may\ndiffer, as for compare; the page names the differences", true, &a.AllowDifferent),
	}
}

// Options checks the flags' values and the number of groups refs name,
// and returns how the page is drawn (the caller names the groups and the
// version).
func (a *Args) Options(refs []string) (Options, error) {
	var o Options
	var err error
	if a.KneeThroughput != "" {
		if o.Knee.MinThroughputGain, err = analysis.ParseFraction("knee-throughput", a.KneeThroughput, "0.05 for +5% throughput"); err != nil {
			return o, err
		}
	}
	if a.KneeLatency != "" {
		if o.Knee.MinLatencyGrowth, err = analysis.ParseFraction("knee-latency", a.KneeLatency, "0.20 for +20% p99"); err != nil {
			return o, err
		}
	}
	if o.Alpha, err = analysis.ParseAlpha(a.Alpha); err != nil {
		return o, err
	}
	if o.Allowed, err = analysis.ParseAllowed(a.AllowDifferent); err != nil {
		return o, err
	}
	o.Title = a.Title
	if strings.TrimSpace(a.Out) == "" {
		return o, errors.New("-o is empty: expected the file to write, such as -o report.html")
	}
	if len(refs) == 0 {
		return o, errors.New("no runs named: give results files, a directory, run ids, labels or sweep:ID (see mongobench report -h)")
	}
	if len(refs) > len(analysis.GroupLetters) {
		// Each group is lettered, in the page's notes as in compare.
		return o, fmt.Errorf("%d groups given: at most %d are set side by side; join runs into one group with commas (a.json,b.json)", len(refs), len(analysis.GroupLetters))
	}
	return o, nil
}

// CheckDefaultOut refuses to write the default page over a file that
// stands there: nobody named it.
func (a *Args) CheckDefaultOut() error {
	if !a.OutNamed {
		if _, err := os.Lstat(a.Out); err == nil {
			return fmt.Errorf("%s exists and no -o names it: give -o %s to replace it, or -o FILE for another page", a.Out, a.Out)
		}
	}
	return nil
}

// WriteFile renders the page atomically: a failed render leaves whatever
// stood at out as it was, and no half page. A stop ends the rendering at
// its next write, and leaves no page either.
func WriteFile(ctx context.Context, out string, in *Input) error {
	return outfile.Write(out, func(w io.Writer) error { return Render(interrupt.Writer{Ctx: ctx, W: w}, in) })
}
