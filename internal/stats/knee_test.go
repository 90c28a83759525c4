package stats

import (
	"math"
	"slices"
	"testing"
)

// sweep builds points from parallel slices of X, throughput and p99.
func sweep(xs, ops, p99 []float64) []Point {
	pts := make([]Point, len(xs))
	for i := range xs {
		pts[i] = Point{X: xs[i], Throughput: ops[i], P99: p99[i]}
	}
	return pts
}

var threads = []float64{1, 2, 4, 8, 16, 32, 64}

// TestStepKnee checks the means-only knee that an automatic sweep steps
// towards; the text is what the rule would have said, kept to name each
// case.
func TestStepKnee(t *testing.T) {
	t.Parallel()
	clear := sweep(threads,
		[]float64{1000, 1950, 3800, 7200, 7400, 7450, 7300},
		[]float64{900, 950, 1000, 1200, 2600, 5200, 11000})
	shuffled := slices.Clone(clear)
	shuffled[0], shuffled[5] = shuffled[5], shuffled[0]
	shuffled[2], shuffled[6] = shuffled[6], shuffled[2]

	tests := []struct {
		name   string
		points []Point
		opts   KneeOptions
		found  bool
		index  int
		// the Summary when found, the NoKneeReason otherwise
		text string
	}{
		{
			// 8 → 16 threads: +2.8% throughput for +117% p99, and nothing
			// later beats 7200 by more than 5%.
			name:   "clear knee",
			points: clear,
			found:  true, index: 3,
			text: "throughput saturates at ~8 threads (7200 ops/s); beyond it p99 grows 9.2× for 1% more throughput",
		},
		{
			name:   "unsorted input gives the same knee",
			points: shuffled,
			found:  true, index: 3,
			text: "throughput saturates at ~8 threads (7200 ops/s); beyond it p99 grows 9.2× for 1% more throughput",
		},
		{
			name: "no knee: throughput still rising",
			points: sweep(threads[:5],
				[]float64{1000, 2000, 3900, 7000, 8260},
				[]float64{900, 910, 950, 1100, 1500}),
			text: "throughput still rising at the last point: +18% from 8 to 16 threads",
		},
		{
			// 2 → 4 threads dips with a latency jump (a noisy run), but the
			// sweep climbs far past it; the real knee comes at 16.
			name: "noisy dip, then a real knee",
			points: sweep(threads[:6],
				[]float64{1000, 2000, 1900, 4100, 7900, 8000},
				[]float64{900, 900, 1300, 1000, 1100, 2500}),
			found: true, index: 4,
			text: "throughput saturates at ~16 threads (7900 ops/s); beyond it p99 grows 2.3× for 1% more throughput",
		},
		{
			name: "noisy dip and no knee",
			points: sweep(threads[:5],
				[]float64{1000, 2000, 1900, 4100, 7900},
				[]float64{900, 900, 1300, 1000, 1100}),
			text: "throughput still rising at the last point: +93% from 8 to 16 threads; the stall at 2 threads was noise: throughput rose +295% beyond it by 16 threads",
		},
		{
			// Saturated, but the latency does not pay for it: no knee.
			name: "flat throughput, flat latency",
			points: sweep(threads[:4],
				[]float64{5000, 5050, 5020, 5080},
				[]float64{1000, 1010, 1005, 1020}),
			text: "throughput levels off (+1% from 4 to 8 threads) but p99 grows only +1%, not the more than +20% that marks saturation",
		},
		{
			// The spike comes with +50% throughput: the system still scales.
			name: "latency spike at the end, throughput still rising",
			points: sweep(threads[:5],
				[]float64{1000, 2000, 4000, 8000, 12000},
				[]float64{1000, 1000, 1000, 1000, 10000}),
			text: "throughput still rising at the last point: +50% from 8 to 16 threads",
		},
		{
			name: "latency spike at the end, throughput flat",
			points: sweep(threads[:5],
				[]float64{1000, 2000, 4000, 8000, 8100},
				[]float64{1000, 1000, 1050, 1100, 5000}),
			found: true, index: 3,
			text: "throughput saturates at ~8 threads (8000 ops/s); beyond it p99 grows 4.5× for 1% more throughput",
		},
		{
			name: "throughput falls beyond the knee",
			points: sweep(threads[:4],
				[]float64{1000, 2000, 3000, 2500},
				[]float64{1000, 1000, 1000, 3000}),
			found: true, index: 2,
			text: "throughput saturates at ~4 threads (3000 ops/s); beyond it p99 grows 3.0× for 17% less throughput",
		},
		{
			// Each step adds 15% p99 for no throughput: +75% in all, but no
			// single step crosses 20%. The rule compares steps, by design.
			name: "gradual latency creep",
			points: sweep(threads[:5],
				[]float64{5000, 5000, 5000, 5000, 5000},
				[]float64{1000, 1150, 1322.5, 1520.875, 1749.00625}),
			text: "throughput levels off (+0% from 8 to 16 threads) but p99 grows only +15%, not the more than +20% that marks saturation",
		},
		{
			// Beyond the knee throughput falls 0.3%: rounded, that is no
			// change, which "0% less" would misstate as a loss.
			name: "throughput a hair lower beyond the knee",
			points: sweep(threads[:4],
				[]float64{1000, 2000, 3000, 2990},
				[]float64{1000, 1000, 1000, 3000}),
			found: true, index: 2,
			text: "throughput saturates at ~4 threads (3000 ops/s); beyond it p99 grows 3.0× for no more throughput",
		},
		{
			name: "throughput a hair higher beyond the knee",
			points: sweep(threads[:4],
				[]float64{1000, 2000, 3000, 3010},
				[]float64{1000, 1000, 1000, 3000}),
			found: true, index: 2,
			text: "throughput saturates at ~4 threads (3000 ops/s); beyond it p99 grows 3.0× for no more throughput",
		},
		{
			name: "throughput exactly the same beyond the knee",
			points: sweep(threads[:4],
				[]float64{1000, 2000, 3000, 3000},
				[]float64{1000, 1000, 1000, 3000}),
			found: true, index: 2,
			text: "throughput saturates at ~4 threads (3000 ops/s); beyond it p99 grows 3.0× for no more throughput",
		},
		{
			// Half a percent is the smallest change that rounds away from 0.
			name: "throughput 0.6% lower beyond the knee",
			points: sweep(threads[:4],
				[]float64{1000, 2000, 3000, 2982},
				[]float64{1000, 1000, 1000, 3000}),
			found: true, index: 2,
			text: "throughput saturates at ~4 threads (3000 ops/s); beyond it p99 grows 3.0× for 1% less throughput",
		},
		{
			name:   "two points suffice",
			points: sweep([]float64{10, 20}, []float64{1000, 1010}, []float64{100, 200}),
			found:  true, index: 0,
			text: "throughput saturates at ~10 threads (1000 ops/s); beyond it p99 grows 2.0× for 1% more throughput",
		},
		{
			// +7% for +30% p99 is saturation under a 10% gain threshold,
			// not under the default 5%.
			name: "custom thresholds and label",
			points: sweep([]float64{1, 2, 4, 8},
				[]float64{1000, 2000, 2140, 2160},
				[]float64{100, 100, 130, 300}),
			opts:  KneeOptions{MinThroughputGain: 0.10, XLabel: "clients"},
			found: true, index: 1,
			text: "throughput saturates at ~2 clients (2000 ops/s); beyond it p99 grows 3.0× for 8% more throughput",
		},
		{
			name: "same series, default thresholds",
			points: sweep([]float64{1, 2, 4, 8},
				[]float64{1000, 2000, 2140, 2160},
				[]float64{100, 100, 130, 300}),
			found: true, index: 2,
			text: "throughput saturates at ~4 threads (2140 ops/s); beyond it p99 grows 2.3× for 1% more throughput",
		},
		{
			name: "small throughput is printed with digits",
			points: sweep([]float64{1, 2, 3},
				[]float64{12.5, 24.25, 24.5},
				[]float64{80, 80, 400}),
			found: true, index: 1,
			text: "throughput saturates at ~2 threads (24.2 ops/s); beyond it p99 grows 5.0× for 1% more throughput",
		},
	}
	for _, tc := range tests {
		pts, reason := sortedValid(tc.points, tc.opts.withDefaults())
		if reason != "" {
			t.Fatalf("%s: %s", tc.name, reason)
		}
		index, found := stepKnee(pts, tc.opts.withDefaults())
		if found != tc.found || (found && index != tc.index) {
			t.Errorf("%s (%s): stepKnee = %d, %v; want %d, %v", tc.name, tc.text, index, found, tc.index, tc.found)
		}
	}
}

