package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/outfile"
	htmlreport "github.com/mongobench/mongobench/internal/report"
	"github.com/mongobench/mongobench/internal/runref"
	"github.com/mongobench/mongobench/internal/stats"
)

const reportAbout = `usage: mongobench report RESULTS... [-o report.html] [--title TEXT] [--notes FILE]

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

type reportOptions struct {
	refs []string
	// outNamed is whether -o was given: the default page is written only
	// where no file stands, since nobody named the file it would replace.
	outNamed bool
	allowed  []string
	out      string
	title    string
	notes    string
	alpha    float64
	knee     stats.KneeOptions
	store    storeFlags
	help     bool
}

// reportFlags are report's flags, bound to o and the texts given.
func reportFlags(o *reportOptions, alpha, kneeT, kneeL, allowed *string) []flagDef {
	defs := []flagDef{
		funcFlag("o", "FILE", "the page to write (default report.html, which is never replaced\nunless named)", false, func(v string) error {
			o.out, o.outNamed = v, true
			return nil
		}),
		textFlag("title", "TEXT", "the page's title (default: from the runs)", true, &o.title),
		textFlag("notes", "FILE", "your conclusion, in Markdown, shown first on the page", true, &o.notes),
		textFlag("alpha", "P", "significance level of a comparison's verdicts (default 0.05)", true, alpha),
		textFlag("knee-throughput", "F", "knee threshold of throughput gain, as for sweep (default 0.05)", true, kneeT),
		textFlag("knee-latency", "F", "knee threshold of p99 growth, as for sweep (default 0.20)", true, kneeL),
		textFlag("allow-different", "NAME,...", "properties (or phase) in which two compared groups may\ndiffer, as for compare; the page names the differences", true, allowed),
	}
	defs = append(defs, o.store.defs("the results store (default mongobench.db, or $MONGOBENCH_STORE)", readOnlyNoStore)...)
	return append(defs, helpFlag(&o.help))
}

// reportHelp is report's help.
func reportHelp() string {
	return reportAbout + "\n" + flagsHelp(reportFlags(&reportOptions{}, new(string), new(string), new(string), new(string)))
}

func parseReportArgs(args []string) (*reportOptions, error) {
	o := &reportOptions{out: defaultReportFile}
	alpha := strconv.FormatFloat(stats.DefaultAlpha, 'g', -1, 64)
	var kneeT, kneeL, allowed string
	defs := reportFlags(o, &alpha, &kneeT, &kneeL, &allowed)
	refs, err := newFlagSet("report", defs).parseInterleaved(args)
	if errors.Is(err, flag.ErrHelp) {
		o.help, err = true, nil
	}
	if err != nil {
		return nil, badInputf("report: %s: accepted flags are %s", flagMessage(err), acceptedFlags(defs, true))
	}
	o.refs = refs
	if o.help {
		return o, nil
	}
	if kneeT != "" {
		if o.knee.MinThroughputGain, err = parseFraction("knee-throughput", kneeT, "0.05 for +5% throughput"); err != nil {
			return nil, badInputf("report: %w", err)
		}
	}
	if kneeL != "" {
		if o.knee.MinLatencyGrowth, err = parseFraction("knee-latency", kneeL, "0.20 for +20% p99"); err != nil {
			return nil, badInputf("report: %w", err)
		}
	}
	if o.alpha, err = parseAlpha(alpha); err != nil {
		return nil, badInputf("report: %w", err)
	}
	if o.allowed, err = analysis.ParseAllowed(allowed); err != nil {
		return nil, badInputf("report: %w", err)
	}
	if strings.TrimSpace(o.out) == "" {
		return nil, badInputf("report: -o is empty: expected the file to write, such as -o report.html")
	}
	if len(o.refs) == 0 {
		return nil, badInputf("report: no runs named: give results files, a directory, run ids, labels or sweep:ID (see mongobench report -h)")
	}
	if len(o.refs) > len(analysis.GroupLetters) {
		// Each group is lettered, in the page's notes as in compare.
		return nil, badInputf("report: %d groups given: at most %d are set side by side; join runs into one group with commas (a.json,b.json)", len(o.refs), len(analysis.GroupLetters))
	}
	return o, nil
}

// runReportCmd is "mongobench report".
func runReportCmd(ctx context.Context, args []string, env Env) error {
	o, err := parseReportArgs(args)
	if err != nil {
		return err
	}
	o.store.fromEnv(env)
	if o.help {
		fmt.Fprintln(env.Stdout, reportHelp())
		return nil
	}
	if err := checkOutput("-o", o.out); err != nil {
		return badInputf("report: %w", err)
	}
	if !o.outNamed {
		if _, err := os.Lstat(o.out); err == nil {
			return badInputf("report: %s exists and no -o names it: give -o %s to replace it, or -o FILE for another page", o.out, o.out)
		}
	}
	src := &runSource{storePath: o.store.path}
	defer src.close()
	groups, err := src.loadGroups(ctx, o.refs)
	if err != nil {
		return err
	}
	if len(groups) > 1 {
		if err := separateRuns(src.shown(o.refs, false), groups); err != nil {
			return badInputf("report: %w", err)
		}
	}
	ins := append(src.inputs(groups), storeInputs(o.store)...)
	if o.notes != "" {
		ins = append(ins, namedPath{"--notes", o.notes})
	}
	if err := checkDistinct(ins, []namedPath{{"-o", o.out}}); err != nil {
		return badInputf("report: %w", err)
	}
	notes, err := htmlreport.ReadNotes(o.notes)
	if err != nil {
		return badInputf("report: %w", err)
	}
	in, built, err := reportPage(o, groups)
	if err != nil {
		return badInputf("report: %w", err)
	}
	in.Notes = notes
	in.DiskBaselines = src.diskBaselines(ctx, env)
	for i, r := range src.shown(o.refs, true) {
		if src.source().Reading(o.refs[i]) != "" {
			fmt.Fprintf(env.Stderr, "mongobench: report: read %s\n", r)
		}
	}
	for _, n := range built {
		fmt.Fprintf(env.Stderr, "mongobench: report: %s\n", n)
	}
	if err := writeReport(ctx, o.out, in); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "mongobench: wrote %s (%s)\n", o.out, in.Contents(src.shown(o.refs, false)))
	return nil
}

// reportPage draws the page of the named groups, as the flags choose,
// and says how it was built (for stderr).
func reportPage(o *reportOptions, groups [][]analysis.Run) (*htmlreport.Input, []string, error) {
	return htmlreport.FromRuns(groups, htmlreport.Options{
		Names: runref.Names(o.refs), Title: o.title, Version: Version, Alpha: o.alpha, Allowed: o.allowed, Knee: o.knee,
	})
}

// defaultReportFile is the page report writes when no -o names one.
const defaultReportFile = "report.html"

// writeReport renders the page atomically: a failed render leaves
// whatever stood at out as it was, and no half page.
// A stop ends the rendering at its next write, and leaves no page either.
func writeReport(ctx context.Context, out string, in *htmlreport.Input) error {
	if err := outfile.Write(out, func(w io.Writer) error { return htmlreport.Render(ctxWriter{ctx, w}, in) }); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
