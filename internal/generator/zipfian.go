package generator

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
)

// ZipfianConstant is YCSB's ZipfianGenerator.ZIPFIAN_CONSTANT, the skew that
// requestdistribution=zipfian and the zipfian length distributions use.
const ZipfianConstant = 0.99

// Zipfian picks integers from [min, max] with a zipfian skew: min is the
// most popular, min+1 the next, and so on. It is YCSB's ZipfianGenerator,
// the algorithm of Gray et al., "Quickly Generating Billion-Record Synthetic
// Databases", SIGMOD 1994.
//
// A Zipfian is safe to share. Its item count can grow while in use (see
// NextN). The parameters that depend on the count sit behind a sequence
// lock: draws read them without writing shared memory or allocating, and
// only growth, which is rare, takes a mutex.
type Zipfian struct {
	base  int64
	items int64 // the count given at construction, which Next draws from

	theta        float64
	alpha        float64 // 1/(1-theta)
	zeta2theta   float64 // zeta(2, theta)
	halfPowTheta float64 // 0.5^theta, the second item's share of zeta
	// etaNumerator is 1-(2/items)^(1-theta) for the construction-time item
	// count. YCSB keeps using that count here even after the item count has
	// grown; so does this, so that the two tools draw the same distribution.
	etaNumerator float64

	// The zipfState, published under the sequence lock seq: odd while a
	// grower is storing, and changed by every store.
	seq          atomic.Uint64
	countForZeta atomic.Int64
	zetanBits    atomic.Uint64 // float64 bits
	etaBits      atomic.Uint64 // float64 bits
	growMu       sync.Mutex    // serialises growers
}

// zipfState is what depends on the item count.
type zipfState struct {
	countForZeta int64
	zetan        float64
	eta          float64
}

var _ Chooser = (*Zipfian)(nil)

// NewZipfian returns a Zipfian over [min, max] with YCSB's constant 0.99.
// It takes constant time whatever the range (see zeta).
func NewZipfian(min, max int64) *Zipfian {
	return NewZipfianWithConstant(min, max, ZipfianConstant)
}

// NewZipfianWithConstant returns a Zipfian over [min, max] with the given
// zipfian constant (theta), which must be in (0, 1). With max < min the
// distribution is empty and Next always returns min.
func NewZipfianWithConstant(min, max int64, theta float64) *Zipfian {
	return newZipfian(min, max, theta, zeta(max-min+1, theta))
}

// newZipfian is YCSB's constructor that takes a precomputed zeta(n).
func newZipfian(min, max int64, theta, zetan float64) *Zipfian {
	items := max - min + 1
	z := &Zipfian{
		base:         min,
		items:        items,
		theta:        theta,
		alpha:        1 / (1 - theta),
		zeta2theta:   zetaFrom(0, 2, theta, 0),
		halfPowTheta: math.Pow(0.5, theta),
		etaNumerator: 1 - math.Pow(2.0/float64(items), 1-theta),
	}
	z.publish(zipfState{countForZeta: items, zetan: zetan, eta: z.eta(zetan)})
	return z
}

// snapshot reads the current zipfState.
func (z *Zipfian) snapshot() zipfState {
	for {
		s := z.seq.Load()
		if s&1 == 0 {
			st := zipfState{
				countForZeta: z.countForZeta.Load(),
				zetan:        math.Float64frombits(z.zetanBits.Load()),
				eta:          math.Float64frombits(z.etaBits.Load()),
			}
			if z.seq.Load() == s {
				return st
			}
		}
		// A grower is between its stores, a few instructions long.
		runtime.Gosched()
	}
}

// publish stores st; the caller holds growMu or is the constructor.
func (z *Zipfian) publish(st zipfState) {
	z.seq.Add(1)
	z.countForZeta.Store(st.countForZeta)
	z.zetanBits.Store(math.Float64bits(st.zetan))
	z.etaBits.Store(math.Float64bits(st.eta))
	z.seq.Add(1)
}

func (z *Zipfian) eta(zetan float64) float64 {
	return z.etaNumerator / (1 - z.zeta2theta/zetan)
}

// Next returns the next value, in [min, max].
func (z *Zipfian) Next(r *rand.Rand) int64 {
	return z.NextN(r, z.items)
}

