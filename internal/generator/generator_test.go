package generator

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/golden"
)

// newRand returns the seeded source a test draws from, so every run sees the
// same numbers and a tolerance that holds once holds always.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x5eed))
}

// within fails t unless got is within tol of want.
func within(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.5f, want %.5f ± %.5f", what, got, want, tol)
	}
}

// fiveSigma is the tolerance for an observed frequency of an event with
// probability p over n independent draws.
func fiveSigma(p float64, n int) float64 {
	return 5 * math.Sqrt(p*(1-p)/float64(n))
}

// The expected hashes were computed independently with this Python, which
// reproduces Java's 64-bit wrap-around, its arithmetic >> on negative
// numbers and Math.abs (which leaves Long.MIN_VALUE negative):
//
//	M = (1 << 64) - 1
//	def fnv(v):
//	    h = 0xCBF29CE484222325
//	    for _ in range(8):
//	        h = ((h ^ (v & 0xff)) * 1099511628211) & M
//	        v >>= 8
//	    h = h - (1 << 64) if h >> 63 else h
//	    return h if h == -(1 << 63) else abs(h)
func TestFNVHash64(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want int64
	}{
		{0, 6284781860667377211}, // YCSB's first hashed key: user6284781860667377211
		{1, 8517097267634966620},
		{2, 1820151046732198393},
		{3, 4052466453699787802},
		{42, 55488592825689361},
		{1000, 5952875239596136740},
		{999999, 2744965632448235251},
		{12345678, 2115995694829345612},
		{math.MaxInt32, 627943977067101855},
		{math.MaxInt32 + 1, 5860980763039959109}, // past YCSB's int keys
		{10_000_000_000, 1201321332300452516},
		{-1, 8289690350564177859}, // arithmetic shift of negative values
		{-2, 280853605209635300},
		{math.MaxInt64, 8289549613075766851},
		{math.MinInt64, 6284922598155788219},
	}
	for _, tt := range tests {
		if got := FNVHash64(tt.in); got != tt.want {
			t.Errorf("FNVHash64(%d) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// goldenChoosers builds one of each chooser with fixed parameters; the
// golden file pins their seeded sequences so that a change in any algorithm
// (and so in the keys a seeded run touches) is seen and reviewed.
func goldenChoosers(t *testing.T) []struct {
	name string
	c    Chooser
} {
	latestBasis := NewCounter(1000)
	for range 1000 {
		latestBasis.Next()
	}
	hist, err := NewHistogram(8, []int64{5, 0, 3, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	return []struct {
		name string
		c    Chooser
	}{
		{"uniform(0,999)", NewUniform(0, 999)},
		{"zipfian(0,999)", NewZipfian(0, 999)},
		{"zipfian(1,1000,0.5)", NewZipfianWithConstant(1, 1000, 0.5)},
		{"scrambledzipfian(0,999999)", NewScrambledZipfian(0, 999_999)},
		{"hotspot(0,999,0.2,0.8)", NewHotspot(0, 999, 0.2, 0.8)},
		{"exponential(95,857.14)", NewExponential(95, 1000*0.8571428571)},
		{"skewedlatest(1999)", NewSkewedLatest(latestBasis)},
		{"sequential(5,9)", NewSequential(5, 9)},
		{"histogram(8)", hist},
		{"constant(100)", NewConstant(100)},
	}
}

func TestGoldenSequences(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for _, g := range goldenChoosers(t) {
		r := newRand(1)
		fmt.Fprintf(&b, "%s:", g.name)
		for range 16 {
			fmt.Fprintf(&b, " %d", g.c.Next(r))
		}
		b.WriteByte('\n')
	}
	d := NewDiscrete([]float64{0.5, 0.25, 0, 0.25})
	r := newRand(1)
	b.WriteString("discrete(0.5,0.25,0,0.25):")
	for range 16 {
		fmt.Fprintf(&b, " %d", d.Next(r))
	}
	b.WriteByte('\n')

	golden.Check(t, "sequences.golden", b.String())
}

// Every Next sits on a worker's per-operation path, which must not
// allocate.
func TestNextDoesNotAllocate(t *testing.T) {
	r := newRand(1)
	for _, g := range goldenChoosers(t) {
		if n := testing.AllocsPerRun(1000, func() { g.c.Next(r) }); n != 0 {
			t.Errorf("%s: Next allocates %v times per call", g.name, n)
		}
	}
	d := NewDiscrete([]float64{0.95, 0.05})
	if n := testing.AllocsPerRun(1000, func() { d.Next(r) }); n != 0 {
		t.Errorf("Discrete.Next allocates %v times per call", n)
	}
	c := NewCounter(0)
	if n := testing.AllocsPerRun(1000, func() { c.Next() }); n != 0 {
		t.Errorf("Counter.Next allocates %v times per call", n)
	}
	a := NewAcknowledgedCounter(0)
	if n := testing.AllocsPerRun(1000, func() { a.Acknowledge(a.Next()) }); n != 0 {
		t.Errorf("AcknowledgedCounter Next+Acknowledge allocates %v times per call", n)
	}
	var sink int64
	if n := testing.AllocsPerRun(1000, func() { sink += FNVHash64(sink) }); n != 0 {
		t.Errorf("FNVHash64 allocates %v times per call", n)
	}
}
