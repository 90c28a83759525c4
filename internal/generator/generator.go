// Package generator holds YCSB's number generators: the distributions that
// choose keys, operations, scan lengths and field lengths.
//
// Every generator follows the algorithm of its YCSB counterpart
// (site.ycsb.generator.*) so that a workload file means the same thing to
// mongobench as to YCSB. They differ from YCSB in two ways that do not change
// the distributions: randomness comes from a *rand.Rand that the caller owns
// (one per worker, so runs are reproducible from a seed and no lock or
// thread-local lookup sits on the hot path), and counts are 64-bit throughout.
//
// Choosers built by the New functions are immutable after construction, or
// synchronise internally, so one instance may be shared by all workers.
package generator

import "math/rand/v2"

// Chooser picks a number. Implementations are safe for concurrent use as
// long as each goroutine passes its own *rand.Rand.
type Chooser interface {
	Next(r *rand.Rand) int64
}

// FNV-1 64-bit parameters, as YCSB's Utils declares them.
const (
	fnvOffsetBasis64 = 0xCBF29CE484222325
	fnvPrime64       = 1099511628211
)

// FNVHash64 is YCSB's Utils.fnvhash64: FNV-1 over the eight bytes of v, low
// byte first, made non-negative with Java's Math.abs. It turns key numbers
// into the hashed keys of insertorder=hashed ("user6284781860667377211" for
// key 0), so it must match YCSB bit for bit.
//
// Like Math.abs, it returns math.MinInt64 unchanged in the one case where the
// hash is exactly that value.
func FNVHash64(v int64) int64 {
	h := uint64(fnvOffsetBasis64)
	for range 8 {
		h ^= uint64(v) & 0xff
		h *= fnvPrime64
		// Java's >> is an arithmetic shift, and so is Go's on int64: negative
		// inputs shift in ones, which the hash must reproduce.
		v >>= 8
	}
	s := int64(h)
	if s < 0 {
		s = -s // wraps for math.MinInt64, exactly as Math.abs does
	}
	return s
}
