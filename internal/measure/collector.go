package measure

import (
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
)

// Options configure a Collector.
type Options struct {
	// Interval is the status interval (status.interval); 0 means 10 s.
	Interval time.Duration
	// Service records service latency (measurement.interval op or both).
	Service bool
	// Intended records intended latency (measurement.interval intended or
	// both). With neither set, service latency is recorded, as YCSB's
	// default measurement.interval=op does.
	Intended bool
	// Threads is the number of workers, which sizes the rings so that their
	// total stays bounded.
	Threads int
	// ScheduleLag records, for every operation, how long after its intended
	// start it actually started (Summary.ScheduleLag): the part of intended
	// latency that is the client's own. Only an open-loop schedule gives
	// it a meaning.
	ScheduleLag bool
}

const (
	defaultInterval = 10 * time.Second
	// drainPeriod is how often the collector empties the rings when no
	// worker asks sooner. At 5 ms a ring of 8192 samples holds more than a
	// million operations per second per worker.
	drainPeriod = 5 * time.Millisecond
)

// Collector turns the samples of all Recorders into histograms. It owns the
// histograms; only its goroutine touches them while it runs.
type Collector struct {
	opts    Options
	clock   Clock
	now     func() int64 // clock.Now; tests replace it with a fake clock
	ringLen int

	mu        sync.Mutex // guards recorders: NewRecorder may run at any time
	recorders []*Recorder

	wake      chan struct{}
	stopReq   chan struct{}
	done      chan struct{}
	startOnce sync.Once
	stopOnce  sync.Once
	started   bool // set by Start, read by Stop: the caller orders the two
	closed    atomic.Bool
	summary   *Summary

	onInterval func(*Interval)

	// Everything below belongs to the collector goroutine, then to Stop.
	scratch   []*Recorder
	startNs   int64
	ivStart   int64
	ivIndex   int
	cur       tally
	total     tally
	ivHist    [db.MaxOps][2]histPair
	totHist   [db.MaxOps][2]histPair
	names     [db.MaxOps][2]string
	intervals []IntervalStats
	ivLag     *hdrhistogram.Histogram // this interval's schedule lag
	lag       *hdrhistogram.Histogram
	clamped   int64
	invalid   int64
	errSlots  map[int64]int64 // failed operations per errorSlot of end time
}

type tally struct {
	ops    int64
	failed int64
	status [db.MaxOps][db.NumStatuses]int64
}

func (t *tally) add(o *tally) {
	t.ops += o.ops
	t.failed += o.failed
	for op := range t.status {
		for st := range t.status[op] {
			t.status[op][st] += o.status[op][st]
		}
	}
}

type histPair struct {
	service, intended *hdrhistogram.Histogram
}

func (p *histPair) count() int64 {
	if p.service != nil {
		return p.service.TotalCount()
	}
	if p.intended != nil {
		return p.intended.TotalCount()
	}
	return 0
}

// NewCollector returns a collector that reads time from clock.
func NewCollector(opts Options, clock Clock) *Collector {
	if opts.Interval <= 0 {
		opts.Interval = defaultInterval
	}
	if !opts.Service && !opts.Intended {
		opts.Service = true
	}
	return &Collector{
		opts:    opts,
		clock:   clock,
		now:     clock.Now,
		ringLen: ringSize(opts.Threads),
		wake:    make(chan struct{}, 1),
		stopReq: make(chan struct{}),
		done:    make(chan struct{}),
	}
}

// NewRecorder returns a recorder for one worker. Create one per worker
// before Start; the ring size comes from Options.Threads.
func (c *Collector) NewRecorder() *Recorder { return c.NewBurstRecorder(1) }

// NewBurstRecorder is NewRecorder for a worker that records up to burst
// samples back to back, as a load batch records one per document: its ring
// holds a whole burst (up to 8192 samples), so that the worker does not wait
// for the collector in the middle of one however many workers share the
// ring budget.
func (c *Collector) NewBurstRecorder(burst int) *Recorder {
	n := burstRingSize(c.ringLen, burst)
	r := &Recorder{c: c, buf: make([]sample, n), mask: uint64(n - 1)}
	c.mu.Lock()
	c.recorders = append(c.recorders, r)
	c.mu.Unlock()
	return r
}

