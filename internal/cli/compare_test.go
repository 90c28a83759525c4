package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
)

// resultsSpec describes a synthetic run: a 10 s run phase at a throughput,
// its operations spread evenly over the ops, each with latencies from
// its base to twice its base.
type resultsSpec struct {
	label      string
	throughput float64
	latencyUs  map[string]int64 // base latency per op; nil: READ at 1000 µs
	errors     int64            // failed READs
	intended   bool             // record intended latency too (a -target run)
	mark       *results.SweepMark
}

func synthResults(t testing.TB, s resultsSpec) *results.Results {
	t.Helper()
	if s.latencyUs == nil {
		s.latencyUs = map[string]int64{"READ": 1000}
	}
	ops := make([]string, 0, len(s.latencyUs))
	for op := range s.latencyUs {
		ops = append(ops, op)
	}
	sortOpNames(ops)
	const runtimeMs = 10_000
	total := int64(s.throughput * runtimeMs / 1000)
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := &results.Results{
		FormatVersion: results.FormatVersion, Tool: results.Tool{Name: "mongobench", Version: "test"},
		Command: []string{"mongobench", "run", "mongodb"}, Label: s.label, Phase: results.PhaseRun,
		Config: map[string]string{"threadcount": "1"}, Start: start, End: start.Add(runtimeMs * time.Millisecond),
		RuntimeMs: runtimeMs, Operations: total, ThroughputOpsSec: float64(total) * 1000 / runtimeMs,
		Status: map[string]map[string]int64{}, Intervals: []results.IntervalResult{},
	}
	for i, op := range ops {
		n := total / int64(len(ops))
		if i == 0 {
			n += total % int64(len(ops))
		}
		lat := latencyResult(t, s.latencyUs[op], n)
		m := results.MeasurementResult{Name: op, Op: op, Service: lat}
		if s.intended {
			m.Intended = latencyResult(t, 2*s.latencyUs[op], n)
		}
		r.Measurements = append(r.Measurements, m)
		r.Status[op] = map[string]int64{"OK": n}
	}
	if s.errors > 0 {
		r.Status["READ"]["ERROR"] = s.errors
	}
	if s.mark != nil {
		r.Extra = &results.Extra{Sweep: s.mark}
	}
	return r
}

