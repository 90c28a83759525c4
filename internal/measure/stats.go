package measure

import (
	"strconv"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
)

// The geometry of every latency histogram: values in microseconds from 1 µs
// to one hour with 3 significant digits, as YCSB's HdrHistogram recorder.
const (
	LowestTrackableUs  = 1
	HighestTrackableUs = 3_600_000_000
	SignificantFigures = 3
)

// NewHistogram returns an empty latency histogram with the standard geometry.
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(LowestTrackableUs, HighestTrackableUs, SignificantFigures)
}

// StandardPercentiles are the percentiles kept for every interval and
// written to results files, whatever the text summary prints.
var StandardPercentiles = [...]float64{50, 90, 95, 99, 99.9, 99.99}

// NumStandardPercentiles is len(StandardPercentiles).
const NumStandardPercentiles = len(StandardPercentiles)

// PercentileKey returns the name of percentile p in results files: "50",
// "99.9".
func PercentileKey(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }

// CountsAsOperation reports whether a sample of op counts as one operation in
// the totals and throughput. YCSB counts the operations its workload issues;
// it times INSERT-BATCH (one call for many counted inserts), VERIFY (part of
// a read) and CLEANUP (once per worker at the end) without counting them.
// A native workload's named operations are each what its workload issues.
func CountsAsOperation(op db.Op) bool {
	switch op {
	case db.Read, db.Update, db.Insert, db.Scan, db.ReadModifyWrite, db.Delete:
		return true
	}
	return int(op) >= db.NumOps && int(op) < db.MaxOps
}

// MeasurementName returns YCSB's name for the measurement of op: the op's own
// name, or "<OP>-FAILED" for operations whose status is not OK.
func MeasurementName(op db.Op, failed bool) string {
	if int(op) < db.NumOps {
		return measurementNames[op][b2i(failed)]
	}
	if failed {
		return op.String() + "-FAILED"
	}
	return op.String()
}

var measurementNames = func() (n [db.NumOps][2]string) {
	for op := range db.NumOps {
		n[op][0] = db.Op(op).String()
		n[op][1] = db.Op(op).String() + "-FAILED"
	}
	return n
}()

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Mean returns the mean of h the way YCSB's HdrHistogram computes it: the
// sum of each bucket's median value times its count, divided by the total
// count once. The order of the floating-point operations matters: it makes
// the printed digits match YCSB's. An empty or nil histogram gives 0, as
// HdrHistogram 2.1.12 (YCSB's since commit ce741d3d) returns for one.
func Mean(h *hdrhistogram.Histogram) float64 {
	if h == nil || h.TotalCount() == 0 {
		return 0
	}
	var total float64
	for _, b := range h.Distribution() {
		if b.Count == 0 {
			continue
		}
		median := b.From + (b.To-b.From+1)>>1
		total += float64(median * b.Count)
	}
	return total / float64(h.TotalCount())
}

// Percentiles returns the values of h at the percentiles ps (0..100), in the
// order of ps. The rank rule (round to nearest, then the highest value
// equivalent to the bucket reached) is the one of YCSB's HdrHistogram. An
// empty or nil histogram gives zeros.
func Percentiles(h *hdrhistogram.Histogram, ps []float64) []int64 {
	if h == nil {
		return make([]int64, len(ps))
	}
	return h.ValueAtPercentilesSlice(ps)
}

// LatencySummary is the compact description of one histogram kept for every
// interval: enough for a time series, small enough to keep for days.
type LatencySummary struct {
	Count int64
	// Mean, Min and Max are 0 when Count is 0.
	Mean     float64
	Min, Max int64
	// Percentiles holds the values at StandardPercentiles; nil when unknown
	// (intervals merged from several clients, whose percentiles cannot be
	// combined from summaries).
	Percentiles []int64
}

// Summarize returns the compact figures of h.
func Summarize(h *hdrhistogram.Histogram) LatencySummary {
	if h == nil || h.TotalCount() == 0 {
		return LatencySummary{Percentiles: make([]int64, NumStandardPercentiles)}
	}
	return LatencySummary{
		Count:       h.TotalCount(),
		Mean:        Mean(h),
		Min:         h.Min(),
		Max:         h.Max(),
		Percentiles: h.ValueAtPercentilesSlice(StandardPercentiles[:]),
	}
}
