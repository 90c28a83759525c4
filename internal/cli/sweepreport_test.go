package cli

import (
	"context"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
	"github.com/mongobench/mongobench/internal/sweep"
	"github.com/mongobench/mongobench/internal/workload"
)

// TestSweepReport is the experiment end to end: a real sweep of
// 3 thread counts × 2 trials against the sweep's embedded server, then its
// report, by sweep id from the store and by its output directory. Every
// figure checked on the page comes from the sweep's own output (its knee
// line, its results files), so that timing noise, which moves the knee
// from run to run, cannot fail the test.
func TestSweepReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	db := filepath.Join(dir, "runs.db")
	// workloada mixes reads and updates, so each run's READ count is its
	// own and the page's count can only match the right results file.
	r := experiment(t, runSweep, "-P", "workloada", "-p", "recordcount=200", "-p", "operationcount=300",
		"--vary", "threadcount=1,2,4", "--repeat", "2", "-l", "reported", "--store", db, "--out-dir", out)
	if r.code != 0 {
		t.Fatalf("sweep: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	knees := kneeLines(r.stdout)
	if len(knees) != 1 || !(strings.HasPrefix(knees[0], "knee: ") || strings.HasPrefix(knees[0], "no knee: ")) {
		t.Fatalf("the sweep printed %q after its table, want one knee line", knees)
	}
	files, err := filepath.Glob(filepath.Join(out, "*.json"))
	if err != nil || len(files) != 6 {
		t.Fatalf("the sweep wrote %d results files (%v), want 6", len(files), err)
	}

	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := st.List(context.Background(), store.Filter{Label: "reported"})
	st.Close()
	if err != nil || len(runs) != 6 {
		t.Fatalf("the store holds %d runs of the sweep (err %v), want 6", len(runs), err)
	}
	id := runs[0].SweepID

	for _, tc := range []struct {
		name string
		args []string
	}{
		{"by sweep id", []string{store.SweepPrefix + id, "--store", db}},
		{"by directory", []string{out}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".html")
			rep := experiment(t, runReportCmd, append(tc.args, "-o", file)...)
			if rep.code != 0 {
				t.Fatalf("report: exit %d: %s", rep.code, rep.stderr)
			}
			if !strings.Contains(rep.stderr, "(6 runs, 3 sweep points)") {
				t.Errorf("report says %q, want 6 runs and 3 sweep points", rep.stderr)
			}
			page, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			checkSweepPage(t, string(page), knees[0], files)
		})
	}

	// The report's own knee thresholds reach its knee: thresholds no
	// sweep can meet leave no knee, whatever the sweep found.
	file := filepath.Join(dir, "thresholds.html")
	rep := experiment(t, runReportCmd, store.SweepPrefix+id, "--store", db, "-o", file, "--knee-throughput", "1e6", "--knee-latency", "1e6")
	if rep.code != 0 {
		t.Fatalf("report with thresholds: exit %d: %s", rep.code, rep.stderr)
	}
	page, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sec := sweepSection(t, string(page))
	// Whatever the trials show, no knee: a 1e6-fold p99 growth is never
	// met, and where the sentence names the threshold it names this one.
	if c := callout(sec); !strings.HasPrefix(c, "No knee: ") || strings.Contains(c, "not the more than") && !strings.Contains(c, "not the more than +100000000% that marks saturation") {
		t.Errorf("report --knee-latency 1e6: the knee sentence is %q", c)
	}
	if strings.Contains(sec, `class="knee"`) || strings.Contains(sec, `<g class="mark">`) {
		t.Error("report --knee-latency 1e6 still marks a knee")
	}
}

var (
	sweepSectionRE = regexp.MustCompile(`(?s)<section id="sweep">(.*?)</section>`)
	calloutRE      = regexp.MustCompile(`(?s)<p class="callout">(.*?)</p>`)
	sweepRowRE     = regexp.MustCompile(`<tr( class="knee"[^>]*)?><td>([^<]*)</td><td>([^<]*)</td>`)
	runSectionRE   = regexp.MustCompile(`(?s)<section id="run-\d+" class="run">(.*?)</section>`)
	cmdRE          = regexp.MustCompile(`(?s)<pre class="cmd">(.*?)</pre>`)
	overallRE      = regexp.MustCompile(`· ([\d,]+) operations</code>`)
	kneeAtRE       = regexp.MustCompile(`^knee: throughput (?:stops rising between \d+ and |does not rise beyond |stops rising at or before )(\d+) threads?`)
)

