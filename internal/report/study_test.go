package report

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// regimeRun is a results file with sizes, cache and disk figures: three
// intervals of one second each.
func regimeRun(dataMB float64, fill float64, hits [3]float64, readMBps [3]float64, iops [3]float64) *results.Results {
	r := &results.Results{Phase: results.PhaseRun, Extra: &results.Extra{
		Sizes: &results.Sizes{End: &metrics.SizeStats{Coll: metrics.SizeFigures{
			DataSize: metrics.Known(dataMB * (1 << 20)), IndexSize: metrics.Known(dataMB * (1 << 20) / 10), StorageSize: metrics.Known(dataMB * (1 << 20) / 4)}}},
	}}
	for i := range 3 {
		t := float64(i + 1)
		r.Extra.ServerMetrics = append(r.Extra.ServerMetrics, results.ServerSample{T: t, Server: &metrics.ServerInterval{Cache: &metrics.CacheInterval{
			FillRatio: metrics.Known(fill * t / 3), HitRatio: metrics.Known(hits[i]), ReadIntoMBPerSec: metrics.Known(readMBps[i])}}})
		r.Extra.HostMetrics = append(r.Extra.HostMetrics, results.HostSample{T: t, Host: &metrics.HostInterval{Disks: []metrics.DiskInterval{
			{Name: "sdb", IOPS: metrics.Known(1), AwaitMs: metrics.Known(9), UtilPct: metrics.Known(1)},
			{Name: "sda", IOPS: metrics.Known(iops[i]), AwaitMs: metrics.Known(2), UtilPct: metrics.Known(50)},
		}}})
	}
	return r
}

func TestRegimeOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		run  *results.Results
		want regime
	}{
		{"cache and disk", regimeRun(100, 0.9, [3]float64{0.9, 0.8, 0.7}, [3]float64{10, 20, 30}, [3]float64{100, 200, 300}),
			// fill at the end; hit ratio the mean; 10+20+30 MB over 1 s
			// intervals; the busiest disk is sda.
			regime{dataBytes: 100 << 20, indexBytes: 10 << 20, storageBytes: 25 << 20, cacheFill: 0.9, hitRatio: 0.8, readIntoMB: 60, iops: 200, awaitMs: 2, utilPct: 50}},
		{"nothing recorded", &results.Results{},
			regime{math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()}},
	} {
		got := regimeOf(tc.run)
		for i, f := range regimeColumnsAll {
			g, w := *f(&got), *f(&tc.want)
			if math.IsNaN(w) != math.IsNaN(g) || !math.IsNaN(w) && math.Abs(g-w) > 1e-9*math.Abs(w) {
				t.Errorf("%s: %s = %v, want %v", tc.name, regimeColumns[i].head, g, w)
			}
		}
	}
}

