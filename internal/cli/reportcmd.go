package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/outfile"
	htmlreport "github.com/mongobench/mongobench/internal/report"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
)

const reportAbout = `usage: mongobench report RESULTS... [-o report.html] [--title TEXT]

Writes one self-contained HTML page (no scripts, charts inline) about runs.
RESULTS are what compare accepts: results files, directories (a sweep's
--out-dir), run ids, labels and sweep:ID from the results store.
  - one sweep: its points with means and 95% confidence intervals, and the knee
  - exactly two arguments: B compared against A, figure by figure, with verdicts
  - always: every run's summary, throughput and latency over time, percentiles,
    server and host metrics

flags:`

type reportOptions struct {
	refs  []string
	out   string
	title string
	alpha float64
	knee  stats.KneeOptions
	store storeFlags
	help  bool
}

// reportFlags are report's flags, bound to o and the texts given.
func reportFlags(o *reportOptions, alpha, kneeT, kneeL *string) []flagDef {
	defs := []flagDef{
		textFlag("o", "FILE", "the page to write (default report.html)", false, &o.out),
		textFlag("title", "TEXT", "the page's title (default: from the runs)", true, &o.title),
		textFlag("alpha", "P", "significance level of a comparison's verdicts (default 0.05)", true, alpha),
		textFlag("knee-throughput", "F", "knee threshold of throughput gain, as for sweep (default 0.05)", true, kneeT),
		textFlag("knee-latency", "F", "knee threshold of p99 growth, as for sweep (default 0.20)", true, kneeL),
	}
	defs = append(defs, o.store.defs("the results store (default mongobench.db, or $MONGOBENCH_STORE)", readOnlyNoStore)...)
	return append(defs, helpFlag(&o.help))
}

// reportHelp is report's help.
func reportHelp() string {
	return reportAbout + "\n" + flagsHelp(reportFlags(&reportOptions{}, new(string), new(string), new(string)))
}

