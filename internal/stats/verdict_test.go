package stats

import (
	"math"
	"testing"
)

func TestVerdict(t *testing.T) {
	t.Parallel()
	// Throughput (ops/s) and p99 latency (µs) of repeated runs. The p-values
	// and relative changes are scipy's (1.17.1), from:
	//
	// import numpy as np
	// from scipy import stats
	// from samples import *  # see fixtures_test.go
	// cases = {"lat": ([812, 820, 805, 818], [905, 930, 899, 921, 915]), "zero": ([-1, 1, 0], [5, 6, 7]),
	//          "tiny": ([1000, 1000.001, 999.999, 1000], [1000.5, 1000.501, 1000.499, 1000.5]),
	//          "A1B1": (A1, B1), "A7B7": (A7, B7), "A2B2": (A2, B2)}
	// for k, (a, b) in cases.items():
	//     r = stats.ttest_ind(a, b, equal_var=False)
	//     ma, mb = np.mean(a), np.mean(b)
	//     print(k, "%.3g" % r.pvalue, "rel B/A %.4f%%" % (100 * (mb - ma) / ma if ma else 0), "rel A/B %.4f%%" % (100 * (ma - mb) / mb))
	//
	// lat 2.77e-06 rel B/A 12.3195% rel A/B -10.9683%
	// zero 0.00183 rel B/A 0.0000% rel A/B -100.0000%
	// tiny 1.6e-16 rel B/A 0.0500% rel A/B -0.0500%
	// A1B1 0.000539 rel B/A 4.2745% rel A/B -4.0993%
	// A7B7 0.0298 rel B/A -16.0914% rel A/B 19.1773%
	// A2B2 0.92 rel B/A -0.1345% rel A/B 0.1346%
	slowOps := []float64{10123.4, 10250.1, 9987.6, 10301.2, 10110.9}
	fastOps := []float64{10620.3, 10544.8, 10701.5, 10488.2}
	lowLat := []float64{812, 820, 805, 818}
	highLat := []float64{905, 930, 899, 921, 915}
	tests := []struct {
		name           string
		a, b           []float64
		alpha          float64
		higherIsBetter bool
		kind           VerdictKind
		str            string
	}{
		{"throughput up", slowOps, fastOps, 0.05, true, Better, "significant: B is 4.3% better than A (p=0.000539)"},
		{"throughput down", fastOps, slowOps, 0.05, true, Worse, "significant: B is 4.1% worse than A (p=0.000539)"},
		{"latency up is worse", lowLat, highLat, 0.05, false, Worse, "significant: B is 12.3% worse than A (p=2.77e-06)"},
		{"latency down is better", highLat, lowLat, 0.05, false, Better, "significant: B is 11.0% better than A (p=2.77e-06)"},
		{"overlapping runs", a2, b2, 0.05, true, NoDifference, "no significant difference (p=0.92)"},
		// p = 0.0298 is significant at 5%, not at 1%.
		{"alpha 5%", a7, b7, 0.05, true, Worse, "significant: B is 16.1% worse than A (p=0.0298)"},
		{"alpha 1%", a7, b7, 0.01, true, NoDifference, "no significant difference (p=0.0298)"},
		{"alpha 0 means 5%", a7, b7, 0, true, Worse, "significant: B is 16.1% worse than A (p=0.0298)"},
		{"single run per side", []float64{100}, []float64{120}, 0.05, true, NoVerdict, "no verdict possible: single run per side"},
		{"no runs at all", nil, nil, 0.05, true, NoVerdict, "no verdict possible: single run per side"},
		{"single run in B", slowOps, []float64{120}, 0.05, true, NoVerdict, "no verdict possible: need at least 2 runs per side, A has 5 and B has 1"},
		{"alpha above 1", slowOps, fastOps, 5, true, NoVerdict, "no verdict possible: alpha must be between 0 and 1, got 5"},
		{"NaN run", slowOps, []float64{1, math.NaN()}, 0.05, true, NoVerdict, "no verdict possible: value 1 of B is not a finite number (NaN)"},
		{"identical constant runs", []float64{7, 7}, []float64{7, 7, 7}, 0.05, true, NoDifference, "no significant difference (p=1)"},
		{"constant runs that differ", []float64{7, 7}, []float64{8, 8}, 0.05, true, Better, "significant: B is 14.3% better than A (p=0)"},
		{"A's mean is zero", []float64{-1, 1, 0}, []float64{5, 6, 7}, 0.05, true, Better, "significant: B is better than A (p=0.00183; A's mean is 0, so no relative change)"},
		{"tiny change", []float64{1000, 1000.001, 999.999, 1000}, []float64{1000.5, 1000.501, 1000.499, 1000.5}, 0.05, true, Better, "significant: B is 0.05% better than A (p=1.6e-16)"},
	}
	for _, tc := range tests {
		v := Verdict(tc.a, tc.b, tc.alpha, tc.higherIsBetter)
		if v.Kind != tc.kind {
			t.Errorf("%s: Kind = %v, want %v", tc.name, v.Kind, tc.kind)
		}
		if got := v.String(); got != tc.str {
			t.Errorf("%s: String() = %q\n want %q", tc.name, got, tc.str)
		}
		if v.HigherIsBetter != tc.higherIsBetter {
			t.Errorf("%s: HigherIsBetter not carried", tc.name)
		}
		if v.Kind == NoVerdict {
			if v.Reason == "" || (!v.Test.OK && v.P != 1) {
				t.Errorf("%s: P = %g, Reason = %q; want a reason, and P = 1 if no test was possible", tc.name, v.P, v.Reason)
			}
			continue
		}
		// The numbers behind the verdict are Welch's, and the interval is
		// the one at 1−alpha, which excludes 0 exactly when significant.
		alpha := tc.alpha
		if alpha == 0 {
			alpha = DefaultAlpha
		}
		if v.Alpha != alpha || v.P != v.Test.P || v.RelDiff != v.Test.RelDiff || v.CI.Level != 1-alpha {
			t.Errorf("%s: Alpha %g, P %g (test %g), RelDiff %g (test %g), CI level %g", tc.name, v.Alpha, v.P, v.Test.P, v.RelDiff, v.Test.RelDiff, v.CI.Level)
		}
		excludesZero := v.CI.Lo > 0 || v.CI.Hi < 0
		if excludesZero != (v.Kind != NoDifference) {
			t.Errorf("%s: CI [%g, %g] disagrees with the verdict %v", tc.name, v.CI.Lo, v.CI.Hi, v.Kind)
		}
	}
}

func TestVerdictKindString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		k    VerdictKind
		want string
	}{
		{NoVerdict, "no verdict"},
		{NoDifference, "no significant difference"},
		{Better, "better"},
		{Worse, "worse"},
		{VerdictKind(9), "VerdictKind(9)"},
	}
	for _, tc := range tests {
		if got := tc.k.String(); got != tc.want {
			t.Errorf("VerdictKind(%d).String() = %q, want %q", int(tc.k), got, tc.want)
		}
	}
}