func sweepSection(t *testing.T, page string) string {
	t.Helper()
	m := sweepSectionRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the page has no sweep section")
	}
	return m[1]
}

// callout returns the knee sentence of a sweep section as text.
func callout(sec string) string {
	m := calloutRE.FindStringSubmatch(sec)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

// pageInt reads a count as the page prints it, with thousands separators.
func pageInt(s string) int64 {
	n, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// checkSweepPage checks a sweep's report against what the sweep printed
// (its knee line) and wrote (its results files).
func checkSweepPage(t *testing.T, page, kneeLine string, files []string) {
	t.Helper()
	sec := sweepSection(t, page)

	// Each point, in order, with its two trials.
	var points []string
	var kneeRows []string
	for _, m := range sweepRowRE.FindAllStringSubmatch(sec, -1) {
		points = append(points, m[2]+"×"+m[3])
		if m[1] != "" {
			kneeRows = append(kneeRows, m[2])
		}
	}
	if want := []string{"1×2", "2×2", "4×2"}; !slices.Equal(points, want) {
		t.Errorf("the sweep table's points×trials are %v, want %v", points, want)
	}

	// Throughput and p99 against threads: each chart has its line through
	// the three points, each named.
	for _, f := range []struct{ id, title, tip string }{
		{"sweep-throughput", "Throughput against client threads", ": "},
		{"sweep-p99", "p99 latency against client threads", ": p99 "},
	} {
		m := regexp.MustCompile(`(?s)<figure id="` + f.id + `">(.*?)</figure>`).FindStringSubmatch(sec)
		if m == nil {
			t.Errorf("no figure %s in the sweep section", f.id)
			continue
		}
		fig := m[1]
		if !strings.Contains(fig, `<span class="kicker">`+f.title+`</span>`) || !strings.Contains(fig, `<svg class="chart"`) {
			t.Errorf("figure %s is not the chart %q", f.id, f.title)
		}
		if line := regexp.MustCompile(`<path class="line" d="M[^"]*"`).FindString(fig); strings.Count(line, "L") != 2 {
			t.Errorf("figure %s: line %q does not join 3 points", f.id, line)
		}
		for _, p := range []string{"1 thread", "2 threads", "4 threads"} {
			if !strings.Contains(fig, "<title>"+p+f.tip) {
				t.Errorf("figure %s has no point named %q", f.id, p)
			}
		}
		// The knee is marked on the chart exactly when the sweep found one.
		if hasMark := strings.Contains(fig, `<g class="mark">`); hasMark != strings.HasPrefix(kneeLine, "knee: ") {
			t.Errorf("figure %s: knee mark %t, the sweep printed %q", f.id, hasMark, kneeLine)
		}
	}

	// The knee sentence is the sweep's knee line as a sentence, so the two
	// agree whichever point the noise made the knee.
	if want := strings.ToUpper(kneeLine[:1]) + kneeLine[1:] + "."; callout(sec) != want {
		t.Errorf("the report's knee sentence is %q, the sweep printed %q", callout(sec), kneeLine)
	}
	if m := kneeAtRE.FindStringSubmatch(kneeLine); m != nil {
		if !slices.Equal(kneeRows, []string{m[1]}) {
			t.Errorf("the sweep table marks the knee at %v, the sweep printed %q", kneeRows, kneeLine)
		}
	} else if len(kneeRows) > 0 {
		t.Errorf("the sweep table marks a knee at %v, the sweep printed %q", kneeRows, kneeLine)
	}

	// Each run's YCSB summary has its results file's counts; the command
	// line names the file.
	sections := runSectionRE.FindAllStringSubmatch(page, -1)
	if len(sections) != len(files) {
		t.Errorf("%d run sections, %d results files", len(sections), len(files))
	}
	var seen []string
	for i, s := range sections {
		cm := cmdRE.FindStringSubmatch(s[1])
		if cm == nil {
			t.Errorf("run %d shows no command line", i+1)
			continue
		}
		f := strings.Fields(html.UnescapeString(cm[1]))
		file := f[len(f)-1]
		if !slices.Contains(files, file) || slices.Contains(seen, file) {
			t.Errorf("run %d: its command line names %s, not one of the sweep's results files once", i+1, file)
			continue
		}
		seen = append(seen, file)
		res := readResults(t, file)
		if m := overallRE.FindStringSubmatch(s[1]); m == nil || pageInt(m[1]) != res.Operations {
			t.Errorf("run %d (%s): the page's overall line %q, the file %d operations", i+1, file, m, res.Operations)
		}
		checkSummaryCounts(t, s[1], file, res)
	}

	// Self-contained: nothing loaded from anywhere, no script.
	for _, re := range []string{`(?i)<script`, `(?i)<link\b`, `(?i)\bsrc\s*=`, `(?i)\bhref\s*=\s*["']?[^"'#\s]`, `(?i)url\(\s*["']?(https?:)?//`, `(?i)@import`} {
		if m := regexp.MustCompile(re).FindString(page); m != "" {
			t.Errorf("the page loads or links something outside itself: %q", m)
		}
	}
}

// checkSummaryCounts checks the operation counts of a run's summary table
// against its results file: READ, which workloada always has, and any
// other operation the file measured.
func checkSummaryCounts(t *testing.T, sec, file string, res *results.Results) {
	t.Helper()
	sawRead := false
	for _, m := range res.Measurements {
		if m.Service == nil {
			continue
		}
		sawRead = sawRead || m.Name == "READ"
		row := regexp.MustCompile(`<tr[^>]*><td>` + regexp.QuoteMeta(m.Name) + `</td><td>([\d,]+)</td>`).FindStringSubmatch(sec)
		if row == nil || pageInt(row[1]) != m.Service.Count {
			t.Errorf("%s: the page's %s row %q, the file counts %d", file, m.Name, row, m.Service.Count)
		}
	}
	if !sawRead {
		t.Errorf("%s measured no READ", file)
	}
}

// TestNoReloadWarning: the warning names the varied properties that shape
// the data, and only those whose points would differ; where the data lives
// (table, mongodb.url) gets its own load even with --no-reload.
func TestNoReloadWarning(t *testing.T) {
	t.Parallel()
	const prefix = "mongobench: warning: --no-reload with --vary "
	tests := []struct {
		args []string
		want string // after prefix; "" for no warning
	}{
		{[]string{"--vary", "recordcount=80,50", "--no-reload"}, "recordcount: every point runs on the data loaded for the first point (recordcount=80)"},
		{[]string{"--vary", "threads=1,2", "--vary", "fieldlength=10,100", "--vary", "zeropadding=1,8", "--no-reload"},
			"fieldlength, zeropadding: every point runs on the data loaded for the first point (fieldlength=10 zeropadding=1)"},
		{[]string{"--vary", "table=a,b", "--vary", "insertorder=hashed,ordered", "--no-reload"},
			"insertorder: every point runs on the data loaded for the first point on its collection (insertorder=hashed)"},
		// Each table is loaded when found empty: no point borrows another's data.
		{[]string{"--vary", "table=a,b", "--no-reload"}, ""},
		{[]string{"--vary", "threadcount=1,2", "--no-reload"}, ""},
		{[]string{"--vary", "recordcount=80", "--repeat", "2", "--no-reload"}, ""},
		{[]string{"--vary", "recordcount=80,50"}, ""},
		{[]string{"--vary", "recordcount=80,50", "--reload"}, ""},
		// A load sweep drops the collection before every trial anyway.
		{[]string{"load", "--vary", "recordcount=80,50", "--no-reload"}, ""},
	}
	for _, tc := range tests {
		o, err := parseSweepArgs(append(slices.Clone(tc.args), "-P", "workloadc"))
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		plan, err := sweep.NewPlan(t.Context(), o.command, mustProps(t, o), "", o.dims)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		got := sweep.NoReloadWarning(plan, o.reload)
		if got != "" {
			got = "mongobench: warning: " + got
		}
		if want := tc.want; want != "" {
			want = prefix + want
			if got != want {
				t.Errorf("%v:\n got %q\nwant %q", tc.args, got, want)
			}
		} else if got != "" {
			t.Errorf("%v: warning %q, want none", tc.args, got)
		}
	}
}

// TestSweepKneeThresholds: --knee-throughput and --knee-latency reach the
// sweep's knee. The points are fixed, so that the knee the defaults find
// is certain: 2 → 4 threads gains 2.5% of throughput while p99 grows
// 173%.
func TestSweepKneeThresholds(t *testing.T) {
	t.Parallel()
	var done []sweep.PointResult
	for _, p := range []struct {
		threads  string
		tput, us float64
	}{{"1", 1000, 500}, {"2", 2000, 550}, {"4", 2050, 1500}} {
		pr := sweep.PointResult{Point: &sweep.Point{Values: map[string]string{"threadcount": p.threads}}}
		for i, f := range []float64{0.98, 1, 1.02} {
			pr.Trials = append(pr.Trials, sweep.Trial{Trial: i + 1, Results: &results.Results{}, Figures: analysis.Figures{Throughput: f * p.tput, P99: f * p.us}})
		}
		done = append(done, pr)
	}
	tests := []struct {
		flags []string
		want  string
	}{
		{nil, "knee: throughput stops rising between 1 and 2 threads (2000 ops/s at 2)"},
		// p99 must grow 3×: 173% is not enough.
		{[]string{"--knee-latency", "2"}, "no knee: throughput rises no further after 2 threads, and p99 grows +173% by 4 threads (p<0.001), not the more than +200% that marks saturation"},
		{[]string{"--knee-latency=100"}, "no knee: throughput rises no further after 2 threads, and p99 grows +173% by 4 threads (p<0.001), not the more than +10000% that marks saturation"},
		// A gain of 2.5% is saturation unless a test sets it apart: with
		// 1% as the bar the means rise past it, but the trials cannot
		// tell it from noise.
		{[]string{"--knee-throughput", "0.01"}, "no knee: throughput may still be rising (+2% from 2 to 4 threads) but the trials cannot tell it from noise (p=0.21)"},
		// Both at their defaults, given: the same knee as none given.
		{[]string{"--knee-throughput", "0.05", "--knee-latency", "0.2"}, "knee: throughput stops rising between 1 and 2 threads (2000 ops/s at 2)"},
	}
	for _, tc := range tests {
		o, err := parseSweepArgs(append([]string{"-P", "workloadc", "--vary", "threadcount=1,2,4"}, tc.flags...))
		if err != nil {
			t.Fatalf("%v: %v", tc.flags, err)
		}
		if got := sweep.SeriesFinding("threadcount", o.knee, &sweep.Series{}, done); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%v: %q, want %q", tc.flags, got, tc.want)
		}
	}
}

// TestSweepKneeFlags runs a tiny sweep with thresholds no sweep can meet:
// whatever the timings, the printed knee is none, and it quotes the
// latency threshold given.
func TestSweepKneeFlags(t *testing.T) {
	t.Parallel()
	r := experiment(t, runSweep, "-P", "workloadc", "-p", "recordcount=50", "-p", "operationcount=100", "-p", "mongodb.url="+freshURL(t),
		"--vary", "threadcount=1,2", "--knee-throughput", "1e6", "--knee-latency", "1e6", "--no-store", "--out-dir", filepath.Join(t.TempDir(), "out"))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// One trial per point: no knee is tested, whatever the thresholds.
	want := regexp.MustCompile(`^no knee: with one trial per point no knee can be tested \(throughput peaked at [\d.]+ ops/s at [12] threads?\); repeat each point \(--repeat 3\) to test where throughput stops rising$`)
	if knees := kneeLines(r.stdout); len(knees) != 1 || !want.MatchString(knees[0]) {
		t.Errorf("knee lines %q, want no knee for want of a 1e6-fold p99", knees)
	}
}

// mustProps are the properties of a parsed sweep's load or run.
func mustProps(t *testing.T, o *sweepOptions) *workload.Properties {
	t.Helper()
	props, err := o.benchArgs.loadProperties()
	if err != nil {
		t.Fatal(err)
	}
	return props
}
