package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/results"
)

func render(t testing.TB, in *Input) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Render(&buf, in); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestRenderGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		input func(testing.TB) *Input
	}{
		// One run with intended latency, failures, a spike and metrics.
		{"single.golden.html", singleInput},
		// A thread sweep with a knee and a comparison, one run partial.
		{"sweep.golden.html", sweepInput},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			golden.Check(t, tc.name, withoutStyle(t, render(t, tc.input(t))))
		})
	}
}

// styleBlock is the page's inlined style sheet, which every page golden
// would otherwise repeat: TestPageInlinesStyleSheet checks it once, and
// the page goldens hold a placeholder, so that a change of style is one
// reviewable diff of style.css.
const styleBlock = "<style>\n/* style.css, checked by TestPageInlinesStyleSheet */\n</style>"

// withoutStyle replaces the page's style sheet with styleBlock.
func withoutStyle(t testing.TB, page string) string {
	t.Helper()
	inlined := "<style>\n" + styleSheet + "</style>"
	if strings.Count(page, inlined) != 1 {
		t.Fatalf("the page does not inline style.css once")
	}
	return strings.Replace(page, inlined, styleBlock, 1)
}

// TestPageInlinesStyleSheet: every page carries style.css whole, in its
// head, and nothing else styles it.
func TestPageInlinesStyleSheet(t *testing.T) {
	t.Parallel()
	page := render(t, singleInput(t))
	head, _, _ := strings.Cut(page, "</head>")
	if !strings.Contains(head, "<style>\n"+styleSheet+"</style>") || strings.Count(page, "<style") != 1 || strings.Contains(page, "style=\"") {
		t.Errorf("the page's head does not inline style.css as its one style sheet:\n%.600s", head)
	}
}

// svgRE finds the charts of a page.
var svgRE = regexp.MustCompile(`(?s)<svg class="chart".*?</svg>`)

// TestRenderCharts checks what a reader relies on beyond the exact bytes:
// every chart is well-formed SVG with a drawn line or bar and a title, has a
// one-sentence caption, and the page runs no script and loads nothing.
func TestRenderCharts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		input      func(testing.TB) *Input
		wantCharts int
		wantText   []string
	}{
		{"single", singleInput,
			// throughput, READ and UPDATE latency, spectrum; 5 server
			// (connections, opcounters, cache bytes, ratios and rates); 5
			// host (cpu percentages, disk queue, rates, throughput,
			// memory): the cpu count, the disk's wait and utilisation are
			// constant here, stated in words rather than charted
			1 + 2 + 1 + 5 + 5,
			[]string{
				"Workload B on db1",
				"READ-FAILED",
				"OK 7,337 · TIMEOUT 3",
				"READ p99 spiked to",
				"Dashed lines are intended latency",
				"WiredTiger cache hit ratio, the highest here, held at about 0.976 over 20 s.",
				"Disk sda IOPS, the highest here, averaged 115/s",
				"Held constant over the run (not charted): Host CPU IRQ 0%;",
				"Host CPU count 4;",
				"Disk sda utilisation 15%;",
				"admin:***@db1",
			}},
		{"sweep", sweepInput,
			// 3 sweep, 2 comparison (throughput, latency), 3 runs ×
			// (throughput, 2 latency, spectrum)
			3 + 2 + 3*4,
			[]string{
				"Throughput stops rising at 8 threads",
				"p99 rose 3.2× from 8 to 64 threads while throughput grew 6% (within the noise).",
				"knee: 8 threads",
				"WiredTiger&#43;zstd&#39;s READ p99 is 31% lower than WiredTiger&#39;s (significant, p=0.003).",
				"31% better",
				"22% worse",
				"Where the runs differ",
				"Run 3 (threads=64) was interrupted before its end",
				`class="knee"`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := render(t, tc.input(t))
			for _, bad := range []string{"<script", "http://", "https://", "@import", "url(", "NaN", "Inf", "ZgotmplZ", "s3cret"} {
				// The SVG namespace is the one URL a page may name.
				if strings.Contains(strings.ReplaceAll(out, `xmlns="http://www.w3.org/2000/svg"`, ""), bad) {
					t.Errorf("report contains %q", bad)
				}
			}
			for _, s := range tc.wantText {
				if !strings.Contains(out, s) {
					t.Errorf("report lacks %q", s)
				}
			}
			charts := svgRE.FindAllString(out, -1)
			if len(charts) != tc.wantCharts {
				t.Errorf("got %d charts, want %d", len(charts), tc.wantCharts)
			}
			for i, c := range charts {
				if err := wellFormed(c); err != nil {
					t.Errorf("chart %d is not well-formed XML: %v", i, err)
				}
				if !strings.Contains(c, `<path class="line" d="M`) && !strings.Contains(c, "<rect x=") {
					t.Errorf("chart %d draws nothing: %.200s", i, c)
				}
				if !strings.Contains(c, "<title>") {
					t.Errorf("chart %d has no title", i)
				}
			}
			if n, m := strings.Count(out, `<span class="sentence">`), len(charts); n != m {
				t.Errorf("%d captions for %d charts", n, m)
			}
			for _, s := range regexp.MustCompile(`<span class="sentence">([^<]*)</span>`).FindAllStringSubmatch(out, -1) {
				if !strings.HasSuffix(s[1], ".") || strings.Count(strings.TrimSuffix(s[1], "."), ". ") > 0 {
					t.Errorf("caption is not one sentence: %q", s[1])
				}
			}
		})
	}
}

