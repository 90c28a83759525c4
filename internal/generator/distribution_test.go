package generator

import (
	"math"
	"sort"
	"testing"
)

func TestUniformChiSquare(t *testing.T) {
	t.Parallel()
	const lb, ub, draws = -5, 94, 200_000
	u := NewUniform(lb, ub)
	r := newRand(1)
	counts := make([]int, ub-lb+1)
	for range draws {
		v := u.Next(r)
		if v < lb || v > ub {
			t.Fatalf("Next = %d, outside [%d, %d]", v, lb, ub)
		}
		counts[v-lb]++
	}
	expected := float64(draws) / float64(len(counts))
	chi2 := 0.0
	for v, c := range counts {
		if c == 0 {
			t.Errorf("value %d never drawn", v+lb)
		}
		d := float64(c) - expected
		chi2 += d * d / expected
	}
	// 99 degrees of freedom: P(chi2 > 148.23) = 0.001 for a fair draw.
	if chi2 > 148.23 {
		t.Errorf("chi-square = %.1f over 100 values, above the 0.1%% critical value 148.23", chi2)
	}
}

func TestUniformBounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		lb, ub         int64
		wantLo, wantHi int64
	}{
		{"single value", 7, 7, 7, 7},
		{"swapped bounds", 9, 3, 3, 9},
		{"negative range", -10, -8, -10, -8},
		{"top of int64", math.MaxInt64 - 2, math.MaxInt64, math.MaxInt64 - 2, math.MaxInt64},
		{"whole int64 range", math.MinInt64, math.MaxInt64, math.MinInt64, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u := NewUniform(tt.lb, tt.ub)
			r := newRand(2)
			seen := map[int64]bool{}
			for range 2000 {
				v := u.Next(r)
				if v < tt.wantLo || v > tt.wantHi {
					t.Fatalf("Next = %d, outside [%d, %d]", v, tt.wantLo, tt.wantHi)
				}
				seen[v] = true
			}
			if uint64(tt.wantHi-tt.wantLo) < 10 && !(seen[tt.wantLo] && seen[tt.wantHi]) {
				t.Errorf("bounds %d and %d not both drawn", tt.wantLo, tt.wantHi)
			}
		})
	}
}

// P(min) and P(min+1) are exact in Gray's algorithm: 1/zeta(n) and
// 0.5^theta/zeta(n). Further ranks come from an approximation, which stays
// within 0.02 of the true cumulative share for n=1000.
func TestZipfianHead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		min, max int64
		theta    float64
	}{
		{"ycsb constant from 0", 0, 999, ZipfianConstant},
		{"ycsb constant from 10", 10, 1009, ZipfianConstant},
		{"theta 0.5", 1, 1000, 0.5},
	}
	const draws = 400_000
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			z := NewZipfianWithConstant(tt.min, tt.max, tt.theta)
			n := tt.max - tt.min + 1
			r := newRand(3)
			counts := make([]int, n)
			for range draws {
				v := z.Next(r)
				if v < tt.min || v > tt.max {
					t.Fatalf("Next = %d, outside [%d, %d]", v, tt.min, tt.max)
				}
				counts[v-tt.min]++
			}
			zn := zetaFrom(0, n, tt.theta, 0)
			p0, p1 := 1/zn, math.Pow(0.5, tt.theta)/zn
			within(t, "P(min)", float64(counts[0])/draws, p0, fiveSigma(p0, draws))
			within(t, "P(min+1)", float64(counts[1])/draws, p1, fiveSigma(p1, draws))
			for _, k := range []int64{10, 100, 500} {
				got := 0
				for _, c := range counts[:k] {
					got += c
				}
				within(t, "share of the first items", float64(got)/draws, zetaFrom(0, k, tt.theta, 0)/zn, 0.02)
			}
		})
	}
}

