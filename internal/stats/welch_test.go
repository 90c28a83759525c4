package stats

import (
	"math"
	"strings"
	"testing"
)

func TestWelchDegenerate(t *testing.T) {
	t.Parallel()
	inf := math.Inf(1)
	tests := []struct {
		name    string
		a, b    []float64
		ok      bool
		tStat   float64
		p       float64
		df      float64
		diff    float64
		noteHas string
	}{
		// Identical runs on both sides: nothing to tell apart.
		{name: "both constant, equal", a: []float64{5, 5, 5}, b: []float64{5, 5}, ok: true, tStat: 0, p: 1, df: 3, diff: 0, noteHas: "constant and equal"},
		// Zero noise on both sides: any difference is exact.
		{name: "both constant, B higher", a: []float64{5, 5, 5}, b: []float64{6, 6, 6, 6}, ok: true, tStat: inf, p: 0, df: 5, diff: 1, noteHas: "means differ"},
		{name: "both constant, B lower", a: []float64{0.3, 0.3}, b: []float64{0.1, 0.1}, ok: true, tStat: -inf, p: 0, df: 2, diff: -0.19999999999999998 /* 0.1-0.3 in float64 */, noteHas: "means differ"},
		// A single run has no variance estimate, so no test is possible.
		{name: "single run each", a: []float64{10}, b: []float64{12}, ok: false, p: 1, diff: 2, noteHas: "A has 1 and B has 1"},
		{name: "single run in A", a: []float64{10}, b: []float64{12, 13, 11}, ok: false, p: 1, diff: 2, noteHas: "A has 1 and B has 3"},
		{name: "empty B", a: []float64{10, 11}, b: nil, ok: false, p: 1, diff: -10.5, noteHas: "B has 0"},
		{name: "NaN in B", a: []float64{10, 11}, b: []float64{1, math.NaN()}, ok: false, p: 1, noteHas: "value 1 of B is not a finite number"},
		{name: "Inf in A", a: []float64{inf, 11}, b: []float64{1, 2}, ok: false, p: 1, noteHas: "value 0 of A is not a finite number"},
	}
	for _, tc := range tests {
		r := Welch(tc.a, tc.b)
		if r.OK != tc.ok || r.P != tc.p || !strings.Contains(r.Note, tc.noteHas) {
			t.Errorf("%s: OK = %v, P = %g, Note = %q; want %v, %g, a note with %q", tc.name, r.OK, r.P, r.Note, tc.ok, tc.p, tc.noteHas)
		}
		if r.Diff != tc.diff {
			t.Errorf("%s: Diff = %g, want %g", tc.name, r.Diff, tc.diff)
		}
		if r.A.N != len(tc.a) || r.B.N != len(tc.b) {
			t.Errorf("%s: sizes %d, %d; want %d, %d", tc.name, r.A.N, r.B.N, len(tc.a), len(tc.b))
		}
		if !tc.ok {
			// An impossible test leaves every number finite and the interval
			// collapsed onto the difference.
			if r.T != 0 || r.DF != 0 || r.StdErr != 0 || r.CI.OK || r.CI.Lo != r.Diff || r.CI.Hi != r.Diff {
				t.Errorf("%s: got %+v, want zero T/DF/StdErr and an undefined interval", tc.name, r)
			}
			continue
		}
		if r.T != tc.tStat || r.DF != tc.df {
			t.Errorf("%s: T = %g, DF = %g; want %g, %g", tc.name, r.T, r.DF, tc.tStat, tc.df)
		}
		// With zero variance the interval is the exact difference.
		if !r.CI.OK || r.CI.Lo != r.Diff || r.CI.Hi != r.Diff || r.StdErr != 0 {
			t.Errorf("%s: CI = %+v, StdErr = %g; want the zero-width interval at %g", tc.name, r.CI, r.StdErr, r.Diff)
		}
	}
}

// One constant sample is no special case: the test rests on the other
// sample's variance alone (scipy agrees, see the A5 vs B5 fixture).
func TestWelchOneConstantSample(t *testing.T) {
	t.Parallel()
	r := Welch(a5, b5)
	if !r.OK || r.Note != "" || r.DF != float64(len(a5)-1) || r.B.StdDev != 0 {
		t.Errorf("Welch(A5, constant B5) = %+v, want an ordinary test with DF = %d", r, len(a5)-1)
	}
}

