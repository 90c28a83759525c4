package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/inputfile"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
	"github.com/mongobench/mongobench/internal/store"
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

// Latency figures come either from the actual start of each operation
// (service) or from its intended start under -target (corrected for
// coordinated omission).
type latencyKind int

const (
	serviceLatency latencyKind = iota
	intendedLatency
)

func (k latencyKind) String() string {
	if k == intendedLatency {
		return "intended latency (from each operation's scheduled start: corrected for coordinated omission)"
	}
	return "service latency (from each operation's actual start)"
}

// compareFigures are the latency percentiles a comparison shows, as keyed
// in results files.
var compareFigures = []string{"50", "95", "99", "99.9"}

// loadedRun is one run's results and where they came from.
type loadedRun struct {
	res    *results.Results
	source string // the file, or "run N"
	id     int64  // the store's run id; 0 for a file
	mark   *results.SweepMark
}

// counted reports whether the run counts in the figures of its point: a
// sweep's warm-up trial does not.
func (r loadedRun) counted() bool { return r.mark == nil || !r.mark.Warmup }

// pointLabel names the run's sweep point; "" outside sweeps.
func (r loadedRun) pointLabel() string {
	if r.mark == nil {
		return ""
	}
	return r.mark.Label()
}

// runSource loads runs named on the command line, from files or from the
// results store, which it opens on first use.
type runSource struct {
	storePath string
	st        *store.Store
}

func (s *runSource) close() {
	if s.st != nil {
		_ = s.st.Close()
	}
}

// load resolves one command-line reference to its runs. A path that
// exists is a file or directory; a pattern with * ? [ names files; a
// reference with commas is several; anything else is looked up in the
// store (run id, label, sweep:ID).
func (s *runSource) load(ctx context.Context, ref string) ([]loadedRun, error) {
	if strings.TrimSpace(ref) == "" {
		return nil, badInputf("empty run reference: expected a results file, a directory, a run id, a label or sweep:ID")
	}
	if fi, err := os.Stat(ref); err == nil {
		if fi.IsDir() {
			return loadDir(ref)
		}
		r, err := loadFile(ref)
		if err != nil {
			return nil, err
		}
		return []loadedRun{r}, nil
	}
	if strings.ContainsAny(ref, "*?[") {
		matches, err := filepath.Glob(ref)
		if err != nil {
			return nil, badInputf("%q: %w", ref, err)
		}
		if len(matches) == 0 {
			return nil, badInputf("%q matches no file", ref)
		}
		var runs []loadedRun
		for _, m := range matches {
			r, err := s.load(ctx, m)
			if err != nil {
				return nil, err
			}
			runs = append(runs, r...)
		}
		return runs, nil
	}
	if strings.Contains(ref, ",") {
		var runs []loadedRun
		for _, part := range strings.Split(ref, ",") {
			r, err := s.load(ctx, part)
			if err != nil {
				return nil, err
			}
			runs = append(runs, r...)
		}
		return runs, nil
	}
	if looksLikeFile(ref) {
		return nil, badInputf("results file %s does not exist", ref)
	}
	if s.st == nil {
		if _, err := os.Stat(storePath(s.storePath)); errors.Is(err, os.ErrNotExist) {
			return nil, badInputf("%q is no results file, and there is no results store at %s to look it up in as a run id, label or sweep:ID", ref, storePath(s.storePath))
		}
		st, err := openExistingStore(s.storePath)
		if err != nil {
			return nil, err
		}
		s.st = st
	}
	ids, err := s.st.Resolve(ctx, ref)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, badInputf("%s in %s", err.Error(), s.st.Path())
		}
		return nil, badInput{err}
	}
	runs := make([]loadedRun, 0, len(ids))
	for _, id := range ids {
		res, err := s.st.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		runs = append(runs, loadedRun{res: res, source: fmt.Sprintf("run %d", id), id: id, mark: sweepMarkOf(res)})
	}
	return runs, nil
}

// inputs returns the files the runs of groups were read from, and the
// store when one was read: what no output may overwrite.
func (s *runSource) inputs(groups [][]loadedRun) []namedPath {
	var ins []namedPath
	for _, g := range groups {
		for _, r := range g {
			if r.id == 0 {
				ins = append(ins, namedPath{"input", r.source})
			}
		}
	}
	if s.st != nil {
		ins = append(ins, namedPath{"input", s.st.Path()})
	}
	return ins
}