func TestZipfianGrowth(t *testing.T) {
	t.Parallel()
	const draws = 300_000
	z := NewZipfian(0, 999)
	r := newRand(4)
	counts := map[int64]int{}
	for range draws {
		v := z.NextN(r, 5000)
		if v < 0 || v >= 5000 {
			t.Fatalf("NextN(5000) = %d, outside [0, 5000)", v)
		}
		counts[v]++
	}
	st := z.snapshot()
	want := zetaFrom(0, 5000, ZipfianConstant, 0)
	if st.countForZeta != 5000 || st.zetan != want {
		t.Fatalf("after growth: count %d zeta %v, want 5000 and %v (the from-scratch sum, bit for bit)", st.countForZeta, st.zetan, want)
	}
	p0 := 1 / want
	within(t, "P(0) over 5000 items", float64(counts[0])/draws, p0, fiveSigma(p0, draws))

	// A smaller count keeps the larger zeta, as YCSB does unless told to
	// recompute: P(0) stays 1/zeta(5000) while draws stay below 1000.
	clear(counts)
	for range draws {
		v := z.Next(r)
		if v < 0 || v >= 1000 {
			t.Fatalf("Next = %d after growth, outside [0, 1000)", v)
		}
		counts[v]++
	}
	within(t, "P(0) for 1000 items after growth", float64(counts[0])/draws, p0, fiveSigma(p0, draws))
	if st := z.snapshot(); st.countForZeta != 5000 {
		t.Errorf("a smaller count shrank the state to %d", st.countForZeta)
	}
}

// Goroutines growing the count at once must leave the state of the largest
// count, with the same zeta as summing from scratch: growth always adds the
// terms in order, whatever the steps.
func TestZipfianConcurrentGrowth(t *testing.T) {
	t.Parallel()
	z := NewZipfian(0, 99)
	const workers, top = 8, 3000
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			r := newRand(uint64(w))
			for n := int64(100 + w); n <= top; n += workers {
				if v := z.NextN(r, n); v < 0 || v >= top {
					t.Errorf("NextN(%d) = %d", n, v)
				}
			}
		}()
	}
	for range workers {
		<-done
	}
	st := z.snapshot()
	if want := zetaFrom(0, top, ZipfianConstant, 0); st.countForZeta != top || st.zetan != want {
		t.Errorf("state after concurrent growth: count %d zeta %v, want %d and %v", st.countForZeta, st.zetan, top, want)
	}
}

func TestZipfianDegenerate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		min, max int64
		want     []int64 // every value Next may return
	}{
		{"one item", 5, 5, []int64{5}},
		{"two items", 5, 6, []int64{5, 6}},
		{"empty range", 5, 4, []int64{5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			z := NewZipfian(tt.min, tt.max)
			r := newRand(5)
			seen := map[int64]bool{}
			for range 1000 {
				seen[z.Next(r)] = true
			}
			for v := range seen {
				if !containsInt(tt.want, v) {
					t.Errorf("Next = %d, want one of %v", v, tt.want)
				}
			}
			if len(seen) != len(tt.want) {
				t.Errorf("drew %v, want all of %v", seen, tt.want)
			}
		})
	}
}

func containsInt(s []int64, v int64) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Above zetaExactMax items zeta is computed, not summed: it must agree
// with the sum, term by term, wherever summing is feasible, for YCSB's
// constant and others, and with YCSB's own sum over 10^10 items.
func TestZetaApprox(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n     int64
		theta float64
	}{
		{zetaExactMax + 1, ZipfianConstant}, // the first count computed
		{100_000, ZipfianConstant},
		{1_000_003, ZipfianConstant},
		{10_000_000, ZipfianConstant},
		{1_000_000, 0.01},
		{1_000_000, 0.5},
		{1_000_000, 0.75},
		{1_000_000, 0.999999},
		{5_000_000, 0.2},
	}
	for _, tt := range tests {
		sum := zetaFrom(0, tt.n, tt.theta, 0)
		got := zeta(tt.n, tt.theta)
		rel := math.Abs(got-sum) / sum
		t.Logf("zeta(%d, %g): relative difference %.2g", tt.n, tt.theta, rel)
		if rel > 1e-12 {
			t.Errorf("zeta(%d, %g) = %.17g, the sum is %.17g: relative difference %.2g", tt.n, tt.theta, got, sum, rel)
		}
	}
	// YCSB added 10^10 terms one by one, so its figure carries their
	// rounding errors, about 1e-11 of it.
	if got, rel := zeta(ScrambledItemCount, ZipfianConstant), 1e-11; math.Abs(got-ScrambledZetan)/ScrambledZetan > rel {
		t.Errorf("zeta(10^10) = %.17g, YCSB's sum is %.17g", got, ScrambledZetan)
	}
	// Counts on either side of the switch to the formula: zeta grows by
	// exactly the next term, to rounding.
	for _, theta := range []float64{0.5, ZipfianConstant} {
		n := int64(zetaExactMax)
		step := zeta(n+1, theta) - zeta(n, theta)
		if want := math.Pow(float64(n+1), -theta); math.Abs(step-want)/want > 1e-6 {
			t.Errorf("theta %g: zeta(%d)-zeta(%d) = %g, want the term %g", theta, n+1, n, step, want)
		}
	}
}

