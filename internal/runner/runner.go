// Package runner drives the workers of one phase (load or run): closed
// loop, or open loop on a schedule at -target, until the operation count,
// the time limit or a stop request ends it. It knows nothing of MongoDB and
// nothing of histograms: it calls the workload and hands timings to the
// measure package.
package runner

import (
	"context"
	"errors"
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
	Core         *workload.Core
	Transactions bool // run phase; false is the load phase
	Threads      int
	// Operations to perform over all threads; 0 means no limit (then
	// MaxTime or Stop ends the phase).
	Operations int64
	Target     float64       // operations per second over all threads; 0 = closed loop
	MaxErrors  int64         // stop once this many operations failed; 0 = never
	MaxTime    time.Duration // 0 = no limit
	BatchSize  int           // load-phase records per insertMany
	Seed       uint64

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
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The time limit cancels the run rather than setting a deadline on its
	// context: the driver ignores its per-operation timeout (optimeout)
	// whenever the context carries a deadline, and a stalled server must
	// still time operations out one by one.
	var timedOut atomic.Bool
	if cfg.MaxTime > 0 {
		stop := cfg.Clock.AfterFunc(cfg.MaxTime, func() {
			timedOut.Store(true)
			cancel()
		})
		defer stop()
	}
	stopping := make(chan struct{})
	var stopOnce sync.Once
	stopWorkers := func() { stopOnce.Do(func() { close(stopping) }) }
	failures := &failureLimit{max: cfg.MaxErrors, stop: stopWorkers}
	if cfg.ErrorStop != nil {
		go func() {
			select {
			case <-cfg.ErrorStop:
				failures.trip()
			case <-runCtx.Done():
			}
		}()
	}
	var stopped atomic.Bool
	if cfg.Stop != nil {
		go func() {
			select {
			case <-cfg.Stop:
				stopped.Store(true)
				stopWorkers()
				grace := cfg.Grace
				if grace <= 0 {
					grace = 5 * time.Second
				}
				// cancel ends runCtx, so the timer needs no waiting for.
				stop := cfg.Clock.AfterFunc(grace, cancel)
				<-runCtx.Done()
				stop()
			case <-runCtx.Done():
			}
		}()
	}

	var period float64
	if cfg.Target > 0 {
		period = float64(time.Second) / cfg.Target
	}
	var (
		next      atomic.Int64 // next schedule slot / operation number
		late      atomic.Int64
		abandoned atomic.Int64
		wg        sync.WaitGroup
	)
	res := Result{StartNs: cfg.Clock.Now()}
	start := res.StartNs
	limit := cfg.Operations
	if limit <= 0 {
		limit = math.MaxInt64
	}

	// A load batch records one sample per document and one for the batch,
	// all at once when the batch returns.
	burst := 1
	if !cfg.Transactions && cfg.BatchSize > 1 {
		burst = cfg.BatchSize + 1
	}
	recorders := make([]*measure.Recorder, cfg.Threads)
	for i := range recorders {
		recorders[i] = cfg.Collector.NewBurstRecorder(burst)
	}
	// quit ends every wait for a due time when the phase stops or is cut
	// off. The timers belong to the phase, not to their workers, so that
	// none is woken after it is closed.
	var timers []Timer
	quit := make(chan struct{})
	if period > 0 {
		woken := make(chan struct{})
		timers = make([]Timer, cfg.Threads)
		for i := range timers {
			timers[i] = cfg.Clock.NewTimer(spinCap(cfg.Target))
		}
		workersDone := make(chan struct{})
		defer func() {
			close(workersDone)
			<-woken
			for _, t := range timers {
				t.Close()
			}
		}()
		go func() {
			defer close(woken)
			select {
			case <-stopping:
			case <-runCtx.Done():
			case <-workersDone:
				return
			}
			close(quit)
			for _, t := range timers {
				t.Wake()
			}
		}()
	}
	// Each worker's operations hang off a context of its own: a
	// per-operation deadline (the binding's optimeout) registers with its
	// parent and leaves it under the parent's lock, and on the one run
	// context every worker would take that lock twice per operation.
	// Cancelling the run still cancels every worker's context, and each
	// operation in flight, at once; like the run context they carry no
	// deadline. They are made and released here, one after another, not
	// by each worker as it starts and ends: a thousand workers starting or
	// ending together would queue on the run context's lock.
	workerCtxs := make([]context.Context, cfg.Threads)
	workerCancels := make([]context.CancelFunc, cfg.Threads)
	for i := range workerCtxs {
		workerCtxs[i], workerCancels[i] = context.WithCancel(runCtx)
	}
	defer func() {
		for _, c := range workerCancels {
			c()
		}
	}()
	for id := 0; id < cfg.Threads; id++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			wctx := workerCtxs[id]
			d := cfg.NewDB()
			defer d.Close()
			s := &session{db: d, rec: recorders[id], clock: cfg.Clock, runCtx: wctx, abandoned: &abandoned, failures: failures}
			if b, ok := d.(db.BatchInserter); ok {
				s.batch = b
			}
			w := cfg.Core.NewWorker(id, cfg.Seed, cfg.BatchSize)
			batching := !cfg.Transactions && cfg.BatchSize > 1
			var timer Timer
			if timers != nil {
				timer = timers[id]
			}
			for {
				if wctx.Err() != nil {
					break
				}
				select {
				case <-stopping:
					goto done
				default:
				}
				slot := next.Add(1) - 1
				if slot >= limit {
					break
				}
				var intended int64
				if period > 0 {
					// From the schedule, never from when the worker
					// woke: the wait for a late worker is the
					// operation's, as it would be a user's.
					intended = start + int64(float64(slot)*period)
					// A time limit reached during the wait ends the
					// phase before this operation, not with it cut short.
					if !timer.WaitUntil(intended, quit) || wctx.Err() != nil {
						break
					}
					// Late by when the worker really started, after
					// waking: the wake-up itself can make it so.
					if cfg.Clock.Now()-intended > int64(lateThreshold) {
						late.Add(1)
					}
				} else {
					intended = cfg.Clock.Now()
				}
				progress.started.Add(1)
				s.intended = intended
				if cfg.Transactions {
					w.DoTransaction(wctx, s)
					continue
				}
				if batching {
					s.pending = append(s.pending, intended)
				}
				_ = w.DoInsert(wctx, s)
			}
		done:
			// The last partial batch is always sent, even when stopping,
			// unless the phase was cut off outright.
			if w.Pending() > 0 {
				flushCtx := wctx
				if wctx.Err() != nil {
					flushCtx = context.WithoutCancel(ctx)
					var c context.CancelFunc
					flushCtx, c = context.WithTimeout(flushCtx, 30*time.Second)
					defer c()
					s.runCtx = flushCtx
				}
				_ = w.Flush(flushCtx, s)
			}
		}(id)
	}
	wg.Wait()
	stopWorkers()
	res.EndNs = cfg.Clock.Now()
	res.Started = progress.Started()
	res.LateStarts = late.Load()
	res.Abandoned = abandoned.Load()
	res.Stopped = stopped.Load()
	res.TimedOut = timedOut.Load()
	res.Failures = failures.count.Load()
	res.ErrorLimit = failures.reached.Load()
	res.DuplicateKeys = failures.duplicates.Load()
	return res, nil
}
