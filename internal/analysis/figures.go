package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
)

// LatencyKind says where latencies are measured from: the actual start of
// each operation (service) or its intended start under -target (corrected
// for coordinated omission).
type LatencyKind int

// The latencies a run may have recorded.
const (
	ServiceLatency LatencyKind = iota
	IntendedLatency
)

func (k LatencyKind) String() string {
	if k == IntendedLatency {
		return "intended latency (from each operation's scheduled start: corrected for coordinated omission)"
	}
	return "service latency (from each operation's actual start)"
}

// ChooseLatency picks intended latency when every run recorded it (runs
// at a -target rate), else service latency, so that all figures of one
// table measure the same thing.
func ChooseLatency(groups ...[]Run) LatencyKind {
	seen := false
	for _, g := range groups {
		for _, r := range g {
			for _, m := range r.Res.Measurements {
				op, ok := db.ParseOp(m.Op)
				if !ok || !measure.CountsAsOperation(op) || m.Failed {
					continue
				}
				if m.Intended == nil {
					return ServiceLatency
				}
				seen = true
			}
		}
	}
	if seen {
		return IntendedLatency
	}
	return ServiceLatency
}

// Figures are the figures of one run that sweeps, comparisons and reports
// use.
type Figures struct {
	RuntimeS   float64
	Throughput float64
	// P99 is the 99th percentile over all operations of the run (their
	// histograms merged), in µs; 0 when the run has no latency.
	P99   float64
	NotOK int64
	Ops   map[string]*OpFigures
	Order []string // operation names in the summary's order
	// TpmC is a TPC-C run's committed NewOrders per minute (extra.tpcc);
	// HasTpmC is false for a run of any other workload.
	TpmC    float64
	HasTpmC bool
}

// OpFigures are one operation's figures in one run; latencies in µs.
type OpFigures struct {
	Count      int64
	Throughput float64
	Avg        float64
	Pct        map[string]float64 // by results-file key: "50", "99.9"
	HasLatency bool
	NotOK      int64
}

// Latency returns the operation's latency figure ("avg", or a percentile
// key such as "99"), when it has one.
func (o *OpFigures) Latency(figure string) (float64, bool) {
	if o == nil || !o.HasLatency {
		return 0, false
	}
	if figure == "avg" {
		return o.Avg, true
	}
	v, ok := o.Pct[figure]
	return v, ok
}

// FiguresOf computes a run's figures. Errors are the operations whose
// status is not OK, NOT_FOUND included: a run whose reads found nothing
// measured something else than the one it is set beside, and a column
// that said 0 beside 686 NOT_FOUND of 1000 hid it. Throughputs count
// successful operations.
func FiguresOf(res *results.Results, kind LatencyKind) Figures {
	f := Figures{RuntimeS: float64(res.RuntimeMs) / 1000, Throughput: res.ThroughputOpsSec, Ops: map[string]*OpFigures{}}
	get := func(name string) *OpFigures {
		o := f.Ops[name]
		if o == nil {
			o = &OpFigures{Pct: map[string]float64{}}
			f.Ops[name] = o
		}
		return o
	}
	var hists []string // measurement names whose histograms make p99
	for _, m := range res.Measurements {
		op, ok := db.ParseOp(m.Op)
		if !ok || !measure.CountsAsOperation(op) || m.Failed {
			continue
		}
		lat := latencyOf(m, kind)
		o := get(m.Op)
		if lat == nil {
			continue
		}
		o.Count = lat.Count
		if f.RuntimeS > 0 {
			o.Throughput = float64(lat.Count) / f.RuntimeS
		}
		if lat.Count > 0 {
			o.HasLatency = true
			o.Avg = lat.MeanUs
			for k, v := range lat.PercentilesUs {
				o.Pct[k] = float64(v)
			}
			hists = append(hists, m.Name)
		}
	}
	for opName, counts := range res.Status {
		op, ok := db.ParseOp(opName)
		if !ok || !measure.CountsAsOperation(op) {
			continue
		}
		for stName, n := range counts {
			st, ok := db.ParseStatus(stName)
			if ok && !st.IsOK() {
				get(opName).NotOK += n
				f.NotOK += n
			}
		}
	}
	for name := range f.Ops {
		f.Order = append(f.Order, name)
	}
	SortOpNames(f.Order)
	f.P99 = overallP99(res, kind, hists, f)
	f.TpmC, f.HasTpmC = tpmCOf(res)
	return f
}

// latencyOf is the measurement's latency of kind; a run that recorded
// only the other latency still has figures.
func latencyOf(m results.MeasurementResult, kind LatencyKind) *results.LatencyResult {
	if kind == IntendedLatency && m.Intended != nil || m.Service == nil {
		return m.Intended
	}
	return m.Service
}

// overallP99 merges the histograms of the run's operations for the p99 of
// all of them: percentiles cannot be averaged. A run of one operation has
// it already.
func overallP99(res *results.Results, kind LatencyKind, names []string, f Figures) float64 {
	switch len(names) {
	case 0:
		return 0
	case 1:
		for _, o := range f.Ops {
			if o.HasLatency {
				return o.Pct["99"]
			}
		}
	}
	var merged *hdrhistogram.Histogram
	for _, m := range res.Measurements {
		if !slices.Contains(names, m.Name) {
			continue
		}
		lr := latencyOf(m, kind)
		h, err := hdrhistogram.Decode([]byte(lr.Histogram))
		if err != nil || h.TotalCount() != lr.Count {
			merged = nil
			break
		}
		if merged == nil {
			merged = h
		} else if dropped := merged.Merge(h); dropped > 0 {
			merged = nil
			break
		}
	}
	if merged == nil || merged.TotalCount() == 0 {
		// Without histograms (a file whose histograms do not decode, or
		// of other ranges) the largest operation p99 is the closest figure
		// left: the overall p99 lies between the smallest and the largest.
		worst := 0.0
		for _, o := range f.Ops {
			worst = math.Max(worst, o.Pct["99"])
		}
		return worst
	}
	return float64(merged.ValueAtQuantile(99))
}

// SortOpNames orders operation names as the summary prints them.
func SortOpNames(names []string) {
	slices.SortFunc(names, func(a, b string) int {
		oa, _ := db.ParseOp(a)
		ob, _ := db.ParseOp(b)
		return cmp.Or(cmp.Compare(oa, ob), strings.Compare(a, b))
	})
}

// OverallAverage is the mean latency over every operation of the run:
// each operation's mean weighted by its count, so that a rare slow
// operation weighs as little as it happened. ok is false when no
// operation measured a latency.
func (f Figures) OverallAverage() (avg float64, ok bool) {
	sum, n := 0.0, int64(0)
	for _, o := range f.Ops {
		if a, ok := o.Latency("avg"); ok && o.Count > 0 {
			sum += a * float64(o.Count)
			n += o.Count
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}