// Growth by more than zetaGrowthSummed items computes zeta afresh instead
// of adding every new term: a latest distribution whose key space jumps
// by 10^12 must not spin.
func TestZipfianLargeGrowth(t *testing.T) {
	t.Parallel()
	z := NewZipfian(0, 999)
	r := newRand(9)
	const n = int64(1e12)
	v := z.NextN(r, n)
	if v < 0 || v >= n {
		t.Fatalf("NextN(%d) = %d", n, v)
	}
	if st := z.snapshot(); st.countForZeta != n || st.zetan != zeta(n, ZipfianConstant) {
		t.Errorf("after growth to %d: count %d zeta %v, want %v", n, st.countForZeta, st.zetan, zeta(n, ZipfianConstant))
	}
}

func TestScrambledZipfian(t *testing.T) {
	t.Parallel()
	const min, max, draws = 1000, 1099, 300_000
	s := NewScrambledZipfian(min, max)
	r := newRand(6)
	counts := map[int64]int{}
	for range draws {
		v := s.Next(r)
		if v < min || v > max {
			t.Fatalf("Next = %d, outside [%d, %d]", v, min, max)
		}
		counts[v]++
	}
	keys := make([]int64, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return counts[keys[i]] > counts[keys[j]] })
	// The most popular items of the underlying zipfian, 0 and 1, land where
	// YCSB's hash puts them (keys 1011 and 1020), not at min and min+1.
	hot0, hot1 := int64(min+FNVHash64(0)%100), int64(min+FNVHash64(1)%100)
	if keys[0] != hot0 || keys[1] != hot1 {
		t.Errorf("hottest keys %d, %d; want %d, %d (the hashes of items 0 and 1)", keys[0], keys[1], hot0, hot1)
	}
	// Key hot0 gets item 0's share, 1/ZETAN, plus its part of the long
	// tail, which spreads about 0.85 over the 100 keys.
	p0 := 1 / ScrambledZetan
	if got := float64(counts[hot0]) / draws; got < p0-fiveSigma(p0, draws) || got > p0+0.03 {
		t.Errorf("P(key %d) = %.4f, want about 1/ZETAN = %.4f plus a tail share under 0.03", hot0, got, p0)
	}
	spread := 0
	for _, k := range keys[:10] {
		if k >= min+10 {
			spread++
		}
	}
	if spread < 5 {
		t.Errorf("hottest keys %v clustered at the start of the range", keys[:10])
	}
}