// latencyResult records n latencies spread from base to 2·base.
func latencyResult(t testing.TB, base, n int64) *results.LatencyResult {
	t.Helper()
	h := hdrhistogram.New(measure.LowestTrackableUs, measure.HighestTrackableUs, measure.SignificantFigures)
	const steps = 100
	for i := int64(0); i < steps; i++ {
		c := n / steps
		if i == steps-1 {
			c += n % steps
		}
		if c > 0 {
			if err := h.RecordValues(base+base*i/steps, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	lr := &results.LatencyResult{Count: h.TotalCount(), MeanUs: h.Mean(), MinUs: h.Min(), MaxUs: h.Max(), Histogram: string(enc), PercentilesUs: map[string]int64{}}
	for _, p := range measure.StandardPercentiles {
		lr.PercentilesUs[measure.PercentileKey(p)] = h.ValueAtQuantile(p)
	}
	return lr
}

// writeSynth writes synthetic results files into dir and returns their
// paths.
func writeSynth(t *testing.T, dir string, specs map[string]resultsSpec) map[string]string {
	t.Helper()
	paths := map[string]string{}
	for name, s := range specs {
		p := filepath.Join(dir, name+".json")
		if err := writeResults(p, synthResults(t, s)); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return paths
}

// TestCompareGolden pins compare's output for groups of results files.
func TestCompareGolden(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	two := map[string]int64{"READ": 1000, "UPDATE": 4000}
	p := writeSynth(t, dir, map[string]resultsSpec{
		"a1": {label: "base", throughput: 1000, latencyUs: two},
		"a2": {label: "base", throughput: 1020, latencyUs: two},
		"a3": {label: "base", throughput: 990, latencyUs: two},
		"b1": {label: "new", throughput: 2000, latencyUs: map[string]int64{"READ": 1500, "UPDATE": 4000}, errors: 3},
		"b2": {label: "new", throughput: 2030, latencyUs: map[string]int64{"READ": 1500, "UPDATE": 4000}, errors: 5},
		"b3": {label: "new", throughput: 1990, latencyUs: map[string]int64{"READ": 1500, "UPDATE": 4000}, errors: 4},
	})
	tests := []struct {
		name   string
		args   []string
		golden string
	}{
		// Three runs a side: every figure gets a verdict.
		{"groups", []string{p["a1"] + "," + p["a2"] + "," + p["a3"], filepath.Join(dir, "b*.json")}, "compare_groups.golden"},
		// One run a side: figures side by side, no verdict possible.
		{"single runs", []string{p["a1"], p["b1"]}, "compare_single.golden"},
		// Two groups against one baseline, and flags after the groups.
		{"three groups", []string{p["a1"] + "," + p["a2"], p["b1"] + "," + p["b2"], p["a3"] + "," + p["b3"], "--alpha", "0.01"}, "compare_three.golden"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := experiment(t, runCompare, append(tc.args, "--store", filepath.Join(dir, "none.db"))...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			golden.Check(t, tc.golden, strings.ReplaceAll(r.stdout, dir+string(os.PathSeparator), "DIR/"))
		})
	}
}

// TestPairRuns checks how groups are paired: point by point for sweeps,
// whole otherwise, warm-ups left out.
func TestPairRuns(t *testing.T) {
	t.Parallel()
	run := func(point string, warm bool) loadedRun {
		if point == "" {
			return loadedRun{res: &results.Results{}}
		}
		return loadedRun{res: &results.Results{}, mark: &results.SweepMark{ID: "s", Varied: []string{"threadcount"}, Point: map[string]string{"threadcount": point}, Warmup: warm}}
	}
	tests := []struct {
		name      string
		a, b      []loadedRun
		sets      []string // point: runs of A / runs of B
		noteParts []string
	}{
		{"lone runs", []loadedRun{run("", false)}, []loadedRun{run("", false), run("", false)}, []string{":1/2"}, nil},
		{"same points", []loadedRun{run("1", false), run("2", false)}, []loadedRun{run("1", false), run("2", false)}, []string{"threadcount=1:1/1", "threadcount=2:1/1"}, nil},
		// Only the shared point is compared; the others are named.
		{"overlap", []loadedRun{run("1", false), run("2", false)}, []loadedRun{run("2", false), run("4", false)}, []string{"threadcount=2:1/1"},
			[]string{"threadcount=1 is only in A", "threadcount=4 is only in B"}},
		{"warm-up left out", []loadedRun{run("1", true), run("1", false)}, []loadedRun{run("1", false)}, []string{"threadcount=1:1/1"}, []string{"1 warm-up run(s) of A left out"}},
		// A sweep against a lone run: nothing to pair, so both are whole.
		{"no common point", []loadedRun{run("1", false), run("2", false)}, []loadedRun{run("", false)}, []string{":2/1"}, []string{"no sweep point in common"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sets, notes := pairRuns("A", "B", tc.a, tc.b)
			var got []string
			for _, s := range sets {
				got = append(got, s.point+":"+strconv.Itoa(len(s.a))+"/"+strconv.Itoa(len(s.b)))
			}
			if !slices.Equal(got, tc.sets) {
				t.Errorf("sets %v, want %v", got, tc.sets)
			}
			all := strings.Join(notes, "; ")
			for _, part := range tc.noteParts {
				if !strings.Contains(all, part) {
					t.Errorf("notes %q lack %q", all, part)
				}
			}
			if len(tc.noteParts) == 0 && len(notes) > 0 {
				t.Errorf("unexpected notes %q", notes)
			}
		})
	}
}

// TestFiguresOf checks the figures read from a results file: throughput
// per operation, operations not OK (failures and NOT_FOUND), the choice of latency
// and the p99 over all operations from the merged histograms.
func TestFiguresOf(t *testing.T) {
	t.Parallel()
	res := synthResults(t, resultsSpec{throughput: 1000, latencyUs: map[string]int64{"READ": 1000, "UPDATE": 10000}, errors: 7, intended: true})
	res.Status["READ"]["NOT_FOUND"] = 11
	f := figuresOf(res, serviceLatency)
	if !slices.Equal(f.order, []string{"READ", "UPDATE"}) {
		t.Fatalf("ops %v", f.order)
	}
	// 7 ERROR and 11 NOT_FOUND.
	if f.notOK != 18 || f.ops["READ"].notOK != 18 || f.ops["UPDATE"].notOK != 0 {
		t.Errorf("not OK %d (READ %d, UPDATE %d), want 18, 18, 0", f.notOK, f.ops["READ"].notOK, f.ops["UPDATE"].notOK)
	}
	if got := f.ops["READ"].throughput; got != 500 {
		t.Errorf("READ throughput %g, want 500", got)
	}
	merged := hdrhistogram.New(measure.LowestTrackableUs, measure.HighestTrackableUs, measure.SignificantFigures)
	sum, err := res.Summary()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range sum.Measurements {
		merged.Merge(m.Service)
	}
	if want := float64(merged.ValueAtQuantile(99)); f.p99 != want || f.p99 <= f.ops["READ"].pct["99"] {
		t.Errorf("overall p99 %g, want %g (above READ's %g)", f.p99, want, f.ops["READ"].pct["99"])
	}
	if fi := figuresOf(res, intendedLatency); fi.ops["READ"].pct["50"] <= f.ops["READ"].pct["50"] {
		t.Errorf("intended p50 %g is not the intended histogram's (service %g)", fi.ops["READ"].pct["50"], f.ops["READ"].pct["50"])
	}
	one := []loadedRun{{res: res}}
	if k := chooseLatency(one); k != intendedLatency {
		t.Errorf("runs that all recorded intended latency: %v", k)
	}
	svc := []loadedRun{{res: synthResults(t, resultsSpec{throughput: 10})}}
	if k := chooseLatency(one, svc); k != serviceLatency {
		t.Errorf("one run without intended latency: %v", k)
	}
}

// TestVerdictText checks each kind of verdict sentence.
func TestVerdictText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		row  figureRow
		want string
	}{
		{"better", figureRow{figure: "throughput", higher: true, a: []float64{100, 101, 99}, b: []float64{200, 201, 199}}, `^significant: new is 100\.0% better than base \(p=[0-9.e-]+\)$`},
		{"worse latency", figureRow{figure: "p99", a: []float64{100, 101, 99}, b: []float64{200, 201, 199}}, `^significant: new is 100\.0% worse than base`},
		{"no difference", figureRow{figure: "p99", a: []float64{100, 150, 99}, b: []float64{120, 80, 130}}, `^no significant difference \(p=0\.[0-9]+\)$`},
		{"every operation OK", figureRow{figure: notOKFigure, a: []float64{0, 0}, b: []float64{0, 0}}, `^every operation OK on both sides$`},
		{"single runs", figureRow{figure: "p99", a: []float64{1}, b: []float64{2}}, `^no verdict possible$`},
		{"one side single", figureRow{figure: "p99", a: []float64{1}, b: []float64{2, 3}}, `^no verdict possible: base has 1 run and new 2 runs, and each side needs at least 2$`},
		{"missing", figureRow{figure: "p99", b: []float64{2, 3}, why: "no READ p99 on side A"}, `^no verdict possible: no READ p99 on side A$`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tc.row
			if r.why == "" {
				r.v = stats.Verdict(r.a, r.b, 0.05, r.higher)
			}
			if got := verdictText(r, "base", "new"); !regexp.MustCompile(tc.want).MatchString(got) {
				t.Errorf("got %q, want %s", got, tc.want)
			}
		})
	}
}

// TestFormatting checks the table cells: figures, intervals, id lists.
func TestFormatting(t *testing.T) {
	t.Parallel()
	tests := []struct{ got, want string }{
		{meanText(nil, "us"), "–"},
		{meanText([]float64{731}, "ops/s"), "731"},
		{meanText([]float64{100, 100}, "ops/s"), "100"},
		// Two trials: Student's t is 12.7, so the interval is wide.
		{meanText([]float64{90, 110}, "ops/s"), "100 ±127%"},
		{meanText([]float64{0, 1000}, "ops/s"), "500 ±>999%"},
		{meanText([]float64{99, 100, 101}, "ops/s"), "100 ±2.5%"},
		{formatFigure(7.256, "ops/s"), "7.26"},
		{formatFigure(12.34, "us"), "12.3"},
		{formatFigure(3, ""), "3"},
		{formatFigure(2.5, ""), "2.50"},
		{idList([]int64{4, 1, 2, 3, 9}), "runs 1–4, 9"},
		{idList([]int64{7}), "run 7"},
		{fileSafe("threadcount=4 mongodb.url=mongodb://h/x?w=1"), "threadcount=4_mongodb.url=mongodb___h_x_w=1"},
		{changeText(figureRow{a: []float64{100}, b: []float64{150}}), "+50.0%"},
		{changeText(figureRow{a: []float64{0}, b: []float64{0}}), "0%"},
		{changeText(figureRow{a: []float64{0}, b: []float64{3}}), "–"},
		// A fall of 0.01% rounds to nothing: no minus sign on a zero.
		{changeText(figureRow{a: []float64{10000}, b: []float64{9999}}), "+0.0%"},
	}
	for i, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("case %d: got %q, want %q", i, tc.got, tc.want)
		}
	}
}

