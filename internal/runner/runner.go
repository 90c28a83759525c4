// Package runner drives the workers of one phase (load or run): closed
// loop, or open loop on a schedule at -target, until the operation count,
// the time limit or a stop request ends it. It knows nothing of MongoDB and
// nothing of histograms: it calls the workload and hands timings to the
// measure package.
package runner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/workload"
)

// Config is one phase's set-up.
type Config struct {
	Core *workload.Core
	// Ops, when set, runs the phase's operations instead of Core: a
	// native workload's named operations.
	Ops          OpRunner
	Transactions bool // run phase; false is the load phase
	Threads      int
	// Operations to perform over all threads; 0 means no limit (then
	// MaxTime or Stop ends the phase).
	Operations int64
	Target     float64 // operations per second over all threads; 0 = closed loop
	// Pacer, when set, is the open loop's schedule instead of a constant
	// Target.
	Pacer     Pacer
	MaxErrors int64         // stop once this many operations failed; 0 = never
	MaxTime   time.Duration // 0 = no limit
	BatchSize int           // load-phase records per insertMany
	Seed      uint64

	NewDB     func() db.DB
	Collector *measure.Collector
	// Clock is the time of every timestamp (that of the collector's
	// clock) and of every wait: SystemClock in a run.
	Clock Clock

	// Stop, when closed, ends the phase early: workers start no new
	// operation, and operations still running after Grace are cancelled.
	Stop  <-chan struct{}
	Grace time.Duration
	// ErrorStop, when closed, ends the phase as reaching MaxErrors does
	// (Result.ErrorLimit): the caller's own rule on failures, such as an
	// error rate judged per status interval, which only it can see.
	ErrorStop <-chan struct{}
}

// Result is what the runner itself knows about the phase; latencies and
// counts per operation are in the collector's Summary.
type Result struct {
	StartNs, EndNs int64
	Started        int64 // operations started (slots claimed and run)
	LateStarts     int64 // open loop: operations that started over 1 ms after their scheduled time, counted once their worker woke
	Abandoned      int64 // operations cut short by the end of the phase, not recorded
	Stopped        bool  // ended by Stop rather than by its own limits
	TimedOut       bool  // ended by MaxTime
	Failures       int64 // operations that failed (not OK, not NOT_FOUND)
	ErrorLimit     bool  // ended because MaxErrors operations failed, or by ErrorStop
	DuplicateKeys  int64 // failures that were duplicate keys
}

// lateThreshold is how far behind its schedule an operation may start
// before it counts as late; below it lies timer and scheduler noise.
const lateThreshold = time.Millisecond

// Progress is read by status lines while the phase runs.
type Progress struct {
	started atomic.Int64
}

// Started returns the operations started so far.
func (p *Progress) Started() int64 { return p.started.Load() }

// Run runs the phase and returns when every worker has finished. The
// collector must have been started by the caller, which also stops it.
func Run(ctx context.Context, cfg Config, progress *Progress) (Result, error) {
	if cfg.Threads < 1 {
		return Result{}, errors.New("threads must be at least 1")
	}
	if progress == nil {
		progress = &Progress{}
	}
	pacer := cfg.Pacer
	if pacer == nil && cfg.Target > 0 {
		var err error
		if pacer, err = NewConstantPacer(cfg.Target); err != nil {
			return Result{}, fmt.Errorf("-target: %w", err)
		}
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	rules := newStopRules(cancel, cfg.MaxErrors)
	defer rules.start(runCtx, &cfg)()

	ph := &phaseWorkers{cfg: &cfg, ctx: ctx, rules: rules, pacer: pacer, progress: progress, limit: cfg.Operations}
	if ph.limit <= 0 {
		ph.limit = math.MaxInt64
	}
	res := Result{StartNs: cfg.Clock.Now()}
	ph.start = res.StartNs
	ph.makeRecorders()
	if pacer != nil {
		defer ph.startTimers(runCtx)()
	}
	defer ph.makeWorkerContexts(runCtx)()

	var wg sync.WaitGroup
	for id := 0; id < cfg.Threads; id++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			ph.work(id)
		}(id)
	}
	wg.Wait()
	rules.stopWorkers()
	res.EndNs = cfg.Clock.Now()
	res.Started = progress.Started()
	res.LateStarts = ph.late.Load()
	res.Abandoned = ph.abandoned.Load()
	rules.report(&res)
	return res, nil
}