// wellFormed reports whether s is well-formed XML.
func wellFormed(s string) error {
	d := xml.NewDecoder(strings.NewReader(s))
	d.Strict = true
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func TestRenderErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		in   *Input
		want string
	}{
		{"nil input", nil, "no input"},
		{"empty input", &Input{}, "nothing to report"},
		{"nil run", &Input{Runs: []*results.Results{nil}}, "run 1 is nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			err := Render(&buf, tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want one containing %q", err, tc.want)
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %d bytes despite the error", buf.Len())
			}
		})
	}
}

// TestRenderDegenerate renders inputs with nothing much in them: each must
// still give a page, with a note where a chart cannot be drawn.
func TestRenderDegenerate(t *testing.T) {
	t.Parallel()
	run := synthRun(t, runSpec{threads: 1, seconds: 1, opsPerSec: 100, readUs: 100, updateUs: 100})
	noHist := *run
	noHist.Measurements = []results.MeasurementResult{{Name: "READ", Op: "READ", Service: &results.LatencyResult{Count: 5, MeanUs: 3}}}
	merged := *run
	merged.Intervals = nil
	for i := range 3 {
		merged.Intervals = append(merged.Intervals, results.IntervalResult{Index: i, StartS: float64(i), EndS: float64(i + 1), Operations: 5, OpsPerSec: 5,
			Measurements: []results.MeasurementResult{{Name: "READ", Op: "READ", Service: &results.LatencyResult{Count: 5}}}})
	}
	clientBound := *run
	clientBound.Extra = &results.Extra{Client: &results.Client{Bound: true, WallS: 1, Utilization: 0.934, AllowedCPUs: 1}}
	for _, tc := range []struct {
		name string
		in   *Input
		want string
	}{
		{"one interval", &Input{Runs: []*results.Results{run}, Generated: fixedGenerated}, "1 interval of the status interval: too short for charts over time"},
		{"no histogram", &Input{Runs: []*results.Results{&noHist}, Generated: fixedGenerated}, "histograms of this results file cannot be read"},
		{"merged intervals", &Input{Runs: []*results.Results{&merged}, Generated: fixedGenerated}, "these intervals carry no percentiles"},
		{"client-bound", &Input{Runs: []*results.Results{&clientBound}, Generated: fixedGenerated},
			"Run 1 was limited by its client&#39;s CPU: its throughput and latencies describe the client more than the server (the client used 93.4% of the 1 CPUs it may use, threshold 80.0%)."},
		{"empty sweep", &Input{Sweep: &Sweep{Varied: "threadcount"}, Generated: fixedGenerated}, "The sweep has no points."},
		{"empty comparison", &Input{Comparison: &Comparison{}, Generated: fixedGenerated}, "Per-point detail: B against A"},
		{"single-point sweep", &Input{Sweep: &Sweep{Varied: "recordcount", Points: []SweepPoint{{X: 1e6, Throughput: 5, P99us: 10, Trials: 1}}}, Generated: fixedGenerated},
			"The sweep has a single point: 5 ops/s at recordcount 1,000,000."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := render(t, tc.in)
			if !strings.Contains(out, tc.want) {
				t.Errorf("report lacks %q", tc.want)
			}
			if strings.Contains(out, "NaN") || strings.Contains(out, "Inf") {
				t.Errorf("report prints a non-finite number")
			}
		})
	}
}