// NextUpTo keeps the scrambled zipfian's values inside the smaller range,
// with the same popularity: the hottest value there is drawn with item 0's
// share, 1/zeta.
func TestScrambledZipfianUpTo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name            string
		min, max, limit int64
	}{
		{"a thousand keys of a trillion", 0, 1e12, 999},
		{"offset range", 5000, 1e15, 5999},
		{"limit at max", 10, 1009, 1009},
		{"limit beyond max", 10, 1009, 5000},
		{"one key", 7, 1e9, 7},
		{"whole int64 range", 0, math.MaxInt64, 999},
	}
	const draws = 200_000
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewScrambledZipfian(tt.min, tt.max)
			r := newRand(13)
			hi := min(tt.limit, tt.max)
			counts := map[int64]int{}
			for range draws {
				v := s.NextUpTo(r, tt.limit)
				if v < tt.min || v > hi {
					t.Fatalf("NextUpTo(%d) = %d, outside [%d, %d]", tt.limit, v, tt.min, hi)
				}
				counts[v]++
			}
			top := 0
			for _, c := range counts {
				top = max(top, c)
			}
			// At least item 0's share; more where other items hash onto
			// the same value.
			p0 := 1 / ScrambledZetan
			if got := float64(top) / draws; got < p0-fiveSigma(p0, draws) {
				t.Errorf("hottest value drawn %.4f of the time, want at least 1/zeta = %.4f", got, p0)
			}
		})
	}
}

func TestScrambledZipfianBounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		min, max int64
	}{
		{"one key", 42, 42},
		{"billion keys", 0, 999_999_999},
		{"swapped", 10, 0},
		{"past 32 bits", 1 << 40, 1<<40 + 1<<33},
		{"whole int64 range", math.MinInt64, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			lo, hi := min(tt.min, tt.max), max(tt.min, tt.max)
			s := NewScrambledZipfian(tt.min, tt.max)
			r := newRand(7)
			for range 5000 {
				if v := s.Next(r); v < lo || v > hi {
					t.Fatalf("Next = %d, outside [%d, %d]", v, lo, hi)
				}
			}
		})
	}
}

// In YCSB's algorithm the cold set never overlaps the hot set, so the
// share of draws in the hot set is hotOpnFraction exactly (when both sets
// are non-empty), and each set is drawn uniformly.
func TestHotspot(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		lb, ub         int64
		hotset, hotOpn float64
		hotLo, hotHi   int64 // the hot set, inclusive
		wantHot        float64
	}{
		{"ycsb defaults", 0, 999, 0.2, 0.8, 0, 199, 0.8},
		{"offset range", 1000, 1999, 0.1, 0.5, 1000, 1099, 0.5},
		{"empty hot set goes cold", 0, 999, 0, 0.9, 0, -1, 0},
		{"whole range hot", 0, 999, 1, 0.3, 0, 999, 1},
		{"no hot operations", 0, 999, 0.2, 0, 0, 199, 0},
		{"only hot operations", 0, 999, 0.2, 1, 0, 199, 1},
		{"hotset out of range taken as 0", 0, 999, 1.5, 0.8, 0, -1, 0},
		{"opn out of range taken as 0", 0, 999, 0.2, -0.1, 0, 199, 0},
		{"swapped bounds", 999, 0, 0.2, 0.8, 0, 199, 0.8},
		{"truncated hot set", 0, 9, 0.25, 0.8, 0, 1, 0.8}, // 10*0.25 = 2.5 -> 2
	}
	const draws = 200_000
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := NewHotspot(tt.lb, tt.ub, tt.hotset, tt.hotOpn)
			lo, hi := min(tt.lb, tt.ub), max(tt.lb, tt.ub)
			r := newRand(8)
			hot := 0
			seen := map[int64]bool{}
			for range draws {
				v := h.Next(r)
				if v < lo || v > hi {
					t.Fatalf("Next = %d, outside [%d, %d]", v, lo, hi)
				}
				if v >= tt.hotLo && v <= tt.hotHi {
					hot++
				}
				seen[v] = true
			}
			within(t, "share of draws in the hot set", float64(hot)/draws, tt.wantHot, fiveSigma(tt.wantHot, draws))
			// Each set is covered end to end when it gets draws at all.
			if tt.wantHot > 0 && !(seen[tt.hotLo] && seen[tt.hotHi]) {
				t.Errorf("hot set ends %d, %d not both drawn", tt.hotLo, tt.hotHi)
			}
			if tt.wantHot < 1 && !(seen[tt.hotHi+1] && seen[hi]) {
				t.Errorf("cold set ends %d, %d not both drawn", tt.hotHi+1, hi)
			}
		})
	}
}