// loadGroup loads the runs one argument names, each run once however
// often the argument names it ("a.json,a.json", a label and its sweep),
// so that no run counts twice in a mean.
func (s *runSource) loadGroup(ctx context.Context, ref string) ([]loadedRun, error) {
	runs, err := s.load(ctx, ref)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	out := runs[:0]
	for _, r := range runs {
		if k := r.key(); !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out, nil
}

// key identifies a run: by its store id, else by its file.
func (r loadedRun) key() string {
	if r.id > 0 {
		return "run " + strconv.FormatInt(r.id, 10)
	}
	return "file " + r.source
}

// looksLikeFile tells a mistyped file name from a label, so that the error
// says the file is missing rather than that no run has that label.
func looksLikeFile(ref string) bool {
	return strings.HasSuffix(ref, ".json") || strings.HasSuffix(ref, results.JournalSuffix) || strings.ContainsRune(ref, os.PathSeparator)
}

// loadFile reads a results file, or the journal of a run that did not
// finish.
func loadFile(path string) (loadedRun, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return loadedRun{}, badInputf("cannot read results file: %w", err)
	}
	defer f.Close()
	var res *results.Results
	if strings.HasSuffix(path, results.JournalSuffix) {
		res, err = results.ReadJournal(f)
	} else {
		res, err = results.ReadJSON(f)
	}
	if err != nil {
		return loadedRun{}, badInputf("%s: %w", path, err)
	}
	return loadedRun{res: res, source: path, mark: sweepMarkOf(res)}, nil
}

// loadDir reads every results file in dir, and the journal of each run
// that left no results file (it was killed).
func loadDir(dir string) ([]loadedRun, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, badInputf("cannot read directory: %w", err)
	}
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name()] = true
	}
	var runs []loadedRun
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir():
			continue
		case strings.HasSuffix(name, results.JournalSuffix):
			if names[strings.TrimSuffix(name, results.JournalSuffix)] {
				continue
			}
		case !strings.HasSuffix(name, ".json"):
			continue
		}
		r, err := loadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		return nil, badInputf("directory %s holds no results files (*.json)", dir)
	}
	// A sweep's files sort by name already; runs of other origins go by
	// their start time.
	slices.SortStableFunc(runs, func(a, b loadedRun) int { return a.res.Start.Compare(b.res.Start) })
	return runs, nil
}

// chooseLatency picks intended latency when every run recorded it (runs
// at a -target rate), else service latency, so that all figures of one
// table measure the same thing.
func chooseLatency(groups ...[]loadedRun) latencyKind {
	seen := false
	for _, g := range groups {
		for _, r := range g {
			for _, m := range r.res.Measurements {
				op, ok := db.ParseOp(m.Op)
				if !ok || !measure.CountsAsOperation(op) || m.Failed {
					continue
				}
				if m.Intended == nil {
					return serviceLatency
				}
				seen = true
			}
		}
	}
	if seen {
		return intendedLatency
	}
	return serviceLatency
}

// notOKFigure names the count of operations whose status is not OK, failures
// and NOT_FOUND alike, in sweeps' tables and comparisons.
const notOKFigure = "not OK"

// runFigures are the figures of one run that sweeps, comparisons and
// reports use.
type runFigures struct {
	runtimeS   float64
	throughput float64
	// p99 is the 99th percentile over all operations of the run (their
	// histograms merged), in µs; 0 when the run has no latency.
	p99   float64
	notOK int64
	ops   map[string]*opFigures
	order []string // operation names in the summary's order
}

// opFigures are one operation's figures in one run; latencies in µs.
type opFigures struct {
	count      int64
	throughput float64
	avg        float64
	pct        map[string]float64 // by results-file key: "50", "99.9"
	hasLatency bool
	notOK      int64
}