func TestNextAutoStep(t *testing.T) {
	t.Parallel()
	rising := sweep(threads[:4], []float64{1000, 2000, 4000, 8000}, []float64{100, 100, 100, 100})
	// Knee at 8 threads, seen from the step to 16 only.
	unconfirmed := sweep(threads[:5], []float64{1000, 2000, 4000, 8000, 8100}, []float64{100, 100, 100, 100, 300})
	confirmed := sweep(threads[:6], []float64{1000, 2000, 4000, 8000, 8100, 8050}, []float64{100, 100, 100, 100, 300, 700})
	// The point at 32 climbs far past the "knee": it was noise.
	refuted := sweep(threads[:6], []float64{1000, 2000, 4000, 8000, 8100, 15000}, []float64{100, 100, 100, 100, 300, 310})
	tests := []struct {
		name   string
		points []Point
		opts   KneeOptions
		next   float64
		done   bool
	}{
		{"start", nil, KneeOptions{}, 1, false},
		{"second point", rising[:1], KneeOptions{}, 2, false},
		{"still rising", rising, KneeOptions{}, 16, false},
		{"knee seen but not confirmed", unconfirmed, KneeOptions{}, 32, false},
		{"knee confirmed", confirmed, KneeOptions{}, 0, true},
		{"knee refuted by the confirming point", refuted, KneeOptions{}, 64, false},
		{"clipped to MaxX", rising, KneeOptions{MaxX: 12}, 12, false},
		{"MaxX reached", rising, KneeOptions{MaxX: 8}, 0, true},
		{"default MaxX reached", sweep([]float64{512, 1024}, []float64{1000, 2000}, []float64{100, 100}), KneeOptions{}, 0, true},
		{"below 1 goes to 1", sweep([]float64{0.25}, []float64{1000}, []float64{100}), KneeOptions{}, 1, false},
		{"invalid point stops the sweep", sweep([]float64{1, 2}, []float64{1000, 0}, []float64{100, 100}), KneeOptions{}, 0, true},
	}
	for _, tc := range tests {
		next, done := NextAutoStep(tc.points, tc.opts)
		if next != tc.next || done != tc.done {
			t.Errorf("%s: NextAutoStep = %g, %v; want %g, %v", tc.name, next, done, tc.next, tc.done)
		}
	}
}

