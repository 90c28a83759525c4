package bench

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/workload"
	"github.com/mongobench/mongobench/internal/workload/workloadtest"
)

// recorder is a sink that keeps what it is given.
type recorder struct {
	mu        sync.Mutex
	opened    int
	phase     Phase
	intervals []*measure.Interval
	counts    []int64 // each interval's histogram counts, read while delivered
	metrics   []int
	closed    int
	partial   bool
	failWith  error // Interval returns it
}

func (r *recorder) Open(p Phase) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.opened++
	r.phase = p
	return nil
}

func (r *recorder) Interval(u Update) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var n int64
	for _, m := range u.Interval.Measurements {
		// A load's batches have latencies of their own, beside their
		// records'.
		if m.Service != nil && measure.CountsAsOperation(m.Op) {
			n += m.Service.TotalCount()
		}
	}
	r.intervals = append(r.intervals, u.Interval)
	r.counts = append(r.counts, n)
	return r.failWith
}

func (r *recorder) Metrics(index int, _ *metrics.IntervalMetrics) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.metrics = append(r.metrics, index)
	return nil
}

func (r *recorder) Close(partial bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed++
	r.partial = partial
	return nil
}

// TestRunLoadThenRun loads records and runs reads on them through Run,
// each with a sink that must see every interval the collector closed.
func TestRunLoadThenRun(t *testing.T) {
	t.Parallel()
	const records, reads = 300, 400
	client := openClient(t, 4)
	props := []string{"recordcount=300", "operationcount=400", "threadcount=4", "readproportion=1",
		"updateproportion=0", "fieldcount=2", "fieldlength=10", "status.interval=1"}
	phases := []struct {
		command string
		ops     int64
		batch   int
		op      db.Op
	}{
		{"load", records, 10, db.Insert},
		{"run", reads, 1, db.Read},
	}
	for _, ph := range phases {
		s := workloadtest.Spec(t, ph.command == "run", props...)
		core, err := workload.NewCore(s, s.RecordCount, 1)
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorder{}
		var warnings notices
		out, err := Run(context.Background(), Config{
			Command: ph.command, Core: core, Spec: s, Client: client, Seed: 1,
			BatchSize: ph.batch, Operations: ph.ops, Observe: true, Notify: warnings.add,
		}, rec)
		if err != nil {
			t.Fatalf("%s: %v", ph.command, err)
		}
		if out.Summary.Operations != ph.ops {
			t.Errorf("%s: %d operations, want %d", ph.command, out.Summary.Operations, ph.ops)
		}
		if got := out.Summary.Status[ph.op][db.OK]; got != ph.ops {
			t.Errorf("%s: %d %v OK, want %d (statuses %v)", ph.command, got, ph.op, ph.ops, out.Summary.Status[ph.op])
		}
		if out.Partial || out.ErrorStop != nil || len(out.SinkErrors) > 0 || len(warnings) > 0 {
			t.Errorf("%s: partial %v, error stop %+v, sink errors %v, warnings %v", ph.command, out.Partial, out.ErrorStop, out.SinkErrors, warnings)
		}
		if out.Usage == nil || out.Observer == nil {
			t.Errorf("%s: observed, yet usage %v, observer %v", ph.command, out.Usage, out.Observer)
		}
		if rec.opened != 1 || rec.closed != 1 || rec.partial {
			t.Errorf("%s: opened %d times, closed %d times, partial %v", ph.command, rec.opened, rec.closed, rec.partial)
		}
		if rec.phase.Command != ph.command || rec.phase.Operations != ph.ops || rec.phase.Progress.Started() != ph.ops {
			t.Errorf("%s: the sink was opened for %+v", ph.command, rec.phase)
		}
		// Every interval, in order, with what it recorded: the copies
		// the sink got add up to the summary.
		if len(rec.intervals) != len(out.Summary.Intervals) {
			t.Fatalf("%s: the sink got %d intervals, the collector closed %d", ph.command, len(rec.intervals), len(out.Summary.Intervals))
		}
		var ops, recorded int64
		for i, iv := range rec.intervals {
			if iv.Index != i || iv.Operations != out.Summary.Intervals[i].Operations {
				t.Errorf("%s: interval %d is %d with %d operations; the collector's has %d", ph.command, i, iv.Index, iv.Operations, out.Summary.Intervals[i].Operations)
			}
			ops += iv.Operations
			recorded += rec.counts[i]
		}
		if ops != ph.ops || recorded != ph.ops {
			t.Errorf("%s: the intervals count %d operations and hold %d latencies, want %d", ph.command, ops, recorded, ph.ops)
		}
		// The observer's samples reach a MetricsSink: the closing one at
		// least.
		if len(rec.metrics) == 0 || len(rec.metrics) != len(out.Observer.Intervals()) {
			t.Errorf("%s: the sink got metrics %v, the observer took %d", ph.command, rec.metrics, len(out.Observer.Intervals()))
		}
		// Interval k of the results carries interval k of the metrics.
		res, err := out.Results(results.Meta{Phase: ph.command}, Observation{Client: out.Client(false)})
		if err != nil {
			t.Fatalf("%s: %v", ph.command, err)
		}
		for i, iv := range res.Intervals {
			if observed := i < len(out.Observer.Intervals()); (iv.Metrics != nil) != observed {
				t.Errorf("%s: interval %d of %d has metrics %v, want some: %v", ph.command, i, len(res.Intervals), iv.Metrics, observed)
			}
		}
		if res.Extra.Client == nil || res.Extra.Runner.MeasuredOperations != ph.ops {
			t.Errorf("%s: client section %+v, runner %+v", ph.command, res.Extra.Client, res.Extra.Runner)
		}
	}
}

