package tpcc

import (
	"errors"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// HDRRecorder keeps one latency histogram per transaction type (1 µs to
// 1 h, 3 significant digits, as mongobench's measure does) and the counts
// of outcomes. It is the Recorder of a run that mongobench's collector
// does not measure yet.
type HDRRecorder struct {
	mu        sync.Mutex
	hist      [NumTypes]*hdrhistogram.Histogram
	ok        [NumTypes]int64
	rollbacks [NumTypes]int64
	failed    [NumTypes]int64
	first     time.Time
	last      time.Time
}

// NewHDRRecorder returns an empty recorder.
func NewHDRRecorder() *HDRRecorder {
	r := &HDRRecorder{}
	for i := range r.hist {
		r.hist[i] = hdrhistogram.New(1, int64(time.Hour/time.Microsecond), 3)
	}
	return r
}

// Record implements Recorder. Every outcome's latency goes in the
// histogram: a rollback or a failure took the client's time as much as a
// commit did.
func (r *HDRRecorder) Record(t Type, start, end time.Time, err error) {
	us := max(1, end.Sub(start).Microseconds())
	r.mu.Lock()
	defer r.mu.Unlock()
	_ = r.hist[t].RecordValue(us) // beyond an hour it is clamped out: not a real latency
	switch {
	case err == nil:
		r.ok[t]++
	case errors.Is(err, ErrRollback):
		r.rollbacks[t]++
	default:
		r.failed[t]++
	}
	if r.first.IsZero() || start.Before(r.first) {
		r.first = start
	}
	if end.After(r.last) {
		r.last = end
	}
}

// TypeSummary is one transaction type's figures.
type TypeSummary struct {
	Type Type
	// OK, Rollbacks and Failed count the outcomes; Count is their sum.
	OK, Rollbacks, Failed, Count int64
	// P50, P95, P99 and Max are latencies of all outcomes.
	P50, P95, P99, Max time.Duration
}

// Summary is a run's figures.
type Summary struct {
	// Elapsed is from the first start to the last end recorded.
	Elapsed time.Duration
	// TpmC is the committed NewOrders per minute of Elapsed: py-tpcc's
	// figure, which the paper's tables give. (The specification counts
	// the rolled-back NewOrders too; they are Types[NewOrder].Rollbacks.)
	TpmC float64
	// Throughput is the transactions of all types, of every outcome, per
	// second.
	Throughput float64
	Types      [NumTypes]TypeSummary
}

// Summary returns the figures so far.
func (r *HDRRecorder) Summary() Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := Summary{Elapsed: r.last.Sub(r.first)}
	var total int64
	for t := range NumTypes {
		h := r.hist[t]
		ts := TypeSummary{Type: t, OK: r.ok[t], Rollbacks: r.rollbacks[t], Failed: r.failed[t]}
		ts.Count = ts.OK + ts.Rollbacks + ts.Failed
		if h.TotalCount() > 0 {
			us := func(q float64) time.Duration { return time.Duration(h.ValueAtQuantile(q)) * time.Microsecond }
			ts.P50, ts.P95, ts.P99, ts.Max = us(50), us(95), us(99), time.Duration(h.Max())*time.Microsecond
		}
		total += ts.Count
		s.Types[t] = ts
	}
	if s.Elapsed > 0 {
		s.TpmC = float64(s.Types[NewOrder].OK) / s.Elapsed.Minutes()
		s.Throughput = float64(total) / s.Elapsed.Seconds()
	}
	return s
}
