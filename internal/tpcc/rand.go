package tpcc

import (
	"math/rand/v2"
)

// Rand draws TPC-C's random values (clause 2.1.6 and 4.3.2) from a
// seeded source. The loader makes one per row from the seed and the row's
// keys, so that every loaded value is a pure function of them: a
// partitioned load, or a load in another order, writes the same data.
type Rand struct {
	r *rand.Rand
	c NURandC
}

// NURandC holds the run-time constants C of NURand(A, x, y) for A = 255
// (last names), 1023 (customer ids) and 8191 (item ids).
type NURandC struct {
	CLast, CID, COLIID int
}

// splitmix64 is a well-mixed 64-bit hash step: distinct inputs make
// seeds that share no structure, which a PCG seeded with neighbouring
// keys would otherwise show.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// keyed mixes seed and keys into two words for a PCG.
func keyed(seed uint64, keys ...uint64) (uint64, uint64) {
	h := splitmix64(seed)
	for _, k := range keys {
		h = splitmix64(h ^ k)
	}
	return h, splitmix64(h ^ 0x5851f42d4c957f2d)
}

// NewRand returns a source seeded from seed and keys, drawing NURand with
// the constants c.
func NewRand(c NURandC, seed uint64, keys ...uint64) *Rand {
	a, b := keyed(seed, keys...)
	return &Rand{r: rand.New(rand.NewPCG(a, b)), c: c}
}

// Tags that keep the row sources of different tables apart.
const (
	tagItem uint64 = iota + 1
	tagWarehouse
	tagDistrict
	tagCustomer
	tagHistory
	tagOrder
	tagStock
	tagPermutation
	tagConstants
	tagWorker
)

// LoadConstants are the NURand constants the load draws last names with,
// from the seed.
func LoadConstants(seed uint64) NURandC {
	r := NewRand(NURandC{}, seed, tagConstants)
	return NURandC{CLast: r.Number(0, 255), CID: r.Number(0, 1023), COLIID: r.Number(0, 8191)}
}

// validRunCLast is clause 2.1.6.1's rule on the distance between the
// load's and the run's C for last names.
func validRunCLast(run, load int) bool {
	d := run - load
	if d < 0 {
		d = -d
	}
	return d >= 65 && d <= 119 && d != 96 && d != 112
}

// RunConstants are the NURand constants of a run: C for last names at a
// distance from the load's that clause 2.1.6.1 allows, the others drawn
// afresh, all from the run's seed.
func RunConstants(load NURandC, runSeed uint64) NURandC {
	r := NewRand(NURandC{}, runSeed, tagConstants, 1)
	c := NURandC{CID: r.Number(0, 1023), COLIID: r.Number(0, 8191)}
	for {
		c.CLast = r.Number(0, 255)
		if validRunCLast(c.CLast, load.CLast) {
			return c
		}
	}
}

// Number is uniform in [lo, hi].
func (r *Rand) Number(lo, hi int) int { return lo + r.r.IntN(hi-lo+1) }

// NumberExcluding is uniform in [lo, hi] without ex (lo <= ex <= hi < ...).
func (r *Rand) NumberExcluding(lo, hi, ex int) int {
	n := r.Number(lo, hi-1)
	if n >= ex {
		n++
	}
	return n
}

// FixedPoint is uniform in [lo, hi] with the given decimals.
func (r *Rand) FixedPoint(decimals int, lo, hi float64) float64 {
	m := 1.0
	for range decimals {
		m *= 10
	}
	return float64(r.Number(int(lo*m+0.5), int(hi*m+0.5))) / m
}

// NURand is clause 2.1.6's non-uniform random number; a is 255, 1023 or
// 8191.
func (r *Rand) NURand(a, x, y int) int {
	var c int
	switch a {
	case 255:
		c = r.c.CLast
	case 1023:
		c = r.c.CID
	default:
		c = r.c.COLIID
	}
	return (((r.Number(0, a) | r.Number(x, y)) + c) % (y - x + 1)) + x
}

// AString is a random alphabetic string of length lo to hi.
func (r *Rand) AString(lo, hi int) string { return r.str(lo, hi, 'a', 26) }

// NString is a random numeric string of length lo to hi.
func (r *Rand) NString(lo, hi int) string { return r.str(lo, hi, '0', 10) }

func (r *Rand) str(lo, hi int, base byte, n int) string {
	b := make([]byte, r.Number(lo, hi))
	for i := range b {
		b[i] = base + byte(r.r.IntN(n))
	}
	return string(b)
}

// RandomLastName is a non-uniform last name (clause 4.3.2.3) among the
// first min(customers, 1000) names.
func (r *Rand) RandomLastName(customers int) string {
	return LastName(r.NURand(255, 0, min(999, customers-1)))
}

// CustomerID is NURand(1023, 1, customers).
func (r *Rand) CustomerID(customers int) int { return r.NURand(1023, 1, customers) }

// ItemID is NURand(8191, 1, items).
func (r *Rand) ItemID(items int) int { return r.NURand(8191, 1, items) }

// zip is clause 4.3.2.7's zip code: four digits and "11111".
func (r *Rand) zip() string { return r.NString(4, 4) + "11111" }

// withOriginal puts "ORIGINAL" at a random place in s, keeping its length.
func (r *Rand) withOriginal(s string) string {
	p := r.Number(0, len(s)-len(originalString))
	return s[:p] + originalString + s[p+len(originalString):]
}

// permutation is a shuffle of 1..n, from the seed and keys: the loader's
// choice of which customers have bad credit, which items are "ORIGINAL",
// and which customer placed each initial order.
func permutation(seed uint64, n int, keys ...uint64) []int {
	a, b := keyed(seed, append([]uint64{tagPermutation}, keys...)...)
	r := rand.New(rand.NewPCG(a, b))
	p := make([]int, n)
	for i := range p {
		p[i] = i + 1
	}
	r.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}
