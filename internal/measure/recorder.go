package measure

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/mongobench/mongobench/internal/db"
)

// sample is one finished operation as its worker saw it.
type sample struct {
	intended, start, end int64
	op                   db.Op
	status               db.Status
	flags                uint8
}

// sampleSize is the size of one ring slot in bytes.
const sampleSize = int(unsafe.Sizeof(sample{}))

// flagPart marks a measurement nested in another operation: it is timed and
// its status counted, but it is not an operation of its own in the totals.
const flagPart uint8 = 1

// cacheLine separates the fields the worker writes from those the collector
// writes, so that the two goroutines do not invalidate each other's cache
// line on every operation.
type cacheLine [64]byte

// Recorder is one worker's single-producer, single-consumer ring of samples.
// Only the worker that owns it may call Record and RecordPart; the collector
// is the only reader. Recording takes no lock, allocates nothing and makes no
// syscall: the worker writes the slot and publishes it with one atomic store.
type Recorder struct {
	c    *Collector
	buf  []sample
	mask uint64

	_ cacheLine
	// head is the next slot the worker writes. The collector loads it to
	// learn which slots are published.
	head atomic.Uint64
	// cachedTail is the worker's last view of tail. Reading the collector's
	// cache line only when the ring looks half full keeps the fast path to
	// the worker's own memory.
	cachedTail uint64
	// stalls counts the Record calls that found the ring full.
	stalls atomic.Int64
	// messages are the worker's error messages, read by Stop.
	messages messageTally

	_ cacheLine
	// tail is the next slot the collector reads.
	tail atomic.Uint64
	_    cacheLine
}

// Record records one operation of the workload: op ended with status st; it
// was meant to start at intendedNs, started at startNs and ended at endNs
// (offsets on the collector's Clock). With intended latency off, intendedNs
// is ignored. When the ring is full the call waits, yielding the processor,
// until the collector has made room: a sample is never dropped.
//
// A worker's samples must come in end order, as they do when each operation
// is recorded as it finishes: the collector attributes a sample to the
// interval of its end and holds back those that end after the current
// interval, with everything behind them. Record must not be called after
// the collector's Stop.
func (r *Recorder) Record(op db.Op, st db.Status, intendedNs, startNs, endNs int64) {
	r.put(sample{intended: intendedNs, start: startNs, end: endNs, op: op, status: st})
}

// RecordPart records a measurement that is part of another operation, as the
// READ and UPDATE inside a READ-MODIFY-WRITE: latency and status are kept as
// for Record, but the operation totals (and so throughput) do not count it.
func (r *Recorder) RecordPart(op db.Op, st db.Status, intendedNs, startNs, endNs int64) {
	r.put(sample{intended: intendedNs, start: startNs, end: endNs, op: op, status: st, flags: flagPart})
}

// RecordError notes that n failed samples of op, recorded or about to be,
// ended with err, so the summary can show the server's own explanation
// rather than only Return=ERROR. Like Record, only the owning worker may
// call it, and not after the collector's Stop. It allocates (the
// message's text), which only failures pay.
func (r *Recorder) RecordError(op db.Op, err error, n int64) {
	r.messages.add(op, err, n)
}

func (r *Recorder) put(s sample) {
	h := r.head.Load()
	size := uint64(len(r.buf))
	if h-r.cachedTail >= size && !r.waitForRoom(h, size) {
		return
	}
	r.buf[h&r.mask] = s
	r.head.Store(h + 1)
	if h+1-r.cachedTail >= size/2 {
		r.cachedTail = r.tail.Load()
		if h+1-r.cachedTail >= size/2 {
			r.c.wakeUp()
		}
	}
}

// waitForRoom spins until slot h is free. It reports false only when the
// collector has stopped, so that a misplaced Record cannot hang a worker.
func (r *Recorder) waitForRoom(h, size uint64) bool {
	r.cachedTail = r.tail.Load()
	if h-r.cachedTail < size {
		return true
	}
	r.stalls.Add(1)
	for {
		if r.c.closed.Load() {
			return false
		}
		r.c.wakeUp()
		runtime.Gosched()
		r.cachedTail = r.tail.Load()
		if h-r.cachedTail < size {
			return true
		}
	}
}

// Ring sizing. A ring only has to hold what its worker records between two
// drains: every drainPeriod, or sooner once it is half full. 8192 slots
// (256 KiB) cover one worker at over a million operations per second. With
// many workers each one is slower, since they share the same CPUs: a client
// doing 140,000 operations per second over 1,000 threads (the lean path
// against a null server on 2 CPUs) records 140 per worker per second, under
// one per drain period. So the total is capped, and at 1,000 threads the
// rings take 1 MiB rather than 16; every MiB of heap the client holds also
// lets the garbage collector leave about one more MiB of garbage resident,
// and at 1,000 threads the client's memory is measured against the bare
// driver's. Bursts larger than a transaction's few samples, as a load batch
// records, ask for longer rings (NewBurstRecorder).
const (
	ringBudget  = 1 << 20 // bytes over all rings, unless the floor exceeds it
	minRingSize = 32
	maxRingSize = 8192
)

// ringSize returns the ring length for a run with threads workers: the
// budget shared out, within [minRingSize, maxRingSize], rounded down to a
// power of two so that a mask indexes it.
func ringSize(threads int) int {
	if threads < 1 {
		threads = 1
	}
	n := ringBudget / threads / sampleSize
	n = min(max(n, minRingSize), maxRingSize)
	p := minRingSize
	for p*2 <= n {
		p *= 2
	}
	return p
}

// burstRingSize returns the length of a ring that is at least n long and
// holds burst samples, up to maxRingSize: a power of two.
func burstRingSize(n, burst int) int {
	for n < burst && n < maxRingSize {
		n *= 2
	}
	return n
}