func parseReportArgs(args []string) (*reportOptions, error) {
	o := &reportOptions{out: "report.html"}
	alpha := strconv.FormatFloat(stats.DefaultAlpha, 'g', -1, 64)
	var kneeT, kneeL string
	defs := reportFlags(o, &alpha, &kneeT, &kneeL)
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
	src := &runSource{storePath: o.store.path}
	defer src.close()
	groups, err := src.loadGroups(ctx, o.refs)
	if err != nil {
		return err
	}
	if err := checkDistinct(src.inputs(groups), []namedPath{{"-o", o.out}}); err != nil {
		return badInputf("report: %w", err)
	}
	in := buildReportInput(o, groups)
	for _, n := range in.notes {
		fmt.Fprintf(env.Stderr, "mongobench: report: %s\n", n)
	}
	if err := writeReport(o.out, &in.Input); err != nil {
		return err
	}
	what := plural(len(in.Runs), "run")
	switch {
	case in.Comparison != nil:
		what += ", " + o.refs[1] + " compared against " + o.refs[0]
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
// run; a comparison when there are exactly two groups; the sweep when one
// group holds the points of a sweep.
func buildReportInput(o *reportOptions, groups [][]loadedRun) reportInput {
	in := reportInput{Input: htmlreport.Input{Title: o.title, Version: Version}}
	seen := map[string]bool{}
	var all []loadedRun
	for _, g := range groups {
		for _, r := range g {
			if key := r.key(); !seen[key] {
				seen[key] = true
				all = append(all, r)
				in.Runs = append(in.Runs, r.res)
			}
		}
	}
	kind := chooseLatency(groups...)
	switch {
	case len(groups) == 2:
		in.Comparison = reportComparison(o.refs[0], o.refs[1], groups[0], groups[1], kind, o.alpha)
	case len(groups) > 2:
		in.notes = append(in.notes, "a comparison needs exactly two groups of runs: the report shows the runs side by side")
	}
	if len(groups) == 1 {
		sw, notes := reportSweep(all, kind, o.knee)
		in.Sweep = sw
		in.notes = append(in.notes, notes...)
	}
	return in
}

// reportComparison compares B against A as compare does, in the report's
// terms. Error counts stay in compare's table: the report's comparison
// charts throughputs and latencies.
func reportComparison(aName, bName string, a, b []loadedRun, kind latencyKind, alpha float64) *htmlreport.Comparison {
	c := &htmlreport.Comparison{A: aName, B: bName}
	sets, _ := pairRuns(aName, bName, a, b)
	for _, set := range sets {
		for _, r := range compareRows(set.a, set.b, kind, alpha) {
			if r.figure == notOKFigure {
				continue
			}
			op := strings.TrimSpace(set.point + " " + r.op)
			row := htmlreport.CompareRow{
				Op: op, Figure: r.figure, HigherIsBetter: r.higher, Verdict: verdictText(r, aName, bName),
				RelDiff:     math.NaN(),
				Significant: r.why == "" && (r.v.Kind == stats.Better || r.v.Kind == stats.Worse),
			}
			row.A, row.ALo, row.AHi = meanAndCI(r.a)
			row.B, row.BLo, row.BHi = meanAndCI(r.b)
			if r.why == "" && r.v.RelDiffOK {
				row.RelDiff = r.v.RelDiff
			}
			if r.why == "" && r.v.Kind != stats.NoVerdict {
				row.P = r.v.P
			}
			c.Rows = append(c.Rows, row)
		}
	}
	return c
}

// meanAndCI returns the mean of xs and its 95% confidence interval, which
// collapses onto the mean when there is none (a single run).
func meanAndCI(xs []float64) (mean, lo, hi float64) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	iv := stats.MeanCI(xs, 0.95)
	if !iv.OK {
		return iv.Mean, iv.Mean, iv.Mean
	}
	// Every figure here is a rate, a latency or a count: an interval
	// reaching below zero (two trials make wide ones) means "down to 0".
	return iv.Mean, math.Max(iv.Lo, 0), iv.Hi
}

// reportSweep builds the sweep section from runs marked with their sweep
// points: the mean and confidence interval of each figure over the trials
// that count (no warm-ups, no interrupted runs), and the knee. It returns
// nil when the runs are not the points of a sweep.
func reportSweep(runs []loadedRun, kind latencyKind, knee stats.KneeOptions) (*htmlreport.Sweep, []string) {
	var varied []string
	ids := map[string]bool{}
	for _, r := range runs {
		if r.mark != nil {
			ids[r.mark.ID] = true
			if varied == nil {
				varied = r.mark.Varied
			}
		}
	}
	var notes []string
	if len(ids) > 1 {
		notes = append(notes, fmt.Sprintf("the runs come from %d sweeps (%s): their points are charted together", len(ids), strings.Join(sortedSet(ids), ", ")))
	}
	counted := make(map[string][]runFigures)
	var order []string
	left := 0
	for _, r := range runs {
		if r.mark == nil {
			continue
		}
		if r.mark.Warmup || r.res.Partial {
			left++
			continue
		}
		p := r.pointLabel()
		if _, ok := counted[p]; !ok {
			order = append(order, p)
		}
		counted[p] = append(counted[p], figuresOf(r.res, kind))
	}
	if len(order) < 2 {
		return nil, notes
	}
	if left > 0 {
		notes = append(notes, fmt.Sprintf("%s (warm-up or interrupted) left out of the sweep's figures", plural(left, "run")))
	}
	x := xDim(varied)
	point := map[string]map[string]string{}
	for _, r := range runs {
		if r.mark != nil {
			point[r.pointLabel()] = r.mark.Point
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
		fs := counted[p]
		sp := htmlreport.SweepPoint{Trials: len(fs), PerOp: map[string]htmlreport.OpFigures{}}
		var tp, p99 []float64
		perOp := map[string][2][]float64{}
		for _, f := range fs {
			tp = append(tp, f.throughput)
			p99 = append(p99, f.p99)
			for name, o := range f.ops {
				if o.hasLatency {
					v := perOp[name]
					v[0], v[1] = append(v[0], o.avg), append(v[1], o.pct["99"])
					perOp[name] = v
				}
			}
		}
		sp.Throughput, sp.ThroughputLo, sp.ThroughputHi = meanAndCI(tp)
		sp.P99us, sp.P99Lo, sp.P99Hi = meanAndCI(p99)
		for name, v := range perOp {
			sp.PerOp[name] = htmlreport.OpFigures{AvgUs: stats.Describe(v[0]).Mean, P99us: stats.Describe(v[1]).Mean}
		}
		if byValue {
			sp.X, _ = strconv.ParseFloat(point[p][x], 64)
		} else {
			sp.X = float64(i + 1)
			sp.Label = p
		}
		sw.Points = append(sw.Points, sp)
		kneePts = append(kneePts, stats.Point{X: sp.X, Throughput: sp.Throughput, P99: sp.P99us, P99Lo: sp.P99Lo, P99Hi: sp.P99Hi})
	}
	xLabel, kneeDim := kneeLabels[x]
	switch {
	case !kneeDim:
		sw.KneeSentence = fmt.Sprintf("No knee: a knee is sought along threadcount, target or mongodb.maxconnections, and this sweep varies %s.", orText(x, "nothing"))
	case !byValue:
		sw.KneeSentence = "No knee: the sweep varies several properties; mongobench sweep prints the knee of each series."
	default:
		knee.XLabel = xLabel
		k := stats.Knee(kneePts, knee)
		sw.KneeSentence = sentence(k.String())
		if k.Found {
			sw.Knee = &htmlreport.KneeMark{X: k.Knee.X, Throughput: k.Knee.Throughput, P99us: k.Knee.P99}
			sw.KneeSentence = sentence("Knee: " + k.Summary)
		}
	}
	return sw, notes
}

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
func writeReport(out string, in *htmlreport.Input) error {
	if err := outfile.Write(out, func(w io.Writer) error { return htmlreport.Render(w, in) }); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
