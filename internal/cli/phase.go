package cli

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	driver "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/runner"
	"github.com/mongobench/mongobench/internal/selfmon"
	"github.com/mongobench/mongobench/internal/workload"
)

type phaseConfig struct {
	command    string
	core       *workload.Core
	spec       *workload.Spec
	client     *mongo.Client
	seed       uint64
	batchSize  int
	operations int64
	status     bool // -s: status lines on stderr
	quiet      bool // a preparatory phase: no status lines
	interrupt  *interruptWatch
	maxErrors  int64
	// maxErrorRate is --max-error-rate; 0 for none.
	maxErrorRate float64
	monitor      *driver.Client // samples server metrics; nil for none
	localHost    bool           // the server runs on this machine
	journal      string         // path of the interval journal; "" for none
	meta         results.Meta   // what the journal's header says of the run
}

type phaseOutput struct {
	summary *measure.Summary
	result  runner.Result
	start   time.Time
	end     time.Time
	partial bool            // stopped by a signal before its own end
	obs     *bench.Observer // server and host metrics; nil when not sampled
	// usage is the client process's CPU and memory over the phase; nil
	// for a preparatory phase.
	usage *selfmon.Usage
	// errorStop says why the phase ended on failures (--max-errors,
	// --max-error-rate); nil when it did not.
	errorStop *results.ErrorStop
	// sinkErrs are the first failure of each output written during the
	// phase (journal, histogram logs): the run went on without them.
	sinkErrs []error
}