// TestOneVerdict: the banner, the runs table and the run's section show
// the run's one diagnosis. A run held by its -target on a host that other
// processes kept busy, whose client waited for a CPU most of the time
// (client_bound as results files wrote it before the diagnosis judged
// it), has no client-bound banner; a client starved by other processes
// is said to be on a busy host; a client using its CPUs is client-bound.
func TestOneVerdict(t *testing.T) {
	t.Parallel()
	withDiagnosis := func(d *results.Diagnosis, c *results.Client) *results.Results {
		r := *synthRun(t, runSpec{threads: 1, seconds: 3, opsPerSec: 20, readUs: 900, updateUs: 900})
		r.Extra = &results.Extra{Client: c, Diagnosis: d}
		return &r
	}
	starved := &results.Client{Bound: true, WallS: 15, Utilization: 0.04, Waiting: 0.84, AllowedCPUs: 2}
	target := &results.Diagnosis{Verdict: diagnosis.Target, Limits: []results.Limit{{Kind: diagnosis.Target,
		Evidence: []string{"the run held its -target of 20 ops/s: 20.1 ops/s, 100.3% of it (threshold 95.0%)"}}},
		Notes: []string{"host busy with other processes near its limit though the run held its target: the server's host CPUs were 100.0% busy"}}
	busy := &results.Diagnosis{Verdict: diagnosis.HostBusy, Limits: []results.Limit{{Kind: diagnosis.HostBusy,
		Evidence: []string{"the client's host CPUs were 99.6% busy", "other processes used 95.6% of the client's host CPUs, 96.0% of their busy time (threshold 50.0%): most of the load was not the client's"}}}}
	bound := &results.Diagnosis{Verdict: diagnosis.ClientCPU, Limits: []results.Limit{{Kind: diagnosis.ClientCPU,
		Evidence: []string{"the client used 93.4% of the 1 CPUs it may use, threshold 80.0%"}}}}
	tests := []struct {
		name   string
		run    *results.Results
		limit  string
		banner string // "" for none
	}{
		{"held its target", withDiagnosis(target, starved), "target", ""},
		{"host busy", withDiagnosis(busy, starved), "host busy with other processes",
			"Run 1 ran on a host busy with other processes: its figures describe a shared machine, not the server (other processes used 95.6% of the client&#39;s host CPUs, 96.0% of their busy time (threshold 50.0%): most of the load was not the client&#39;s)."},
		{"client-bound", withDiagnosis(bound, &results.Client{Bound: true, WallS: 15, Utilization: 0.934, AllowedCPUs: 1}), "client CPU",
			"Run 1 was limited by its client&#39;s CPU: its throughput and latencies describe the client more than the server (the client used 93.4% of the 1 CPUs it may use, threshold 80.0%)."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := render(t, &Input{Runs: []*results.Results{tc.run}, Generated: fixedGenerated})
			if strings.Contains(out, "client-bound") {
				t.Errorf("the page says client-bound:\n%s", out)
			}
			if !strings.Contains(out, "<h3>What limited it: "+tc.limit+"</h3>") || !strings.Contains(out, `<td class="text">`+tc.limit+`</td>`) {
				t.Errorf("the runs table and the run's section do not both say %q", tc.limit)
			}
			banners := regexp.MustCompile(`class="banner"[^>]*>([^<]*)<`).FindAllStringSubmatch(out, -1)
			var got []string
			for _, b := range banners {
				got = append(got, b[1])
			}
			if tc.banner == "" && len(got) > 0 || tc.banner != "" && (len(got) != 1 || got[0] != tc.banner) {
				t.Errorf("banners %q, want %q", got, tc.banner)
			}
		})
	}
}

