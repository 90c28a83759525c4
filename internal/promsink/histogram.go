package promsink

import (
	"math"
	"slices"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// ClassicBounds are the classic buckets' upper bounds, in seconds: from
// 100 µs, which a local server's reads reach, to a minute, past which a
// latency is a timeout whatever its exact value.
var ClassicBounds = []float64{
	0.0001, 0.00025, 0.0005,
	0.001, 0.0025, 0.005,
	0.01, 0.025, 0.05,
	0.1, 0.25, 0.5,
	1, 2.5, 5,
	10, 30, 60,
}

// NativeSchema is the native buckets' resolution: at schema 4 each bucket
// is 2^(1/16) ≈ 4.4% wider than the one before, so a quantile Prometheus
// computes from them is within about 2% of the HDR histogram's.
const NativeSchema = 4

// exposed is h (µs) as Prometheus's histogram, in seconds. Each HDR
// bucket counts at its highest equivalent value, the value HDR's own
// percentiles report; the sum is the mean times the count, as the
// summary's average is.
func exposed(h *hdrhistogram.Histogram) *dto.Histogram {
	count := uint64(h.TotalCount())
	sum := h.Mean() * float64(count) / 1e6
	classic := make([]uint64, len(ClassicBounds))
	native := map[int]int64{}
	var zero uint64
	for _, bar := range h.Distribution() {
		if bar.Count == 0 {
			continue
		}
		v := float64(bar.To) / 1e6
		// The first bound at or above v, and every one after it.
		if i, _ := slices.BinarySearch(ClassicBounds, v); i < len(classic) {
			classic[i] += uint64(bar.Count)
		}
		if v == 0 {
			zero += uint64(bar.Count)
		} else {
			native[nativeIndex(v)] += bar.Count
		}
	}
	out := &dto.Histogram{
		SampleCount:   &count,
		SampleSum:     &sum,
		Schema:        new(int32(NativeSchema)),
		ZeroThreshold: new(0.0),
		ZeroCount:     &zero,
	}
	var cumulative uint64
	for i, bound := range ClassicBounds {
		cumulative += classic[i]
		out.Bucket = append(out.Bucket, &dto.Bucket{CumulativeCount: new(cumulative), UpperBound: new(bound)})
	}
	out.PositiveSpan, out.PositiveDelta = spans(native)
	if len(out.PositiveSpan) == 0 {
		// A native histogram with no bucket at all must say so with an
		// empty span, or a reader takes it for a classic one.
		out.PositiveSpan = []*dto.BucketSpan{{Offset: new(int32(0)), Length: new(uint32(0))}}
	}
	return out
}

// nativeIndex is the native bucket holding v > 0: bucket i holds
// (2^((i-1)/2^schema), 2^(i/2^schema)].
func nativeIndex(v float64) int {
	i := int(math.Ceil(math.Log2(v) * (1 << NativeSchema)))
	// The logarithm may round across a bound: the bounds decide.
	for nativeBound(i-1) >= v {
		i--
	}
	for nativeBound(i) < v {
		i++
	}
	return i
}

// nativeBound is bucket i's upper bound.
func nativeBound(i int) float64 { return math.Exp2(float64(i) / (1 << NativeSchema)) }

// spans encodes buckets as the native histogram's spans (runs of
// consecutive buckets, each offset from the end of the one before) and
// deltas (each bucket's count less the one before it).
func spans(buckets map[int]int64) ([]*dto.BucketSpan, []int64) {
	if len(buckets) == 0 {
		return nil, nil
	}
	keys := make([]int, 0, len(buckets))
	for k := range buckets {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var (
		out    []*dto.BucketSpan
		deltas []int64
		prev   int64
		next   int // the index after the last span's end
	)
	for n, k := range keys {
		if n == 0 || k != next {
			out = append(out, &dto.BucketSpan{Offset: new(int32(k - next)), Length: new(uint32(0))})
		}
		*out[len(out)-1].Length++
		deltas = append(deltas, buckets[k]-prev)
		prev = buckets[k]
		next = k + 1
	}
	return out, deltas
}

// histogramMetric is a histogram with its labels, ready to send.
type histogramMetric struct {
	desc   *prometheus.Desc
	labels []*dto.LabelPair
	h      *dto.Histogram
}

func newHistogramMetric(desc *prometheus.Desc, h *dto.Histogram, labelValues ...string) prometheus.Metric {
	return histogramMetric{desc: desc, labels: prometheus.MakeLabelPairs(desc, labelValues), h: h}
}

func (m histogramMetric) Desc() *prometheus.Desc { return m.desc }

// Write shares the histogram, which is never changed once made: the next
// interval makes a new one.
func (m histogramMetric) Write(out *dto.Metric) error {
	out.Label = m.labels
	out.Histogram = m.h
	return nil
}
