package runner

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// stopRules are what ends a phase before its operation count: the time
// limit, the caller's Stop (with a grace for operations in flight), the
// caller's ErrorStop and the failure limit. Each rule either stops the
// workers from starting new operations (stopWorkers) or cuts the phase
// off (cancel), and remembers which it was for the Result.
type stopRules struct {
	stopping    chan struct{} // closed: start no new operation
	stopOnce    sync.Once
	cancel      context.CancelFunc
	timedOut    atomic.Bool
	stopped     atomic.Bool
	failures    *failureLimit
	cancelTimer func() bool
}

func newStopRules(cancel context.CancelFunc, maxErrors int64) *stopRules {
	r := &stopRules{stopping: make(chan struct{}), cancel: cancel}
	r.failures = &failureLimit{max: maxErrors, stop: r.stopWorkers}
	return r
}

// stopWorkers lets the operations in flight finish and starts no more.
func (r *stopRules) stopWorkers() { r.stopOnce.Do(func() { close(r.stopping) }) }

// start arms the rules of cfg for a phase whose context is runCtx. The
// time limit cancels the run rather than setting a deadline on its
// context: the driver ignores its per-operation timeout (optimeout)
// whenever the context carries a deadline, and a stalled server must
// still time operations out one by one. end disarms what start armed.
func (r *stopRules) start(runCtx context.Context, cfg *Config) (end func()) {
	if cfg.MaxTime > 0 {
		r.cancelTimer = cfg.Clock.AfterFunc(cfg.MaxTime, func() {
			r.timedOut.Store(true)
			r.cancel()
		})
	}
	if cfg.ErrorStop != nil {
		go func() {
			select {
			case <-cfg.ErrorStop:
				r.failures.trip()
			case <-runCtx.Done():
			}
		}()
	}
	if cfg.Stop != nil {
		go r.onStop(runCtx, cfg.Stop, cfg.Clock, cfg.Grace)
	}
	return func() {
		if r.cancelTimer != nil {
			r.cancelTimer()
		}
	}
}

// defaultGrace is how long operations in flight may run on after Stop
// when the caller gives no grace.
const defaultGrace = 5 * time.Second

// onStop stops the workers when stop closes, and cuts off what is still
// running once grace has passed on clock.
func (r *stopRules) onStop(runCtx context.Context, stop <-chan struct{}, clock Clock, grace time.Duration) {
	select {
	case <-stop:
		r.stopped.Store(true)
		r.stopWorkers()
		if grace <= 0 {
			grace = defaultGrace
		}
		// cancel ends runCtx, so the timer needs no waiting for.
		disarm := clock.AfterFunc(grace, r.cancel)
		<-runCtx.Done()
		disarm()
	case <-runCtx.Done():
	}
}

// report copies what ended the phase into res.
func (r *stopRules) report(res *Result) {
	res.Stopped = r.stopped.Load()
	res.TimedOut = r.timedOut.Load()
	res.Failures = r.failures.count.Load()
	res.ErrorLimit = r.failures.reached.Load()
	res.DuplicateKeys = r.failures.duplicates.Load()
}