// studyInput is two configurations over a thread sweep, each with its
// knee, and the runs behind the points.
func studyInput() *Input {
	mk := func(name string, scale float64, knee float64, dataMB float64) StudySeries {
		s := StudySeries{Name: name, KneeSentence: "Knee: throughput saturates at ~" + formatX(knee) + " threads."}
		for _, th := range []float64{1, 4, 16, 64} {
			tp := scale * math.Min(th, knee) * 1000
			p := SweepPoint{X: th, Throughput: tp, ThroughputLo: tp * 0.9, ThroughputHi: tp * 1.1,
				AvgUs: 500 * th / math.Min(th, knee), AvgLo: 450 * th / math.Min(th, knee), AvgHi: 550 * th / math.Min(th, knee),
				P99us: 2000 * th / math.Min(th, knee), P99Lo: 1800 * th / math.Min(th, knee), P99Hi: 2200 * th / math.Min(th, knee), Trials: 3,
				Runs: []*results.Results{regimeRun(dataMB, 0.5, [3]float64{0.99, 0.99, 0.99}, [3]float64{1, 1, 1}, [3]float64{th, th, th})}}
			for _, f := range []float64{0.95, 1, 1.05} {
				p.ThroughputTrials = append(p.ThroughputTrials, f*p.Throughput)
				p.AvgTrials = append(p.AvgTrials, f*p.AvgUs)
				p.P99Trials = append(p.P99Trials, f*p.P99us)
			}
			s.Points = append(s.Points, p)
			if th == knee {
				s.Knee = &KneeMark{X: th, Throughput: tp, P99us: p.P99us}
			}
		}
		return s
	}
	ssd, essd := mk("ssd", 1, 16, 100), mk("essd", 1.25, 4, 100)
	return &Input{
		Title:          "SSD against ESSD",
		Notes:          "ESSD is **not** faster here: <b>the disk was idle</b>.",
		Study:          &Study{Varied: "threadcount", SeriesBy: "configuration", Series: []StudySeries{ssd, essd}},
		Configurations: []Configuration{{Name: "ssd", Runs: ssd.Points[3].Runs}, {Name: "essd", Runs: essd.Points[3].Runs}},
		Comparison: &Comparison{A: "ssd", B: "essd", Rows: []CompareRow{
			{Op: "threadcount=4", Figure: "throughput", A: 4000, B: 5000, RelDiff: 0.25, HigherIsBetter: true, Significant: true, P: 0.001},
			{Op: "threadcount=4 INSERT", Figure: "p99.9", A: 1000, B: 3480, RelDiff: 2.48, P: 0.3},
		}},
		Generated: fixedGenerated, Version: "0.1.0",
	}
}

func TestStudyGolden(t *testing.T) {
	t.Parallel()
	out := render(t, studyInput())
	golden.Check(t, "study.golden.html", withoutStyle(t, out))
}

