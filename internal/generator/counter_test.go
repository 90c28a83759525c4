package generator

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

func TestCounterConcurrent(t *testing.T) {
	t.Parallel()
	const start, workers, each = 1000, 8, 5000
	c := NewCounter(start)
	if got := c.Last(); got != start-1 {
		t.Fatalf("Last before any Next = %d, want %d", got, start-1)
	}
	got := make([][]int64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for range each {
				got[w] = append(got[w], c.Next())
			}
		})
	}
	wg.Wait()
	all := slices.Concat(got...)
	slices.Sort(all)
	for i, v := range all {
		if v != start+int64(i) {
			t.Fatalf("values handed out are not %d..%d: position %d holds %d", start, start+workers*each-1, i, v)
		}
	}
	if got, want := c.Last(), int64(start+workers*each-1); got != want {
		t.Errorf("Last = %d, want %d", got, want)
	}
}

func TestSequential(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		lb, ub int64
		want   []int64
	}{
		{"wraps around", 5, 7, []int64{5, 6, 7, 5, 6, 7, 5}},
		{"single value", 3, 3, []int64{3, 3, 3}},
		{"swapped bounds", 2, 0, []int64{0, 1, 2, 0}},
		{"negative", -2, -1, []int64{-2, -1, -2}},
		{"whole int64 range", math.MinInt64, math.MaxInt64, []int64{math.MinInt64, math.MinInt64 + 1, math.MinInt64 + 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewSequential(tt.lb, tt.ub)
			var got []int64
			for range tt.want {
				got = append(got, s.Next(nil))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// Shared by all workers, the cycle must still visit every value equally.
func TestSequentialConcurrent(t *testing.T) {
	t.Parallel()
	const lb, n, workers, rounds = 10, 100, 8, 30
	s := NewSequential(lb, lb+n-1)
	var counts [n]atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range n * rounds {
				counts[s.Next(nil)-lb].Add(1)
			}
		})
	}
	wg.Wait()
	for v := range counts {
		if got := counts[v].Load(); got != workers*rounds {
			t.Errorf("value %d drawn %d times, want %d", v+lb, got, workers*rounds)
		}
	}
}

func TestAcknowledgedCounterSequence(t *testing.T) {
	t.Parallel()
	c := NewAcknowledgedCounter(10)
	step := func(what string, want int64) {
		t.Helper()
		if got := c.Last(); got != want {
			t.Errorf("after %s: Last = %d, want %d", what, got, want)
		}
	}
	step("creation", 9)
	a, b, d := c.Next(), c.Next(), c.Next()
	if a != 10 || b != 11 || d != 12 {
		t.Fatalf("Next handed out %d, %d, %d; want 10, 11, 12", a, b, d)
	}
	step("handing out ids", 9)
	c.Acknowledge(11)
	step("acknowledging 11 before 10", 9)
	c.Acknowledge(99)
	step("acknowledging an id never handed out", 9)
	c.Acknowledge(5)
	step("acknowledging an id below start", 9)
	c.Acknowledge(10)
	step("acknowledging 10", 11)
	c.Acknowledge(10)
	step("acknowledging 10 again", 11)
	c.Acknowledge(12)
	step("acknowledging 12", 12)
}

// Acknowledging in any order must give the Last that a plain model gives:
// the end of the acknowledged prefix. Small windows push most
// acknowledgements through the overflow path.
func TestAcknowledgedCounterModel(t *testing.T) {
	t.Parallel()
	for _, bits := range []uint{0, 1, 3, 6, 7, ackWindowBits} {
		const start, n = -7, 300
		c := newAcknowledgedCounter(start, bits)
		for range n {
			c.Next()
		}
		r := newRand(uint64(bits))
		order := r.Perm(n)
		acked := make([]bool, n)
		prefix := -1
		for _, o := range order {
			c.Acknowledge(start + int64(o))
			acked[o] = true
			for prefix+1 < n && acked[prefix+1] {
				prefix++
			}
			if got := c.Last(); got != start+int64(prefix) {
				t.Fatalf("window 2^%d: after acknowledging %d, Last = %d, want %d", bits, start+o, got, start+prefix)
			}
		}
		if c.overflowN.Load() != 0 || len(c.overflow) != 0 {
			t.Errorf("window 2^%d: %d ids left in the overflow", bits, len(c.overflow))
		}
	}
}

// The oldest id held back while far more than a window's worth are
// acknowledged: YCSB fails here, this must not.
func TestAcknowledgedCounterBeyondWindow(t *testing.T) {
	t.Parallel()
	c := newAcknowledgedCounter(0, 4)
	first := c.Next()
	for range 1000 {
		c.Acknowledge(c.Next())
	}
	if got := c.Last(); got != -1 {
		t.Fatalf("Last = %d with id 0 unacknowledged, want -1", got)
	}
	c.Acknowledge(first)
	if got := c.Last(); got != 1000 {
		t.Errorf("Last = %d once id 0 is acknowledged, want 1000", got)
	}
}

// Many goroutines insert (Next, then Acknowledge after a varying delay)
// while a reader checks that Last never passes an id whose insert is not
// done, and never goes back. Holding several ids and acknowledging them
// shuffled leaves gaps that late acknowledgements close, so that advances
// move over runs of ids and race to clear the same bits; the small windows
// wrap around many times and spill into the overflow.
func TestAcknowledgedCounterConcurrent(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		bits uint
		hold int
	}{
		{4, 1}, {4, 5}, {6, 1}, {7, 9}, {ackWindowBits, 1}, {ackWindowBits, 40},
	} {
		const start, workers, each = 100, 8, 4000
		c := newAcknowledgedCounter(start, tt.bits)
		var done [workers * each]atomic.Bool
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				r := newRand(uint64(w))
				held := make([]int64, 0, tt.hold)
				ack := func() {
					for _, i := range r.Perm(len(held)) {
						id := held[i]
						done[id-start].Store(true)
						c.Acknowledge(id)
					}
					held = held[:0]
				}
				for range each {
					held = append(held, c.Next())
					for range r.IntN(3) {
						runtime.Gosched()
					}
					if len(held) == tt.hold {
						ack()
					}
				}
				ack()
			})
		}
		stop := make(chan struct{})
		var checker sync.WaitGroup
		checker.Go(func() {
			checked := int64(start - 1)
			for {
				select {
				case <-stop:
					return
				default:
				}
				last := c.Last()
				if last < checked {
					t.Errorf("window 2^%d, hold %d: Last went back from %d to %d", tt.bits, tt.hold, checked, last)
					return
				}
				for id := checked + 1; id <= last; id++ {
					if !done[id-start].Load() {
						t.Errorf("window 2^%d, hold %d: Last = %d but id %d is not acknowledged", tt.bits, tt.hold, last, id)
						return
					}
				}
				checked = last
				runtime.Gosched()
			}
		})
		wg.Wait()
		close(stop)
		checker.Wait()
		if got, want := c.Last(), int64(start+workers*each-1); got != want {
			t.Errorf("window 2^%d, hold %d: Last = %d after every id is acknowledged, want %d", tt.bits, tt.hold, got, want)
		}
		if n := c.overflowN.Load(); n != 0 {
			t.Errorf("window 2^%d, hold %d: %d ids left in the overflow", tt.bits, tt.hold, n)
		}
		for i := range c.bits {
			if w := c.bits[i].Load(); w != 0 {
				t.Errorf("window 2^%d, hold %d: word %d is %#x once the limit passed every id, want 0", tt.bits, tt.hold, i, w)
				break
			}
		}
	}
}

// The window is the counter's whole fixed cost, allocated by every run
// (workload.NewCore): it must stay at one bit per id.
func TestAcknowledgedCounterWindowSize(t *testing.T) {
	t.Parallel()
	c := NewAcknowledgedCounter(0)
	if got, want := len(c.bits)*8, (1<<ackWindowBits)/8; got != want {
		t.Errorf("window takes %d bytes, want %d (one bit per id)", got, want)
	}
}