// NextN draws from the first itemcount items, min to min+itemcount-1: YCSB's
// ZipfianGenerator.nextLong(itemcount). A count larger than any seen before
// extends zeta (incrementally for small growth) and is kept for later
// draws; this is how a chooser follows a growing key space. A count smaller
// than one already seen keeps the larger zeta, as YCSB does by default,
// since it usually comes from a goroutine that read the count a moment
// before another one grew it.
func (z *Zipfian) NextN(r *rand.Rand, itemcount int64) int64 {
	st := z.snapshot()
	if itemcount > st.countForZeta {
		st = z.grow(itemcount)
	}
	u := r.Float64()
	uz := u * st.zetan
	if uz < 1.0 {
		return z.base
	}
	if uz < 1.0+z.halfPowTheta {
		return z.base + 1
	}
	// The explicit conversion stops the compiler fusing the multiply-add,
	// so every platform rounds as Java does.
	v := javaLong(float64(itemcount) * math.Pow(float64(st.eta*u)-st.eta+1, z.alpha))
	// When u is within 2^-48 of 1 the power rounds to exactly 1 and YCSB
	// returns one past the last item; stay inside the range instead.
	if v >= itemcount {
		v = itemcount - 1
	}
	return z.base + v
}

// grow publishes the state for a larger item count. Several goroutines may
// see the same new count at once; the lock makes one of them do the work.
func (z *Zipfian) grow(itemcount int64) zipfState {
	z.growMu.Lock()
	defer z.growMu.Unlock()
	st := z.snapshot()
	if itemcount <= st.countForZeta {
		return st
	}
	var zetan float64
	if itemcount-st.countForZeta <= zetaGrowthSummed {
		zetan = zetaFrom(st.countForZeta, itemcount, z.theta, st.zetan)
	} else {
		zetan = zeta(itemcount, z.theta)
	}
	st = zipfState{countForZeta: itemcount, zetan: zetan, eta: z.eta(zetan)}
	z.publish(st)
	return st
}

// javaLong converts like Java's (long) cast: truncation toward zero, NaN to
// 0, and saturation at the ends, where Go's conversion is undefined.
func javaLong(f float64) int64 {
	switch {
	case f != f:
		return 0
	case f >= 1<<63:
		return math.MaxInt64
	case f <= -(1 << 63):
		return math.MinInt64
	}
	return int64(f)
}

// zetaFrom is YCSB's zetastatic(st, n, theta, initialsum): the sum of
// 1/i^theta for i in (st, n], added to initialsum. Continuing from a
// partial sum adds the same terms in the same order as starting from
// scratch, so the result is bit-identical either way.
//
// Each term is exp(-theta*log(i)) rather than 1/pow(i, theta): the same to
// within an ulp or two (neither matches Java's Math.pow bit for bit
// anyway) and over twice as fast, which is seconds saved on 10^8 items.
func zetaFrom(st, n int64, theta, initialsum float64) float64 {
	sum := initialsum
	for i := st; i < n; i++ {
		sum += math.Exp(-theta * math.Log(float64(i+1)))
	}
	return sum
}

// zetaExactMax is the largest item count whose zeta is the plain sum, as
// YCSB computes it: below a millisecond of work. Above it the sum would
// take time in proportion to the count (hours for 10^12 items, and a
// zipfian over a large key space is built whenever a run starts), so zeta
// is computed in constant time instead (zetaApprox).
const zetaExactMax = 1 << 16

// zetaHead is where zetaApprox stops summing and starts approximating: far
// enough out that the correction terms it leaves off are below 1e-20.
const zetaHead = 1024

// zeta returns zeta(n, theta): the sum of 1/i^theta for i in [1, n].
func zeta(n int64, theta float64) float64 {
	if n <= 0 {
		return 0
	}
	if n <= zetaExactMax {
		return zetaFrom(0, n, theta, 0)
	}
	return zetaApprox(n, theta)
}

