package stats

import (
	"math"
	"testing"
)

// TestHolm checks adjusted p-values worked by hand.
func TestHolm(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	tests := []struct {
		name string
		ps   []float64
		want []float64
	}{
		// Sorted 0.01, 0.02, 0.03, 0.04 get ×4, ×3, ×2, ×1: 0.04, 0.06,
		// 0.06, 0.04 → made non-decreasing: 0.04, 0.06, 0.06, 0.06.
		{"four", []float64{0.03, 0.01, 0.04, 0.02}, []float64{0.06, 0.04, 0.06, 0.06}},
		// 0.001×3 = 0.003; 0.2×2 = 0.4; 0.9×1 = 0.9.
		{"three apart", []float64{0.9, 0.001, 0.2}, []float64{0.9, 0.003, 0.4}},
		// 0.5×2 = 1 caps at 1; the larger one cannot adjust below it.
		{"capped", []float64{0.5, 0.6}, []float64{1, 1}},
		// No test made: NaN stays, and m counts only the tests: 0.01×2, 0.3×1.
		{"untested left out", []float64{nan, 0.01, 0.3}, []float64{nan, 0.02, 0.3}},
		{"one", []float64{0.04}, []float64{0.04}},
		{"ties", []float64{0.01, 0.01}, []float64{0.02, 0.02}},
		{"none", nil, []float64{}},
	}
	for _, tc := range tests {
		got := Holm(tc.ps)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %v, want %v", tc.name, got, tc.want)
		}
		for i := range got {
			if math.IsNaN(tc.want[i]) != math.IsNaN(got[i]) || !math.IsNaN(got[i]) && math.Abs(got[i]-tc.want[i]) > 1e-12 {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
}
