package bench

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
)

// MinRateOperations is how many finished operations --max-error-rate
// needs before it judges: below it, two failures out of three at the start
// of a run, or in the odd interval of a slow run, would end a benchmark on
// noise.
const MinRateOperations = 20

// ErrorRateRule is --max-error-rate. At the end of each whole status
// interval it adds that interval's finished and failed operations to a
// window; once the window holds at least MinRateOperations it judges the
// window's share of failures against max and starts a new window. A run at
// a few operations per interval is thus judged over several intervals
// rather than never, and every verdict covers at least one whole interval.
type ErrorRateRule struct {
	max      float64
	interval time.Duration
	trip     chan struct{} // closed when the rule trips

	mu               sync.Mutex
	windowStartNs    int64 // -1 before the window's first interval
	finished, failed int64
	tripped          *results.ErrorStop
}

func NewErrorRateRule(max float64, interval time.Duration) *ErrorRateRule {
	return &ErrorRateRule{max: max, interval: interval, trip: make(chan struct{}), windowStartNs: -1}
}

// Observe takes one interval's counts and reports whether the rule tripped
// on it. A short interval (the last, cut by the end of the phase) is not
// judged: the phase is ending anyway.
func (r *ErrorRateRule) Observe(iv *measure.Interval) bool {
	if r == nil || iv.Duration() < r.interval {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tripped != nil {
		return false
	}
	if r.windowStartNs < 0 {
		r.windowStartNs = iv.StartNs
	}
	r.finished += iv.Operations
	r.failed += iv.Failed
	if r.finished < MinRateOperations {
		return false
	}
	finished, failed, start := r.finished, r.failed, r.windowStartNs
	r.finished, r.failed, r.windowStartNs = 0, 0, -1
	if float64(failed) <= r.max*float64(finished) {
		return false
	}
	from, to := time.Duration(start).Seconds(), time.Duration(iv.EndNs).Seconds()
	r.tripped = &results.ErrorStop{
		Flag: "--max-error-rate", Limit: r.max, Failed: failed, Finished: finished, WindowStartS: from, WindowEndS: to,
		Reason: fmt.Sprintf("%d of the %d operations finished from %.1f s to %.1f s failed (%.1f%%), more than --max-error-rate %s allows",
			failed, finished, from, to, 100*float64(failed)/float64(finished), strconv.FormatFloat(r.max, 'f', -1, 64)),
	}
	close(r.trip)
	return true
}

// Stop is the channel the runner watches; nil (no rule) never closes.
func (r *ErrorRateRule) Stop() <-chan struct{} {
	if r == nil {
		return nil
	}
	return r.trip
}

// Verdict returns what tripped the rule, or nil.
func (r *ErrorRateRule) Verdict() *results.ErrorStop {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tripped
}