// zetaApprox is zeta(n, theta) for n > zetaHead: the first zetaHead-1
// terms summed, the rest by the Euler-Maclaurin formula for f(x) = x^-theta
// over [a, n] with a = zetaHead,
//
//	integral of f + (f(a)+f(n))/2 + sum over k = 1, 2, 3 of B(2k)/(2k)! (f^(2k-1)(n) - f^(2k-1)(a))
//
// whose remainder is below 1e-20 for any theta in (0, 1): closer to the
// true sum than adding the terms one by one, whose rounding errors add up
// to about 1e-13 over 10^9 terms.
func zetaApprox(n int64, theta float64) float64 {
	a, b := float64(zetaHead), float64(n)
	// pow(x, k) is the k-th derivative of f at x.
	pow := func(x float64, k int) float64 {
		c := 1.0
		for j := range k {
			c *= -(theta + float64(j))
		}
		return c * math.Exp(-(theta+float64(k))*math.Log(x))
	}
	// (b^(1-theta) - a^(1-theta)) / (1-theta), without the cancellation
	// that subtracting two powers close to 1 brings for theta near 1.
	integral := pow(a, 0) * a * math.Expm1((1-theta)*math.Log(b/a)) / (1 - theta)
	// Bernoulli numbers over factorials: B2/2! = 1/12, B4/4! = -1/720, B6/6! = 1/30240.
	tail := integral + (pow(a, 0)+pow(b, 0))/2 +
		(pow(b, 1)-pow(a, 1))/12 -
		(pow(b, 3)-pow(a, 3))/720 +
		(pow(b, 5)-pow(a, 5))/30240
	return zetaFrom(0, zetaHead-1, theta, 0) + tail
}

// zetaGrowthSummed is the largest growth of the item count by which zeta
// is extended by adding the new terms; beyond it, zeta is computed afresh.
const zetaGrowthSummed = 1 << 16

// YCSB's ScrambledZipfianGenerator draws from a fixed, huge item space and
// hashes the result into the key range, using a zeta it computed once.
const (
	// ScrambledItemCount is YCSB's ScrambledZipfianGenerator.ITEM_COUNT.
	ScrambledItemCount = 10_000_000_000
	// ScrambledZetan is YCSB's ScrambledZipfianGenerator.ZETAN, zeta of
	// ScrambledItemCount items with constant 0.99.
	ScrambledZetan = 26.46902820178302
)

// ScrambledZipfian is YCSB's ScrambledZipfianGenerator: zipfian popularity,
// but with the popular items scattered over [min, max] by FNVHash64 instead
// of clustered at min. This is what requestdistribution=zipfian uses for
// keys. It is immutable and safe to share.
type ScrambledZipfian struct {
	min  int64
	span uint64 // max-min+1; 0 stands for the whole 2^64 range
	gen  *Zipfian
}

var _ Chooser = (*ScrambledZipfian)(nil)

// NewScrambledZipfian returns a ScrambledZipfian over [min, max]. It costs
// nothing to build whatever the range, since the zeta it needs is YCSB's
// precomputed constant. Bounds in the wrong order are swapped.
func NewScrambledZipfian(min, max int64) *ScrambledZipfian {
	if min > max {
		min, max = max, min
	}
	return &ScrambledZipfian{
		min:  min,
		span: uint64(max-min) + 1,
		// YCSB passes (0, ITEM_COUNT), so the underlying generator has
		// ITEM_COUNT+1 items but the zeta of ITEM_COUNT; keep both quirks.
		gen: newZipfian(0, ScrambledItemCount, ZipfianConstant, ScrambledZetan),
	}
}

// NextUpTo returns a value in [min, limit] (limit at most max): the same
// zipfian popularity scattered over that smaller range. CoreWorkload uses
// it where redrawing until Next's value exists would take too long, when
// the range leaves room for far more new keys than there are keys.
func (s *ScrambledZipfian) NextUpTo(r *rand.Rand, limit int64) int64 {
	h := uint64(FNVHash64(s.gen.Next(r)))
	span := uint64(limit-s.min) + 1
	if limit < s.min || (s.span != 0 && span > s.span) {
		span = s.span
	}
	if span != 0 {
		h %= span
	}
	return int64(uint64(s.min) + h)
}

// Next returns the next value, in [min, max].
func (s *ScrambledZipfian) Next(r *rand.Rand) int64 {
	// Unsigned arithmetic keeps the one hash that Math.abs leaves negative
	// (math.MinInt64) inside the range, where YCSB's % would leave it below.
	h := uint64(FNVHash64(s.gen.Next(r)))
	if s.span != 0 {
		h %= s.span
	}
	return int64(uint64(s.min) + h)
}
