package generator

import (
	"math/bits"
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// Counter hands out start, start+1, ... to all workers: YCSB's
// CounterGenerator, the key sequence of the load phase. It is safe for
// concurrent use.
type Counter struct {
	next atomic.Int64
}

// NewCounter returns a Counter whose first value is start.
func NewCounter(start int64) *Counter {
	c := &Counter{}
	c.next.Store(start)
	return c
}

// Next returns the next value; every call gets a different one.
func (c *Counter) Next() int64 { return c.next.Add(1) - 1 }

// Last returns the value most recently handed out (start-1 before the
// first), as YCSB's lastValue does.
func (c *Counter) Last() int64 { return c.next.Load() - 1 }

// Sequential is YCSB's SequentialGenerator (requestdistribution=sequential):
// lb, lb+1, ..., ub, then lb again, shared by all workers. It is safe for
// concurrent use; r is not used.
type Sequential struct {
	lb   int64
	span uint64 // ub-lb+1; 0 stands for the whole 2^64 range
	n    atomic.Uint64
}

var _ Chooser = (*Sequential)(nil)

// NewSequential returns a Sequential over [lb, ub] inclusive. Bounds in the
// wrong order are swapped.
func NewSequential(lb, ub int64) *Sequential {
	if lb > ub {
		lb, ub = ub, lb
	}
	return &Sequential{lb: lb, span: uint64(ub-lb) + 1}
}

// Next returns the next value in the cycle.
func (s *Sequential) Next(*rand.Rand) int64 {
	i := s.n.Add(1) - 1
	if s.span != 0 {
		i %= s.span
	}
	return int64(uint64(s.lb) + i)
}

// ackWindowBits sizes the acknowledgement window as YCSB does (2^20 ids),
// at one bit per id: 128 KiB. The window only bounds how far ahead of the
// oldest unacknowledged id an acknowledgement can be recorded cheaply; later
// ones take a slower path rather than failing as YCSB's "Too many
// unacknowledged insertion keys".
const ackWindowBits = 20

// AcknowledgedCounter is YCSB's AcknowledgedCounterGenerator, the key
// sequence of run-phase inserts: Next hands out ids like a Counter, and Last
// reports the highest id below which every id has been acknowledged, so that
// reads only choose keys whose insert has finished.
//
// It is lock-free on the common path. An acknowledgement sets the id's bit
// in a ring of bits, then moves the limit forward over the contiguous
// acknowledged ids; whichever goroutine sets a bit last also runs the
// advance after it, so no acknowledgement is left behind. Ids too far ahead
// of the limit for the ring go to a map under a lock.
type AcknowledgedCounter struct {
	start int64
	next  atomic.Int64 // next id to hand out
	// limit is the offset from start of the highest id below which all
	// are acknowledged (-1: none yet).
	limit atomic.Int64
	// bits holds one bit per offset of the window, offset o at position
	// o&mask: set once o is acknowledged, cleared by the advance that moves
	// the limit over it, before the limit lets o+window use the bit.
	bits   []atomic.Uint64
	mask   int64
	window int64

	overflowN  atomic.Int64 // entries in overflow, read without the lock
	overflowMu sync.Mutex
	overflow   map[int64]struct{} // offsets acknowledged beyond the ring
}

// NewAcknowledgedCounter returns an AcknowledgedCounter whose first id is
// start; Last is start-1 until start is acknowledged.
func NewAcknowledgedCounter(start int64) *AcknowledgedCounter {
	return newAcknowledgedCounter(start, ackWindowBits)
}

func newAcknowledgedCounter(start int64, windowBits uint) *AcknowledgedCounter {
	window := int64(1) << windowBits
	c := &AcknowledgedCounter{
		start:  start,
		bits:   make([]atomic.Uint64, (window+63)/64),
		mask:   window - 1,
		window: window,
	}
	c.next.Store(start)
	c.limit.Store(-1)
	return c
}

// Next hands out the next id.
func (c *AcknowledgedCounter) Next() int64 { return c.next.Add(1) - 1 }

// Last returns the highest id such that it and every id before it (from
// start) has been acknowledged; start-1 if start has not been.
func (c *AcknowledgedCounter) Last() int64 { return c.start + c.limit.Load() }

// Acknowledge marks id, which Next handed out, as done; each id must be
// acknowledged once. Ids never handed out, and ids Last has already passed,
// are ignored, so a stray value cannot make Last report an id whose insert
// has not finished. An id acknowledged twice before Last passes it may leave
// its bit set for the id a window later, which Last would then pass early.
func (c *AcknowledgedCounter) Acknowledge(id int64) {
	o := id - c.start
	if o < 0 || id >= c.next.Load() {
		return
	}
	l := c.limit.Load()
	switch {
	case o <= l:
		return
	case o == l+1:
		// The oldest unacknowledged id, as most are when inserts finish
		// in order: only its acknowledgement can move the limit past l,
		// so nobody races this store, and its bit need not be touched.
		c.limit.Store(o)
	case o-l <= c.window:
		// The bit for o last served offset o-window, which the limit
		// has passed (clearing the bit first) iff o-limit <= window; the
		// limit only grows, so once this holds it keeps holding.
		w, b := c.bit(o)
		w.Or(b)
	default:
		c.overflowMu.Lock()
		if c.overflow == nil {
			c.overflow = make(map[int64]struct{})
		}
		c.overflow[o] = struct{}{}
		c.overflowN.Add(1)
		c.overflowMu.Unlock()
	}
	c.advance()
}

// bit returns the word and the mask of offset o's bit.
func (c *AcknowledgedCounter) bit(o int64) (*atomic.Uint64, uint64) {
	p := o & c.mask
	return &c.bits[p>>6], 1 << (p & 63)
}

// advance moves the limit over every acknowledged offset that follows it.
//
// A goroutine owns the bits it clears: it alone may move the limit over
// their offsets. It clears them before moving the limit, because from then
// on the next lap's offsets may set them. Its view of the limit may be stale
// by then, and the bits it cleared those of a later lap; the limit has then
// moved, so the compare-and-swap fails and the bits are put back.
func (c *AcknowledgedCounter) advance() {
	for {
		l := c.limit.Load()
		o := l + 1
		w, b := c.bit(o)
		// The run of set bits from o's up to the end of its word: moving
		// over all of them at once costs one compare-and-swap, not one per
		// id, when a late acknowledgement closes a gap.
		shift := uint(bits.TrailingZeros64(b))
		run := int64(bits.TrailingZeros64(^(w.Load() >> shift)))
		if run > 0 {
			m := ^uint64(0)
			if run < 64 {
				m = (1<<uint(run) - 1) << shift
			}
			owned := w.And(^m) & m
			if owned == m && c.limit.CompareAndSwap(l, l+run) {
				continue
			}
			// Another goroutine cleared some of the run first, or the
			// bits belong to a later lap: give back what was taken and
			// look again from where the limit is now.
			if owned != 0 {
				w.Or(owned)
			}
			continue
		}
		if c.overflowN.Load() == 0 || !c.takeOverflow(o) {
			return
		}
		// Taking o out of the map makes this goroutine the only one that
		// can see it, so nobody else can move the limit past l meanwhile.
		c.limit.Store(o)
	}
}

// takeOverflow removes offset o from the overflow map, reporting whether
// it was there.
func (c *AcknowledgedCounter) takeOverflow(o int64) bool {
	c.overflowMu.Lock()
	defer c.overflowMu.Unlock()
	if _, ok := c.overflow[o]; !ok {
		return false
	}
	delete(c.overflow, o)
	c.overflowN.Add(-1)
	return true
}
