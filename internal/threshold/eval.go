package threshold

import (
	"fmt"
	"math"
	"strconv"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
)

// Data is what thresholds are judged on: a whole run's, or a running
// one's so far.
type Data struct {
	// Seconds is the time the operations were measured over.
	Seconds float64
	// Throughput, when above 0, is the run's own overall figure (the
	// summary's [OVERALL] Throughput), judged rather than one worked out
	// again from Seconds.
	Throughput float64
	// Intended says the run recorded intended latency: it ran open loop,
	// at -target, and its latency thresholds judge intended latency
	// unless they say otherwise.
	Intended bool
	Ops      [db.MaxOps]OpData
}

// OpData is one operation's figures.
type OpData struct {
	// Service and Intended hold the latencies of the operations that
	// succeeded; nil when that latency was not recorded.
	Service, Intended *hdrhistogram.Histogram
	// Done counts every operation that ended, whatever its status;
	// Failed those whose status is neither OK nor NOT_FOUND, the same
	// failures --max-errors counts.
	Done, Failed int64
}

// Failed says whether a status counts as a failure.
func failedStatus(st db.Status) bool { return !st.IsOK() && st != db.NotFound }

// DataOf reads a results file's figures.
func DataOf(r *results.Results) (*Data, error) {
	s, err := r.Summary()
	if err != nil {
		return nil, err
	}
	d := &Data{Seconds: float64(r.RuntimeMs) / 1000, Throughput: r.ThroughputOpsSec}
	for _, m := range s.Measurements {
		if !measure.CountsAsOperation(m.Op) || m.Failed {
			continue
		}
		d.Ops[m.Op].Service, d.Ops[m.Op].Intended = m.Service, m.Intended
		d.Intended = d.Intended || m.Intended != nil
	}
	d.addStatus(&s.Status)
	return d, nil
}

func (d *Data) addStatus(status *[db.MaxOps][db.NumStatuses]int64) {
	for op := range db.MaxOps {
		if !measure.CountsAsOperation(db.Op(op)) {
			continue
		}
		for st, n := range status[op] {
			d.Ops[op].Done += n
			if failedStatus(db.Status(st)) {
				d.Ops[op].Failed += n
			}
		}
	}
}

// Outcome is one threshold judged on Data.
type Outcome struct {
	Threshold Threshold
	// Latency is the latency judged, for a latency threshold.
	Latency Latency
	// Observed is the figure judged, in the threshold's unit; HasData
	// false when the run had none, which fails the threshold: a
	// threshold on an operation that never ran must not pass unseen.
	Observed float64
	HasData  bool
	Pass     bool
}

// Evaluate judges t on d.
func Evaluate(t Threshold, d *Data) Outcome {
	o := Outcome{Threshold: t}
	o.Observed, o.Latency, o.HasData = t.observe(d)
	o.Pass = o.HasData && t.holds(o.Observed)
	return o
}

// ops are the operations t covers.
func (t Threshold) ops() []db.Op {
	if t.Op == Overall {
		var all []db.Op
		for op := range db.MaxOps {
			if measure.CountsAsOperation(db.Op(op)) {
				all = append(all, db.Op(op))
			}
		}
		return all
	}
	// A named operation the run did not register has no data, which
	// fails the threshold.
	op, known := db.ParseOp(t.Op)
	if !known {
		return nil
	}
	return []db.Op{op}
}

func (t Threshold) observe(d *Data) (float64, Latency, bool) {
	ops := t.ops()
	var done, failed int64
	for _, op := range ops {
		done += d.Ops[op].Done
		failed += d.Ops[op].Failed
	}
	switch t.Stat {
	case Throughput:
		if t.Op == Overall && d.Throughput > 0 {
			return d.Throughput, DefaultLatency, true
		}
		if d.Seconds <= 0 || done == 0 {
			return 0, DefaultLatency, false
		}
		return float64(done) / d.Seconds, DefaultLatency, true
	case Errors:
		if done == 0 {
			return 0, DefaultLatency, false
		}
		if t.Percent {
			return float64(failed) / float64(done), DefaultLatency, true
		}
		return float64(failed), DefaultLatency, true
	}
	kind := t.Latency
	if kind == DefaultLatency {
		kind = ServiceLatency
		if d.Intended {
			kind = IntendedLatency
		}
	}
	var hists []*hdrhistogram.Histogram
	for _, op := range ops {
		h := d.Ops[op].Service
		if kind == IntendedLatency {
			h = d.Ops[op].Intended
		}
		if h != nil && h.TotalCount() > 0 {
			hists = append(hists, h)
		}
	}
	if len(hists) == 0 {
		return 0, kind, false
	}
	h := hists[0]
	if len(hists) > 1 {
		h = measure.NewHistogram()
		for _, x := range hists {
			h.Merge(x)
		}
	}
	switch t.Stat {
	case Avg:
		return measure.Mean(h), kind, true
	case Max:
		return float64(h.Max()), kind, true
	}
	return float64(h.ValueAtQuantile(t.Percentile)), kind, true
}

// Unit is the unit of the threshold's figures in a results file.
func (t Threshold) Unit() string {
	switch t.Stat {
	case Throughput:
		return "ops/s"
	case Errors:
		if t.Percent {
			return "share"
		}
		return "operations"
	}
	return "us"
}

// ObservedText writes the observed figure in the threshold's terms:
// "7.2ms", "1834.5 ops/s", "0.35%", "12 operations".
func (o Outcome) ObservedText() string {
	r := results.Threshold{Unit: o.Threshold.Unit()}
	if o.HasData {
		r.Observed = &o.Observed
	}
	return RecordText(r)
}

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}

// Sentence says what a failed threshold saw, for the terminal: "READ
// intended p(99) was 7.2ms, not <5ms".
func (o Outcome) Sentence() string {
	t := o.Threshold
	what := t.Op + " "
	if t.IsLatency() {
		what += o.Latency.String() + " latency "
	}
	what += t.statName()
	if !o.HasData {
		return fmt.Sprintf("%s: the run has no data for it, which fails a threshold", what)
	}
	return fmt.Sprintf("%s was %s, not %s%s", what, o.ObservedText(), t.Cmp, t.limitText())
}

// Record is the outcome as the results file keeps it.
func (o Outcome) Record() results.Threshold {
	r := results.Threshold{Threshold: o.Threshold.String(), Unit: o.Threshold.Unit(), Pass: o.Pass, Latency: o.Latency.String()}
	if o.HasData {
		v := o.Observed
		r.Observed = &v
	}
	if !o.Pass {
		r.Reason = o.Sentence()
	}
	return r
}

// RecordText writes a recorded threshold's observed figure in its terms,
// as ObservedText does for an Outcome: reports read the results file, not
// the Outcome.
func RecordText(r results.Threshold) string {
	if r.Observed == nil {
		return "no data"
	}
	v := *r.Observed
	switch r.Unit {
	case "ops/s":
		return strconv.FormatFloat(round(v, 1), 'f', -1, 64) + " ops/s"
	case "share":
		return strconv.FormatFloat(round(100*v, 3), 'f', -1, 64) + "%"
	case "operations":
		return strconv.FormatFloat(v, 'f', 0, 64) + " operations"
	}
	return FormatLatency(round(v, 0))
}
