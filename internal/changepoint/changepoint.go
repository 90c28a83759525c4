// Package changepoint finds where a series of benchmark results shifted:
// E-Divisive with means (Matteson and James, 2014), the method MongoDB's
// performance CI uses on its noisy history (Daly et al., "The Use of
// Change Point Detection to Identify Software Performance Regressions in
// a Continuous Integration System", ICPE 2020) and Apache Otava after it.
//
// The series is split where the energy statistic between its two sides
// is largest; a permutation test says whether that split could come from
// shuffling the same values, and only a significant one is kept; then
// each side is searched again, the best split of all segments first,
// until none is significant. The permutations are drawn from a fixed
// seed, so the same series always gives the same answer.
package changepoint

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
)

// Options tune the detection.
type Options struct {
	// MinSize is the fewest values a segment may hold (default 3): a
	// change is found once that many runs follow it.
	MinSize int
	// Permutations is the number of shuffles of the permutation test
	// (default 199).
	Permutations int
	// PValue is the significance a change point must reach (default 0.01).
	PValue float64
	// Seed seeds the permutations (default 1).
	Seed uint64
}

func (o Options) withDefaults() Options {
	if o.MinSize < 2 {
		o.MinSize = 3
	}
	if o.Permutations <= 0 {
		o.Permutations = 199
	}
	if o.PValue <= 0 {
		o.PValue = 0.01
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// Change is one change point.
type Change struct {
	// Index is the first value after the change.
	Index int
	// Before and After are the means of the segments on either side,
	// between the neighbouring change points (or the ends).
	Before, After float64
	// P is the permutation test's p-value when the change was found.
	P float64
}

// Rel is the change relative to the mean before it: +0.10 for a rise of
// 10%; NaN when the mean before is 0.
func (c Change) Rel() float64 {
	if c.Before == 0 {
		return math.NaN()
	}
	return (c.After - c.Before) / c.Before
}

// Detect returns the significant change points of xs, in index order.
func Detect(xs []float64, o Options) ([]Change, error) {
	o = o.withDefaults()
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, errors.New("changepoint: the series holds a value that is not a number")
		}
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x6d6f6e676f62656e))
	bounds := []int{0, len(xs)} // segment ends, sorted
	ps := map[int]float64{}
	for {
		// The best split over every segment.
		bestQ, bestAt, bestSeg := 0.0, -1, -1
		for s := 0; s+1 < len(bounds); s++ {
			seg := xs[bounds[s]:bounds[s+1]]
			at, q := bestSplit(seg, o.MinSize)
			if at >= 0 && q > bestQ {
				bestQ, bestAt, bestSeg = q, bounds[s]+at, s
			}
		}
		if bestAt < 0 {
			break
		}
		seg := slices.Clone(xs[bounds[bestSeg]:bounds[bestSeg+1]])
		exceed := 0
		for range o.Permutations {
			rng.Shuffle(len(seg), func(i, j int) { seg[i], seg[j] = seg[j], seg[i] })
			if _, q := bestSplit(seg, o.MinSize); q >= bestQ {
				exceed++
			}
		}
		p := float64(exceed+1) / float64(o.Permutations+1)
		if p > o.PValue {
			break
		}
		ps[bestAt] = p
		bounds = append(bounds, bestAt)
		slices.Sort(bounds)
	}
	var out []Change
	for i := 1; i+1 < len(bounds); i++ {
		at := bounds[i]
		out = append(out, Change{Index: at, Before: mean(xs[bounds[i-1]:at]), After: mean(xs[at:bounds[i+1]]), P: ps[at]})
	}
	return out, nil
}

// bestSplit finds the split τ of xs with the largest energy statistic
// of Matteson and James between xs[:τ] and xs[τ:κ], over every κ:
//
//	q(τ,κ) = τ(κ−τ)/κ · (2/(τ(κ−τ)) Σ|xi−xj| − 1/C(τ,2) Σ|xi−xk| − 1/C(κ−τ,2) Σ|xj−xk|)
//
// (across the split, within the left, within the right), both sides at
// least minSize long; -1 when xs is too short to split. Searching κ too
// lets a change that is undone later (a regression, then its fix) stand
// out from the values after the fix. The within-sums of every interval
// come from one table, so a segment costs O(n²).
func bestSplit(xs []float64, minSize int) (at int, q float64) {
	n := len(xs)
	if n < 2*minSize {
		return -1, 0
	}
	// w[a][b−a]: Σ |xi−xk| over a ≤ i < k < b, for b ≤ n.
	w := make([][]float64, n+1)
	for a := n; a >= 0; a-- {
		w[a] = make([]float64, n-a+1)
		// c: Σ_{a≤i<b} |xi−xb|, carried along b.
		for b := a + 1; b <= n; b++ {
			var c float64
			if b-1 >= a+1 {
				// w[a][b] = w[a][b−1] + Σ_{a≤i<b−1} |xi−x(b−1)|
				//         = w[a][b−1] + (w[a+1][b]−w[a+1][b−1]) + |xa−x(b−1)|
				c = w[a+1][b-a-1] - w[a+1][b-1-a-1] + abs(xs[a]-xs[b-1])
			}
			w[a][b-a] = w[a][b-1-a] + c
		}
	}
	within := func(a, b int) float64 { return w[a][b-a] }
	at, q = -1, math.Inf(-1)
	for t := minSize; t <= n-minSize; t++ {
		l := float64(t)
		inL := within(0, t)
		for k := t + minSize; k <= n; k++ {
			r := float64(k - t)
			inR := within(t, k)
			across := within(0, k) - inL - inR
			e := 2*across/(l*r) - inL/(l*(l-1)/2) - inR/(r*(r-1)/2)
			if s := l * r / (l + r) * e; s > q {
				at, q = t, s
			}
		}
	}
	return at, q
}

func abs(x float64) float64 { return math.Abs(x) }

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