// section returns the HTML of the page's section with the id.
func section(page, id string) string {
	i := strings.Index(page, `<section id="`+id+`"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(page[i:], "</section>")
	return page[i : i+j]
}

func TestStudyPage(t *testing.T) {
	t.Parallel()
	out := render(t, studyInput())
	// The conclusion comes first, and the runs and configuration last.
	order := []string{`id="conclusion"`, `id="study"`, `id="sizes"`, `id="comparison"`}
	last := -1
	for _, s := range order {
		i := strings.Index(out, s)
		if i < last {
			t.Errorf("%s is out of order (want %v)", s, order)
		}
		last = i
	}
	concl := section(out, "conclusion")
	for _, want := range []string{
		"ESSD is <strong>not</strong> faster here: &lt;b&gt;the disk was idle&lt;/b&gt;.",
		"essd&#39;s threadcount=4 throughput is 25% higher than ssd&#39;s (significant, p=0.001).",
		"ssd: knee: throughput saturates at ~16 threads.",
		"essd: knee: throughput saturates at ~4 threads.",
		"of the 2 figures tested at α=0.05, about 0.1 would be called significant by chance alone",
		"On disk: ssd 25 MiB, essd 25 MiB (the collection as loaded, or after the last run without a load).",
	} {
		if !strings.Contains(concl, want) {
			t.Errorf("conclusion lacks %q:\n%s", want, concl)
		}
	}
	// A large difference that is not significant is no headline.
	if strings.Contains(concl, "248%") {
		t.Errorf("conclusion headlines a difference that is not significant:\n%s", concl)
	}
	study := section(out, "study")
	// Three overlays (throughput, average, p99), a line and a band per
	// configuration on each, and a knee ring per line on the two charts
	// that mark knees.
	if n := strings.Count(study, "<svg"); n != 3 {
		t.Errorf("%d overlay charts, want 3", n)
	}
	if n := strings.Count(study, `class="line"`); n != 6 {
		t.Errorf("%d lines, want 2 per chart", n)
	}
	if n := strings.Count(study, `class="band"`); n != 6 {
		t.Errorf("%d confidence bands, want 2 per chart", n)
	}
	if n := strings.Count(study, `<title>essd: knee at 4 threads</title>`); n != 2 {
		t.Errorf("essd's knee ringed %d times, want on the throughput and p99 charts", n)
	}
	for _, want := range []string{
		// ssd saturates at 16 threads (16,000 ops/s), essd at 4 (5,000).
		"At 64 threads, ssd has the best throughput, 16,000 ops/s, 220% higher than essd&#39;s 5,000 ops/s",
		"At 64 threads, ssd has the best p99 latency, 8 ms, 75% lower than essd&#39;s 32 ms",
		// The pivot: a row per thread count, a column per configuration.
		"<tr><td class=\"text\">16</td><td>16,000<small>95% CI 14,400 – 17,600</small></td><td>5,000<small>95% CI 4,500 – 5,500</small></td></tr>",
		// The regime: 100 MiB of data, a tenth of it index, a quarter of
		// it on disk; the cache half full at the end; 3 MB read into it;
		// the busiest disk's IOPS (the thread count here).
		"<tr><td class=\"text\">essd</td><td>64</td><td>100 MiB</td><td>10 MiB</td><td>25 MiB</td><td>50%</td><td>99%</td><td>3 MB</td><td>64</td><td>2 ms</td><td>50%</td></tr>",
	} {
		if !strings.Contains(study, want) {
			t.Errorf("study section lacks %q", want)
		}
	}
	if sizes := section(out, "sizes"); !strings.Contains(sizes, "<tr><td class=\"text\">ssd</td><td>100 MiB</td><td>10 MiB</td><td>25 MiB</td></tr>") {
		t.Errorf("sizes per configuration wrong:\n%s", sizes)
	}
}

func TestConclusionWithoutSignificance(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		rows []CompareRow
		want string
	}{
		{"tested, none significant", []CompareRow{{Figure: "throughput", RelDiff: 0.5, P: 0.2, HigherIsBetter: true}, {Op: "INSERT", Figure: "p99.9", RelDiff: 2.48, P: 0.3}},
			"No difference between B and A is significant: 2 figures compared at α=0.05."},
		{"single runs", []CompareRow{{Figure: "throughput", RelDiff: 2.48}},
			"No difference between B and A can be called significant: with a single run on a side there is no test."},
	} {
		out := section(render(t, &Input{Comparison: &Comparison{Rows: tc.rows}, Generated: fixedGenerated}), "conclusion")
		if !strings.Contains(out, tc.want) {
			t.Errorf("%s: conclusion lacks %q:\n%s", tc.name, tc.want, out)
		}
		if strings.Contains(out, "248%") || strings.Contains(out, `class="verdicts"`) {
			t.Errorf("%s: conclusion headlines a difference:\n%s", tc.name, out)
		}
	}
}

func TestRunNumbersAreStoreIDs(t *testing.T) {
	t.Parallel()
	run := func(label string) *results.Results {
		return &results.Results{Label: label, Phase: results.PhaseRun, Start: fixedStart, End: fixedStart}
	}
	for _, tc := range []struct {
		name string
		ids  []int64
		want []string
	}{
		{"from the store", []int64{17, 42}, []string{`<a href="#run-17">run 17 (a)</a>`, `<a href="#run-42">run 42 (b)</a>`, `id="run-17"`}},
		{"from files", nil, []string{`<a href="#run-1">run 1 (a)</a>`, `<a href="#run-2">run 2 (b)</a>`}},
		{"mixed", []int64{0, 42}, []string{`<a href="#file-1">file 1 (a)</a>`, `<a href="#run-42">run 42 (b)</a>`}},
	} {
		out := render(t, &Input{Runs: []*results.Results{run("a"), run("b")}, RunIDs: tc.ids, Generated: fixedGenerated})
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: page lacks %q", tc.name, w)
			}
		}
	}
}

var sectionRE = regexp.MustCompile(`<section id="([a-z0-9-]+)"`)

func TestRunsAndConfigurationCollapsedLast(t *testing.T) {
	t.Parallel()
	out := render(t, sweepInput(t))
	ids := sectionRE.FindAllStringSubmatch(out, -1)
	var got []string
	for _, m := range ids {
		got = append(got, m[1])
	}
	want := []string{"conclusion", "sweep", "comparison", "runs", "config", "run-1", "run-2", "run-3"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("sections %v, want %v", got, want)
	}
	for _, id := range []string{"runs", "config"} {
		if s := section(out, id); !strings.Contains(s, "<details>\n<summary>") {
			t.Errorf("section %s is not collapsed:\n%.200s", id, s)
		}
	}
}

func TestTasksPerConfiguration(t *testing.T) {
	t.Parallel()
	single := func(phase, op string, ms int64, avgUs float64) *results.Results {
		return &results.Results{Phase: phase, RuntimeMs: ms, ThroughputOpsSec: 1000 / (float64(ms) / 1000), Start: fixedStart, End: fixedStart,
			Measurements: []results.MeasurementResult{{Name: op, Op: op, Service: &results.LatencyResult{Count: 1000, MeanUs: avgUs}},
				{Name: "CLEANUP", Op: "CLEANUP", Service: &results.LatencyResult{Count: 1, MeanUs: 9e6}}}}
	}
	swept := single("run", "READ", 1000, 100)
	swept.Extra = &results.Extra{Sweep: &results.SweepMark{ID: "s", Varied: []string{"threadcount"}, Point: map[string]string{"threadcount": "2"}}}
	in := &Input{Generated: fixedGenerated, Runs: []*results.Results{swept}, Configurations: []Configuration{
		{Name: "wiredtiger", Runs: []*results.Results{single("load", "INSERT", 1235, 1200), single("run", "READ", 24160, 24), single("run", "DELETE", 65070, 65), swept}},
		{Name: "mmapv1", Runs: []*results.Results{single("load", "INSERT", 1355, 1300), single("load", "INSERT", 1455, 1400), single("run", "READ", 24180, 24)}},
	}}
	page := render(t, in)
	// wiredtiger ran its insert once: no test, so no "least time".
	const untested = "The times for load: INSERT ranged from 1.2 s (wiredtiger) to 1.4 s (mmapv1); with one run per configuration they cannot be told apart: repeat each task (3 runs or more) to test them."
	if c := section(page, "conclusion"); !strings.Contains(c, untested) {
		t.Errorf("the conclusion lacks the tasks' finding:\n%s", c)
	}
	out := section(page, "tasks")
	for _, want := range []string{
		untested,
		// The latency column in one unit: µs, since the reads' 24 µs
		// would read 0.024 ms.
		`<tr><td class="text">load: INSERT</td><td>mmapv1</td><td>2</td><td>1.4 s<small>runs 1.4 s – 1.5 s</small></td><td>713 ops/s</td><td>1,350 µs</td></tr>`,
		`<tr><td class="text">run: DELETE</td><td>wiredtiger</td><td>1</td><td>65 s</td>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("tasks lack %q:\n%s", want, out)
		}
	}
	// One chart; the sweep's run is no task.
	if n := strings.Count(out, "<svg"); n != 1 {
		t.Errorf("%d charts, want 1", n)
	}
	if strings.Contains(out, "NaN") {
		t.Errorf("a missing task is drawn as NaN")
	}
	if n := strings.Count(out, `<td>wiredtiger</td>`); n != 3 {
		t.Errorf("wiredtiger has %d tasks, want 3 (the sweep's run is none)", n)
	}
}