// figuresOf computes a run's figures. Errors are the operations whose
// status is not OK, NOT_FOUND included: a run whose reads found nothing
// measured something else than the one it is set beside, and a column
// that said 0 beside 686 NOT_FOUND of 1000 hid it. Throughputs count
// successful operations.
func figuresOf(res *results.Results, kind latencyKind) runFigures {
	f := runFigures{runtimeS: float64(res.RuntimeMs) / 1000, throughput: res.ThroughputOpsSec, ops: map[string]*opFigures{}}
	get := func(name string) *opFigures {
		o := f.ops[name]
		if o == nil {
			o = &opFigures{pct: map[string]float64{}}
			f.ops[name] = o
		}
		return o
	}
	var hists []string // measurement names whose histograms make p99
	for _, m := range res.Measurements {
		op, ok := db.ParseOp(m.Op)
		if !ok || !measure.CountsAsOperation(op) || m.Failed {
			continue
		}
		lat := m.Service
		// A run that recorded only the other latency still has figures.
		if kind == intendedLatency && m.Intended != nil || lat == nil {
			lat = m.Intended
		}
		o := get(m.Op)
		if lat == nil {
			continue
		}
		o.count = lat.Count
		if f.runtimeS > 0 {
			o.throughput = float64(lat.Count) / f.runtimeS
		}
		if lat.Count > 0 {
			o.hasLatency = true
			o.avg = lat.MeanUs
			for k, v := range lat.PercentilesUs {
				o.pct[k] = float64(v)
			}
			hists = append(hists, m.Name)
		}
	}
	for opName, counts := range res.Status {
		op, ok := db.ParseOp(opName)
		if !ok || !measure.CountsAsOperation(op) {
			continue
		}
		for stName, n := range counts {
			st, ok := db.ParseStatus(stName)
			if ok && !st.IsOK() {
				get(opName).notOK += n
				f.notOK += n
			}
		}
	}
	for name := range f.ops {
		f.order = append(f.order, name)
	}
	sortOpNames(f.order)
	f.p99 = overallP99(res, kind, hists, f)
	return f
}

// overallP99 merges the histograms of the run's operations for the p99 of
// all of them: percentiles cannot be averaged. A run of one operation has
// it already.
func overallP99(res *results.Results, kind latencyKind, names []string, f runFigures) float64 {
	switch len(names) {
	case 0:
		return 0
	case 1:
		for _, o := range f.ops {
			if o.hasLatency {
				return o.pct["99"]
			}
		}
	}
	var merged *hdrhistogram.Histogram
	for _, m := range res.Measurements {
		if !slices.Contains(names, m.Name) {
			continue
		}
		lr := m.Service
		if kind == intendedLatency && m.Intended != nil || lr == nil {
			lr = m.Intended
		}
		h, err := hdrhistogram.Decode([]byte(lr.Histogram))
		if err != nil || h.TotalCount() != lr.Count {
			merged = nil
			break
		}
		if merged == nil {
			merged = h
		} else if dropped := merged.Merge(h); dropped > 0 {
			merged = nil
			break
		}
	}
	if merged == nil || merged.TotalCount() == 0 {
		// Without histograms (a file whose histograms do not decode, or
		// of other ranges) the largest operation p99 is the closest figure
		// left: the overall p99 lies between the smallest and the largest.
		worst := 0.0
		for _, o := range f.ops {
			worst = math.Max(worst, o.pct["99"])
		}
		return worst
	}
	return float64(merged.ValueAtQuantile(99))
}

// sortOpNames orders operation names as the summary prints them.
func sortOpNames(names []string) {
	slices.SortFunc(names, func(a, b string) int {
		oa, _ := db.ParseOp(a)
		ob, _ := db.ParseOp(b)
		return cmp.Or(cmp.Compare(oa, ob), strings.Compare(a, b))
	})
}

// figureRow is one figure of one operation in both groups of a comparison.
type figureRow struct {
	op     string // "" for the whole run
	figure string // "throughput", "p50", ..., "errors"
	unit   string // "ops/s", "us", ""
	higher bool   // higher is better
	a, b   []float64
	v      stats.VerdictResult
	why    string // why there are no values on a side
}

// name is how tables print the figure: "p99 (us)".
func (r figureRow) name() string {
	if r.unit == "" || r.unit == "ops/s" {
		return r.figure
	}
	return r.figure + " (" + r.unit + ")"
}

// compareSet is the comparison of the runs of one sweep point (or of two
// whole groups).
type compareSet struct {
	point string // "" when the groups are compared whole
	a, b  []loadedRun
	rows  []figureRow
}

