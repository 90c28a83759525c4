package stats

import (
	"testing"
)

// The samples of the scipy fixtures. The Python snippets below import them
// from samples.py, which reads:
//
// # The samples shared by the MeanCI and Welch fixtures.
// A1 = [10123.4, 10250.1, 9987.6, 10301.2, 10110.9]
// B1 = [10620.3, 10544.8, 10701.5, 10488.2]
// A2 = [5230.5, 5410.2, 5105.8, 5502.3, 5333.1, 5250.0]
// B2 = [5301.7, 5188.4, 5420.9, 5275.3, 5390.6, 5212.2]
// A3 = [812.0, 1020.5, 760.3, 1105.9, 955.1, 690.2, 1230.4, 880.8]
// B3 = [1001.1, 1010.4, 998.7]
// A4 = [1.5, 2.5]
// B4 = [2.0, 4.0]
// A5 = [100.0, 101.0, 99.0, 100.5]
// B5 = [105.0, 105.0, 105.0]
// A6 = [1000.0, 1000.5, 999.5, 1000.2, 999.8]
// B6 = [1100.1, 1099.9, 1100.3, 1099.7, 1100.0]
// A7 = [1000.0 + 37 * ((i * 7919) % 101) for i in range(40)]
// B7 = [1050.0 + 29 * ((i * 104729) % 97) for i in range(60)]
var (
	a1 = []float64{10123.4, 10250.1, 9987.6, 10301.2, 10110.9}
	b1 = []float64{10620.3, 10544.8, 10701.5, 10488.2}
	a2 = []float64{5230.5, 5410.2, 5105.8, 5502.3, 5333.1, 5250.0}
	b2 = []float64{5301.7, 5188.4, 5420.9, 5275.3, 5390.6, 5212.2}
	a3 = []float64{812.0, 1020.5, 760.3, 1105.9, 955.1, 690.2, 1230.4, 880.8}
	b3 = []float64{1001.1, 1010.4, 998.7}
	a4 = []float64{1.5, 2.5}
	b4 = []float64{2.0, 4.0}
	a5 = []float64{100.0, 101.0, 99.0, 100.5}
	b5 = []float64{105.0, 105.0, 105.0}
	a6 = []float64{1000.0, 1000.5, 999.5, 1000.2, 999.8}
	b6 = []float64{1100.1, 1099.9, 1100.3, 1099.7, 1100.0}
	a7 = generated(40, 1000, 37, 7919, 101)
	b7 = generated(60, 1050, 29, 104729, 97)
)

// generated returns base + step·((i·mult) mod m) for i < n: a long sample
// that Go and Python build identically.
func generated(n int, base, step float64, mult, m int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = base + step*float64((i*mult)%m)
	}
	return xs
}

func TestMeanCIScipy(t *testing.T) {
	t.Parallel()
	// Produced with scipy 1.17.1 (samples.py is the block above):
	// import numpy as np
	// from scipy import stats
	// from samples import *
	// for name, x, level in [("A1", A1, 0.95), ("A1", A1, 0.99), ("A1", A1, 0.90), ("A3", A3, 0.999),
	//                        ("A4", A4, 0.95), ("B3", B3, 0.95), ("A7", A7, 0.95), ("B7", B7, 0.5)]:
	//     m, se = np.mean(x), stats.sem(x)
	//     lo, hi = stats.t.interval(level, len(x) - 1, loc=m, scale=se)
	//     print("{%r, %s, %r, %r, %r, %r, %r}," % (name, name, level, float(m), float(se), float(lo), float(hi)))
	tests := []struct {
		name             string
		xs               []float64
		level            float64
		mean, se, lo, hi float64
	}{
		{"A1", a1, 0.95, 10154.640000000001, 55.400330323925054, 10000.824024045798, 10308.455975954204},
		{"A1", a1, 0.99, 10154.640000000001, 55.400330323925054, 9899.571623284523, 10409.70837671548},
		{"A1", a1, 0.9, 10154.640000000001, 55.400330323925054, 10036.534983837506, 10272.745016162497},
		{"A3", a3, 0.999, 931.9, 64.45085613971982, 583.3573416274355, 1280.442658372571},
		{"A4", a4, 0.95, 2.0, 0.5, -4.353102368087347, 8.353102368087347},
		{"B3", b3, 0.95, 1003.4, 3.567912554982235, 988.0485113057983, 1018.7514886942016},
		{"A7", a7, 0.95, 2834.275, 175.74569326707007, 2478.7957819931316, 3189.7542180068685},
		{"B7", b7, 0.5, 2378.2, 106.2799968955259, 2306.070871842149, 2450.329128157851},
	}
	for _, tc := range tests {
		iv := MeanCI(tc.xs, tc.level)
		if !iv.OK {
			t.Errorf("MeanCI(%s, %g) not OK: %s", tc.name, tc.level, iv.Note)
			continue
		}
		for _, c := range []struct {
			what      string
			got, want float64
		}{{"mean", iv.Mean, tc.mean}, {"stderr", iv.StdErr, tc.se}, {"lo", iv.Lo, tc.lo}, {"hi", iv.Hi, tc.hi}} {
			if !relClose(c.got, c.want, fixtureTol) {
				t.Errorf("MeanCI(%s, %g) %s = %.17g, scipy says %.17g", tc.name, tc.level, c.what, c.got, c.want)
			}
		}
		if iv.DF != float64(len(tc.xs)-1) || iv.Level != tc.level {
			t.Errorf("MeanCI(%s, %g) DF = %g, Level = %g; want %d, %g", tc.name, tc.level, iv.DF, iv.Level, len(tc.xs)-1, tc.level)
		}
	}
}

