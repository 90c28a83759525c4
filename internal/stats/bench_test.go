package stats

import "testing"

// Comparisons run once per report, not per operation; these benchmarks
// guard against the iterative parts (continued fraction, root finding)
// growing slow, and show what allocates.

func BenchmarkWelch(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Welch(a7, b7)
	}
}

func BenchmarkMeanCI(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		MeanCI(a7, 0.95)
	}
}

func BenchmarkStudentTQuantile(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		StudentTQuantile(0.975, 7.3)
	}
}

func BenchmarkKnee(b *testing.B) {
	pts := sweep(threads,
		[]float64{1000, 1950, 3800, 7200, 7400, 7450, 7300},
		[]float64{900, 950, 1000, 1200, 2600, 5200, 11000})
	b.ReportAllocs()
	for b.Loop() {
		Knee(pts, KneeOptions{})
	}
}