// TestRunSinkFailures: a sink that cannot open ends Run before anything
// is measured; one that fails later is reported once and the phase goes on.
func TestRunSinkFailures(t *testing.T) {
	t.Parallel()
	client := openClient(t, 1)
	s := workloadtest.Spec(t, false, "recordcount=50", "threadcount=1", "fieldcount=1", "fieldlength=10")
	newCore := func() *workload.Core {
		core, err := workload.NewCore(s, s.RecordCount, 1)
		if err != nil {
			t.Fatal(err)
		}
		return core
	}
	cfg := Config{Command: "load", Spec: s, Client: client, Seed: 1, BatchSize: 1, Operations: 50}

	first := &recorder{}
	cfg.Core = newCore()
	if _, err := Run(context.Background(), cfg, first, failingOpen{}); err == nil || !strings.Contains(err.Error(), "cannot open") {
		t.Errorf("Run with a sink that cannot open: %v", err)
	}
	if first.closed != 1 || len(first.intervals) != 0 {
		t.Errorf("the sink opened before the failing one: closed %d times, %d intervals", first.closed, len(first.intervals))
	}
	if n, err := client.Count(context.Background(), s.Table); err != nil || n != 0 {
		t.Errorf("%d documents (%v): the phase ran", n, err)
	}

	broken := &recorder{failWith: errors.New("disk full")}
	var warnings notices
	cfg.Core, cfg.Notify = newCore(), warnings.add
	out, err := Run(context.Background(), cfg, broken)
	if err != nil {
		t.Fatal(err)
	}
	if out.Summary.Operations != 50 || len(out.SinkErrors) != 1 || len(warnings) != 1 || warnings[0].Kind != Warning || !strings.Contains(warnings[0].Text, "disk full") {
		t.Errorf("%d operations, sink errors %v, warnings %v", out.Summary.Operations, out.SinkErrors, warnings)
	}
}

type failingOpen struct{}

func (failingOpen) Open(Phase) error         { return errors.New("cannot open") }
func (failingOpen) Interval(Update) error    { return nil }
func (failingOpen) Close(partial bool) error { return nil }

// TestFeedNeverWaits: with a sink stuck in Interval, the collector's side
// of the feed still returns at once for every interval; the sink gets the
// first MaxQueuedIntervals, in order and intact, once it moves again, and
// the rest are dropped, counted and said once.
func TestFeedNeverWaits(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	stuck := &blockingSink{release: release}
	var notices []Notice
	f := newFeed([]Sink{stuck}, func(n Notice) { notices = append(notices, n) })
	const n = 200
	pushed := make(chan struct{})
	go func() {
		defer close(pushed)
		for i := range n {
			h := measure.NewHistogram()
			_ = h.RecordValue(int64(i + 1))
			iv := &measure.Interval{Index: i, Operations: 1, Measurements: []measure.Measurement{{Name: "READ", Op: db.Read, Service: h}}}
			f.interval(iv, false)
			// The collector reuses its histograms once the callback
			// returns: the sink must not see that.
			h.Reset()
		}
	}()
	select {
	case <-pushed:
	case <-time.After(time.Minute):
		t.Fatal("the feed held the collector up while a sink was stuck")
	}
	close(release)
	f.close()
	if len(stuck.got) != MaxQueuedIntervals || f.Dropped() != n-MaxQueuedIntervals {
		t.Fatalf("the sink got %d intervals and %d were dropped, want %d and %d", len(stuck.got), f.Dropped(), MaxQueuedIntervals, n-MaxQueuedIntervals)
	}
	if len(notices) != 1 || notices[0].Kind != Warning || !strings.Contains(notices[0].Text, fmt.Sprintf("%d of them were dropped", n-MaxQueuedIntervals)) {
		t.Errorf("notices %+v, want one warning of the drop", notices)
	}
	for i, v := range stuck.got {
		if v != int64(i+1) {
			t.Fatalf("interval %d held latency %d, want %d", i, v, i+1)
		}
	}
}