func TestSkewedLatest(t *testing.T) {
	t.Parallel()
	basis := NewAcknowledgedCounter(0)
	ackUpTo := func(last int64) {
		for basis.Last() < last {
			basis.Acknowledge(basis.Next())
		}
	}
	ackUpTo(999)
	s := NewSkewedLatest(basis)
	r := newRand(9)
	const draws = 300_000
	for _, last := range []int64{999, 4999} {
		ackUpTo(last)
		atLast, nearLast := 0, 0
		for range draws {
			v := s.Next(r)
			// YCSB's max - zipfian(max) never reaches 0.
			if v < 1 || v > last {
				t.Fatalf("Next = %d with last %d, outside [1, %d]", v, last, last)
			}
			if v == last {
				atLast++
			}
			if v > last-last/10 {
				nearLast++
			}
		}
		// The newest key is the zipfian's item 0, over last items: exact
		// whatever the growth.
		zn := zetaFrom(0, last, ZipfianConstant, 0)
		within(t, "P(last)", float64(atLast)/draws, 1/zn, fiveSigma(1/zn, draws))
		// Before growth, Gray's approximation holds the newest tenth's share
		// to within 0.02. After it, YCSB's eta keeps the construction-time
		// count and the share drifts lower (0.68 instead of 0.74 for a
		// fivefold growth), which this reproduces.
		wantTenth, tol := zetaFrom(0, last/10, ZipfianConstant, 0)/zn, 0.02
		if last != 999 {
			wantTenth, tol = 0.68, 0.01
		}
		within(t, "share of the newest tenth", float64(nearLast)/draws, wantTenth, tol)
	}
}

func TestSkewedLatestEmptyBasis(t *testing.T) {
	t.Parallel()
	for _, start := range []int64{0, 1, -5} {
		c := NewCounter(start) // Last is start-1: nothing handed out yet
		s := NewSkewedLatest(c)
		r := newRand(10)
		for range 100 {
			if got := s.Next(r); start <= 1 && got != start-1 {
				t.Fatalf("start %d: Next = %d, want %d", start, got, start-1)
			}
		}
	}
}

// CoreWorkload builds ExponentialGenerator(percentile, recordcount*frac) so
// that percentile% of draws fall within that range.
func TestExponential(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		percentile float64
		rangeSize  float64
	}{
		{"ycsb defaults, 1000 records", 95, 1000 * 0.8571428571},
		{"median", 50, 10_000},
		{"99th over a million", 99, 1e6},
	}
	const draws = 300_000
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := NewExponential(tt.percentile, tt.rangeSize)
			r := newRand(11)
			limit := int64(tt.rangeSize) // Next truncates: Next < limit iff the value < limit
			below := 0
			for range draws {
				v := e.Next(r)
				if v < 0 {
					t.Fatalf("Next = %d, negative", v)
				}
				if v < limit {
					below++
				}
			}
			gamma := -math.Log(1-tt.percentile/100) / tt.rangeSize
			p := 1 - math.Exp(-gamma*float64(limit))
			within(t, "share below the range", float64(below)/draws, p, fiveSigma(p, draws))
			within(t, "share below the range vs percentile", float64(below)/draws, tt.percentile/100, 0.005)
		})
	}
}

// NextUpTo must give Next's distribution truncated at the limit, in
// bounded time even when almost no draw of Next fits (a tiny percentile,
// where YCSB's redraws never end) and when the decay rate underflows.
func TestExponentialUpTo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		percentile float64
		rangeSize  float64
		limit      int64
	}{
		{"ycsb defaults, most draws fit", 95, 1000 * 0.8571428571, 1000},
		{"half the draws fit", 50, 10_000, 10_000},
		{"tiny percentile", 1e-300, 1e12 * 0.8571428571, 1e12},
		{"percentile below the smallest normal", 1e-310, 1000, 1000},
		{"decay rate underflows to 0", 1e-320, 1e12, 1e12},
		{"limit the largest key", 1e-9, 1e18, math.MaxInt64},
		{"huge decay rate", 95, 1e-300, 1000},
		{"limit 1", 1e-6, 10, 1},
		{"limit 0", 1e-6, 10, 0},
	}
	const draws = 200_000
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := NewExponential(tt.percentile, tt.rangeSize)
			r := newRand(12)
			q := tt.limit / 2
			atMostQ := 0
			for range draws {
				v := e.NextUpTo(r, tt.limit)
				if v < 0 || v > tt.limit {
					t.Fatalf("NextUpTo(%d) = %d", tt.limit, v)
				}
				if v <= q {
					atMostQ++
				}
			}
			// The truncated CDF at q; flat where the decay rate is too
			// small to tell the values apart.
			p := (float64(q) + 1) / (float64(tt.limit) + 1)
			if fits := -math.Expm1(-e.gamma * (float64(tt.limit) + 1)); fits > 0 {
				p = -math.Expm1(-e.gamma*(float64(q)+1)) / fits
			}
			within(t, "share at most half the limit", float64(atMostQ)/draws, p, fiveSigma(p, draws)+1e-9)
		})
	}
}

