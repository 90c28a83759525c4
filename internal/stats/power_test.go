package stats

import (
	"math"
	"testing"
)

func TestSensitivityOf(t *testing.T) {
	t.Parallel()
	// Two trials a side with a 10% spread: sd = 100 on a mean of 1000.
	// t(0.975, 2) = 4.303 and t(0.8, 2) = 1.061 (tables), so the smallest
	// detectable difference is 5.364 · 100 · √(2/2) / 1000 = 53.6%.
	a, b := []float64{929.29, 1070.71}, []float64{929.29, 1070.71}
	s := SensitivityOf(a, b, 0.05, 0.10)
	if !s.OK || s.Trials != 2 || math.Abs(s.Detectable-0.5364) > 0.001 {
		t.Fatalf("SensitivityOf = %+v, want ±53.6%% from 2 trials", s)
	}
	// n a side detects 10% once (t(0.975, 2n−2) + t(0.8, 2n−2)) · 0.1 ·
	// √(2/n) ≤ 0.1: with the normal's 2.80 that is n ≈ 15.7; t's heavier
	// tails ask one more, 17 (t sums: n=16 2.89·0.354=1.022>1; n=17
	// 2.88·0.343=0.989).
	if s.TrialsForGoal != 17 {
		t.Errorf("TrialsForGoal = %d, want 17", s.TrialsForGoal)
	}
	if s := SensitivityOf(a, b, 0.05, 0.001); s.TrialsForGoal != 0 {
		t.Errorf("a goal beyond %d trials gives %d, want 0", MaxSensitivityTrials, s.TrialsForGoal)
	}
	for name, tc := range map[string][2][]float64{
		"one trial":  {{1000}, {1000, 1010}},
		"zero mean":  {{0, 0}, {1, 2}},
		"not finite": {{1, math.NaN()}, {1, 2}},
	} {
		if s := SensitivityOf(tc[0], tc[1], 0.05, 0.1); s.OK {
			t.Errorf("%s: %+v, want no sensitivity", name, s)
		}
	}
}
