package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"
)

// series is n values at a level of 1000, and 1000·(1+step) from index
// at on, each off its level by up to ±noise (5% noise: anywhere from 5%
// below to 5% above), drawn from seed.
func series(seed uint64, n, at int, step, noise float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 42))
	xs := make([]float64, n)
	for i := range xs {
		level := 1000.0
		if i >= at {
			level *= 1 + step
		}
		xs[i] = level * (1 + noise*(2*rng.Float64()-1))
	}
	return xs
}

// naiveQ is the energy statistic between xs[:t] and xs[t:], from its
// definition.
func naiveQ(xs []float64, t int) float64 {
	n := len(xs)
	var across, inL, inR float64
	for i := range t {
		for j := t; j < n; j++ {
			across += math.Abs(xs[i] - xs[j])
		}
		for k := i + 1; k < t; k++ {
			inL += math.Abs(xs[i] - xs[k])
		}
	}
	for j := t; j < n; j++ {
		for k := j + 1; k < n; k++ {
			inR += math.Abs(xs[j] - xs[k])
		}
	}
	l, r := float64(t), float64(n-t)
	return l * r / float64(n) * (2*across/(l*r) - inL/(l*(l-1)/2) - inR/(r*(r-1)/2))
}

func TestBestSplitIsTheDefinitions(t *testing.T) {
	t.Parallel()
	for seed := range uint64(20) {
		xs := series(seed, 5+int(seed), 3, 0.2, 0.1)
		at, q := bestSplit(xs, 2)
		wantAt, wantQ := -1, math.Inf(-1)
		for s := 2; s <= len(xs)-2; s++ {
			for k := s + 2; k <= len(xs); k++ {
				if v := naiveQ(xs[:k], s); v > wantQ {
					wantAt, wantQ = s, v
				}
			}
		}
		if at != wantAt || math.Abs(q-wantQ) > 1e-9*math.Abs(wantQ) {
			t.Errorf("seed %d: split at %d (q %v), want %d (q %v)", seed, at, q, wantAt, wantQ)
		}
	}
	if at, _ := bestSplit([]float64{1, 2, 3, 4, 5}, 3); at != -1 {
		t.Errorf("5 values split with segments of 3 at least: at %d", at)
	}
}

// A step of 10% in 5% noise is found at the run where it began, and only
// there; its size is the step's, give or take the noise.
func TestStepFound(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		seed uint64
		n    int
		at   int
		step float64
	}{
		{1, 30, 15, 0.10}, {2, 30, 15, 0.10}, {3, 40, 12, 0.10}, {4, 24, 16, -0.10}, {5, 30, 20, -0.10},
	} {
		xs := series(tc.seed, tc.n, tc.at, tc.step, 0.05)
		cs, err := Detect(xs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) != 1 || cs[0].Index != tc.at {
			t.Errorf("seed %d, step %+.0f%% at %d of %d: found %+v", tc.seed, 100*tc.step, tc.at, tc.n, cs)
			continue
		}
		if rel := cs[0].Rel(); math.Abs(rel-tc.step) > 0.02 || cs[0].P > 0.01 {
			t.Errorf("seed %d: change %+.3f (p %v), want about %+.2f and significant", tc.seed, rel, cs[0].P, tc.step)
		}
	}
}

// Over many such series, how often the step is placed exactly: noise can
// make the runs beside a step look as if they were on its other side, so
// a few land one run off; none is missed, and extra change points are as
// rare as the significance level says.
func TestStepRates(t *testing.T) {
	t.Parallel()
	const trials = 100
	exact, near, missed, extra := 0, 0, 0, 0
	for seed := range uint64(trials) {
		cs, _ := Detect(series(10_000+seed, 30, 15, 0.10, 0.05), Options{})
		switch {
		case len(cs) == 0:
			missed++
		case len(cs) > 1:
			extra++
		case cs[0].Index == 15:
			exact++
		case cs[0].Index == 14 || cs[0].Index == 16:
			near++
		}
	}
	t.Logf("of %d series: %d exact, %d one run off, %d missed, %d with extra change points", trials, exact, near, missed, extra)
	if exact < 85 || exact+near < 95 || missed > 0 || extra > 3 {
		t.Errorf("of %d series: %d exact, %d one run off, %d missed, %d with extra change points", trials, exact, near, missed, extra)
	}
}

// A flat series of the same noise gives no change point; over many of
// them, false alarms stay at the significance level's 1%.
func TestFlatSeries(t *testing.T) {
	t.Parallel()
	for seed := range uint64(5) {
		if cs, _ := Detect(series(100+seed, 30, 30, 0, 0.05), Options{}); len(cs) != 0 {
			t.Errorf("flat series %d: change points %+v", seed, cs)
		}
	}
	alarms := 0
	const trials = 200
	for seed := range uint64(trials) {
		cs, _ := Detect(series(1000+seed, 20, 20, 0, 0.05), Options{})
		alarms += len(cs)
	}
	t.Logf("%d false alarms in %d flat series", alarms, trials)
	if alarms > trials/50 {
		t.Errorf("%d false alarms in %d flat series", alarms, trials)
	}
}

// Two changes, up then back down, are both found, each with its own size.
func TestTwoChanges(t *testing.T) {
	t.Parallel()
	xs := series(7, 45, 15, 0.15, 0.04)
	for i := 30; i < 45; i++ {
		xs[i] /= 1.15
	}
	cs, err := Detect(xs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Index != 15 || cs[1].Index != 30 || cs[0].Rel() < 0.1 || cs[1].Rel() > -0.1 {
		t.Fatalf("found %+v, want a rise at 15 and a fall at 30", cs)
	}
}

// The same series gives the same answer: the permutations are seeded.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	xs := series(9, 20, 10, 0.06, 0.05)
	a, _ := Detect(xs, Options{})
	for range 3 {
		b, _ := Detect(xs, Options{})
		if len(a) != len(b) || (len(a) > 0 && a[0] != b[0]) {
			t.Fatalf("%+v, then %+v", a, b)
		}
	}
}

func TestEdges(t *testing.T) {
	t.Parallel()
	for _, xs := range [][]float64{nil, {1}, {1, 2, 3, 4, 5}, {5, 5, 5, 5, 5, 5, 5, 5}} {
		if cs, err := Detect(xs, Options{}); err != nil || len(cs) != 0 {
			t.Errorf("%v: %+v, %v", xs, cs, err)
		}
	}
	if _, err := Detect([]float64{1, math.NaN(), 2}, Options{}); err == nil {
		t.Error("a NaN accepted")
	}
	// A step of 3 values after 3: found with the default minimum size.
	if cs, _ := Detect([]float64{10, 10.1, 9.9, 10, 10.05, 9.95, 20, 20.1, 19.9}, Options{}); len(cs) != 1 || cs[0].Index != 6 {
		t.Errorf("a clear step at 6: %+v", cs)
	}
}
