package stats

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Point is one run of a sweep.
type Point struct {
	X          float64 // the varied value: threads, or whatever the sweep varies
	Throughput float64 // operations per second
	P99        float64 // 99th percentile latency, in any unit as long as all points agree
	// P99Lo and P99Hi bound the 95% confidence interval of P99 over a
	// point's trials; equal to P99 (or both 0) when it had one trial.
	P99Lo, P99Hi float64
	// ThroughputTrials and P99Trials are the point's figures in each of
	// its trials: what Knee tests. With fewer than 2 a point cannot be
	// tested, and Knee states no knee.
	ThroughputTrials, P99Trials []float64
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
	// Alpha is the significance level of Knee's tests (default 0.05). A
	// study that seeks the knees of several series divides its level
	// among them, so that the knees stated together keep it.
	Alpha float64
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
	if !(o.Alpha > 0 && o.Alpha < 1) {
		o.Alpha = DefaultAlpha
	}
	return o
}

// KneeResult is the outcome of knee detection.
type KneeResult struct {
	Found bool
	// Index is the knee's position in the points sorted by X; -1 if none.
	Index int
	// Knee is the knee point: the first from which no later point has
	// significantly higher throughput; Next the point after it, the first
	// beyond the knee. Last is the last point of the sweep.
	Knee, Next, Last Point
	// From is where the knee may lie from: the last point before Knee
	// whose throughput is significantly below Knee's. The knee lies
	// between From.X and Knee.X; HasFrom is false when no earlier point
	// is significantly slower (the knee lies at or before Knee.X).
	From    Point
	HasFrom bool
	// LatencyFactor is Last.P99 / Knee.P99 and ThroughputGain is
	// Last.Throughput / Knee.Throughput − 1: what going beyond the knee
	// costs and brings. LatencyP is the p-value of the test that p99 at
	// Last is higher than at Knee.
	LatencyFactor, ThroughputGain float64
	LatencyP                      float64
	// Untested is set when a point had fewer than 2 trials: no knee can
	// be stated then, and NoKneeReason says how many trials would tell.
	Untested bool
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

// MinKneeTrials is how many trials each point of a sweep needs before
// Knee tests it; the sentences that say a knee cannot be told ask for it.
const MinKneeTrials = 3

// Knee finds where a sweep saturates, and states it only where the
// trials back it: the knee is the first point from which no later point
// has higher throughput, neither significantly nor by more than
// MinThroughputGain in the means, while p99 at the last point is
// significantly higher than at the knee (and by more than
// MinLatencyGrowth). Each test is Welch's at opts.Alpha on the points'
// trials. Where the knee lies is an interval, not a point: from the last
// earlier point whose throughput is significantly below the knee's, to
// the knee.
//
// A sweep whose points had a single trial states no knee: one run per
// point cannot tell a stall from noise, and three identical sweeps would
// put the knee in three places. Neither does a sweep still rising
// significantly at its last point, nor one whose latency does not grow
// significantly once throughput stops rising.
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
	peak := 0
	var single []string
	for i, p := range pts {
		if p.Throughput > pts[peak].Throughput {
			peak = i
		}
		if len(p.ThroughputTrials) < 2 || len(p.P99Trials) < 2 {
			single = append(single, formatX(p.X))
		}
	}
	if len(single) > 0 {
		r.Untested = true
		at := "one trial per point"
		if len(single) < n {
			at = "one trial at " + joinAnd(single) + " " + opts.XLabel
		}
		r.NoKneeReason = fmt.Sprintf("with %s no knee can be tested (throughput peaked at %s ops/s at %s); repeat each point (--repeat %d) to test where throughput stops rising",
			at, formatOps(pts[peak].Throughput), xText(pts[peak].X, opts.XLabel), MinKneeTrials)
		return r
	}
	// higher(i, j): point j's throughput is significantly above point i's.
	higher := func(i, j int) bool {
		return Verdict(pts[i].ThroughputTrials, pts[j].ThroughputTrials, opts.Alpha, true).Kind == Better
	}
	// The knee is the first point that no later point beats: not
	// significantly, and not by MinThroughputGain in the means either, so
	// that one noisy point whose wide trials no test can beat does not
	// pass for a plateau its neighbours stand well above.
	k := n - 1
	for i := 0; i < n-1 && k == n-1; i++ {
		beaten := false
		for j := i + 1; j < n && !beaten; j++ {
			beaten = higher(i, j) || pts[j].Throughput > pts[i].Throughput*(1+opts.MinThroughputGain)
		}
		if !beaten {
			k = i
		}
	}
	if k == n-1 {
		prev := pts[n-2]
		v := Verdict(prev.ThroughputTrials, r.Last.ThroughputTrials, opts.Alpha, true)
		change := fmt.Sprintf("%s from %s to %s", signedPercent(100*(r.Last.Throughput/prev.Throughput-1)), formatX(prev.X), xText(r.Last.X, opts.XLabel))
		if v.Kind == Better {
			r.NoKneeReason = fmt.Sprintf("throughput still rises significantly at the last point: %s (%s)", change, PText(v.P))
		} else {
			r.NoKneeReason = fmt.Sprintf("throughput may still be rising (%s) but the trials cannot tell it from noise (%s); repeat each point more (--repeat) to tell", change, PText(v.P))
		}
		return r
	}
	knee := pts[k]
	growth := r.Last.P99 / knee.P99
	lat := Verdict(knee.P99Trials, r.Last.P99Trials, opts.Alpha, false)
	if lat.Kind == Worse && growth-1 <= opts.MinLatencyGrowth {
		r.NoKneeReason = fmt.Sprintf("throughput rises no further after %s, and p99 grows %s by %s (%s), not the more than %s that marks saturation",
			xText(knee.X, opts.XLabel), signedPercent(100*(growth-1)), xText(r.Last.X, opts.XLabel), PText(lat.P), signedPercent(100*opts.MinLatencyGrowth))
		return r
	}
	if lat.Kind != Worse {
		r.NoKneeReason = fmt.Sprintf("throughput rises no further after %s, but p99 does not grow significantly beyond it (%s by %s, %s): nothing shows saturation",
			xText(knee.X, opts.XLabel), signedPercent(100*(growth-1)), xText(r.Last.X, opts.XLabel), PText(lat.P))
		return r
	}
	r.Found, r.Index, r.Knee, r.Next = true, k, knee, pts[k+1]
	r.LatencyFactor, r.LatencyP = growth, lat.P
	r.ThroughputGain = r.Last.Throughput/knee.Throughput - 1
	for i := k - 1; i >= 0; i-- {
		if higher(i, k) {
			r.From, r.HasFrom = pts[i], true
			break
		}
	}
	var where string
	switch {
	case k == 0:
		where = fmt.Sprintf("throughput does not rise beyond %s (%s ops/s)", xText(knee.X, opts.XLabel), formatOps(knee.Throughput))
	case r.HasFrom:
		where = fmt.Sprintf("throughput stops rising between %s and %s %s (%s ops/s at %s)", formatX(r.From.X), formatX(knee.X), opts.XLabel, formatOps(knee.Throughput), formatX(knee.X))
	default:
		where = fmt.Sprintf("throughput stops rising at or before %s (%s ops/s)", xText(knee.X, opts.XLabel), formatOps(knee.Throughput))
	}
	r.Summary = fmt.Sprintf("%s: later points add no significant throughput, while p99 grows %.1f× by %s (%s)",
		where, growth, xText(r.Last.X, opts.XLabel), PText(lat.P))
	return r
}

