package bench

import (
	"fmt"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/runner"
)

// Sink consumes what a phase produces as it goes: its intervals, and
// through MetricsSink its server and host metrics. Every method of a sink
// is called from one goroutine, never the collector's, so a sink may block
// on a slow disk or terminal without holding the measurements up.
type Sink interface {
	// Open is called before the phase starts; an error ends Run before
	// anything is measured.
	Open(p Phase) error
	// Interval gets each closed interval. The interval and its
	// histograms are the sink's to read until it returns.
	Interval(u Update) error
	// Close is called once every interval was delivered; partial says a
	// stop ended the phase before its own end.
	Close(partial bool) error
}

// MetricsSink is a Sink that also wants each interval's server and host
// metrics as soon as they are sampled.
type MetricsSink interface {
	Sink
	Metrics(index int, m *metrics.IntervalMetrics) error
}

// Phase is what a sink knows of the phase it is opened for.
type Phase struct {
	Command    string        // "load" or "run"
	Operations int64         // operations to do; 0 when bound by time alone
	MaxTime    time.Duration // the phase's time limit; 0 for none
	Interval   time.Duration // the status interval
	Target     float64       // operations per second over all threads; 0 for as fast as possible
	Clock      measure.Clock
	Progress   *runner.Progress // operations started so far, read live
	Part       *results.Part    // the part of a partitioned run; nil for a whole run
}

// Update is one closed interval.
type Update struct {
	Interval *measure.Interval
	// PhaseOver says the interval closed after the workers were done:
	// it is one of the collector's last.
	PhaseOver bool
}

// MaxQueuedIntervals bounds the intervals waiting for the sinks: an
// interval's copied histograms take up to about a megabyte, and a sink
// stuck for good (a terminal nobody reads, a hung disk) must not grow the
// process without limit. It is a minute of intervals at one second each.
const MaxQueuedIntervals = 60

// feed hands intervals from the collector's goroutine to the sinks on a
// goroutine of its own. Pushing never waits, so however slow a sink is,
// the collector never is; once MaxQueuedIntervals wait undelivered, new
// ones are dropped (not copied), counted and said once, since the sinks
// are outputs of a phase whose summary and results come from the
// collector, not from them. Intervals are copied on the way in, because
// the collector reuses their histograms once its callback returns; the
// copies are recycled once delivered.
type feed struct {
	sinks  []Sink
	notify func(Notice)

	mu    sync.Mutex
	queue []item
	// waiting counts the intervals queued or being delivered; dropped
	// those refused for want of room, reported those already said.
	waiting, dropped, reported int
	closed                     bool
	wake                       chan struct{}
	done                       chan struct{}
	hists                      sync.Pool
	failed                     []error // the first failure of each sink, in order
	said                       []bool
}

type item struct {
	u       Update
	index   int // of the metrics' interval
	metrics *metrics.IntervalMetrics
}

func newFeed(sinks []Sink, notify func(Notice)) *feed {
	f := &feed{sinks: sinks, notify: notify, wake: make(chan struct{}, 1), done: make(chan struct{}), said: make([]bool, len(sinks))}
	f.hists.New = func() any { return measure.NewHistogram() }
	go f.run()
	return f
}

// interval queues iv; a phase without sinks has no feed and copies
// nothing.
func (f *feed) interval(iv *measure.Interval, phaseOver bool) {
	if f == nil {
		return
	}
	f.mu.Lock()
	full := f.waiting >= MaxQueuedIntervals
	if full {
		f.dropped++
	} else {
		f.waiting++
	}
	f.mu.Unlock()
	if full {
		return
	}
	f.push(item{u: Update{Interval: f.copy(iv), PhaseOver: phaseOver}})
}

// Dropped is how many intervals the sinks never got because too many
// waited for them.
func (f *feed) Dropped() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dropped
}

func (f *feed) metrics(index int, m metrics.IntervalMetrics) {
	f.push(item{index: index, metrics: &m})
}

func (f *feed) push(it item) {
	f.mu.Lock()
	f.queue = append(f.queue, it)
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// close returns once everything queued was delivered.
func (f *feed) close() {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
	<-f.done
}

func (f *feed) run() {
	defer close(f.done)
	for range f.wake {
		f.mu.Lock()
		batch, closed := f.queue, f.closed
		f.queue = nil
		f.mu.Unlock()
		for _, it := range batch {
			f.deliver(it)
		}
		f.reportDrops()
		if closed {
			return
		}
	}
}

func (f *feed) deliver(it item) {
	for i, s := range f.sinks {
		if it.metrics != nil {
			if ms, ok := s.(MetricsSink); ok {
				f.fail(i, ms.Metrics(it.index, it.metrics))
			}
			continue
		}
		f.fail(i, s.Interval(it.u))
	}
	if iv := it.u.Interval; iv != nil {
		for _, m := range iv.Measurements {
			f.recycle(m.Service)
			f.recycle(m.Intended)
		}
		f.recycle(iv.ScheduleLag)
		f.mu.Lock()
		f.waiting--
		f.mu.Unlock()
	}
}

// reportDrops says, once the sinks move again, how many intervals they
// missed while stuck.
func (f *feed) reportDrops() {
	f.mu.Lock()
	n := f.dropped - f.reported
	f.reported = f.dropped
	f.mu.Unlock()
	if n > 0 && f.notify != nil {
		f.notify(Notice{Kind: Warning, Text: fmt.Sprintf("an output fell behind by %d intervals: %d of them were dropped from the outputs fed during the run (journal, progress, .hdr logs, metrics endpoint); the summary and the results file have every operation", MaxQueuedIntervals, n)})
	}
}

// fail reports each failing sink once; the phase goes on, since what it
// measures still reaches the summary and the results, and the caller
// learns of it from Outcome.SinkErrors.
func (f *feed) fail(i int, err error) {
	if err == nil || f.said[i] {
		return
	}
	f.said[i] = true
	f.failed = append(f.failed, err)
	if f.notify != nil {
		f.notify(Notice{Kind: Warning, Text: fmt.Sprintf("%v; the run goes on without it", err)})
	}
}

func (f *feed) copy(iv *measure.Interval) *measure.Interval {
	c := *iv
	c.Measurements = make([]measure.Measurement, len(iv.Measurements))
	for i, m := range iv.Measurements {
		m.Service = f.copyHist(m.Service)
		m.Intended = f.copyHist(m.Intended)
		c.Measurements[i] = m
	}
	c.ScheduleLag = f.copyHist(iv.ScheduleLag)
	return &c
}

func (f *feed) copyHist(h *hdrhistogram.Histogram) *hdrhistogram.Histogram {
	if h == nil {
		return nil
	}
	c := f.hists.Get().(*hdrhistogram.Histogram)
	// Same geometry on both sides, so nothing can be dropped.
	c.Merge(h)
	return c
}

func (f *feed) recycle(h *hdrhistogram.Histogram) {
	if h != nil {
		h.Reset()
		f.hists.Put(h)
	}
}
