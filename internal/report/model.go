package report

import (
	"time"

	"github.com/mongobench/mongobench/internal/results"
)

// Input is everything a report shows. Only Runs come from results files;
// Sweep and Comparison are the analyses of a series, computed by the caller.
type Input struct {
	// Title heads the report; empty gives a title built from the runs.
	Title string
	// Runs are single runs, or all runs of a sweep or comparison.
	Runs []*results.Results
	// Sweep, when set, adds the charts of a sweep.
	Sweep *Sweep
	// Comparison, when set, adds the comparison of two groups of runs.
	Comparison *Comparison
	// Generated is when the report was made; zero means now. Tests fix it so
	// that the output is reproducible.
	Generated time.Time
	// Version is the version of the tool writing the report; empty means the
	// version recorded in the first run.
	Version string
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
}

// SweepPoint is one value of the varied setting, over its repeated trials.
// Lo and Hi bound 95% confidence intervals; they equal the value when there
// was a single trial.
type SweepPoint struct {
	X                                      float64
	Label                                  string
	Throughput, ThroughputLo, ThroughputHi float64
	P99us, P99Lo, P99Hi                    float64
	// PerOp holds the latency figures of each operation ("READ").
	PerOp  map[string]OpFigures
	Trials int
}

// OpFigures are the latency figures of one operation at one sweep point, in
// microseconds.
type OpFigures struct {
	AvgUs float64
	P99us float64
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
