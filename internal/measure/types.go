// Package measure records the latency of every operation without a lock or
// an allocation on the worker's path, and turns the samples into HDR
// histograms per operation, per status interval and for the whole run.
//
// Each worker owns a Recorder, a ring of fixed-size samples. One Collector
// goroutine drains all rings every few milliseconds into histograms that it
// alone owns, closes an Interval every status interval, and returns the
// Summary when stopped.
package measure

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
)

// Measurement is the latency of one YCSB measurement: an operation's
// successes ("READ") or failures ("READ-FAILED").
type Measurement struct {
	// Name is YCSB's name of the measurement.
	Name   string
	Op     db.Op
	Failed bool
	// Service is the latency from the actual start (end − start), in µs.
	// Nil when service latency is not recorded.
	Service *hdrhistogram.Histogram
	// Intended is the latency from the intended start (end − intended start),
	// in µs, which counts the time an operation waited for its turn. Nil when
	// intended latency is not recorded.
	Intended *hdrhistogram.Histogram
}

// Interval is what one status interval recorded. The collector reuses the
// histograms once the callback returns: keep a Clone of one to hold it longer.
type Interval struct {
	// Index counts intervals from 0.
	Index int
	// StartNs and EndNs bound the interval on the Clock. The last interval
	// of a run may be shorter than the others.
	StartNs, EndNs int64
	// Operations counts the operations that ended in this interval.
	Operations int64
	// Failed counts those of them that failed (not OK, not NOT_FOUND);
	// parts of a composite operation are left out, as in Operations, so
	// Failed/Operations is the interval's error rate.
	Failed int64
	// Measurements holds those with samples in this interval, ordered by Op,
	// then successes before failures.
	Measurements []Measurement
	// Status counts the samples of each operation by status.
	Status [db.MaxOps][db.NumStatuses]int64
	// ScheduleLag is the schedule lag (Summary.ScheduleLag) of the
	// operations that ended in this interval, in µs; nil when it is not
	// recorded or no operation ended.
	ScheduleLag *hdrhistogram.Histogram
}

// Duration returns the length of the interval.
func (iv *Interval) Duration() time.Duration { return time.Duration(iv.EndNs - iv.StartNs) }

// MeasurementStats is the compact form of one Measurement of an interval.
type MeasurementStats struct {
	Name   string
	Op     db.Op
	Failed bool
	// Service and Intended are nil when that latency is not recorded.
	Service, Intended *LatencySummary
}

// IntervalStats is the compact form of one Interval, kept for the whole run
// so that results can hold a time series while memory stays flat.
type IntervalStats struct {
	Index          int
	StartNs, EndNs int64
	Operations     int64
	// OpsPerSec is Operations over the interval's length (0 for an empty one).
	OpsPerSec    float64
	Measurements []MeasurementStats
}

// Summary is everything a run recorded.
type Summary struct {
	// StartNs and EndNs bound the run on the Clock: from Start to Stop.
	StartNs, EndNs int64
	// Start and End are the wall-clock times of StartNs and EndNs.
	Start, End time.Time
	// Operations counts the operations of the workload (see CountsAsOperation).
	Operations int64
	// Measurements are cumulative, ordered as in an Interval. An operation
	// whose samples all failed still has its own measurement, with empty
	// histograms, because YCSB prints its status counts under its own name.
	Measurements []Measurement
	// Status counts the samples of each operation by status.
	Status [db.MaxOps][db.NumStatuses]int64
	// Intervals is the time series of the run.
	Intervals []IntervalStats
	// RecordStalls counts the Record calls that found their ring full and
	// waited for the collector.
	RecordStalls int64
	// Clamped counts latencies outside the histogram range (negative, or
	// above one hour) that were recorded at the nearest bound.
	Clamped int64
	// Invalid counts samples with an unknown operation; they are in no other
	// figure.
	Invalid int64
	// ErrorWindows are the stretches of the run in which operations failed
	// (status other than OK and NOT_FOUND), in time order.
	ErrorWindows []ErrorWindow
	// ScheduleLag is, in µs, how long after its intended start each
	// operation started (actual start − intended start): with an open-loop
	// schedule, the client's own share of intended latency, which is
	// service latency plus this lag. In a batched load a record's lag
	// includes its wait for the batch to be sent. Nil when not recorded
	// (Options.ScheduleLag).
	ScheduleLag *hdrhistogram.Histogram
	// ErrorMessages are what the failures said, per operation in Op
	// order (those without failures left out). Each worker keeps its
	// first MaxErrorMessages distinct messages per operation; the summary
	// keeps the most frequent of those. A failure that was not given a
	// message (a VERIFY mismatch, a READ-MODIFY-WRITE whose parts carry
	// the messages) is in no count here.
	ErrorMessages []OpErrors
}

// Runtime returns the length of the run.
func (s *Summary) Runtime() time.Duration { return time.Duration(s.EndNs - s.StartNs) }