func TestWelchScipy(t *testing.T) {
	t.Parallel()
	// scipy reports t and the interval for mean(a) − mean(b); Welch reports
	// them for B − A, so the test negates them. Produced with scipy 1.17.1:
	// from scipy import stats
	// from samples import *
	// for a, b in [("A1", "B1"), ("A2", "B2"), ("A3", "B3"), ("A4", "B4"), ("A5", "B5"), ("A6", "B6"), ("A7", "B7"), ("B7", "A7")]:
	//     res = stats.ttest_ind(globals()[a], globals()[b], equal_var=False)
	//     ci = res.confidence_interval(0.95)  # of mean(a) - mean(b)
	//     print("{%r, %s, %s, %r, %r, %r, %r, %r}," % (a + " vs " + b, a, b, float(res.statistic), float(res.df), float(res.pvalue), float(ci.low), float(ci.high)))
	tests := []struct {
		name             string
		a, b             []float64
		scipyT, df, p    float64
		scipyLo, scipyHi float64
	}{
		{"A1 vs B1", a1, b1, -6.010655665298822, 6.991650166699444, 0.0005389816680097831, -604.8628871255434, -263.25711287445563},
		{"A2 vs B2", a2, b2, 0.1034573721287754, 8.686583549978598, 0.9199489992905014, -149.70333843209409, 163.9700050987605},
		{"A3 vs B3", a3, b3, -1.1076764018095617, 7.042738367078098, 0.30439222001003263, -223.94783456028992, 80.94783456028992},
		{"A4 vs B4", a4, b4, -0.8944271909999159, 1.4705882352941178, 0.49313270812084714, -7.918522830071064, 5.918522830071064},
		{"A5 vs B5", a5, b5, -11.41803085349784, 3.0, 0.0014415607343499584, -6.233765441898008, -3.5162345581019925},
		{"A6 vs B6", a6, b6, -506.369683541851, 6.465462274175402, 4.118110438039734e-16, -100.47491751770742, -99.52508248229258},
		{"A7 vs B7", a7, b7, 2.220612360718806, 66.83271664360412, 0.029771560838472946, 46.11087821187948, 866.0391217881211},
		{"B7 vs A7", b7, a7, -2.220612360718806, 66.83271664360412, 0.029771560838472946, -866.0391217881211, -46.11087821187948},
	}
	for _, tc := range tests {
		r := Welch(tc.a, tc.b)
		if !r.OK {
			t.Errorf("Welch(%s) not OK: %s", tc.name, r.Note)
			continue
		}
		for _, c := range []struct {
			what      string
			got, want float64
		}{
			{"T", r.T, -tc.scipyT},
			{"DF", r.DF, tc.df},
			{"P", r.P, tc.p},
			{"CI.Lo", r.CI.Lo, -tc.scipyHi},
			{"CI.Hi", r.CI.Hi, -tc.scipyLo},
			{"Diff", r.Diff, -(tc.scipyLo + tc.scipyHi) / 2},
			{"RelDiff", r.RelDiff, r.Diff / Describe(tc.a).Mean},
		} {
			if !relClose(c.got, c.want, fixtureTol) {
				t.Errorf("Welch(%s) %s = %.17g, scipy says %.17g", tc.name, c.what, c.got, c.want)
			}
		}
		if r.CI.Level != 0.95 || !r.CI.OK || r.CI.DF != r.DF {
			t.Errorf("Welch(%s) CI = %+v, want an OK 95%% interval with DF %g", tc.name, r.CI, r.DF)
		}
	}
}
