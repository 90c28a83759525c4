package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/inputfile"
	"github.com/mongobench/mongobench/internal/outfile"
	htmlreport "github.com/mongobench/mongobench/internal/report"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
	"github.com/mongobench/mongobench/internal/store"
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
	if o.allowed, err = parseAllowed(allowed); err != nil {
		return nil, badInputf("report: %w", err)
	}
	if strings.TrimSpace(o.out) == "" {
		return nil, badInputf("report: -o is empty: expected the file to write, such as -o report.html")
	}
	if len(o.refs) == 0 {
		return nil, badInputf("report: no runs named: give results files, a directory, run ids, labels or sweep:ID (see mongobench report -h)")
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
	notes, err := readNotes(o.notes)
	if err != nil {
		return err
	}
	in, err := buildReportInput(o, groups)
	if err != nil {
		return badInputf("report: %w", err)
	}
	in.Notes = notes
	in.DiskBaselines = src.diskBaselines(ctx, env)
	for i, r := range src.shown(o.refs, true) {
		if reading := src.readings[o.refs[i]]; reading != "" {
			fmt.Fprintf(env.Stderr, "mongobench: report: read %s\n", r)
		}
	}
	for _, n := range in.notes {
		fmt.Fprintf(env.Stderr, "mongobench: report: %s\n", n)
	}
	if err := writeReport(ctx, o.out, &in.Input); err != nil {
		return err
	}
	what := plural(len(in.Runs), "run")
	shown := src.shown(o.refs, false)
	switch {
	case in.Comparison != nil:
		what += ", " + shown[1] + " compared against " + shown[0]
	case in.Sweep != nil:
		what += ", " + plural(len(in.Sweep.Points), "sweep point")
	}
	fmt.Fprintf(env.Stderr, "mongobench: wrote %s (%s)\n", o.out, what)
	return nil
}

// reportInput is the report's input and what the command has to say about
// how it was built.
type reportInput struct {
	htmlreport.Input
	notes []string
}

// buildReportInput turns the named groups into the report's input: every
// run; each group after the first compared against it; the overlays of
// sweeps in several groups or of two dimensions; the sweep when one
// group holds the points of a sweep.
func buildReportInput(o *reportOptions, groups [][]analysis.Run) (reportInput, error) {
	names := refNames(o.refs)
	in := reportInput{Input: htmlreport.Input{Title: o.title, Version: Version, Alpha: o.alpha}}
	seen := map[string]bool{}
	var all []analysis.Run
	for i, g := range groups {
		conf := htmlreport.Configuration{Name: names[i]}
		for _, r := range g {
			conf.Runs = append(conf.Runs, r.Res)
			if key := r.Key(); !seen[key] {
				seen[key] = true
				all = append(all, r)
				in.Runs = append(in.Runs, r.Res)
				in.RunIDs = append(in.RunIDs, r.ID)
			}
		}
		if len(groups) > 1 {
			in.Configurations = append(in.Configurations, conf)
		}
	}
	kind := analysis.ChooseLatency(groups...)
	var study *analysis.Study
	if len(groups) >= 2 {
		st, err := newStudy(names, groups, 0, o.alpha, o.allowed, o.knee)
		study = st
		var different *analysis.DifferentError
		switch {
		case err != nil && len(groups) > 2 && errors.As(err, &different):
			// Several groups that ran different things (an engine's
			// single-thread tasks beside its thread sweeps) are still
			// drawn side by side; only verdicts need like with like.
			why := "no verdicts on the page: " + err.Error()
			in.notes = append(in.notes, why)
			in.Caveats = append(in.Caveats, sentence(why))
		case err != nil:
			return in, err
		default:
			// Every configuration against the first, as compare does.
			for i := range st.Comparisons {
				c := reportComparison(names, st, i)
				if i == 0 {
					in.Comparison = c
				} else {
					in.Comparisons = append(in.Comparisons, c)
				}
			}
		}
	}
	ro := groupsRanOn(names, groups, study)
	in.RanOn = reportRanOn(ro)
	for _, w := range ro.Warnings {
		in.Warnings = append(in.Warnings, sentence(w))
	}
	for _, c := range confounders(names, groups) {
		in.Warnings = append(in.Warnings, c.sentence())
	}
	knee := o.knee
	knee.Alpha = o.alpha
	in.Study = reportStudy(names, groups, kind, knee)
	if len(groups) == 1 && in.Study == nil {
		sw, notes := reportSweep(all, kind, knee)
		in.Sweep = sw
		in.notes = append(in.notes, notes...)
	}
	return in, nil
}

