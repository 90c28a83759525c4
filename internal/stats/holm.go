package stats

import (
	"math"
	"slices"
)

// Holm adjusts the p-values of a family of tests for Holm's step-down
// correction: a test is significant at family-wise level alpha exactly
// when its adjusted p-value is below alpha. Among many figures some pass
// alpha by chance alone; the correction bounds the chance that any
// verdict of the family is a false alarm by alpha, whatever the
// dependence between the tests.
//
// The i-th smallest p-value (from 1) of m is multiplied by m − i + 1; the
// adjusted values are made non-decreasing in that order and capped at 1.
// A value that is not a number (no test was made) stays NaN and is not
// counted in m.
func Holm(ps []float64) []float64 {
	adj := make([]float64, len(ps))
	var order []int
	for i, p := range ps {
		adj[i] = math.NaN()
		if !math.IsNaN(p) {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case ps[a] < ps[b]:
			return -1
		case ps[a] > ps[b]:
			return 1
		}
		return 0
	})
	m := len(order)
	running := 0.0
	for rank, i := range order {
		v := math.Min(1, float64(m-rank)*ps[i])
		running = math.Max(running, v)
		adj[i] = running
	}
	return adj
}
