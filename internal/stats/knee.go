package stats

import (
	"fmt"
	"math"
	"sort"
)

// Point is one run of a sweep.
type Point struct {
	X          float64 // the varied value: threads, or whatever the sweep varies
	Throughput float64 // operations per second
	P99        float64 // 99th percentile latency, in any unit as long as all points agree
	// P99Lo and P99Hi bound the 95% confidence interval of P99 over a
	// point's trials; equal to P99 (or both 0) when it had one trial.
	P99Lo, P99Hi float64
}

// Defaults of KneeOptions.
const (
	DefaultMinThroughputGain = 0.05
	DefaultMinLatencyGrowth  = 0.20
	DefaultXLabel            = "threads"
	DefaultMaxX              = 1024
)

// KneeOptions tune knee detection. Zero (or negative) fields take their
// defaults.
type KneeOptions struct {
	// MinThroughputGain is the relative throughput gain below which a step
	// counts as saturated (default 0.05: +5%).
	MinThroughputGain float64
	// MinLatencyGrowth is the relative p99 growth above which a saturated
	// step counts as paying for it in latency (default 0.20: +20%).
	MinLatencyGrowth float64
	// XLabel names X in sentences (default "threads").
	XLabel string
	// MaxX bounds the automatic sweep of NextAutoStep (default 1024).
	MaxX float64
}

func (o KneeOptions) withDefaults() KneeOptions {
	if !(o.MinThroughputGain > 0) {
		o.MinThroughputGain = DefaultMinThroughputGain
	}
	if !(o.MinLatencyGrowth > 0) {
		o.MinLatencyGrowth = DefaultMinLatencyGrowth
	}
	if o.XLabel == "" {
		o.XLabel = DefaultXLabel
	}
	if !(o.MaxX > 0) {
		o.MaxX = DefaultMaxX
	}
	return o
}

// KneeResult is the outcome of knee detection.
type KneeResult struct {
	Found bool
	// Index is the knee's position in the points sorted by X; -1 if none.
	Index int
	// Knee is the knee point, Next the one after it (the step that showed
	// saturation) and Last the last point of the sweep.
	Knee, Next, Last Point
	// StepGain and StepLatencyGrowth are the relative changes of
	// throughput and p99 from Knee to Next.
	StepGain, StepLatencyGrowth float64
	// LatencyFactor is Last.P99 / Knee.P99 and ThroughputGain is
	// Last.Throughput / Knee.Throughput − 1: what going beyond the knee costs
	// and brings.
	LatencyFactor, ThroughputGain float64
	// Uncertain is set when the p99 growth that marks the knee lies within
	// the noise of the trials: the confidence intervals of p99 at Knee and
	// Next overlap. Summary then says so.
	Uncertain bool
	// Summary is the sentence stating the knee; NoKneeReason says why none
	// was found.
	Summary      string
	NoKneeReason string
}

// String returns Summary, or "no knee: " and the reason.
func (r KneeResult) String() string {
	if r.Found {
		return r.Summary
	}
	return "no knee: " + r.NoKneeReason
}

// Knee finds where a sweep saturates: the first point after which
// throughput rises by less than MinThroughputGain while p99 latency rises
// by more than MinLatencyGrowth, comparing each step i → i+1.
//
// One noisy run must not end a sweep early, so a candidate knee is kept
// only if no later point beats its throughput by more than
// MinThroughputGain: a dip that the sweep climbs out of was noise, not
// saturation. The last point can never be the knee, since nothing shows
// what lies beyond it.
//
// points need not be sorted; they must have distinct, finite X and
// positive, finite throughput and p99 (otherwise no knee is reported, with
// the reason).
func Knee(points []Point, opts KneeOptions) KneeResult {
	opts = opts.withDefaults()
	r := KneeResult{Index: -1}
	pts, reason := sortedValid(points, opts)
	if reason != "" {
		r.NoKneeReason = reason
		return r
	}
	n := len(pts)
	if n < 2 {
		r.NoKneeReason = fmt.Sprintf("need at least 2 points to find a knee, have %d", n)
		return r
	}
	r.Last = pts[n-1]

	// suffixMax[i] is the highest throughput at or after point i.
	suffixMax := make([]float64, n+1)
	for i := n - 1; i >= 0; i-- {
		suffixMax[i] = math.Max(suffixMax[i+1], pts[i].Throughput)
	}
	rejected := -1 // first candidate taken for noise
	for i := 0; i+1 < n; i++ {
		gain := pts[i+1].Throughput/pts[i].Throughput - 1
		growth := pts[i+1].P99/pts[i].P99 - 1
		if !(gain < opts.MinThroughputGain && growth > opts.MinLatencyGrowth) {
			continue
		}
		if suffixMax[i+1] > pts[i].Throughput*(1+opts.MinThroughputGain) {
			if rejected < 0 {
				rejected = i
			}
			continue
		}
		r.Found = true
		r.Index = i
		r.Knee, r.Next = pts[i], pts[i+1]
		r.StepGain, r.StepLatencyGrowth = gain, growth
		r.LatencyFactor = r.Last.P99 / r.Knee.P99
		r.ThroughputGain = r.Last.Throughput/r.Knee.Throughput - 1
		r.Summary = fmt.Sprintf("throughput saturates at ~%s %s (%s ops/s); beyond it p99 grows %.1f× for %s throughput",
			formatX(r.Knee.X), opts.XLabel, formatOps(r.Knee.Throughput), r.LatencyFactor, moreOrLess(r.ThroughputGain))
		if p99Overlap(r.Knee, r.Next) {
			r.Uncertain = true
			r.Summary += fmt.Sprintf(", but the 95%% confidence intervals of p99 at %s and %s %s overlap: more trials (--repeat) would place the knee surely",
				formatX(r.Knee.X), formatX(r.Next.X), opts.XLabel)
		}
		return r
	}

	prev := pts[n-2]
	gain := r.Last.Throughput/prev.Throughput - 1
	if gain >= opts.MinThroughputGain {
		r.NoKneeReason = fmt.Sprintf("throughput still rising at the last point: %s from %s to %s %s",
			signedPercent(100*gain), formatX(prev.X), formatX(r.Last.X), opts.XLabel)
	} else {
		// The last step is flat; had p99 jumped it would be a knee (nothing
		// follows it to take it back), so latency stayed put.
		growth := r.Last.P99/prev.P99 - 1
		r.NoKneeReason = fmt.Sprintf("throughput levels off (%s from %s to %s %s) but p99 grows only %s, not the more than %s that marks saturation",
			signedPercent(100*gain), formatX(prev.X), formatX(r.Last.X), opts.XLabel, signedPercent(100*growth), signedPercent(100*opts.MinLatencyGrowth))
	}
	if rejected >= 0 {
		k := rejected
		best := k + 1
		for j := k + 1; j < n; j++ {
			if pts[j].Throughput > pts[best].Throughput {
				best = j
			}
		}
		r.NoKneeReason += fmt.Sprintf("; the stall at %s %s was noise: throughput rose %s beyond it by %s %s",
			formatX(pts[k].X), opts.XLabel, signedPercent(100*(pts[best].Throughput/pts[k].Throughput-1)), formatX(pts[best].X), opts.XLabel)
	}
	return r
}