func TestDiscrete(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		weights []float64
		want    []float64 // expected share of each index
	}{
		{"workload a", []float64{0.5, 0.5, 0, 0, 0, 0}, []float64{0.5, 0.5, 0, 0, 0, 0}},
		{"workload b", []float64{0.95, 0.05}, []float64{0.95, 0.05}},
		{"not normalised", []float64{19, 1}, []float64{0.95, 0.05}},
		{"zero first", []float64{0, 3, 1}, []float64{0, 0.75, 0.25}},
		{"negative and NaN count as zero", []float64{-1, 1, math.NaN(), 1}, []float64{0, 0.5, 0, 0.5}},
		{"single", []float64{0.2}, []float64{1}},
	}
	const draws = 200_000
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := NewDiscrete(tt.weights)
			r := newRand(12)
			counts := make([]int, len(tt.weights))
			for range draws {
				i := d.Next(r)
				if i < 0 || i >= len(counts) {
					t.Fatalf("Next = %d, outside [0, %d)", i, len(counts))
				}
				counts[i]++
			}
			for i, p := range tt.want {
				if p == 0 && counts[i] != 0 {
					t.Errorf("index %d has weight 0 but was drawn %d times", i, counts[i])
				}
				within(t, "share", float64(counts[i])/draws, p, fiveSigma(p, draws))
			}
		})
	}
}

// Normalising by the sum, as YCSB does, means scaled weights choose the
// same indexes from the same random numbers.
func TestDiscreteScaleInvariant(t *testing.T) {
	t.Parallel()
	a, b := NewDiscrete([]float64{0.95, 0.05}), NewDiscrete([]float64{19, 1})
	ra, rb := newRand(13), newRand(13)
	for i := range 10_000 {
		if x, y := a.Next(ra), b.Next(rb); x != y {
			t.Fatalf("draw %d: %d from weights 0.95/0.05 but %d from 19/1", i, x, y)
		}
	}
}

func TestDiscreteEdges(t *testing.T) {
	t.Parallel()
	top := math.Nextafter(1, 0) // the largest value Float64 returns
	// These nine shares sum to 0.9999999999999999, so YCSB's walk runs
	// past the end for the largest draws.
	nine := make([]float64, 9)
	for i := range nine {
		nine[i] = (1 + float64(i%3)*0.1) / 9
	}
	tests := []struct {
		name    string
		weights []float64
		val     float64
		want    int
	}{
		{"rounding shortfall goes to the last choice", nine, top, 8},
		{"trailing zero weights are skipped", []float64{1, 1, 0, 0}, top, 1},
		{"first choice at zero", []float64{1, 1}, 0, 0},
		{"no positive weight", []float64{0, 0}, 0.5, -1},
		{"no weights", nil, 0.5, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := NewDiscrete(tt.weights).pick(tt.val); got != tt.want {
				t.Errorf("pick(%v) = %d, want %d", tt.val, got, tt.want)
			}
		})
	}
	sum := 0.0
	for _, s := range NewDiscrete(nine).shares {
		sum += s
	}
	if sum >= 1 {
		t.Errorf("the nine shares sum to %v; the test needs a sum below 1 to reach the fallback", sum)
	}
}