// runPhase runs one load or run phase with its collector and status lines.
func runPhase(ctx context.Context, env Env, pc phaseConfig) (*phaseOutput, error) {
	spec := pc.spec
	clock := measure.NewClock()
	collector := measure.NewCollector(measure.Options{
		Interval: spec.StatusInterval,
		Service:  true, // whatever the summary prints, results always compare on it
		Intended: spec.RecordIntended(),
		Threads:  spec.Threads,
		// The client's own share of intended latency, which only a
		// schedule gives.
		ScheduleLag: spec.Target > 0,
	}, clock)
	progress := &runner.Progress{}

	var (
		journal  *results.Journal
		hdrLogs  *export.HdrLogs
		sinkMu   sync.Mutex
		sinkErrs = map[string]error{}
		sinkList []error
		statusMu sync.Mutex
	)
	// sinkFailed reports each failing output once; the run goes on, since
	// what it measures still reaches the summary, the results file and the
	// store, and the command ends in failure. The observer's goroutine
	// calls it too, for the journal's metrics lines.
	sinkFailed := func(sink string, err error) {
		sinkMu.Lock()
		defer sinkMu.Unlock()
		if err != nil && sinkErrs[sink] == nil {
			sinkErrs[sink] = err
			sinkList = append(sinkList, err)
			fmt.Fprintf(env.Stderr, "mongobench: warning: %v; the run goes on without it\n", err)
		}
	}
	if pc.journal != "" {
		j, err := results.CreateJournal(pc.journal, pc.meta, clock)
		if err != nil {
			return nil, err
		}
		journal = j
	}
	if spec.HdrFileOutput && !pc.quiet {
		hdrLogs = export.NewHdrLogs(spec.HdrOutputPath, clock.StartTime())
	}
	var display *progressDisplay
	if env.StderrIsTerminal && !pc.quiet {
		what := "run:"
		if pc.command == "load" {
			what = "load:"
		}
		display = startProgress(env.Stderr, what, pc.operations, spec.MaxExecutionTime, progress, clock)
	}
	var rateRule *bench.ErrorRateRule
	if pc.maxErrorRate > 0 {
		rateRule = bench.NewErrorRateRule(pc.maxErrorRate, spec.StatusInterval)
	}
	var finished atomic.Int64
	// phaseOver is set once the workers are done: the intervals closed
	// after it are the collector's last.
	var phaseOver atomic.Bool
	onInterval := func(iv *measure.Interval) {
		rateRule.Observe(iv)
		if display != nil {
			display.interval(iv)
		}
		if journal != nil {
			sinkFailed("journal", journal.Interval(iv))
		}
		if hdrLogs != nil {
			sinkFailed("hdr", hdrLogs.Interval(iv, clock))
		}
		// YCSB's status line counts the operations done, not started:
		// the ones in flight are not done yet.
		done := finished.Add(iv.Operations)
		if !pc.status || pc.quiet || display != nil || afterTheEnd(iv, phaseOver.Load()) {
			return
		}
		elapsed := time.Duration(iv.EndNs)
		remaining := time.Duration(-1)
		switch {
		case pc.operations > 0:
			// As YCSB: no estimate before the first operation, nor once
			// nothing is left to do.
			if done > 0 && done < pc.operations {
				rate := float64(done) / elapsed.Seconds()
				remaining = time.Duration(float64(pc.operations-done) / rate * float64(time.Second))
			}
		case spec.MaxExecutionTime > 0:
			remaining = spec.MaxExecutionTime - elapsed
		}
		statusMu.Lock()
		defer statusMu.Unlock()
		fmt.Fprintln(env.Stderr, export.StatusLine(clock.StartTime().Add(elapsed), elapsed, done, iv, remaining))
	}
	out := &phaseOutput{start: clock.StartTime()}
	if !pc.quiet {
		// The journal gets each interval's metrics as soon as they are
		// sampled, so that a killed run keeps them.
		var onMetrics func(int, metrics.IntervalMetrics)
		if journal != nil {
			onMetrics = func(i int, m metrics.IntervalMetrics) { sinkFailed("journal", journal.Metrics(i, &m)) }
		}
		out.obs = bench.StartObserver(ctx, pc.monitor, clock, spec.StatusInterval, pc.localHost, onMetrics)
	}
	var probe *selfmon.Probe
	if !pc.quiet {
		probe = selfmon.StartSampling(time.Second)
	}
	collector.Start(onInterval)
	res, err := runner.Run(ctx, runner.Config{
		Core:         pc.core,
		Transactions: pc.command == "run",
		Threads:      spec.Threads,
		Operations:   pc.operations,
		Target:       spec.Target,
		MaxErrors:    pc.maxErrors,
		MaxTime:      spec.MaxExecutionTime,
		BatchSize:    pc.batchSize,
		Seed:         pc.seed,
		NewDB:        pc.client.NewDB,
		Collector:    collector,
		Clock:        runner.SystemClock(clock),
		Stop:         pc.interrupt.stopped(),
		Grace:        stopGrace,
		ErrorStop:    rateRule.Stop(),
	}, progress)
	phaseOver.Store(true)
	out.summary = collector.Stop()
	if probe != nil {
		u := probe.Stop()
		out.usage = &u
	}
	if display != nil {
		display.finish(env.Stderr)
	}
	if out.obs != nil {
		out.obs.Stop(context.WithoutCancel(ctx))
	}
	out.result = res
	if res.ErrorLimit {
		out.errorStop = rateRule.Verdict()
		if out.errorStop == nil {
			out.errorStop = &results.ErrorStop{
				Flag: "--max-errors", Limit: float64(pc.maxErrors), Failed: res.Failures,
				Reason: fmt.Sprintf("%d operations failed, and --max-errors %d stops the run at %d", res.Failures, pc.maxErrors, pc.maxErrors),
			}
		}
	}
	out.end = time.Now()
	out.partial = res.Stopped
	if journal != nil {
		// After the observer's closing sample, whose metrics it holds.
		sinkFailed("journal", journal.Close(out.partial))
	}
	if hdrLogs != nil {
		sinkFailed("hdr", hdrLogs.Close())
	}
	sinkMu.Lock()
	out.sinkErrs = sinkList
	sinkMu.Unlock()
	return out, err
}

// afterTheEnd reports whether iv is an interval that a status line would
// only repeat: closed once the phase was over, with nothing recorded in it.
// The figures were final at the line before; a last one would say "0
// current ops/sec" of a run that did not slow down, only end.
func afterTheEnd(iv *measure.Interval, phaseOver bool) bool {
	if !phaseOver || iv.Operations > 0 || len(iv.Measurements) > 0 {
		return false
	}
	for op := range iv.Status {
		for _, n := range iv.Status[op] {
			if n > 0 {
				return false
			}
		}
	}
	return true
}