// NextAutoStep drives an automatic sweep ("--vary threadcount=auto"): X
// doubles from 1 until Knee finds a knee and one more point beyond the step
// that revealed it confirms it (the noise rule of Knee may still reject it
// then), or until opts.MaxX has been run; the step before MaxX is clipped to
// it. done is true when the sweep should stop, and nextX is then 0. A sweep
// with an invalid point (a run without throughput, say) stops: going on
// would not make it valid.
func NextAutoStep(points []Point, opts KneeOptions) (nextX float64, done bool) {
	opts = opts.withDefaults()
	pts, reason := sortedValid(points, opts)
	if reason != "" {
		return 0, true
	}
	if len(pts) == 0 {
		return math.Min(1, opts.MaxX), false
	}
	if k := Knee(pts, opts); k.Found && len(pts) >= k.Index+3 {
		return 0, true
	}
	last := pts[len(pts)-1].X
	if last >= opts.MaxX {
		return 0, true
	}
	next := 2 * last
	if last < 1 {
		next = 1
	}
	return math.Min(next, opts.MaxX), false
}

// sortedValid returns a copy of points sorted by X, or why they cannot be
// used.
func sortedValid(points []Point, opts KneeOptions) ([]Point, string) {
	pts := append([]Point(nil), points...)
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].X < pts[j].X })
	for i, p := range pts {
		switch {
		case math.IsNaN(p.X) || math.IsInf(p.X, 0):
			return nil, fmt.Sprintf("a point has %s = %g; need a finite value", opts.XLabel, p.X)
		case !(p.Throughput > 0) || math.IsInf(p.Throughput, 0):
			return nil, fmt.Sprintf("the point at %s %s has throughput %g; need a positive finite value", formatX(p.X), opts.XLabel, p.Throughput)
		case !(p.P99 > 0) || math.IsInf(p.P99, 0):
			return nil, fmt.Sprintf("the point at %s %s has p99 %g; need a positive finite value", formatX(p.X), opts.XLabel, p.P99)
		case i > 0 && p.X == pts[i-1].X:
			return nil, fmt.Sprintf("two points at %s %s; use one point per value (the mean of repeated runs)", formatX(p.X), opts.XLabel)
		}
	}
	return pts, ""
}

func formatX(x float64) string { return fmt.Sprintf("%g", x) }

// formatOps prints throughput as whole operations per second, with
// significant digits instead once it is below 100.
func formatOps(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// moreOrLess states a relative throughput change as the sentence shows
// it, rounded to whole percent. A change that rounds to 0 is stated as
// none: "0% less" would read as a loss that the figures do not show.
func moreOrLess(gain float64) string {
	pct := fmt.Sprintf("%.0f", math.Abs(100*gain))
	switch {
	case pct == "0":
		return "no more"
	case gain < 0:
		return pct + "% less"
	}
	return pct + "% more"
}

// p99Overlap reports whether the p99 confidence intervals of two points,
// at least one of them from several trials, overlap: the rise between them
// may then be noise.
func p99Overlap(a, b Point) bool {
	known := func(p Point) bool { return p.P99Hi > p.P99Lo }
	if !known(a) && !known(b) {
		return false
	}
	lo := func(p Point) float64 {
		if known(p) {
			return p.P99Lo
		}
		return p.P99
	}
	hi := func(p Point) float64 {
		if known(p) {
			return p.P99Hi
		}
		return p.P99
	}
	return lo(a) <= hi(b) && lo(b) <= hi(a)
}

// signedPercent prints a change in percent with its sign, "+12%"; a change
// that rounds to nothing prints "+0%", never "-0%".
func signedPercent(v float64) string {
	s := fmt.Sprintf("%+.0f%%", v)
	if s == "-0%" {
		return "+0%"
	}
	return s
}
