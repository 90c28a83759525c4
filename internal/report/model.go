package report

import (
	"time"

	"github.com/mongobench/mongobench/internal/results"
)

// Input is everything a report shows. FromRuns fills it from groups of
// runs: Runs are the results files; Sweep, Study, RanOn, Warnings and the
// comparisons are what package analysis says of them, translated here and
// nowhere else, so that the page cannot drift from compare and sweep.
type Input struct {
	// Title heads the report; empty gives a title built from the runs.
	Title string
	// Notes is the author's own conclusion, in Markdown, shown first. It
	// is rendered safely: HTML in it shows as text.
	Notes string
	// Runs are single runs, or all runs of a sweep or comparison.
	Runs []*results.Results
	// RunIDs are the runs' ids in the results store, in the order of Runs;
	// 0 (or a short list) for a run read from a file. The page names runs
	// by these ids, so that "run 17" is what history and compare call 17.
	RunIDs []int64
	// Sweep, when set, adds the charts of a sweep.
	Sweep *Sweep
	// Comparison, when set, adds the comparison of two groups of runs.
	Comparison *Comparison
	// Comparisons are further configurations compared against the same
	// baseline as Comparison's A: the third group and on.
	Comparisons []*Comparison
	// Configurations are the groups of runs a comparison or study sets
	// side by side, the baseline first: their sizes are tabled.
	Configurations []Configuration
	// Alpha is the page's significance level, for the captions that rank
	// configurations outside a comparison's verdicts; 0 means 0.05.
	Alpha float64
	// Study, when set, draws several configurations over one swept
	// setting: one line each on the overlay charts.
	Study *Study
	// Generated is when the report was made; zero means now. Tests fix it so
	// that the output is reproducible.
	Generated time.Time
	// Version is the version of the tool writing the report; empty means the
	// version recorded in the first run.
	Version string
	// Caveats are what the reader must know before trusting the page, said
	// in its conclusion: why it draws no verdicts, for one.
	Caveats []string
	// DiskBaselines are the disk baselines known (mongobench disk): each
	// run's busiest disk is shown beside its device's newest.
	DiskBaselines []*results.DiskBaseline
	// RanOn says what each configuration ran on, near the top of the page.
	RanOn *RanOn
	// Warnings are what makes the page's comparisons unsound (configurations
	// that differ in several things, a data size that changed along a
	// sweep), shown at the top of the page.
	Warnings []string
}

// Sweep is a series of runs that vary one setting.
type Sweep struct {
	// Varied is the property the sweep varies, e.g. "threadcount".
	Varied string
	// Points are the sweep's points, in any order; the report sorts them
	// by X.
	Points []SweepPoint
	// Knee marks where throughput stopped rising while latency kept rising;
	// nil when there is none.
	Knee *KneeMark
	// KneeSentence states the knee (or why there is none) in one sentence.
	KneeSentence string
	// NotAlongLoad is set when the varied setting is no load (threads, a
	// target rate, connections), so no knee is sought: the conclusion then
	// leaves the knee sentence to the sweep's section.
	NotAlongLoad bool
}

// SweepPoint is one value of the varied setting, over its repeated trials.
// Lo and Hi bound 95% confidence intervals; they equal the value when there
// was a single trial.
type SweepPoint struct {
	X                                      float64
	Label                                  string
	Throughput, ThroughputLo, ThroughputHi float64
	P99us, P99Lo, P99Hi                    float64
	// AvgUs is the mean latency over all operations, with its interval.
	AvgUs, AvgLo, AvgHi float64
	// TpmC is a TPC-C point's committed NewOrders per minute, with its
	// interval, and TpmCTrials each trial's; none for other runs.
	TpmC, TpmCLo, TpmCHi float64
	TpmCTrials           []float64
	// PerOp holds the latency figures of each operation ("READ").
	PerOp  map[string]OpFigures
	Trials int
	// ThroughputTrials, AvgTrials and P99Trials are the figures of each
	// trial: what a caption tests before it calls one line better than
	// another.
	ThroughputTrials, AvgTrials, P99Trials []float64
	// Runs are the trials counted at the point, for the regime table (the
	// sizes, cache and disk figures each results file holds); may be nil.
	Runs []*results.Results
}

// Study is several configurations (disks, engines, versions, instances)
// measured over the same swept setting, drawn side by side.
type Study struct {
	// Varied is the swept property, the x axis ("threadcount").
	Varied string
	// SeriesBy names what tells the lines apart: "configuration", or the
	// other dimension of a two-dimensional sweep ("recordcount").
	SeriesBy string
	// Series are the lines, the baseline first.
	Series []StudySeries
	// Alpha is the page's significance level, which the captions that
	// rank the lines share among themselves; 0 means 0.05.
	Alpha float64
}

// StudySeries is one configuration's points, knee and knee sentence.
type StudySeries struct {
	Name         string
	Points       []SweepPoint
	Knee         *KneeMark
	KneeSentence string
}

// OpFigures are the latency figures of one operation at one sweep point, in
// microseconds.
type OpFigures struct {
	AvgUs float64
	P99us float64
	// P99Lo and P99Hi are p99's 95% interval over the trials; equal (or
	// zero) with one trial.
	P99Lo, P99Hi float64
}

// KneeMark is the knee of a sweep, marked on its charts.
type KneeMark struct {
	X          float64
	Throughput float64
	P99us      float64
}

// Comparison compares group B against group A.
type Comparison struct {
	// A and B name the groups ("baseline", "tuned").
	A, B string
	Rows []CompareRow
	// Alpha is the significance level of the verdicts; 0 means 0.05.
	Alpha float64
	// Correction names the family-wise correction behind Significant
	// ("Holm"), empty when each figure was tested on its own.
	Correction string
	// Notes say what the comparison left out, separated, or allowed to
	// differ between the groups; each is shown above the figures.
	Notes []string
	// Sensitivity says, when nothing is significant, how large a
	// difference the trials could have missed and how many would tell
	// ("with 2 trials per side, throughput differences smaller than …").
	Sensitivity string
}

// CompareRow is one figure of one operation in both groups. Lo and Hi bound
// 95% confidence intervals of the means.
type CompareRow struct {
	// Op is the operation ("READ"); "" or "OVERALL" for the whole run.
	Op string
	// Figure is "throughput" (ops/s), or a latency in microseconds: "avg",
	// "p50", "p95", "p99", "p99.9", "max", …
	Figure      string
	A, ALo, AHi float64
	B, BLo, BHi float64
	// RelDiff is (B − A) / A.
	RelDiff float64
	// Verdict states the outcome of the test in words.
	Verdict string
	// Significant is whether the difference is significant.
	Significant bool
	// HigherIsBetter is true for throughput, false for latency.
	HigherIsBetter bool
	// P is the two-sided p-value of the test behind Verdict, quoted in
	// captions when below 1. Leave it 0 when no test was made (a single run
	// per side): the report then says so rather than "not significant".
	P float64
}

// comparisons are Comparison and Comparisons, in order.
func (in *Input) comparisons() []*Comparison {
	var cs []*Comparison
	if in.Comparison != nil {
		cs = append(cs, in.Comparison)
	}
	for _, c := range in.Comparisons {
		if c != nil {
			cs = append(cs, c)
		}
	}
	return cs
}