func BenchmarkRender(b *testing.B) {
	// An hour at one-second intervals: the largest time series a report
	// commonly draws.
	in := &Input{Runs: []*results.Results{synthRun(b, runSpec{threads: 32, seconds: 3600, opsPerSec: 20, readUs: 500, updateUs: 800, metrics: true})},
		Generated: fixedGenerated}
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := Render(&buf, in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/report")
}

// TestComparisonLayout checks that a comparison of sweep points (many rows,
// long names) is split into charts that stay readable.
func TestComparisonLayout(t *testing.T) {
	t.Parallel()
	c := &Comparison{A: "2.6", B: "3.0"}
	for _, th := range []string{"1", "8", "64"} {
		c.Rows = append(c.Rows, CompareRow{Op: "threadcount=" + th, Figure: "throughput", A: 100, B: 120, RelDiff: 0.2, HigherIsBetter: true, P: 0.5})
		for _, op := range []string{"READ", "UPDATE"} {
			for _, fig := range []string{"p50", "p99"} {
				c.Rows = append(c.Rows, CompareRow{Op: "threadcount=" + th + " " + op, Figure: fig, A: 1000, B: 900, RelDiff: -0.1, Significant: true, P: 0.01})
			}
		}
	}
	cv := buildComparison(c, true, opsUnit)
	// 3 throughputs in one chart; 12 latencies are too many for one, so
	// one chart per point and operation.
	if got, want := len(cv.Figures), 1+6; got != want {
		t.Fatalf("%d charts, want %d", got, want)
	}
	ids := map[string]bool{}
	for _, f := range cv.Figures {
		if ids[f.ID] || !regexp.MustCompile(`^[a-z0-9-]+$`).MatchString(f.ID) {
			t.Errorf("figure id %q is repeated or not a plain id", f.ID)
		}
		ids[f.ID] = true
		if n := strings.Count(string(f.SVG), `<g class="bars">`); n > maxBarGroups || n == 0 {
			t.Errorf("%s has %d groups of bars", f.ID, n)
		}
	}
	if !ids["comparison-threadcount-8-read"] {
		t.Errorf("no chart for threadcount=8 READ among %v", ids)
	}
	if got := cv.Rows[1].Name; got != "threadcount=1 READ p50" {
		t.Errorf("row name %q", got)
	}
	// More than maxBarGroups throughputs are split into parts.
	many := &Comparison{}
	for i := range 10 {
		many.Rows = append(many.Rows, CompareRow{Op: "op" + formatX(float64(i)), Figure: "throughput", A: 1, B: 2, RelDiff: 1})
	}
	figs := buildComparison(many, true, opsUnit).Figures
	if len(figs) != 2 || figs[0].Title != "Throughput: B against A (1 of 2)" || figs[1].ID != "comparison-throughput-2" {
		t.Errorf("10 throughputs: %d charts, first %q", len(figs), figs[0].Title)
	}
}

func TestWrapLabel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		label string
		width float64
		want  []string
	}{
		{"READ p99", 200, []string{"READ p99"}},
		{"threadcount=8 READ throughput", 100, []string{"threadcount=8", "READ", "throughput"}},
		// A word too long for a line breaks after its '='.
		{"threadcount=128 READ", 100, []string{"threadcount=", "128 READ"}},
		{"a b c d e f", 10, []string{"a", "b", "c…"}},
		// A single word too long for the band stays whole.
		{"READ-MODIFY-WRITE", 40, []string{"READ-MODIFY-WRITE"}},
	} {
		if got := wrapLabel(tc.label, tc.width); !slices.Equal(got, tc.want) {
			t.Errorf("wrapLabel(%q, %g) = %q, want %q", tc.label, tc.width, got, tc.want)
		}
	}
}

// TestRunLabels: the runs table shows labels when several runs share one
// (the groups of a comparison of labelled sweeps), and leaves them to the
// runs' names when each label names one run.
func TestRunLabels(t *testing.T) {
	t.Parallel()
	labelled := func(labels ...string) *Input {
		in := &Input{Generated: fixedGenerated}
		for _, l := range labels {
			r := *synthRun(t, runSpec{threads: 1, seconds: 1, opsPerSec: 100, readUs: 100, updateUs: 100})
			r.Label = l
			in.Runs = append(in.Runs, &r)
		}
		return in
	}
	const header = `<th class="text">label</th>`
	tests := []struct {
		name   string
		in     *Input
		column bool
		cells  []string
	}{
		{"groups", labelled("before", "before", "after", "after"), true,
			[]string{`<a href="#run-1">run 1</a></td><td class="text">before</td>`, `<a href="#run-4">run 4</a></td><td class="text">after</td>`}},
		{"one run per label", labelled("ssd", "essd"), false, []string{`<a href="#run-2">run 2 (essd)</a></td><td class="text">run</td>`}},
		{"no labels", labelled("", ""), false, nil},
		{"a group and a lone run", labelled("base", "base", "tuned"), true,
			[]string{`<a href="#run-3">run 3 (tuned)</a></td><td class="text">tuned</td>`}},
	}
	for _, tc := range tests {
		var b strings.Builder
		if err := Render(&b, tc.in); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		if strings.Contains(page, header) != tc.column {
			t.Errorf("%s: label column shown: %v, want %v", tc.name, !tc.column, tc.column)
		}
		for _, c := range tc.cells {
			if !strings.Contains(page, c) {
				t.Errorf("%s: no %s in the runs table", tc.name, c)
			}
		}
	}
}
