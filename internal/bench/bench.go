// Package bench runs one load or run phase of a benchmark: the workers,
// the collector, the stop rules, the server and host metrics, and the
// outputs fed with its intervals as it goes.
package bench

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	driver "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/runner"
	"github.com/mongobench/mongobench/internal/selfmon"
	"github.com/mongobench/mongobench/internal/workload"
)

// Config is one phase.
type Config struct {
	Command    string // "load" or "run"
	Core       *workload.Core
	Ops        runner.OpRunner // a native workload's phase, in place of Core
	Spec       *workload.Spec
	Client     *mongo.Client
	Seed       uint64
	BatchSize  int   // records per insertMany in a load; 1 for single inserts
	Operations int64 // 0: no limit; Spec.MaxExecutionTime or Stop ends the phase

	// MaxErrors stops the phase once that many operations failed; 0 for
	// no limit.
	MaxErrors int64
	// MaxErrorRate stops the phase once more than this share of the
	// operations finished in a window of whole intervals failed; 0 for
	// no limit.
	MaxErrorRate float64

	// Observe samples the server's and the host's metrics (through
	// Monitor, which may be nil) and the client's own usage. A phase that
	// only prepares data does without.
	Observe   bool
	Monitor   *driver.Client
	LocalHost bool // the server runs on this machine
	// Shards are clients of a sharded cluster's shard primaries, sampled
	// beside Monitor (a mongos); nil for none.
	Shards []metrics.ShardClient

	// Stop, when closed, ends the phase gracefully; operations in flight
	// get Grace to finish.
	Stop  <-chan struct{}
	Grace time.Duration
	// Abort, when closed, ends the phase as Stop does; the outcome says
	// it was Aborted rather than stopped by a signal.
	Abort <-chan struct{}

	// Notify gets a warning for each output that fails during the
	// phase; nil for none.
	Notify func(Notice)

	// Part is which part of a partitioned run the phase is, for the
	// sinks (the journal names it, so that a killed part can be merged).
	Part *results.Part
}

// Validate returns everything wrong with c, nil when it can run.
func (c *Config) Validate() []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.Command != "load" && c.Command != "run" {
		bad("bench: command %q: it is load or run", c.Command)
	}
	if c.Core == nil && c.Ops == nil {
		bad("bench: no workload core")
	}
	if c.Spec == nil {
		bad("bench: no workload spec")
	} else {
		if c.Spec.Threads < 1 {
			bad("bench: %d threads: at least 1", c.Spec.Threads)
		}
		if c.Spec.StatusInterval <= 0 {
			bad("bench: status interval %v: it must be positive", c.Spec.StatusInterval)
		}
		if c.Spec.MaxExecutionTime < 0 {
			bad("bench: time limit %v: 0 for none, or positive", c.Spec.MaxExecutionTime)
		}
	}
	if c.Client == nil {
		bad("bench: no client")
	}
	if c.BatchSize < 1 {
		bad("bench: batch size %d: at least 1", c.BatchSize)
	}
	if c.Operations < 0 {
		bad("bench: %d operations: 0 for none, or positive", c.Operations)
	}
	if c.MaxErrors < 0 {
		bad("bench: max errors %d: 0 for no limit, or positive", c.MaxErrors)
	}
	if !(c.MaxErrorRate >= 0 && c.MaxErrorRate <= 1) {
		bad("bench: max error rate %v: 0 for no limit, or a share up to 1", c.MaxErrorRate)
	}
	if c.Grace < 0 {
		bad("bench: grace %v: it cannot be negative", c.Grace)
	}
	return errs
}

// Outcome is what a phase measured.
type Outcome struct {
	Summary *measure.Summary
	Result  runner.Result
	Start   time.Time
	End     time.Time
	Partial bool // stopped by Config.Stop before its own end
	// Observer holds the server and host metrics; nil when not observed.
	Observer *Observer
	// Usage is the client process's CPU and memory over the phase; nil
	// when not observed.
	Usage *selfmon.Usage
	// ErrorStop says why the phase ended on failures (MaxErrors,
	// MaxErrorRate); nil when it did not.
	ErrorStop *results.ErrorStop
	// SinkErrors are the first failure of each sink: the phase went on
	// without it.
	SinkErrors []error
	// SinkDropped counts the intervals the sinks never got because a
	// sink fell MaxQueuedIntervals behind.
	SinkDropped int
	// Aborted says Config.Abort ended the phase.
	Aborted bool
	// Documents are what a native workload's operations returned or
	// affected; nil for YCSB's.
	Documents []results.OpDocuments

	maxErrors int64 // Config.MaxErrors, which Failure names
	// finishErr is the Finisher's verdict on the phase (a broken TPC-C
	// consistency condition), which Failure returns.
	finishErr error
}

