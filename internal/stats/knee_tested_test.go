package stats

import (
	"strings"
	"testing"
)

// tried builds a point from its trials: the means are what Knee names,
// the trials what it tests.
func tried(x float64, tput, p99 []float64) Point {
	return Point{X: x, Throughput: Describe(tput).Mean, P99: Describe(p99).Mean, ThroughputTrials: tput, P99Trials: p99}
}

// TestKnee checks that a knee is stated only where the trials back it,
// with where it lies as an interval.
func TestKnee(t *testing.T) {
	t.Parallel()
	// A server that saturates at 8 threads, three quiet trials a point.
	clear := []Point{
		tried(1, []float64{1000, 1010, 990}, []float64{900, 910, 890}),
		tried(2, []float64{1950, 1960, 1940}, []float64{950, 960, 940}),
		tried(4, []float64{3800, 3850, 3750}, []float64{1000, 1020, 980}),
		tried(8, []float64{7200, 7150, 7250}, []float64{1200, 1180, 1220}),
		tried(16, []float64{7300, 7100, 7200}, []float64{2600, 2500, 2700}),
		tried(32, []float64{7250, 7200, 7150}, []float64{5200, 5100, 5300}),
	}
	// The same sweep, but the trials at 4 and 8 threads are too noisy to
	// tell apart: the knee lies from 2 to 8 threads.
	blurred := append([]Point(nil), clear...)
	blurred[2] = tried(4, []float64{3000, 7000, 5000}, []float64{1000, 1020, 980})
	// An A/A-like sweep: throughput and p99 flat within the noise.
	flat := []Point{
		tried(1, []float64{5000, 5400, 4700}, []float64{1000, 1100, 950}),
		tried(2, []float64{5200, 4800, 5100}, []float64{1050, 990, 1000}),
		tried(4, []float64{4900, 5300, 5000}, []float64{1000, 1080, 1010}),
	}
	tests := []struct {
		name   string
		points []Point
		found  bool
		index  int
		text   string
	}{
		{"clear knee", clear, true, 3,
			"throughput stops rising between 4 and 8 threads (7200 ops/s at 8): later points add no significant throughput, while p99 grows 4.3× by 32 threads (p<0.001)"},
		{"noisy point widens where the knee lies", blurred, true, 3,
			"throughput stops rising between 2 and 8 threads (7200 ops/s at 8): later points add no significant throughput, while p99 grows 4.3× by 32 threads (p<0.001)"},
		{"still rising", clear[:4], false, -1,
			"no knee: throughput still rises significantly at the last point: +89% from 4 to 8 threads (p<0.001)"},
		{"flat throughput and latency: nothing to state", flat, false, -1,
			"no knee: throughput rises no further after 1 thread, but p99 does not grow significantly beyond it (+1% by 4 threads, p=0.81): nothing shows saturation"},
		{"saturated from the first point", []Point{
			tried(1, []float64{5000, 5050, 4950}, []float64{1000, 1010, 990}),
			tried(2, []float64{5020, 4990, 5010}, []float64{2000, 2050, 1950}),
		}, true, 0,
			"throughput does not rise beyond 1 thread (5000 ops/s): later points add no significant throughput, while p99 grows 2.0× by 2 threads (p<0.001)"},
		{"latency grows, but less than the threshold asks", []Point{
			tried(1, []float64{5000, 5050, 4950}, []float64{1000, 1010, 990}),
			tried(2, []float64{5020, 4990, 5010}, []float64{1150, 1160, 1140}),
		}, false, -1,
			"no knee: throughput rises no further after 1 thread, and p99 grows +15% by 2 threads (p<0.001), not the more than +20% that marks saturation"},
		{"one trial per point", sweep([]float64{1, 2, 4}, []float64{1000, 3626, 3500}, []float64{100, 200, 400}), false, -1,
			"no knee: with one trial per point no knee can be tested (throughput peaked at 3626 ops/s at 2 threads); repeat each point (--repeat 3) to test where throughput stops rising"},
		{"one trial, the peak at one thread", sweep([]float64{1, 2}, []float64{3626, 3500}, []float64{100, 200}), false, -1,
			"no knee: with one trial per point no knee can be tested (throughput peaked at 3626 ops/s at 1 thread); repeat each point (--repeat 3) to test where throughput stops rising"},
		{"one point with one trial", []Point{clear[0], {X: 2, Throughput: 1900, P99: 950, ThroughputTrials: []float64{1900}, P99Trials: []float64{950}}, clear[2]}, false, -1,
			"no knee: with one trial at 2 threads no knee can be tested (throughput peaked at 3800 ops/s at 4 threads); repeat each point (--repeat 3) to test where throughput stops rising"},
		{"one point", clear[:1], false, -1, "no knee: need at least 2 points to find a knee, have 1"},
		{"no points", nil, false, -1, "no knee: need at least 2 points to find a knee, have 0"},
		{"a run without throughput", sweep([]float64{1, 2, 4}, []float64{1000, 0, 2000}, []float64{100, 100, 100}), false, -1,
			"no knee: the point at 2 threads has throughput 0; need a positive finite value"},
		{"repeated X", sweep([]float64{1, 2, 2}, []float64{1000, 2000, 2100}, []float64{100, 100, 100}), false, -1,
			"no knee: two points at 2 threads; use one point per value (the mean of repeated runs)"},
	}
	for _, tc := range tests {
		r := Knee(tc.points, KneeOptions{})
		if r.Found != tc.found || r.Index != tc.index || r.String() != tc.text {
			t.Errorf("%s:\n got %v %d %q\nwant %v %d %q", tc.name, r.Found, r.Index, r.String(), tc.found, tc.index, tc.text)
		}
		if r.Found && (r.NoKneeReason != "" || r.Knee.X != tc.points[tc.index].X) {
			t.Errorf("%s: %+v", tc.name, r)
		}
	}
}

// TestKneeAlpha: a stricter level, as a study with several series uses,
// can leave a knee untold that the plain level states.
func TestKneeAlpha(t *testing.T) {
	t.Parallel()
	pts := []Point{
		tried(1, []float64{1000, 1100}, []float64{1000, 1100}),
		tried(2, []float64{1500, 1700}, []float64{1000, 1100}),
		tried(4, []float64{1550, 1650}, []float64{3000, 3100}),
	}
	loose := Knee(pts, KneeOptions{Alpha: 0.05})
	strict := Knee(pts, KneeOptions{Alpha: 0.001})
	if !loose.Found || strict.Found {
		t.Fatalf("α=0.05: %s\nα=0.001: %s", loose, strict)
	}
	if !strings.Contains(strict.NoKneeReason, "p99 does not grow significantly") {
		t.Errorf("α=0.001 should fail the p99 test: %s", strict)
	}
}

func TestPText(t *testing.T) {
	t.Parallel()
	for p, want := range map[float64]string{0.0004: "p<0.001", 0.0031: "p=0.003", 0.049: "p=0.05", 0.5: "p=0.50", 1: "p=1.00"} {
		if got := PText(p); got != want {
			t.Errorf("PText(%g) = %q, want %q", p, got, want)
		}
	}
}
