package threshold

import (
	"fmt"
	"sync"

	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
)

// Live judges the thresholds marked abortOnFail on what a running phase
// measured so far, interval by interval: k6's abortOnFail, which spares a
// CI job the rest of a run that has already failed.
type Live struct {
	ts    []Threshold
	abort chan struct{}

	mu      sync.Mutex
	data    Data
	tripped *Outcome
	atS     float64
}

// NewLive watches those of ts with AbortOnFail; nil when none has it.
func NewLive(ts []Threshold) *Live {
	var watched []Threshold
	for _, t := range ts {
		if t.AbortOnFail {
			watched = append(watched, t)
		}
	}
	if len(watched) == 0 {
		return nil
	}
	return &Live{ts: watched, abort: make(chan struct{})}
}

// Observe adds one closed interval to what was measured so far and
// judges the watched thresholds on the sum; it reports whether one
// failed now. A threshold without data yet is not judged: at the end
// it is, and no data fails it there.
func (l *Live) Observe(iv *measure.Interval) bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tripped != nil {
		return false
	}
	l.data.Seconds += iv.Duration().Seconds()
	for _, m := range iv.Measurements {
		if !measure.CountsAsOperation(m.Op) || m.Failed {
			continue
		}
		od := &l.data.Ops[m.Op]
		// The collector reuses its histograms: the sums are our own.
		if m.Service != nil {
			if od.Service == nil {
				od.Service = measure.NewHistogram()
			}
			od.Service.Merge(m.Service)
		}
		if m.Intended != nil {
			if od.Intended == nil {
				od.Intended = measure.NewHistogram()
			}
			od.Intended.Merge(m.Intended)
			l.data.Intended = true
		}
	}
	l.data.addStatus(&iv.Status)
	for _, t := range l.ts {
		o := Evaluate(t, &l.data)
		if o.HasData && !o.Pass {
			l.tripped, l.atS = &o, l.data.Seconds
			close(l.abort)
			return true
		}
	}
	return false
}

// Abort closes when a watched threshold fails; nil (no Live) never does.
func (l *Live) Abort() <-chan struct{} {
	if l == nil {
		return nil
	}
	return l.abort
}

// Tripped returns the threshold that ended the run and when, in seconds
// measured; nil when none did.
func (l *Live) Tripped() (*Outcome, float64) {
	if l == nil {
		return nil, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.tripped, l.atS
}

// Judge evaluates ts on the figures of r, the results of a phase that
// live watched (nil for none), in the order of ts. The threshold that ended
// the run fails, whatever the figures at its end say: they cover less
// than the run was asked to do.
func Judge(ts []Threshold, r *results.Results, live *Live) ([]results.Threshold, error) {
	if len(ts) == 0 {
		return nil, nil
	}
	d, err := DataOf(r)
	if err != nil {
		return nil, err
	}
	tripped, at := live.Tripped()
	recs := make([]results.Threshold, len(ts))
	for i, t := range ts {
		o := Evaluate(t, d)
		recs[i] = o.Record()
		if tripped != nil && tripped.Threshold == t {
			recs[i].Pass = false
			recs[i].AbortedAtS = at
			recs[i].Reason = fmt.Sprintf("%s after %.1f s, which ended the run (abortOnFail)", tripped.Sentence(), at)
		}
	}
	return recs, nil
}