// t, df and p do not depend on the unit of measurement, and the scaling
// inside Welch must keep it so up to the ends of float64.
func TestWelchScaleInvariance(t *testing.T) {
	t.Parallel()
	base := Welch(a1, b1)
	for _, exp := range []int{-1000, -300, -20, 20, 300, 1000} {
		a, b := make([]float64, len(a1)), make([]float64, len(b1))
		for i, x := range a1 {
			a[i] = math.Ldexp(x, exp)
		}
		for i, x := range b1 {
			b[i] = math.Ldexp(x, exp)
		}
		r := Welch(a, b)
		if r.T != base.T || r.DF != base.DF || r.P != base.P || r.RelDiff != base.RelDiff {
			t.Errorf("scaled by 2^%d: T, DF, P, RelDiff = %g, %g, %g, %g; want %g, %g, %g, %g",
				exp, r.T, r.DF, r.P, r.RelDiff, base.T, base.DF, base.P, base.RelDiff)
		}
		if got := math.Ldexp(r.CI.Lo, -exp); !relClose(got, base.CI.Lo, 1e-15) {
			t.Errorf("scaled by 2^%d: CI.Lo = %g·2^%d, want %g", exp, got, exp, base.CI.Lo)
		}
	}
}

// Samples on opposite ends of float64: sums, squares and the difference
// would overflow without scaling, and the test must still be decided.
func TestWelchNearMaxFloat(t *testing.T) {
	t.Parallel()
	a := []float64{-1.7e308, -1.6e308, -1.75e308}
	b := []float64{1.7e308, 1.65e308, 1.72e308}
	r := Welch(a, b)
	if !r.OK || !(r.P < 1e-4) || !(r.T > 0) || math.IsNaN(r.DF) {
		t.Fatalf("Welch(near -Max, near +Max) = %+v, want a clear, valid result", r)
	}
	// The difference itself is beyond float64; the interval says so rather
	// than turning into NaN.
	if !math.IsInf(r.Diff, 1) || math.IsNaN(r.CI.Lo) || math.IsNaN(r.CI.Hi) {
		t.Errorf("Diff = %g, CI = [%g, %g]; want +Inf and no NaN", r.Diff, r.CI.Lo, r.CI.Hi)
	}
}

func TestWelchRelDiff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		a, b    []float64
		rel     float64
		relOK   bool
		meanA   float64
		meanB   float64
		diffSgn float64
	}{
		{"B 10% higher", []float64{90, 110}, []float64{99, 121}, 0.1, true, 100, 110, 1},
		{"B 20% lower", []float64{90, 110}, []float64{72, 88}, -0.2, true, 100, 80, -1},
		{"A mean zero", []float64{-1, 1}, []float64{2, 4}, 0, false, 0, 3, 1},
		{"A negative", []float64{-90, -110}, []float64{-45, -55}, -0.5, true, -100, -50, 1},
	}
	for _, tc := range tests {
		r := Welch(tc.a, tc.b)
		if r.RelDiffOK != tc.relOK || !relClose(r.RelDiff, tc.rel, 1e-14) {
			t.Errorf("%s: RelDiff = %g (OK %v), want %g (OK %v)", tc.name, r.RelDiff, r.RelDiffOK, tc.rel, tc.relOK)
		}
		if r.A.Mean != tc.meanA || r.B.Mean != tc.meanB || math.Copysign(1, r.Diff) != tc.diffSgn || math.Copysign(1, r.T) != tc.diffSgn {
			t.Errorf("%s: means %g, %g, Diff %g, T %g", tc.name, r.A.Mean, r.B.Mean, r.Diff, r.T)
		}
	}
}

// The interval at level 1−α and the p-value must tell the same story: the
// interval at level 1−p has 0 on its edge.
func TestDiffIntervalAgreesWithP(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		a, b []float64
	}{{"A1 vs B1", a1, b1}, {"A2 vs B2", a2, b2}, {"A3 vs B3", a3, b3}, {"A7 vs B7", a7, b7}} {
		r := Welch(tc.a, tc.b)
		iv := r.DiffInterval(1 - r.P)
		edge := iv.Lo
		if r.Diff < 0 {
			edge = iv.Hi
		}
		if math.Abs(edge) > 1e-9*r.StdErr {
			t.Errorf("%s: interval at 1-p = %g is [%g, %g], want 0 on its edge", tc.name, 1-r.P, iv.Lo, iv.Hi)
		}
		if iv95 := r.DiffInterval(0.95); iv95 != r.CI {
			t.Errorf("%s: DiffInterval(0.95) = %+v, CI = %+v", tc.name, iv95, r.CI)
		}
	}
	r := Welch(a1, b1)
	for _, level := range []float64{0, 1, -0.5, 95, math.NaN()} {
		if iv := r.DiffInterval(level); iv.OK || !strings.Contains(iv.Note, "between 0 and 1") || iv.Lo != r.Diff {
			t.Errorf("DiffInterval(%g) = %+v, want undefined", level, iv)
		}
	}
	if iv := Welch([]float64{1}, b1).DiffInterval(0.9); iv.OK || !strings.Contains(iv.Note, "at least 2") {
		t.Errorf("DiffInterval of an impossible test = %+v, want undefined with the test's note", iv)
	}
}