type blockingSink struct {
	release chan struct{}
	got     []int64 // each interval's one latency
}

func (*blockingSink) Open(Phase) error { return nil }
func (s *blockingSink) Interval(u Update) error {
	<-s.release
	s.got = append(s.got, u.Interval.Measurements[0].Service.Max())
	return nil
}
func (*blockingSink) Close(bool) error { return nil }

// TestValidate lists every fault of a Config at once.
func TestValidate(t *testing.T) {
	t.Parallel()
	good := func() Config {
		s := &workload.Spec{Threads: 1, StatusInterval: time.Second}
		return Config{Command: "run", Core: &workload.Core{}, Spec: s, Client: openClient(t, 1), BatchSize: 1, Operations: 10}
	}
	tests := []struct {
		name   string
		change func(*Config)
		want   []string // one per error, in order
	}{
		{"valid", func(*Config) {}, nil},
		{"bound by a stop alone", func(c *Config) { c.Operations = 0 }, nil},
		{"command", func(c *Config) { c.Command = "sweep" }, []string{`command "sweep": it is load or run`}},
		{"nothing to run", func(c *Config) { c.Core, c.Spec, c.Client = nil, nil, nil }, []string{"no workload core", "no workload spec", "no client"}},
		{"threads and interval", func(c *Config) { c.Spec.Threads, c.Spec.StatusInterval = 0, 0 }, []string{"0 threads: at least 1", "status interval 0s: it must be positive"}},
		{"negative limits", func(c *Config) { c.Operations, c.MaxErrors, c.Grace = -1, -2, -time.Second },
			[]string{"-1 operations", "max errors -2", "grace -1s"}},
		{"batch", func(c *Config) { c.BatchSize = 0 }, []string{"batch size 0: at least 1"}},
		{"rate over one", func(c *Config) { c.MaxErrorRate = 1.5 }, []string{"max error rate 1.5: 0 for no limit, or a share up to 1"}},
		{"time limit", func(c *Config) { c.Spec.MaxExecutionTime = -time.Second }, []string{"time limit -1s"}},
	}
	for _, tt := range tests {
		c := good()
		tt.change(&c)
		errs := c.Validate()
		if len(errs) != len(tt.want) {
			t.Errorf("%s: %v, want %d errors", tt.name, errs, len(tt.want))
			continue
		}
		for i, err := range errs {
			if !strings.Contains(err.Error(), tt.want[i]) {
				t.Errorf("%s: error %d is %q, want it to say %q", tt.name, i, err, tt.want[i])
			}
		}
	}
	c := good()
	c.Command = ""
	if _, err := Run(context.Background(), c); err == nil {
		t.Error("Run ran an invalid Config")
	}
}

// TestWarmup runs a warm-up on loaded records and checks the figures it
// keeps agree with its summary.
func TestWarmup(t *testing.T) {
	t.Parallel()
	client := openClient(t, 2)
	props := []string{"recordcount=50", "operationcount=5", "threadcount=2", "readproportion=1",
		"updateproportion=0", "fieldcount=1", "fieldlength=10", "warmuptime=1", "maxerrors=1"}
	load := workloadtest.Spec(t, false, props...)
	core, err := workload.NewCore(load, load.RecordCount, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Config{Command: "load", Core: core, Spec: load, Client: client, Seed: 1, BatchSize: 1, Operations: 50}); err != nil {
		t.Fatal(err)
	}
	run := workloadtest.Spec(t, true, props...)
	if core, err = workload.NewCore(run, run.RecordCount, 1); err != nil {
		t.Fatal(err)
	}
	w, s, err := Warmup(context.Background(), Config{Command: "run", Core: core, Spec: run, Client: client, Seed: 1, BatchSize: 1, Operations: 5, Observe: true})
	if err != nil {
		t.Fatal(err)
	}
	if w.Operations != s.Operations || w.Operations == 0 || s.Status[db.Read][db.OK] != w.Operations {
		t.Errorf("warm-up of %d operations, summary of %d, %d reads OK", w.Operations, s.Operations, s.Status[db.Read][db.OK])
	}
	if _, ok := w.P99us["READ"]; !ok || len(w.P99us) != 1 {
		t.Errorf("p99s %v, want READ's alone", w.P99us)
	}
	if w.Seconds <= 0 || w.Throughput <= 0 {
		t.Errorf("%.3f s, %.1f ops/s", w.Seconds, w.Throughput)
	}
}
