package analysis

import (
	"math"

	"github.com/mongobench/mongobench/internal/stats"
)

// Confidence is the level of every confidence interval analysis gives.
const Confidence = 0.95

// Estimate is a figure over repeated trials: its values, their mean and
// the mean's 95% confidence interval.
type Estimate struct {
	// Values are the figure in each trial that has it.
	Values []float64
	// CI is the mean with its interval; CI.OK is false with fewer than 2
	// values.
	CI stats.Interval
}

// EstimateOf is the estimate of the values xs.
func EstimateOf(xs []float64) Estimate {
	return Estimate{Values: xs, CI: stats.MeanCI(xs, Confidence)}
}

// Mean is the mean of the values; 0 without values.
func (e Estimate) Mean() float64 { return e.CI.Mean }

// Bounds returns the mean and its confidence interval, which collapses
// onto the mean when there is none (a single trial). Every figure here is
// a rate, a latency or a count: an interval reaching below zero (two
// trials make wide ones) means "down to 0".
func (e Estimate) Bounds() (mean, lo, hi float64) {
	if len(e.Values) == 0 {
		return 0, 0, 0
	}
	if !e.CI.OK {
		return e.CI.Mean, e.CI.Mean, e.CI.Mean
	}
	return e.CI.Mean, math.Max(e.CI.Lo, 0), e.CI.Hi
}

// MeanAndCI returns the mean of xs and its 95% confidence interval as
// Estimate.Bounds gives them.
func MeanAndCI(xs []float64) (mean, lo, hi float64) { return EstimateOf(xs).Bounds() }

// PointFigures are the figures of one point of a series (or one
// configuration) over its trials that count.
type PointFigures struct {
	Trials     int
	Runtime    Estimate // seconds
	Throughput Estimate // ops/s
	P99        Estimate // µs, over all operations
	NotOK      Estimate
	// TpmC is the TPC-C trials' committed NewOrders per minute; no values
	// when the trials are no TPC-C runs.
	TpmC Estimate
	// Ops are the figures of each operation any trial ran.
	Ops map[string]OpEstimates
	// Order lists Ops in the summary's order.
	Order []string
}

// OpEstimates are one operation's figures over a point's trials. A trial
// that did not run the operation counts 0 operations; latencies count
// only in trials that measured some.
type OpEstimates struct {
	Count, Throughput Estimate
	Avg, P99          Estimate // µs; no values when no trial measured a latency
}

// HasLatency reports whether any trial measured the operation's latency.
func (o OpEstimates) HasLatency() bool { return len(o.Avg.Values) > 0 }

// Summarize computes the figures of a point from its trials' figures.
func Summarize(fs []Figures) PointFigures {
	collect := func(get func(f Figures) (float64, bool)) Estimate {
		var xs []float64
		for _, f := range fs {
			if v, ok := get(f); ok {
				xs = append(xs, v)
			}
		}
		return EstimateOf(xs)
	}
	p := PointFigures{
		Trials:     len(fs),
		Runtime:    collect(func(f Figures) (float64, bool) { return f.RuntimeS, true }),
		Throughput: collect(func(f Figures) (float64, bool) { return f.Throughput, true }),
		P99:        collect(func(f Figures) (float64, bool) { return f.P99, true }),
		NotOK:      collect(func(f Figures) (float64, bool) { return float64(f.NotOK), true }),
		TpmC:       collect(func(f Figures) (float64, bool) { return f.TpmC, f.HasTpmC }),
		Ops:        map[string]OpEstimates{},
	}
	for _, f := range fs {
		for _, op := range f.Order {
			if _, ok := p.Ops[op]; !ok {
				p.Order = append(p.Order, op)
				p.Ops[op] = OpEstimates{}
			}
		}
	}
	SortOpNames(p.Order)
	for _, op := range p.Order {
		p.Ops[op] = OpEstimates{
			Count: collect(func(f Figures) (float64, bool) {
				if o := f.Ops[op]; o != nil {
					return float64(o.Count), true
				}
				return 0, true
			}),
			Throughput: collect(func(f Figures) (float64, bool) {
				if o := f.Ops[op]; o != nil {
					return o.Throughput, true
				}
				return 0, true
			}),
			Avg: collect(func(f Figures) (float64, bool) { return f.Ops[op].Latency("avg") }),
			P99: collect(func(f Figures) (float64, bool) { return f.Ops[op].Latency("99") }),
		}
	}
	return p
}

// Op returns the estimates of one operation. An operation no trial ran
// counts 0 operations in each trial and has no latency.
func (p PointFigures) Op(name string) OpEstimates {
	if o, ok := p.Ops[name]; ok {
		return o
	}
	zeros := EstimateOf(make([]float64, p.Trials))
	return OpEstimates{Count: zeros, Throughput: zeros, Avg: EstimateOf(nil), P99: EstimateOf(nil)}
}

// KneePoint is the point at x as knee detection takes it: the means of
// throughput and p99 with the p99's confidence interval, and the trials
// its tests run on.
func (p PointFigures) KneePoint(x float64) stats.Point {
	pt := stats.Point{X: x, Throughput: p.Throughput.Mean(), ThroughputTrials: p.Throughput.Values, P99Trials: p.P99.Values}
	pt.P99, pt.P99Lo, pt.P99Hi = p.P99.Bounds()
	return pt
}