// PText quotes a p-value: "p=0.003", "p<0.001".
func PText(p float64) string {
	switch {
	case p < 0.001:
		return "p<0.001"
	case p < 0.01:
		return fmt.Sprintf("p=%.3f", p)
	}
	return fmt.Sprintf("p=%.2f", p)
}

// joinAnd is "1", "1 and 2", "1, 2 and 4".
func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	out := xs[0]
	for _, x := range xs[1 : len(xs)-1] {
		out += ", " + x
	}
	return out + " and " + xs[len(xs)-1]
}

// stepKnee is the knee an automatic sweep steps towards, from the means
// alone: the first point after which throughput rises by less than
// MinThroughputGain while p99 rises by more than MinLatencyGrowth, unless
// a later point beats its throughput by more than MinThroughputGain (a
// dip the sweep climbs out of was noise). It decides when to stop adding
// points, never what is stated: that is Knee's, on the trials.
func stepKnee(pts []Point, opts KneeOptions) (index int, found bool) {
	n := len(pts)
	suffixMax := make([]float64, n+1)
	for i := n - 1; i >= 0; i-- {
		suffixMax[i] = math.Max(suffixMax[i+1], pts[i].Throughput)
	}
	for i := 0; i+1 < n; i++ {
		gain := pts[i+1].Throughput/pts[i].Throughput - 1
		growth := pts[i+1].P99/pts[i].P99 - 1
		if gain < opts.MinThroughputGain && growth > opts.MinLatencyGrowth &&
			suffixMax[i+1] <= pts[i].Throughput*(1+opts.MinThroughputGain) {
			return i, true
		}
	}
	return -1, false
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
	if k, found := stepKnee(pts, opts); found && len(pts) >= k+3 {
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

// xText is a value of the sweep's dimension with its name: "4 threads",
// "1 thread".
func xText(x float64, label string) string {
	if x == 1 && (label == "threads" || label == "connections" || label == "clients") {
		label = strings.TrimSuffix(label, "s")
	}
	return formatX(x) + " " + label
}

// formatOps prints throughput as whole operations per second, with
// significant digits instead once it is below 100.
func formatOps(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
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