// wakeUp asks the collector to drain now. The send never blocks: a pending
// wake-up already does the job.
func (c *Collector) wakeUp() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// Start starts the collector goroutine; the run's clock starts counting
// intervals now. onInterval, when not nil, is called at the end of every
// interval, on the collector goroutine (within Stop for the last ones), one
// call at a time; while it runs the rings are not drained, so it should be
// quick. Call Start once, before Stop, from the goroutine that calls Stop.
func (c *Collector) Start(onInterval func(*Interval)) {
	c.startOnce.Do(func() {
		c.onInterval = onInterval
		c.startNs = c.now()
		c.ivStart = c.startNs
		c.started = true
		go c.run()
	})
}

func (c *Collector) run() {
	defer close(c.done)
	t := time.NewTicker(drainPeriod)
	defer t.Stop()
	iv := int64(c.opts.Interval)
	for {
		select {
		case <-c.stopReq:
			return
		case <-t.C:
		case <-c.wake:
		}
		// A slow callback can let several boundaries pass: close each.
		for c.now() >= c.ivStart+iv {
			end := c.ivStart + iv
			c.drainAll(end)
			c.closeInterval(end)
		}
		c.drainAll(c.ivStart + iv)
	}
}

// Stop drains what the workers recorded, closes the last (possibly short)
// interval and returns the summary of the run. Call it once the workers
// have stopped recording; later calls return the same summary.
func (c *Collector) Stop() *Summary {
	c.stopOnce.Do(func() {
		if c.started {
			close(c.stopReq)
			<-c.done
		} else {
			c.startNs = c.now()
			c.ivStart = c.startNs
		}
		end := c.now()
		iv := int64(c.opts.Interval)
		for c.ivStart+iv <= end {
			b := c.ivStart + iv
			c.drainAll(b)
			c.closeInterval(b)
		}
		c.drainAll(math.MaxInt64)
		c.closeInterval(end)
		c.closed.Store(true)
		c.summary = c.buildSummary(end)
	})
	return c.summary
}

func (c *Collector) drainAll(cutoff int64) {
	c.mu.Lock()
	c.scratch = append(c.scratch[:0], c.recorders...)
	c.mu.Unlock()
	for _, r := range c.scratch {
		c.drain(r, cutoff)
	}
}

// drain takes r's published samples that ended before cutoff and frees their
// slots. A worker's samples are in end order, so stopping at the first one
// past cutoff leaves the later ones for the next interval.
func (c *Collector) drain(r *Recorder, cutoff int64) {
	t := r.tail.Load()
	h := r.head.Load()
	first := t
	for ; t != h; t++ {
		s := &r.buf[t&r.mask]
		if s.end >= cutoff {
			break
		}
		c.add(s)
	}
	if t != first {
		r.tail.Store(t)
	}
}

func (c *Collector) add(s *sample) {
	op := s.op
	if int(op) >= db.MaxOps {
		c.invalid++
		return
	}
	st := s.status
	if int(st) >= db.NumStatuses {
		st = db.Error
	}
	c.cur.status[op][st]++
	if s.flags&flagPart == 0 && CountsAsOperation(op) {
		if c.opts.ScheduleLag {
			c.record(&c.ivLag, s.start-s.intended)
		}
		c.cur.ops++
		if isFailure(st) {
			c.cur.failed++
			if c.errSlots == nil {
				c.errSlots = map[int64]int64{}
			}
			c.errSlots[s.end/int64(errorSlot)]++
		}
	}
	p := &c.ivHist[op][b2i(!st.IsOK())]
	if c.opts.Service {
		c.record(&p.service, s.end-s.start)
	}
	if c.opts.Intended {
		c.record(&p.intended, s.end-s.intended)
	}
}

// record adds a latency in nanoseconds to *hp in whole microseconds,
// truncated as YCSB does, allocating the histogram on first use.
func (c *Collector) record(hp **hdrhistogram.Histogram, ns int64) {
	h := *hp
	if h == nil {
		h = NewHistogram()
		*hp = h
	}
	us := ns / 1000
	switch {
	case us < 0:
		us = 0
		c.clamped++
	case us > HighestTrackableUs:
		us = HighestTrackableUs
		c.clamped++
	}
	// In range by construction, so RecordValue cannot fail.
	_ = h.RecordValue(us)
}