// pairRuns pairs the runs of two groups for comparison. Runs of sweeps
// are compared point by point over the points both groups have; without a
// point in common each group is taken whole. Warm-up trials are left out. notes say what
// was left out or mixed.
func pairRuns(aName, bName string, a, b []loadedRun) (sets []compareSet, notes []string) {
	a, na := countedRuns(a)
	b, nb := countedRuns(b)
	for _, x := range []struct {
		name string
		n    int
	}{{aName, na}, {bName, nb}} {
		if x.n > 0 {
			notes = append(notes, fmt.Sprintf("%d warm-up run(s) of %s left out", x.n, x.name))
		}
	}
	pa, pb := pointsOf(a), pointsOf(b)
	var common []string
	for _, p := range pa {
		if p != "" && slices.Contains(pb, p) {
			common = append(common, p)
		}
	}
	if len(common) > 0 {
		for _, p := range common {
			sets = append(sets, compareSet{point: p, a: runsAt(a, p), b: runsAt(b, p)})
		}
		for _, x := range []struct {
			name   string
			points []string
		}{{aName, pa}, {bName, pb}} {
			for _, p := range x.points {
				if !slices.Contains(common, p) {
					notes = append(notes, fmt.Sprintf("point %s is only in %s: not compared", orText(p, "(no sweep point)"), x.name))
				}
			}
		}
		return sets, notes
	}
	// Two single points that differ are what the user asked to compare
	// (threads=1 of one sweep against threads=8 of another); several are
	// pooled, which the note says.
	if len(pa) > 1 || len(pb) > 1 {
		notes = append(notes, "the groups have no sweep point in common: each is taken whole, mixing its points")
	}
	return []compareSet{{a: a, b: b}}, notes
}

func countedRuns(runs []loadedRun) ([]loadedRun, int) {
	var out []loadedRun
	for _, r := range runs {
		if r.counted() {
			out = append(out, r)
		}
	}
	return out, len(runs) - len(out)
}

// pointsOf lists the distinct sweep points of runs in their first order.
func pointsOf(runs []loadedRun) []string {
	var ps []string
	for _, r := range runs {
		if p := r.pointLabel(); !slices.Contains(ps, p) {
			ps = append(ps, p)
		}
	}
	return ps
}