func TestSizesAreThoseOfTheLoad(t *testing.T) {
	t.Parallel()
	load := regimeRun(100, 0.5, [3]float64{}, [3]float64{}, [3]float64{})
	load.Phase, load.End = results.PhaseLoad, fixedStart
	deleted := regimeRun(0.5, 0.5, [3]float64{}, [3]float64{}, [3]float64{})
	deleted.End = fixedStart.Add(time.Minute)
	tv := sizesTable([]Configuration{{Name: "A", Runs: []*results.Results{deleted, load}}, {Name: "B", Runs: []*results.Results{deleted}}})
	got := [][]string{}
	for _, r := range tv.Rows {
		got = append(got, []string{r[0].V, r[1].V})
	}
	// A's data as loaded, though a later run deleted it; B has no load.
	want := [][]string{{"A", "100 MiB"}, {"B", "512 KiB"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("sizes %v, want %v", got, want)
	}
}

func TestConfigurationDifferencesOfManyRuns(t *testing.T) {
	t.Parallel()
	var runs []*results.Results
	for _, th := range []string{"1", "1", "4", "4", "8"} {
		runs = append(runs, &results.Results{Phase: results.PhaseRun, Config: map[string]string{"threadcount": th, "recordcount": "1000"}, Start: fixedStart, End: fixedStart})
	}
	out := section(render(t, &Input{Runs: runs, RunIDs: []int64{11, 12, 13, 14, 15}, Generated: fixedGenerated}), "config")
	want := "<tr><td>threadcount</td><td class=\"text\"><code>1 (run 11, run 12); 4 (run 13, run 14); 8 (run 15)</code></td></tr>"
	if !strings.Contains(out, want) {
		t.Errorf("differences lack %q:\n%s", want, out)
	}
	if strings.Contains(out, "<td>recordcount</td><td class=\"text\"><code>1000 (") {
		t.Errorf("a property all runs share is listed as a difference")
	}
}

func TestRegimeFinding(t *testing.T) {
	t.Parallel()
	small := regimeRun(1, 0.2, [3]float64{0.99, 0.99, 0.99}, [3]float64{0, 0, 0}, [3]float64{5, 5, 5})
	big := regimeRun(64, 1, [3]float64{0.5, 0.6, 0.7}, [3]float64{10, 10, 10}, [3]float64{300, 300, 300})
	in := &Input{Generated: fixedGenerated, Sweep: &Sweep{Varied: "recordcount", Points: []SweepPoint{
		{X: 4e6, Throughput: 900, P99us: 9000, Trials: 1, Runs: []*results.Results{big}},
		{X: 1e5, Throughput: 3000, P99us: 1000, Trials: 1, Runs: []*results.Results{small}},
	}}}
	out := section(render(t, in), "conclusion")
	want := "From recordcount 100,000 to 4,000,000, the data at the end of the runs went from 1 MiB to 64 MiB, the cache hit ratio went from 99% to 60%, " +
		"the data read into the cache went from 0 to 30 MB, the busiest disk went from 5 to 300 IOPS, and throughput went from 3,000 to 900 ops/s (means over the trials)."
	if !strings.Contains(out, want) {
		t.Errorf("conclusion lacks %q:\n%s", want, out)
	}
	// A figure that reads the same at both ends stayed: it said "the data
	// went from 1 MiB to 1 MiB". A data size that hardly changed is left
	// out: it is no finding.
	in.Sweep.Points[0].Runs = []*results.Results{regimeRun(1.001, 1, [3]float64{0.99, 0.99, 0.99}, [3]float64{0, 0, 0}, [3]float64{5, 5, 5})}
	out = section(render(t, in), "conclusion")
	if want := "From recordcount 100,000 to 4,000,000, the cache hit ratio stayed at 99%, the data read into the cache stayed at 0 MB, the busiest disk stayed at 5 IOPS, and throughput went from 3,000 to 900 ops/s"; !strings.Contains(out, want) {
		t.Errorf("conclusion lacks %q:\n%s", want, out)
	}
}

func TestOperationThroughputsApartFromTheTotal(t *testing.T) {
	t.Parallel()
	c := &Comparison{A: "A", B: "B", Rows: []CompareRow{
		{Op: "OVERALL", Figure: "throughput", A: 10000, B: 11000, RelDiff: 0.1, HigherIsBetter: true, P: 0.2},
		{Op: "READ", Figure: "throughput", A: 9500, B: 10450, RelDiff: 0.1, HigherIsBetter: true, P: 0.2},
		{Op: "INSERT", Figure: "throughput", A: 500, B: 550, RelDiff: 0.1, HigherIsBetter: true, P: 0.2},
		{Op: "INSERT", Figure: "p99", A: 900, B: 800, RelDiff: -0.11, P: 0.2},
	}}
	cv := buildComparison(c, true, opsUnit)
	var titles []string
	for _, f := range cv.Figures {
		titles = append(titles, f.Title)
	}
	want := []string{"Throughput: B against A", "Throughput per operation: B against A", "Latency: B against A"}
	if strings.Join(titles, "|") != strings.Join(want, "|") {
		t.Fatalf("charts %q, want %q", titles, want)
	}
	if strings.Contains(string(cv.Figures[0].SVG), "INSERT") || !strings.Contains(string(cv.Figures[1].SVG), "INSERT throughput") {
		t.Errorf("INSERT's throughput is drawn beside the total, not with the other operations")
	}
	for _, tc := range []struct {
		op   string
		want bool
	}{{"READ", true}, {"threadcount=4 INSERT", true}, {"OVERALL", false}, {"threadcount=4", false}, {"", false}} {
		if got := opOf(tc.op); got != tc.want {
			t.Errorf("opOf(%q) = %t, want %t", tc.op, got, tc.want)
		}
	}
}

func TestSeveralComparisons(t *testing.T) {
	t.Parallel()
	row := func(rel, p float64, sig bool) []CompareRow {
		return []CompareRow{{Op: "OVERALL", Figure: "throughput", A: 1000, B: 1000 * (1 + rel), RelDiff: rel, HigherIsBetter: true, Significant: sig, P: p}}
	}
	in := &Input{Generated: fixedGenerated,
		Comparison:  &Comparison{A: "A", B: "B", Rows: row(0.5, 0.2, false), Correction: "Holm"},
		Comparisons: []*Comparison{{A: "A", B: "C", Rows: row(-0.4, 0.001, true), Correction: "Holm"}},
	}
	out := render(t, in)
	for _, id := range []string{"comparison", "comparison-2"} {
		if section(out, id) == "" {
			t.Errorf("no section %q", id)
		}
	}
	concl := section(out, "conclusion")
	for _, want := range []string{
		"C&#39;s throughput is 40% lower than A&#39;s (significant, p=0.001).",
		"No difference between B and A is significant: 1 figure compared at α=0.05.",
		"Significance is Holm-corrected across the 2 figures tested",
	} {
		if !strings.Contains(concl, want) {
			t.Errorf("conclusion lacks %q:\n%s", want, concl)
		}
	}
	if strings.Contains(concl, "50%") {
		t.Errorf("B's change, not significant, is a headline")
	}
}

// TestTasksCaptionNeedsItsRuns: a configuration is called the fastest at
// a task only when its runs are significantly apart from the slowest's,
// at the page's level shared among the pairs of configurations.
func TestTasksCaptionNeedsItsRuns(t *testing.T) {
	t.Parallel()
	load := func(ms ...int64) []*results.Results {
		var rs []*results.Results
		for _, m := range ms {
			rs = append(rs, &results.Results{Phase: "load", RuntimeMs: m, ThroughputOpsSec: 1e6 / float64(m), Start: fixedStart, End: fixedStart,
				Measurements: []results.MeasurementResult{{Name: "INSERT", Op: "INSERT", Service: &results.LatencyResult{Count: 1000, MeanUs: 100}}}})
		}
		return rs
	}
	for _, tc := range []struct {
		name    string
		a, b, c []*results.Results
		want    string
	}{
		{"apart", load(1000, 1010, 990), load(1400, 1410, 1390), load(1200, 1190, 1210),
			"A took the least time for load: INSERT, 1 s, 29% less than B&#39;s 1.4 s (Welch&#39;s t-test at α=0.017, α=0.05 shared among 3 pairs, p&lt;0.001)."},
		// Three identical servers whose runs scatter: an A/A study.
		{"within the noise", load(1000, 1800, 1300), load(1400, 900, 1500), load(1200, 1700, 1000),
			"The times for load: INSERT ranged from 1.3 s (B) to 1.4 s (A), within the noise of the runs: no configuration is significantly faster (Welch&#39;s t-test at α=0.017, α=0.05 shared among 3 pairs, p=0.75)."},
	} {
		in := &Input{Generated: fixedGenerated, Configurations: []Configuration{{Name: "A", Runs: tc.a}, {Name: "B", Runs: tc.b}, {Name: "C", Runs: tc.c}}}
		for _, rs := range [][]*results.Results{tc.a, tc.b, tc.c} {
			in.Runs = append(in.Runs, rs...)
		}
		if out := section(render(t, in), "tasks"); !strings.Contains(out, tc.want) {
			t.Errorf("%s: tasks lack %q:\n%s", tc.name, tc.want, out)
		}
	}
}

// TestLimitsFinding: a study's conclusion says what limited its runs and
// how busy the busiest disk got, and a page of runs that ran on a busy
// host opens with one banner naming them, not one banner per run.
func TestLimitsFinding(t *testing.T) {
	t.Parallel()
	busy := func() *results.Results {
		r := regimeRun(10, 0.5, [3]float64{0.99, 0.99, 0.99}, [3]float64{1, 1, 1}, [3]float64{40, 40, 40})
		r.Start, r.End = fixedStart, fixedStart
		r.Extra.Diagnosis = &results.Diagnosis{Verdict: "host busy with other processes", Limits: []results.Limit{{Kind: "host busy with other processes", Evidence: []string{"other processes used 60.0% of the CPUs"}}}}
		return r
	}
	cpu := busy()
	cpu.Extra.Diagnosis = &results.Diagnosis{Verdict: "server CPU", Limits: []results.Limit{{Kind: "server CPU"}}}
	in := &Input{Generated: fixedGenerated, Runs: []*results.Results{busy(), cpu, busy()}}
	page := render(t, in)
	want := "What limited the runs: host busy with other processes (2 of 3), server CPU (1 of 3). The disks were hardly used: the busiest was 50% busy"
	if c := section(page, "conclusion"); strings.Contains(c, want) {
		t.Errorf("a disk 50%% busy was called hardly used:\n%s", c)
	}
	if c := section(page, "conclusion"); !strings.Contains(c, "What limited the runs: host busy with other processes (2 of 3), server CPU (1 of 3). The busiest disk was 50% busy on average in the busiest run.") {
		t.Errorf("the conclusion lacks what limited the runs:\n%s", c)
	}
	if n := strings.Count(page, "ran on a host busy with other processes"); n != 1 {
		t.Errorf("%d banners of a busy host, want one naming both runs", n)
	}
	if !strings.Contains(page, "2 of the 3 runs (run 1 and run 3) ran on a host busy with other processes") {
		t.Errorf("the banner does not name the two runs:\n%.3000s", page)
	}
	// The same runs with their disks 3% busy: the disks were never the
	// limit, as the 000 report found too late.
	for _, r := range in.Runs {
		for _, h := range r.Extra.HostMetrics {
			for i := range h.Host.Disks {
				h.Host.Disks[i].UtilPct = metrics.Known(3)
			}
		}
	}
	if c := section(render(t, in), "conclusion"); !strings.Contains(c, "The disks were hardly used: the busiest was 3% busy on average in the busiest run, so no difference here can be the disk&#39;s.") {
		t.Errorf("the conclusion does not say the disks were hardly used:\n%s", c)
	}
}

// TestSpreadText: two figures that read the same are said once.
func TestSpreadText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lo, hi string
		plural bool
		want   string
	}{
		{"0.2 s", "0.3 s", true, "ranged from 0.2 s (A) to 0.3 s (B)"},
		{"0.2 s", "0.2 s", true, "were about 0.2 s in each"},
		{"5,000 ops/s", "5,000 ops/s", false, "was about 5,000 ops/s in each"},
	} {
		if got := spreadText(tc.lo, "A", tc.hi, "B", tc.plural); got != tc.want {
			t.Errorf("spreadText(%q, %q) = %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}