// Run runs one phase, feeding its intervals to sinks as they close.
func Run(ctx context.Context, cfg Config, sinks ...Sink) (*Outcome, error) {
	if errs := cfg.Validate(); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	spec := cfg.Spec
	pacer, err := rampOf(spec, &cfg)
	if err != nil {
		return nil, err
	}
	clock := measure.NewClock()
	collector := measure.NewCollector(measure.Options{
		Interval: spec.StatusInterval,
		Service:  true, // whatever the summary prints, results always compare on it
		Intended: spec.RecordIntended(),
		Threads:  spec.Threads,
		// The client's own share of intended latency, which only a
		// schedule gives.
		ScheduleLag: spec.OpenLoop(),
	}, clock)
	progress := &runner.Progress{}
	phase := Phase{
		Command: cfg.Command, Operations: cfg.Operations, MaxTime: spec.MaxExecutionTime,
		Interval: spec.StatusInterval, Target: spec.Target, Clock: clock, Progress: progress, Part: cfg.Part,
	}
	for i, s := range sinks {
		if err := s.Open(phase); err != nil {
			// Those opened are closed; their failures to close are
			// second to this one.
			for _, o := range sinks[:i] {
				_ = o.Close(false)
			}
			return nil, err
		}
	}
	var rateRule *ErrorRateRule
	if cfg.MaxErrorRate > 0 {
		rateRule = NewErrorRateRule(cfg.MaxErrorRate, spec.StatusInterval)
	}
	var out *feed
	if len(sinks) > 0 {
		out = newFeed(sinks, cfg.Notify)
	}
	// phaseOver is set once the workers are done: the intervals closed
	// after it are the collector's last.
	var phaseOver atomic.Bool
	onInterval := func(iv *measure.Interval) {
		// On the collector's goroutine: the rule must stop the phase at
		// the interval that trips it, and costs a few additions.
		rateRule.Observe(iv)
		out.interval(iv, phaseOver.Load())
	}
	o := &Outcome{Start: clock.StartTime(), maxErrors: cfg.MaxErrors}
	if cfg.Observe {
		var onMetrics func(int, metrics.IntervalMetrics)
		if out != nil {
			onMetrics = out.metrics
		}
		o.Observer = StartObserver(ctx, metrics.SamplerOptions{Client: cfg.Monitor, ServerIsLocal: cfg.LocalHost, Interval: spec.StatusInterval, Shards: cfg.Shards}, clock, onMetrics)
	}
	var probe *selfmon.Probe
	if cfg.Observe {
		probe = selfmon.StartSampling(time.Second)
	}
	collector.Start(onInterval)
	stop, unwatch := eitherStop(cfg.Stop, cfg.Abort)
	res, err := runner.Run(ctx, runner.Config{
		Core:         cfg.Core,
		Ops:          cfg.Ops,
		Transactions: cfg.Command == "run",
		Threads:      spec.Threads,
		Operations:   cfg.Operations,
		Target:       spec.Target,
		Pacer:        pacer,
		MaxErrors:    cfg.MaxErrors,
		MaxTime:      spec.MaxExecutionTime,
		BatchSize:    cfg.BatchSize,
		Seed:         cfg.Seed,
		NewDB:        cfg.Client.NewDB,
		Collector:    collector,
		Clock:        runner.SystemClock(clock),
		Stop:         stop,
		Grace:        cfg.Grace,
		ErrorStop:    rateRule.Stop(),
	}, progress)
	unwatch()
	phaseOver.Store(true)
	o.Aborted = res.Stopped && closed(cfg.Abort)
	o.Summary = collector.Stop()
	if probe != nil {
		u := probe.Stop()
		o.Usage = &u
	}
	if o.Observer != nil {
		// The closing sample, whose metrics the sinks get before they
		// close.
		o.Observer.Stop(context.WithoutCancel(ctx))
	}
	o.Result = res
	o.Documents = documentsOf(cfg.Ops)
	if res.ErrorLimit {
		o.ErrorStop = rateRule.Verdict()
		if o.ErrorStop == nil {
			o.ErrorStop = &results.ErrorStop{
				Flag: "--max-errors", Limit: float64(cfg.MaxErrors), Failed: res.Failures,
				Reason: fmt.Sprintf("%d operations failed, and --max-errors %d stops the run at %d", res.Failures, cfg.MaxErrors, cfg.MaxErrors),
			}
		}
	}
	o.End = time.Now()
	o.Partial = res.Stopped
	if out != nil {
		out.close()
		for i, s := range sinks {
			out.fail(i, s.Close(o.Partial))
		}
		o.SinkErrors = out.failed
		o.SinkDropped = out.Dropped()
	}
	return o, err
}

// eitherStop is a channel that closes when a or b does; unwatch ends the
// watching once the phase is over.
func eitherStop(a, b <-chan struct{}) (stop <-chan struct{}, unwatch func()) {
	if b == nil {
		return a, func() {}
	}
	either, done := make(chan struct{}), make(chan struct{})
	go func() {
		select {
		case <-a:
		case <-b:
		case <-done:
			return
		}
		close(either)
	}()
	return either, func() { close(done) }
}

// closed says whether c is closed; a nil c never is.
func closed(c <-chan struct{}) bool {
	if c == nil {
		return false
	}
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// rampOf is the schedule of a ramp of --stages, nil without one. The ramp
// sets the phase's operations, whatever operationcount says: past its last
// operation nothing is due, and a warm-up (bound by time) ends at the
// sooner of its time and the ramp's end.
func rampOf(spec *workload.Spec, cfg *Config) (runner.Pacer, error) {
	if len(spec.Stages) == 0 {
		return nil, nil
	}
	ramp, err := runner.NewRampPacer(spec.Stages)
	if err != nil {
		return nil, fmt.Errorf("--stages: %w", err)
	}
	cfg.Operations = ramp.Total()
	return ramp, nil
}
