package generator

import (
	"path/filepath"
	"testing"
)

// benchChooser measures one worker drawing from c.
func benchChooser(b *testing.B, c Chooser) {
	r := newRand(1)
	b.ReportAllocs()
	var sink int64
	for b.Loop() {
		sink += c.Next(r)
	}
	_ = sink
}

// benchChooserParallel measures all workers drawing from one shared c,
// each with its own source, as a run does.
func benchChooserParallel(b *testing.B, c Chooser) {
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		r := newRand(1)
		var sink int64
		for pb.Next() {
			sink += c.Next(r)
		}
		_ = sink
	})
}

func BenchmarkUniform(b *testing.B) { benchChooser(b, NewUniform(0, 999_999_999)) }

func BenchmarkZipfian(b *testing.B) { benchChooser(b, NewZipfian(1, 1000)) }

func BenchmarkZipfianParallel(b *testing.B) { benchChooserParallel(b, NewZipfian(1, 1000)) }

func BenchmarkScrambledZipfian(b *testing.B) {
	benchChooser(b, NewScrambledZipfian(0, 999_999_999))
}

func BenchmarkScrambledZipfianParallel(b *testing.B) {
	benchChooserParallel(b, NewScrambledZipfian(0, 999_999_999))
}

func BenchmarkHotspot(b *testing.B) { benchChooser(b, NewHotspot(0, 999_999, 0.2, 0.8)) }

func BenchmarkExponential(b *testing.B) {
	benchChooser(b, NewExponential(95, 1_000_000*0.8571428571))
}

func BenchmarkSkewedLatest(b *testing.B) {
	c := NewAcknowledgedCounter(0)
	for range 10_000 {
		c.Acknowledge(c.Next())
	}
	benchChooser(b, NewSkewedLatest(c))
}

// Inserts acknowledged while reads draw: the zipfian grows on most draws.
func BenchmarkSkewedLatestGrowing(b *testing.B) {
	c := NewAcknowledgedCounter(0)
	for range 10_000 {
		c.Acknowledge(c.Next())
	}
	s := NewSkewedLatest(c)
	r := newRand(1)
	b.ReportAllocs()
	var sink int64
	for b.Loop() {
		c.Acknowledge(c.Next())
		sink += s.Next(r)
	}
	_ = sink
}

func BenchmarkSequentialParallel(b *testing.B) { benchChooserParallel(b, NewSequential(0, 999)) }

func BenchmarkHistogram(b *testing.B) {
	h, err := LoadHistogram(filepath.Join("testdata", "hist.txt"))
	if err != nil {
		b.Fatal(err)
	}
	benchChooser(b, h)
}

func BenchmarkConstant(b *testing.B) { benchChooser(b, NewConstant(100)) }

func BenchmarkDiscrete(b *testing.B) {
	d := NewDiscrete([]float64{0.95, 0.05, 0, 0, 0, 0})
	r := newRand(1)
	b.ReportAllocs()
	var sink int
	for b.Loop() {
		sink += d.Next(r)
	}
	_ = sink
}

func BenchmarkCounterParallel(b *testing.B) {
	c := NewCounter(0)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.Next()
		}
	})
}

func BenchmarkAcknowledgedCounterParallel(b *testing.B) {
	c := NewAcknowledgedCounter(0)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.Acknowledge(c.Next())
		}
	})
}

// Inserts that finish out of order, as they do across many threads: each
// goroutine acknowledges its ids in batches of 16, newest first, so that
// most acknowledgements wait behind a gap and a late one moves the limit
// over the run behind it.
func BenchmarkAcknowledgedCounterOutOfOrder(b *testing.B) {
	c := NewAcknowledgedCounter(0)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		var held [16]int64
		n := 0
		for pb.Next() {
			held[n] = c.Next()
			if n++; n == len(held) {
				for n > 0 {
					n--
					c.Acknowledge(held[n])
				}
			}
		}
		for n > 0 {
			n--
			c.Acknowledge(held[n])
		}
	})
	if got, want := c.Last(), c.Next()-1; got != want {
		b.Fatalf("Last = %d once every id is acknowledged, want %d", got, want)
	}
}

func BenchmarkFNVHash64(b *testing.B) {
	b.ReportAllocs()
	var sink int64
	for i := int64(0); b.Loop(); i++ {
		sink += FNVHash64(i)
	}
	_ = sink
}

// Building a zipfian costs the same over any key space: zeta is summed
// over the first thousand items only.
func BenchmarkNewZipfian1T(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		NewZipfian(0, 1_000_000_000_000-1)
	}
}