func runsAt(runs []loadedRun, point string) []loadedRun {
	var out []loadedRun
	for _, r := range runs {
		if r.pointLabel() == point {
			out = append(out, r)
		}
	}
	return out
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// compareRows computes every figure of two groups of runs and its
// verdict: overall throughput, then for each operation its throughput,
// latency percentiles and errors.
func compareRows(a, b []loadedRun, kind latencyKind, alpha float64) []figureRow {
	fa := make([]runFigures, len(a))
	fb := make([]runFigures, len(b))
	var ops []string
	for i, r := range a {
		fa[i] = figuresOf(r.res, kind)
		ops = append(ops, fa[i].order...)
	}
	for i, r := range b {
		fb[i] = figuresOf(r.res, kind)
		ops = append(ops, fb[i].order...)
	}
	sortOpNames(ops)
	ops = slices.Compact(ops)

	type getter func(f runFigures) (float64, bool)
	var rows []figureRow
	add := func(op, figure, unit string, higher bool, get getter) {
		row := figureRow{op: op, figure: figure, unit: unit, higher: higher}
		for _, f := range fa {
			if v, ok := get(f); ok {
				row.a = append(row.a, v)
			}
		}
		for _, f := range fb {
			if v, ok := get(f); ok {
				row.b = append(row.b, v)
			}
		}
		switch {
		case len(row.a) == 0 && len(row.b) == 0:
			return
		case len(row.a) == 0:
			row.why = "no " + strings.TrimSpace(op+" "+figure) + " on side A"
		case len(row.b) == 0:
			row.why = "no " + strings.TrimSpace(op+" "+figure) + " on side B"
		default:
			row.v = stats.Verdict(row.a, row.b, alpha, higher)
		}
		rows = append(rows, row)
	}
	add("", "throughput", "ops/s", true, func(f runFigures) (float64, bool) { return f.throughput, true })
	for _, op := range ops {
		// With one operation its throughput is the overall one.
		if len(ops) > 1 {
			add(op, "throughput", "ops/s", true, func(f runFigures) (float64, bool) {
				o := f.ops[op]
				if o == nil {
					return 0, true
				}
				return o.throughput, true
			})
		}
		for _, p := range compareFigures {
			add(op, "p"+p, "us", false, func(f runFigures) (float64, bool) {
				o := f.ops[op]
				if o == nil || !o.hasLatency {
					return 0, false
				}
				v, ok := o.pct[p]
				return v, ok
			})
		}
		add(op, notOKFigure, "", false, func(f runFigures) (float64, bool) {
			if o := f.ops[op]; o != nil {
				return float64(o.notOK), true
			}
			return 0, true
		})
	}
	return rows
}

// meanText formats the mean of xs with the half-width of its 95%
// confidence interval relative to the mean: "731 ±12%".
func meanText(xs []float64, unit string) string {
	if len(xs) == 0 {
		return "–"
	}
	iv := stats.MeanCI(xs, 0.95)
	s := formatFigure(iv.Mean, unit)
	if iv.OK && iv.HalfWidth() > 0 {
		s += " " + relCI(iv)
	}
	return s
}

// relCI is the half-width of a confidence interval relative to its mean:
// "±12%". Few trials give wide intervals (Student's t for 2 trials is
// 12.7); printing them keeps that honest.
func relCI(iv stats.Interval) string {
	rel := iv.RelHalfWidth()
	switch {
	case math.IsInf(rel, 0) || rel >= 10:
		return "±>999%"
	case rel < 0.001:
		return "±<0.1%"
	case rel < 0.1:
		return fmt.Sprintf("±%.1f%%", 100*rel)
	}
	return fmt.Sprintf("±%.0f%%", 100*rel)
}

// formatFigure prints a figure with as many digits as it deserves:
// latencies and large rates as whole numbers, small rates with decimals.
func formatFigure(v float64, unit string) string {
	switch {
	case unit == "" && v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// changeText is the relative change from A's mean to B's: "+9.7%".
func changeText(r figureRow) string {
	if len(r.a) == 0 || len(r.b) == 0 {
		return "–"
	}
	ma, mb := stats.Describe(r.a).Mean, stats.Describe(r.b).Mean
	if ma == 0 {
		if mb == 0 {
			return "0%"
		}
		return "–"
	}
	s := fmt.Sprintf("%+.1f%%", 100*(mb-ma)/ma)
	if s == "-0.0%" {
		// A change too small to show has no direction either.
		s = "+0.0%"
	}
	return s
}

// verdictText states a row's verdict, naming the groups a and b.
// Comparisons of single runs get the short form: the section's heading
// already says why.
func verdictText(r figureRow, a, b string) string {
	v := r.v
	switch {
	case r.why != "":
		return "no verdict possible: " + r.why
	case v.Kind == stats.NoVerdict && len(r.a) < 2 && len(r.b) < 2:
		return "no verdict possible"
	case v.Kind == stats.NoVerdict && (len(r.a) < 2 || len(r.b) < 2):
		return fmt.Sprintf("no verdict possible: %s has %s and %s %s, and each side needs at least 2", a, plural(len(r.a), "run"), b, plural(len(r.b), "run"))
	case v.Kind == stats.NoVerdict:
		return "no verdict possible: " + v.Reason
	case v.Kind == stats.NoDifference && r.figure == notOKFigure && allZero(r.a) && allZero(r.b):
		return "every operation OK on both sides"
	case v.Kind == stats.NoDifference:
		return fmt.Sprintf("no significant difference (p=%.3g)", v.P)
	}
	word := "better"
	if v.Kind == stats.Worse {
		word = "worse"
	}
	if !v.RelDiffOK {
		return fmt.Sprintf("significant: %s is %s than %s (p=%.3g)", b, word, a, v.P)
	}
	rel := 100 * math.Abs(v.RelDiff)
	relText := fmt.Sprintf("%.1f%%", rel)
	if rel < 0.1 {
		relText = fmt.Sprintf("%.2g%%", rel)
	}
	return fmt.Sprintf("significant: %s is %s %s than %s (p=%.3g)", b, relText, word, a, v.P)
}

func allZero(xs []float64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}

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

// loadGroups loads each reference as a group of runs.
func (src *runSource) loadGroups(ctx context.Context, refs []string) ([][]loadedRun, error) {
	groups := make([][]loadedRun, len(refs))
	for i, ref := range refs {
		g, err := src.loadGroup(ctx, ref)
		if err != nil {
			return nil, err
		}
		groups[i] = g
	}
	return groups, nil
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
	kind := chooseLatency(groups...)
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
func writeComparison(w io.Writer, aName, bName string, a, b []loadedRun, kind latencyKind, alpha float64) {
	fmt.Fprintf(w, "A: %s: %s\n", aName, describeGroup(a))
	fmt.Fprintf(w, "B: %s: %s\n", bName, describeGroup(b))
	if pa, pb := phasesOf(a), phasesOf(b); pa != pb {
		fmt.Fprintf(w, "note: A holds %s phases and B %s phases\n", pa, pb)
	}
	fmt.Fprintf(w, "latency: %s\n", kind)
	sets, notes := pairRuns("A", "B", a, b)
	for _, n := range notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	var better, worse, same, none int
	for _, set := range sets {
		set.rows = compareRows(set.a, set.b, kind, alpha)
		fmt.Fprintln(w)
		head := fmt.Sprintf("%s of A against %s of B", plural(len(set.a), "run"), plural(len(set.b), "run"))
		if set.point != "" {
			head = set.point + ": " + head
		}
		if len(set.a) < 2 && len(set.b) < 2 {
			head += ": one run per side, so no verdict is possible (repeat the runs, e.g. sweep --repeat 3)"
		}
		fmt.Fprintln(w, head)
		rows := make([][]string, 0, len(set.rows))
		for _, r := range set.rows {
			rows = append(rows, []string{orText(r.op, "OVERALL"), r.name(), meanText(r.a, r.unit), meanText(r.b, r.unit), changeText(r), verdictText(r, "A", "B")})
			switch {
			case r.why != "" || r.v.Kind == stats.NoVerdict:
				none++
			case r.v.Kind == stats.Better:
				better++
			case r.v.Kind == stats.Worse:
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
func describeGroup(runs []loadedRun) string {
	parts := []string{plural(len(runs), "run")}
	var ids []int64
	files := 0
	labels, sweeps := map[string]bool{}, map[string]bool{}
	partial := 0
	for _, r := range runs {
		if r.id > 0 {
			ids = append(ids, r.id)
		} else {
			files++
		}
		if r.res.Label != "" {
			labels[r.res.Label] = true
		}
		if r.mark != nil {
			sweeps[r.mark.ID] = true
		}
		if r.res.Partial {
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

// idList prints run ids, runs of consecutive ids as ranges: "runs 1–4, 9".
func idList(ids []int64) string {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d–%d", ids[i], ids[j]))
		} else {
			parts = append(parts, strconv.FormatInt(ids[i], 10))
		}
		i = j + 1
	}
	word := "run "
	if len(ids) > 1 {
		word = "runs "
	}
	return word + strings.Join(parts, ", ")
}

func phasesOf(runs []loadedRun) string {
	set := map[string]bool{}
	for _, r := range runs {
		set[r.res.Phase] = true
	}
	return strings.Join(sortedSet(set), "+")
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// writeTable prints rows under head in aligned columns: numbers to the
// right, the columns in left to the left. The last column is not padded.
func writeTable(w io.Writer, head []string, rows [][]string, left map[int]bool) {
	widths := make([]int, len(head))
	for _, r := range append([][]string{head}, rows...) {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(printable.String(c))))
		}
	}
	for _, r := range append([][]string{head}, rows...) {
		fmt.Fprintln(w, formatRow(r, widths, left))
	}
}

// formatRow pads the cells of one table row to widths. A cell's control
// characters are escaped: a label holding a newline would break the table.
func formatRow(cells []string, widths []int, left map[int]bool) string {
	var b strings.Builder
	for i, c := range cells {
		c = printable.String(c)
		if i > 0 {
			b.WriteString("  ")
		}
		pad := max(0, widths[i]-len([]rune(c)))
		switch {
		case i == len(cells)-1 && left[i]:
			b.WriteString(c)
		case left[i]:
			b.WriteString(c + strings.Repeat(" ", pad))
		default:
			b.WriteString(strings.Repeat(" ", pad) + c)
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// sweepMarkOf is where a run belongs in a sweep; nil for a run outside
// sweeps or a mark without an id.
func sweepMarkOf(res *results.Results) *results.SweepMark {
	if res.Extra == nil || res.Extra.Sweep == nil || res.Extra.Sweep.ID == "" {
		return nil
	}
	return res.Extra.Sweep
}