func (c *Collector) closeInterval(end int64) {
	iv := &Interval{
		Index:      c.ivIndex,
		StartNs:    c.ivStart,
		EndNs:      end,
		Operations: c.cur.ops,
		Failed:     c.cur.failed,
		Status:     c.cur.status,
	}
	if c.ivLag != nil && c.ivLag.TotalCount() > 0 {
		iv.ScheduleLag = c.ivLag
	}
	st := IntervalStats{Index: iv.Index, StartNs: iv.StartNs, EndNs: end, Operations: iv.Operations}
	if d := end - c.ivStart; d > 0 {
		st.OpsPerSec = float64(iv.Operations) / (float64(d) / 1e9)
	}
	for op := range db.MaxOps {
		for f := range 2 {
			p := &c.ivHist[op][f]
			if p.count() == 0 {
				continue
			}
			m := Measurement{Name: c.name(db.Op(op), f), Op: db.Op(op), Failed: f == 1}
			ms := MeasurementStats{Name: m.Name, Op: m.Op, Failed: m.Failed}
			if p.service != nil {
				m.Service = p.service
				ls := Summarize(p.service)
				ms.Service = &ls
			}
			if p.intended != nil {
				m.Intended = p.intended
				ls := Summarize(p.intended)
				ms.Intended = &ls
			}
			iv.Measurements = append(iv.Measurements, m)
			st.Measurements = append(st.Measurements, ms)
		}
	}
	c.intervals = append(c.intervals, st)
	if c.onInterval != nil {
		c.onInterval(iv)
	}
	for op := range db.MaxOps {
		for f := range 2 {
			p, t := &c.ivHist[op][f], &c.totHist[op][f]
			if p.count() == 0 {
				continue
			}
			mergeInto(&t.service, p.service)
			mergeInto(&t.intended, p.intended)
		}
	}
	mergeInto(&c.lag, c.ivLag)
	c.total.add(&c.cur)
	c.cur = tally{}
	c.ivIndex++
	c.ivStart = end
}

// mergeInto adds from into *dst, allocating it on first use, and resets from
// for the next interval.
func mergeInto(dst **hdrhistogram.Histogram, from *hdrhistogram.Histogram) {
	if from == nil {
		return
	}
	if *dst == nil {
		*dst = NewHistogram()
	}
	// Same geometry on both sides, so nothing can be dropped.
	(*dst).Merge(from)
	from.Reset()
}

func (c *Collector) buildSummary(end int64) *Summary {
	s := &Summary{
		StartNs:      c.startNs,
		EndNs:        end,
		Start:        c.clock.Time(c.startNs),
		End:          c.clock.Time(end),
		Operations:   c.total.ops,
		Status:       c.total.status,
		Intervals:    c.intervals,
		Clamped:      c.clamped,
		Invalid:      c.invalid,
		ScheduleLag:  c.lag,
		ErrorWindows: errorWindows(c.errSlots),
	}
	if c.opts.ScheduleLag && s.ScheduleLag == nil {
		s.ScheduleLag = NewHistogram()
	}
	c.mu.Lock()
	tallies := make([]*messageTally, len(c.recorders))
	for i, r := range c.recorders {
		s.RecordStalls += r.stalls.Load()
		tallies[i] = &r.messages
	}
	c.mu.Unlock()
	s.ErrorMessages = mergeMessages(tallies)
	for op := range db.MaxOps {
		for f := range 2 {
			p := &c.totHist[op][f]
			if p.count() == 0 {
				if f == 1 || !hasStatus(&s.Status[op]) {
					continue
				}
				// Every sample of op failed: YCSB still prints op's own
				// section, where its status counts go.
				if c.opts.Service {
					p.service = NewHistogram()
				}
				if c.opts.Intended {
					p.intended = NewHistogram()
				}
			}
			s.Measurements = append(s.Measurements, Measurement{
				Name:     c.name(db.Op(op), f),
				Op:       db.Op(op),
				Failed:   f == 1,
				Service:  p.service,
				Intended: p.intended,
			})
		}
	}
	return s
}

// name is op's measurement name (f 1: its failures), made once per
// collector: a named operation's is not known before its phase starts.
func (c *Collector) name(op db.Op, f int) string {
	n := &c.names[op][f]
	if *n == "" {
		*n = MeasurementName(op, f == 1)
	}
	return *n
}

func hasStatus(counts *[db.NumStatuses]int64) bool {
	for _, n := range counts {
		if n > 0 {
			return true
		}
	}
	return false
}
