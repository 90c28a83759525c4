package stats

import (
	"math"
	"strings"
	"testing"
)

func TestMeanCIUndefined(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		xs      []float64
		level   float64
		mean    float64
		noteHas string
	}{
		{name: "no values", xs: nil, level: 0.95, mean: 0, noteHas: "have 0"},
		{name: "one value", xs: []float64{42}, level: 0.95, mean: 42, noteHas: "have 1"},
		{name: "level 0", xs: a1, level: 0, mean: 10154.64, noteHas: "between 0 and 1, got 0"},
		{name: "level 1", xs: a1, level: 1, mean: 10154.64, noteHas: "got 1"},
		{name: "level as percent", xs: a1, level: 95, mean: 10154.64, noteHas: "got 95"},
		{name: "level NaN", xs: a1, level: math.NaN(), mean: 10154.64, noteHas: "got NaN"},
		{name: "NaN value", xs: []float64{1, math.NaN(), 3}, level: 0.95, mean: 0, noteHas: "value 1 is not a finite number (NaN)"},
		{name: "infinite value", xs: []float64{1, 2, math.Inf(-1)}, level: 0.95, mean: 0, noteHas: "value 2 is not a finite number (-Inf)"},
	}
	for _, tc := range tests {
		iv := MeanCI(tc.xs, tc.level)
		if iv.OK {
			t.Errorf("%s: MeanCI OK, want undefined: %+v", tc.name, iv)
		}
		if !strings.Contains(iv.Note, tc.noteHas) {
			t.Errorf("%s: Note = %q, want it to contain %q", tc.name, iv.Note, tc.noteHas)
		}
		// Undefined intervals stay finite (JSON cannot hold NaN or Inf) and
		// collapse onto the mean.
		if !relClose(iv.Mean, tc.mean, 1e-12) || iv.Lo != iv.Mean || iv.Hi != iv.Mean || iv.StdErr != 0 || iv.DF != 0 {
			t.Errorf("%s: got %+v, want Lo = Hi = Mean = %g and no StdErr/DF", tc.name, iv, tc.mean)
		}
	}
}

func TestMeanCIConstantSample(t *testing.T) {
	t.Parallel()
	// 0.1 has no exact binary form: a naive mean and variance would leave
	// rounding noise and a tiny spurious interval.
	iv := MeanCI([]float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, 0.95)
	if !iv.OK || iv.Mean != 0.1 || iv.Lo != 0.1 || iv.Hi != 0.1 || iv.StdErr != 0 || iv.DF != 6 {
		t.Errorf("MeanCI(constant 0.1) = %+v, want the exact zero-width interval at 0.1", iv)
	}
}

// The statistics are computed on values scaled by a power of two, so
// magnitudes near the ends of float64 must give the scaled results exactly.
func TestMeanCIExtremeMagnitudes(t *testing.T) {
	t.Parallel()
	base := MeanCI(a1, 0.95)
	for _, exp := range []int{-1060, -1000, -500, 500, 1000} {
		xs := make([]float64, len(a1))
		for i, x := range a1 {
			xs[i] = math.Ldexp(x, exp)
		}
		iv := MeanCI(xs, 0.95)
		if !iv.OK {
			t.Errorf("2^%d: not OK: %s", exp, iv.Note)
			continue
		}
		// Values near 2^-1074 are subnormal and have lost digits.
		tol := 1e-15
		if exp < -1020 {
			tol = 1e-3
		}
		for _, c := range []struct {
			what      string
			got, want float64
		}{{"mean", iv.Mean, base.Mean}, {"lo", iv.Lo, base.Lo}, {"hi", iv.Hi, base.Hi}, {"stderr", iv.StdErr, base.StdErr}} {
			if got := math.Ldexp(c.got, -exp); !relClose(got, c.want, tol) {
				t.Errorf("2^%d: %s = %g·2^%d, want %g", exp, c.what, got, exp, c.want)
			}
		}
	}
	// Sums of values this large overflow unless scaled first.
	huge := []float64{1.7e308, 1.6e308, 1.75e308}
	if iv := MeanCI(huge, 0.95); !iv.OK || !relClose(iv.Mean, 1.6833333333333333e308, 1e-15) || !(iv.Lo < iv.Mean) {
		t.Errorf("MeanCI(near MaxFloat64) = %+v", iv)
	}
}

func TestDescribe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		xs   []float64
		want Sample
	}{
		{"empty", nil, Sample{}},
		{"one", []float64{7}, Sample{N: 1, Mean: 7}},
		{"two", []float64{1.5, 2.5}, Sample{N: 2, Mean: 2, StdDev: math.Sqrt(0.5)}},
		// numpy 2.4: np.mean(A1), np.std(A1, ddof=1) with A1 from samples.py
		{"A1", a1, Sample{N: 5, Mean: 10154.640000000001, StdDev: 123.87890458023938}},
		{"negative", []float64{-3, -1, -2}, Sample{N: 3, Mean: -2, StdDev: 1}},
	}
	for _, tc := range tests {
		got := Describe(tc.xs)
		if got.N != tc.want.N || !relClose(got.Mean, tc.want.Mean, 1e-14) || !relClose(got.StdDev, tc.want.StdDev, 1e-14) {
			t.Errorf("Describe(%s) = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestIntervalFormatting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		iv           Interval
		str          string
		half, relHal float64
	}{
		{"ok", Interval{Mean: 100, Lo: 97, Hi: 103, Level: 0.95, OK: true}, "100 [97, 103] (95% CI)", 3, 0.03},
		{"99.9%", Interval{Mean: -50, Lo: -60, Hi: -40, Level: 0.999, OK: true}, "-50 [-60, -40] (99.9% CI)", 10, 0.2},
		{"zero mean", Interval{Mean: 0, Lo: -1, Hi: 1, Level: 0.9, OK: true}, "0 [-1, 1] (90% CI)", 1, math.Inf(1)},
		{"zero width", Interval{Mean: 0, Level: 0.9, OK: true}, "0 [0, 0] (90% CI)", 0, 0},
		{"undefined", Interval{Mean: 5, Lo: 5, Hi: 5, Note: "need at least 2 values for an interval, have 1"}, "5 (no interval: need at least 2 values for an interval, have 1)", 0, 0},
	}
	for _, tc := range tests {
		if got := tc.iv.String(); got != tc.str {
			t.Errorf("%s: String() = %q, want %q", tc.name, got, tc.str)
		}
		if got := tc.iv.HalfWidth(); got != tc.half {
			t.Errorf("%s: HalfWidth() = %g, want %g", tc.name, got, tc.half)
		}
		if got := tc.iv.RelHalfWidth(); got != tc.relHal {
			t.Errorf("%s: RelHalfWidth() = %g, want %g", tc.name, got, tc.relHal)
		}
	}
}
