package generator

import (
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

// ackWindowBits sizes the acknowledgement window as YCSB does (2^20 ids).
// The window only bounds how far ahead of the oldest unacknowledged id an
// acknowledgement can be recorded cheaply; later ones take a slower path
// rather than failing as YCSB's "Too many unacknowledged insertion keys".
const ackWindowBits = 20

// AcknowledgedCounter is YCSB's AcknowledgedCounterGenerator, the key
// sequence of run-phase inserts: Next hands out ids like a Counter, and Last
// reports the highest id below which every id has been acknowledged, so that
// reads only choose keys whose insert has finished.
//
// It is lock-free on the common path. An acknowledgement stores the id in a
// ring of slots, then moves the limit forward over every contiguous
// acknowledged id with compare-and-swap; whichever goroutine stores an id
// last also runs the advance after it, so no acknowledgement is left behind.
// Ids too far ahead of the limit for the ring go to a map under a lock.
type AcknowledgedCounter struct {
	start int64
	next  atomic.Int64 // next id to hand out
	// limit is the offset from start of the highest id below which all
	// are acknowledged (-1: none yet).
	limit atomic.Int64
	// slots[o&mask] holds o+1 once the id at offset o is acknowledged;
	// tagging with the offset means slots never need clearing.
	slots []atomic.Int64
	mask  int64

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
	c := &AcknowledgedCounter{
		start: start,
		slots: make([]atomic.Int64, 1<<windowBits),
		mask:  1<<windowBits - 1,
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
// has not finished.
func (c *AcknowledgedCounter) Acknowledge(id int64) {
	o := id - c.start
	if o < 0 || id >= c.next.Load() || o <= c.limit.Load() {
		return
	}
	// The slot for o last served offset o-len(slots), which the limit has
	// passed iff o-limit <= len(slots); the limit only grows, so once this
	// holds it keeps holding.
	if o-c.limit.Load() <= int64(len(c.slots)) {
		c.slots[o&c.mask].Store(o + 1)
	} else {
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

// advance moves the limit over every acknowledged offset that follows it.
func (c *AcknowledgedCounter) advance() {
	for {
		l := c.limit.Load()
		o := l + 1
		if c.slots[o&c.mask].Load() == o+1 {
			// Losing the race means another goroutine moved the limit;
			// look again from where it is now.
			c.limit.CompareAndSwap(l, o)
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