// FuzzParseInterleaved: flags and arguments in any order parse without a
// panic, and every argument that is no flag comes back in order.
func FuzzParseInterleaved(f *testing.F) {
	f.Add("a b --alpha 0.01 c")
	f.Add("--store x.db -- --alpha")
	f.Add("-h a")
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		o, err := parseCompareArgs(args)
		if err != nil || o.help || slices.Contains(args, "--") {
			return
		}
		for _, ref := range o.refs {
			if ref == "--alpha" || ref == "--store" {
				t.Fatalf("%q: flag %s taken for a group", line, ref)
			}
		}
	})
}

// BenchmarkFiguresOf measures reading a run's figures, which reports and
// comparisons do for every run, with the histogram merge for p99.
func BenchmarkFiguresOf(b *testing.B) {
	res := synthResults(b, resultsSpec{throughput: 10000, latencyUs: map[string]int64{"READ": 500, "UPDATE": 2000, "SCAN": 9000}})
	b.ReportAllocs()
	for b.Loop() {
		_ = figuresOf(res, serviceLatency)
	}
}

// TestLoadGroup checks the forms a group takes on the command line, and
// that a run named twice counts once.
func TestLoadGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := writeSynth(t, dir, map[string]resultsSpec{"x1": {throughput: 1}, "x2": {throughput: 2}})
	src := &runSource{storePath: filepath.Join(dir, "none.db")}
	defer src.close()
	tests := []struct {
		ref  string
		want int
	}{
		{p["x1"], 1},
		{p["x1"] + "," + p["x2"], 2},
		{p["x1"] + "," + p["x1"], 1},
		{filepath.Join(dir, "x*.json"), 2},
		{dir, 2},
		{dir + "," + p["x2"], 2},
	}
	for _, tc := range tests {
		runs, err := src.loadGroup(t.Context(), tc.ref)
		if err != nil || len(runs) != tc.want {
			t.Errorf("%s: %d runs (err %v), want %d", strings.ReplaceAll(tc.ref, dir, "DIR"), len(runs), err, tc.want)
		}
	}
}
