// Package resultstest builds synthetic results for the tests of the
// packages that read them: a run phase with real encoded histograms, so
// that every figure computed from it (percentiles, merged p99, counts) is
// the one a recorded run of those latencies would give.
package resultstest

import (
	"cmp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
)

// Spec describes a synthetic run: a 10 s run phase at a throughput, its
// operations spread evenly over the ops, each with latencies from its base
// to twice its base.
type Spec struct {
	Label      string
	Throughput float64
	LatencyUs  map[string]int64 // base latency per op; nil: READ at 1000 µs
	Errors     int64            // failed READs
	Intended   bool             // record intended latency too (a -target run)
	Mark       *results.SweepMark
	// Phase is the run's phase; "" is a run phase.
	Phase string
	// Config is the run's resolved configuration; nil is threadcount=1.
	Config map[string]string
}

// Results builds the results of the run s describes.
func Results(t testing.TB, s Spec) *results.Results {
	t.Helper()
	if s.LatencyUs == nil {
		s.LatencyUs = map[string]int64{"READ": 1000}
	}
	if s.Phase == "" {
		s.Phase = results.PhaseRun
	}
	if s.Config == nil {
		s.Config = map[string]string{"threadcount": "1"}
	}
	ops := make([]string, 0, len(s.LatencyUs))
	for op := range s.LatencyUs {
		ops = append(ops, op)
	}
	slices.SortFunc(ops, func(a, b string) int {
		oa, _ := db.ParseOp(a)
		ob, _ := db.ParseOp(b)
		return cmp.Or(cmp.Compare(oa, ob), strings.Compare(a, b))
	})
	const runtimeMs = 10_000
	total := int64(s.Throughput * runtimeMs / 1000)
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := &results.Results{
		FormatVersion: results.FormatVersion, Tool: results.Tool{Name: "mongobench", Version: "test"},
		Command: []string{"mongobench", s.Phase, "mongodb"}, Label: s.Label, Phase: s.Phase,
		Config: s.Config, Start: start, End: start.Add(runtimeMs * time.Millisecond),
		RuntimeMs: runtimeMs, Operations: total, ThroughputOpsSec: float64(total) * 1000 / runtimeMs,
		Status: map[string]map[string]int64{}, Intervals: []results.IntervalResult{},
	}
	for i, op := range ops {
		n := total / int64(len(ops))
		if i == 0 {
			n += total % int64(len(ops))
		}
		m := results.MeasurementResult{Name: op, Op: op, Service: Latency(t, s.LatencyUs[op], n)}
		if s.Intended {
			m.Intended = Latency(t, 2*s.LatencyUs[op], n)
		}
		r.Measurements = append(r.Measurements, m)
		r.Status[op] = map[string]int64{"OK": n}
	}
	if s.Errors > 0 {
		r.Status["READ"]["ERROR"] = s.Errors
	}
	if s.Mark != nil {
		r.Extra = &results.Extra{Sweep: s.Mark}
	}
	return r
}

// Latency records n latencies spread evenly from base to 2·base.
func Latency(t testing.TB, base, n int64) *results.LatencyResult {
	t.Helper()
	h := hdrhistogram.New(measure.LowestTrackableUs, measure.HighestTrackableUs, measure.SignificantFigures)
	const steps = 100
	for i := int64(0); i < steps; i++ {
		c := n / steps
		if i == steps-1 {
			c += n % steps
		}
		if c > 0 {
			if err := h.RecordValues(base+base*i/steps, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	lr := &results.LatencyResult{Count: h.TotalCount(), MeanUs: h.Mean(), MinUs: h.Min(), MaxUs: h.Max(), Histogram: string(enc), PercentilesUs: map[string]int64{}}
	for _, p := range measure.StandardPercentiles {
		lr.PercentilesUs[measure.PercentileKey(p)] = h.ValueAtQuantile(p)
	}
	return lr
}