// A whole automatic sweep against a modelled server that saturates at
// 8 threads: it must stop one point past the step that shows the knee.
func TestAutoSweep(t *testing.T) {
	t.Parallel()
	run := func(x float64) Point {
		ops := math.Min(1000*x, 8000)
		p99 := 1000 * math.Max(1, x/8)
		return Point{X: x, Throughput: ops, P99: p99}
	}
	var pts []Point
	var visited []float64
	for range 100 {
		x, done := NextAutoStep(pts, KneeOptions{})
		if done {
			break
		}
		visited = append(visited, x)
		pts = append(pts, run(x))
	}
	if want := []float64{1, 2, 4, 8, 16, 32}; !slices.Equal(visited, want) {
		t.Errorf("visited %v, want %v", visited, want)
	}
	if k, found := stepKnee(pts, KneeOptions{}.withDefaults()); !found || pts[k].X != 8 {
		t.Errorf("stepKnee = %d, %v; want 8 threads", k, found)
	}
}

func TestSignedPercent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   float64
		want string
	}{
		{12.4, "+12%"},
		{-12.6, "-13%"},
		{0, "+0%"},
		{-0.3, "+0%"}, // rounds to nothing: no minus sign
		{0.4, "+0%"},
	}
	for _, tt := range tests {
		if got := signedPercent(tt.in); got != tt.want {
			t.Errorf("signedPercent(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