// reportComparison is the i-th comparison of a study (a configuration
// against the baseline) in the report's terms.
// Error counts stay in compare's table: the report's comparison charts
// throughputs and latencies.
func reportComparison(refs []string, st *analysis.Study, i int) *htmlreport.Comparison {
	cmp := st.Comparisons[i]
	aName, bName := refs[st.Baseline], refs[cmp.Config]
	c := &htmlreport.Comparison{A: aName, B: bName, Alpha: st.Alpha}
	if cmp.Better+cmp.Worse == 0 {
		c.Sensitivity = analysis.SensitivityText(cmp.Sensitivity)
	}
	if st.Tested > 1 {
		c.Correction = "Holm"
	}
	if t := analysis.DifferencesText(cmp.Differences); t != "" {
		c.Notes = append(c.Notes, fmt.Sprintf("%s differs from %s in %s (allowed by --allow-different).", bName, aName, t))
	}
	if i == 0 {
		// The study's notes are said once, with the first comparison.
		for _, n := range st.Notes {
			c.Notes = append(c.Notes, sentence(n))
		}
	}
	for _, set := range cmp.Sets {
		for _, r := range set.Rows {
			if r.Figure == analysis.NotOKFigure {
				continue
			}
			op := strings.Join(strings.Fields(set.Kind+" "+set.Point+" "+r.Op), " ")
			row := htmlreport.CompareRow{
				Op: op, Figure: r.Figure, HigherIsBetter: r.HigherIsBetter, Verdict: analysis.VerdictText(r, aName, bName),
				RelDiff:     math.NaN(),
				Significant: r.Significant(),
			}
			row.A, row.ALo, row.AHi = analysis.MeanAndCI(r.A)
			row.B, row.BLo, row.BHi = analysis.MeanAndCI(r.B)
			if r.Why == "" && r.Verdict.RelDiffOK {
				row.RelDiff = r.Verdict.RelDiff
			}
			if r.Tested() {
				// The p-value the verdict rests on: corrected for the
				// figures tested with it.
				row.P = r.AdjustedP
			}
			c.Rows = append(c.Rows, row)
		}
	}
	return c
}

// reportSweep builds the sweep section from runs marked with their sweep
// points: the mean and confidence interval of each figure over the trials
// that count (no warm-ups, no interrupted runs), and the knee. It returns
// nil when the runs are not the points of a sweep.
func reportSweep(runs []analysis.Run, kind analysis.LatencyKind, knee stats.KneeOptions) (*htmlreport.Sweep, []string) {
	var varied []string
	ids := map[string]bool{}
	for _, r := range runs {
		if r.Mark != nil {
			ids[r.Mark.ID] = true
			if varied == nil {
				varied = r.Mark.Varied
			}
		}
	}
	var notes []string
	if len(ids) > 1 {
		notes = append(notes, fmt.Sprintf("the runs come from %d sweeps (%s): their points are charted together", len(ids), strings.Join(sortedSet(ids), ", ")))
	}
	counted := make(map[string][]analysis.Figures)
	trials := make(map[string][]*results.Results)
	var order []string
	left := 0
	for _, r := range runs {
		if r.Mark == nil {
			continue
		}
		if r.Mark.Warmup || r.Res.Partial {
			left++
			continue
		}
		p := r.Point()
		if _, ok := counted[p]; !ok {
			order = append(order, p)
		}
		counted[p] = append(counted[p], analysis.FiguresOf(r.Res, kind))
		trials[p] = append(trials[p], r.Res)
	}
	if len(order) < 2 {
		return nil, notes
	}
	if left > 0 {
		notes = append(notes, fmt.Sprintf("%s (warm-up or interrupted) left out of the sweep's figures", plural(left, "run")))
	}
	x := analysis.XDim(varied)
	point := map[string]map[string]string{}
	for _, r := range runs {
		if r.Mark != nil {
			point[r.Point()] = r.Mark.Point
		}
	}
	// One series of numbers charts against its values; a matrix of
	// several series, or values that are no numbers, against the points'
	// order, each point named in full.
	byValue := true
	series := map[string]bool{}
	for _, p := range order {
		if _, err := strconv.ParseFloat(point[p][x], 64); err != nil {
			byValue = false
		}
		rest := maps.Clone(point[p])
		delete(rest, x)
		m := results.SweepMark{Point: rest}
		series[m.Label()] = true
	}
	byValue = byValue && len(series) == 1
	sw := &htmlreport.Sweep{Varied: x}
	if !byValue {
		sw.Varied = "point"
	}
	var kneePts []stats.Point
	for i, p := range order {
		sp, pf := sweepPointOf(counted[p], trials[p])
		if byValue {
			sp.X, _ = strconv.ParseFloat(point[p][x], 64)
		} else {
			sp.X = float64(i + 1)
			sp.Label = p
		}
		sw.Points = append(sw.Points, sp)
		kneePts = append(kneePts, pf.KneePoint(sp.X))
	}
	sweepVerdict(sw, x, byValue, order, trials, kneePts, knee)
	return sw, notes
}

