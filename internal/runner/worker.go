package runner

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
)

// phaseWorkers is what the workers of one phase share: the schedule, the stop
// rules, the counters and each worker's recorder, timer and context.
type phaseWorkers struct {
	cfg      *Config
	ctx      context.Context // the caller's: a last batch is flushed under it once the run is cut off
	rules    *stopRules
	pacer    Pacer // nil: closed loop
	progress *Progress
	start    int64
	limit    int64

	next      atomic.Int64 // next schedule slot / operation number
	late      atomic.Int64
	abandoned atomic.Int64

	recorders  []*measure.Recorder
	timers     []Timer // nil in a closed loop
	quit       chan struct{}
	workerCtxs []context.Context
}

// makeRecorders gives each worker its recorder. A load batch records one
// sample per document and one for the batch, all at once when the batch
// returns.
func (ph *phaseWorkers) makeRecorders() {
	burst := 1
	if !ph.cfg.Transactions && ph.cfg.BatchSize > 1 {
		burst = ph.cfg.BatchSize + 1
	}
	ph.recorders = make([]*measure.Recorder, ph.cfg.Threads)
	for i := range ph.recorders {
		ph.recorders[i] = ph.cfg.Collector.NewBurstRecorder(burst)
	}
}

// startTimers gives each worker of an open loop its timer, and closes
// quit, which ends every wait for a due time, when the phase stops or is
// cut off. The timers belong to the phase, not to their workers, so that
// none is woken after it is closed; the returned func closes them once
// the workers are done.
func (ph *phaseWorkers) startTimers(runCtx context.Context) (closeTimers func()) {
	ph.quit = make(chan struct{})
	woken := make(chan struct{})
	ph.timers = make([]Timer, ph.cfg.Threads)
	for i := range ph.timers {
		ph.timers[i] = ph.cfg.Clock.NewTimer(spinCap(ph.pacer.Rate(0)))
	}
	workersDone := make(chan struct{})
	go func() {
		defer close(woken)
		select {
		case <-ph.rules.stopping:
		case <-runCtx.Done():
		case <-workersDone:
			return
		}
		close(ph.quit)
		for _, t := range ph.timers {
			t.Wake()
		}
	}()
	return func() {
		close(workersDone)
		<-woken
		for _, t := range ph.timers {
			t.Close()
		}
	}
}

// makeWorkerContexts gives each worker's operations a context of its own:
// a per-operation deadline (the binding's optimeout) registers with its
// parent and leaves it under the parent's lock, and on the one run
// context every worker would take that lock twice per operation.
// Cancelling the run still cancels every worker's context, and each
// operation in flight, at once; like the run context they carry no
// deadline. They are made and released here, one after another, not by
// each worker as it starts and ends: a thousand workers starting or
// ending together would queue on the run context's lock.
func (ph *phaseWorkers) makeWorkerContexts(runCtx context.Context) (release func()) {
	ph.workerCtxs = make([]context.Context, ph.cfg.Threads)
	cancels := make([]context.CancelFunc, ph.cfg.Threads)
	for i := range ph.workerCtxs {
		ph.workerCtxs[i], cancels[i] = context.WithCancel(runCtx)
	}
	return func() {
		for _, c := range cancels {
			c()
		}
	}
}

// work is worker id's loop: claim the next operation, wait for its due
// time in an open loop, run it, until the operation count, a stop or the
// end of the phase.
func (ph *phaseWorkers) work(id int) {
	cfg := ph.cfg
	if cfg.Ops != nil {
		ph.workOps(id)
		return
	}
	wctx := ph.workerCtxs[id]
	d := cfg.NewDB()
	defer d.Close()
	s := ph.newSession(id, d)
	w := cfg.Core.NewWorker(id, cfg.Seed, cfg.BatchSize)
	batching := !cfg.Transactions && cfg.BatchSize > 1
	timer := ph.timerOf(id)
	for {
		if _, ok := ph.claim(wctx, timer, s); !ok {
			break
		}
		intended := s.intended
		if cfg.Transactions {
			w.DoTransaction(wctx, s)
			continue
		}
		if batching {
			s.pending = append(s.pending, intended)
		}
		_ = w.DoInsert(wctx, s)
	}
	// The last partial batch is always sent, even when stopping, unless
	// the phase was cut off outright.
	if w.Pending() > 0 {
		flushCtx := wctx
		if wctx.Err() != nil {
			var c context.CancelFunc
			flushCtx, c = context.WithTimeout(context.WithoutCancel(ph.ctx), 30*time.Second)
			defer c()
			s.runCtx = flushCtx
		}
		_ = w.Flush(flushCtx, s)
	}
}

// newSession is worker id's session: its ring, the run's clock and its
// context; d, when not nil, is the binding it calls (YCSB's operations).
func (ph *phaseWorkers) newSession(id int, d db.DB) *session {
	s := &session{db: d, rec: ph.recorders[id], clock: ph.cfg.Clock, runCtx: ph.workerCtxs[id], abandoned: &ph.abandoned, failures: ph.rules.failures}
	if b, ok := d.(db.BatchInserter); ok {
		s.batch = b
	}
	return s
}

// timerOf is worker id's precise timer in an open loop; nil in a closed one.
func (ph *phaseWorkers) timerOf(id int) Timer {
	if ph.timers == nil {
		return nil
	}
	return ph.timers[id]
}

// claim takes the worker's next operation and waits for its due time,
// setting its intended start on s; false ends the worker (the operation
// count reached, a stop, the end of the phase).
func (ph *phaseWorkers) claim(wctx context.Context, timer Timer, s *session) (slot int64, ok bool) {
	if wctx.Err() != nil || ph.stopping() {
		return 0, false
	}
	slot = ph.next.Add(1) - 1
	if slot >= ph.limit {
		return 0, false
	}
	intended, ok := ph.await(slot, timer, wctx)
	if !ok {
		return 0, false
	}
	ph.progress.started.Add(1)
	s.intended = intended
	return slot, true
}

// stopping reports whether the workers were told to start no new
// operation.
func (ph *phaseWorkers) stopping() bool {
	select {
	case <-ph.rules.stopping:
		return true
	default:
		return false
	}
}

// await returns operation slot's intended start: in a closed loop now, in
// an open loop its due time, once the worker has waited for it. ok is
// false when the phase stopped or was cut off during the wait: a time
// limit reached then ends the phase before this operation, not with it
// cut short.
func (ph *phaseWorkers) await(slot int64, timer Timer, wctx context.Context) (intended int64, ok bool) {
	if ph.pacer == nil {
		return ph.cfg.Clock.Now(), true
	}
	// From the schedule, never from when the worker woke: the wait for a
	// late worker is the operation's, as it would be a user's.
	intended = ph.start + int64(ph.pacer.Due(slot))
	if !timer.WaitUntil(intended, ph.quit) || wctx.Err() != nil {
		return 0, false
	}
	// Late by when the worker really started, after waking: the wake-up
	// itself can make it so.
	if ph.cfg.Clock.Now()-intended > int64(lateThreshold) {
		ph.late.Add(1)
	}
	return intended, true
}