// sweepVerdict states what a single sweep found: for a sweep of the target
// rate, the targets it kept; along a load dimension, its knee (marked on
// the charts) and what limited the point past it.
func sweepVerdict(sw *htmlreport.Sweep, x string, byValue bool, order []string, trials map[string][]*results.Results, kneePts []stats.Point, knee stats.KneeOptions) {
	switch {
	case byValue && x == analysis.RateDim:
		// Throughput follows the target by construction: a rate sweep is
		// judged by whether each target was kept, not by a knee.
		byTarget := map[float64][]*results.Results{}
		for i, p := range order {
			byTarget[sw.Points[i].X] = append(byTarget[sw.Points[i].X], trials[p]...)
		}
		sw.KneeSentence = rateSentence(byTarget)
	case byValue || analysis.KneeDims[x] == "":
		k := analysis.KneeOf(x, kneePts, knee)
		text := k.Text
		if k.Found {
			// As the sweep says it: what limited the point past the knee.
			at := k.Result.Next
			if at.X == 0 {
				at = k.Result.Knee
			}
			for i, p := range order {
				if sw.Points[i].X == at.X {
					if b := diagnosis.BeyondMost(k.Result.Knee.X, analysis.KneeDims[x], diagnosesOf(trials[p])); b != "" {
						text += "; " + b
					}
				}
			}
		}
		sw.KneeSentence = sentence(text)
		// Along a data size or a batch size no knee is sought: saying so is
		// no finding for the conclusion.
		sw.NotAlongLoad = analysis.KneeDims[x] == ""
		if k.Found {
			kp := k.Result.Knee
			sw.Knee = &htmlreport.KneeMark{X: kp.X, Throughput: kp.Throughput, P99us: kp.P99}
		}
	default:
		sw.KneeSentence = "No knee: the sweep varies several properties; mongobench sweep prints the knee of each series."
	}
}

// readNotes reads the author's conclusion for the page; "" when no file
// is named.
func readNotes(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	f, err := inputfile.Open(path)
	if err != nil {
		return "", badInputf("report: --notes: %w: expected a Markdown file with your conclusion", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxNotesBytes+1))
	if err != nil {
		return "", badInputf("report: --notes %s: %w", path, err)
	}
	if len(b) > maxNotesBytes {
		return "", badInputf("report: --notes %s is over %d KiB: expected a conclusion of a few paragraphs", path, maxNotesBytes/1024)
	}
	if !utf8.Valid(b) {
		return "", badInputf("report: --notes %s is not UTF-8 text: expected a Markdown file", path)
	}
	return string(b), nil
}

// defaultReportFile is the page report writes when no -o names one.
const defaultReportFile = "report.html"

// maxNotesBytes bounds --notes: a conclusion, not a book.
const maxNotesBytes = 256 << 10

// sentence capitalises s and ends it with a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// writeReport renders the page atomically: a failed render leaves
// whatever stood at out as it was, and no half page.
// A stop ends the rendering at its next write, and leaves no page either.
func writeReport(ctx context.Context, out string, in *htmlreport.Input) error {
	if err := outfile.Write(out, func(w io.Writer) error { return htmlreport.Render(ctxWriter{ctx, w}, in) }); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// diagnosesOf are the runs' diagnoses, made now for runs written before
// runs were diagnosed.
func diagnosesOf(runs []*results.Results) []*results.Diagnosis {
	ds := make([]*results.Diagnosis, len(runs))
	for i, r := range runs {
		ds[i] = diagnosis.Of(r)
	}
	return ds
}

// refNames are the names a page gives the groups: the reference without
// the prefix that only told mongobench how to read it ("label:ssd" is
// ssd, "run:12" run 12, "dir:out" out).
func refNames(refs []string) []string {
	names := make([]string, len(refs))
	for i, ref := range refs {
		switch {
		case strings.HasPrefix(ref, runPrefix):
			names[i] = "run " + strings.TrimPrefix(ref, runPrefix)
		case strings.HasPrefix(ref, store.LabelPrefix):
			names[i] = strings.TrimPrefix(ref, store.LabelPrefix)
		case strings.HasPrefix(ref, dirPrefix):
			names[i] = strings.TrimPrefix(ref, dirPrefix)
		case strings.HasPrefix(ref, filePrefix):
			names[i] = strings.TrimPrefix(ref, filePrefix)
		default:
			names[i] = ref
		}
		if names[i] == "" {
			names[i] = ref
		}
	}
	return names
}
