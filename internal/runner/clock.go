package runner

import (
	"runtime"
	"time"

	"github.com/mongobench/mongobench/internal/measure"
)

// Clock is the runner's time: where every timestamp comes from, and how
// workers wait for their turn and the phase for its time limits. A run uses
// the process's clock (SystemClock); tests use a fake one, so that the
// schedule and the stop rules are checked without depending on how fast
// the machine is.
type Clock interface {
	// Now returns nanoseconds on the clock, as measure.Clock.Now does.
	Now() int64
	// NewTimer returns the timer of one worker's open-loop waits, which
	// may yield the processor for up to maxSpin before a due time.
	NewTimer(maxSpin time.Duration) Timer
	// AfterFunc calls f in its own goroutine once d has passed on the
	// clock, unless the returned stop is called first.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// Timer is one worker's wait for the due time of its next operation. Only
// its worker calls WaitUntil and Close; anyone may call Wake.
type Timer interface {
	// WaitUntil returns true once the clock reads due, or false as soon as
	// quit is closed. It must not return true before due: the operation
	// would start ahead of its schedule.
	WaitUntil(due int64, quit <-chan struct{}) bool
	// Wake makes a wait in progress look at quit again; the phase calls it
	// after closing quit, for timers that cannot watch a channel.
	Wake()
	Close()
}

// A worker's timer is set to expire a lead before the due time, and the
// worker yields the processor for whatever is left when it wakes: the end
// of a kernel sleep and the scheduler's hand-over take some microseconds,
// more on a loaded machine. The lead is the median of how late the timer's
// own wake-ups come, so that half of them end after the due time, a few
// microseconds late (the schedule lag, measured and reported), and half
// before it, yielding for a few microseconds: yielding through the whole
// spread of the wake-ups instead, to start every operation on time, cost
// more CPU than the operation itself at a few thousand operations per
// second. Yielding costs CPU for as long as it lasts, so the lead is capped
// so that all workers together yield at most spinShare of one CPU.
const (
	initialLead = 10 * time.Microsecond
	// leadStep is how far one wake-up moves the lead: the median is
	// followed by steps of a fixed size, so that one wake-up delayed by a
	// stall of the machine moves it no more than a prompt one.
	leadStep  = time.Microsecond
	spinShare = 0.05
	maxSpin   = time.Millisecond
)

// spinCap is the lead allowed at target operations per second.
func spinCap(target float64) time.Duration {
	if target <= 0 {
		return 0
	}
	return min(time.Duration(spinShare/target*float64(time.Second)), maxSpin)
}

// lead is one timer's lead, learnt from its own wake-ups.
type lead struct {
	ns, max int64
}

func newLead(maxLead time.Duration) lead {
	return lead{ns: min(int64(initialLead), int64(maxLead)), max: int64(maxLead)}
}

// woke learns from a sleep meant to end at target that ended at now: a
// step up when it came later than the lead, a step down otherwise, which
// settles where as many come later as sooner.
func (l *lead) woke(target, now int64) {
	d := now - target
	if d < 0 {
		// Woken before its time (a Wake): nothing to learn.
		return
	}
	if d > l.ns {
		l.ns = min(l.ns+int64(leadStep), l.max)
	} else {
		l.ns = max(l.ns-int64(leadStep), 0)
	}
}

// alarm is what a precise wait sleeps on: set makes it go off d from now,
// sleep returns once it has gone off, or earlier (a Wake), and returns an
// error only when the alarm cannot be used.
type alarm interface {
	set(d time.Duration) error
	sleep() error
}

// sleepThenYield waits on a until its lead before due, then yields until
// due. It returns false as soon as quit is seen closed, and a's error,
// which leaves the wait to the caller, when a fails. A worker already late
// neither sleeps nor yields.
func sleepThenYield(now func() int64, a alarm, l *lead, due int64, quit <-chan struct{}) (bool, error) {
	// A sleep can end early (a Wake, or an expiry left over from one): the
	// loop sleeps again for what is left. The wake-up time is fixed before
	// it: were it moved by what the lead has just learnt, a lead a step
	// shorter would cost one more sleep of a microsecond.
	wake := due - l.ns
	for {
		d := wake - now()
		if d <= 0 {
			break
		}
		if err := a.set(time.Duration(d)); err != nil {
			return false, err
		}
		// Set before quit is looked at: a Wake after this look ends the
		// sleep, and one before it was overridden by the set but came
		// after quit was closed, which this look sees.
		select {
		case <-quit:
			return false, nil
		default:
		}
		if err := a.sleep(); err != nil {
			return false, err
		}
		if n := now(); n >= wake {
			l.woke(wake, n)
			break
		}
	}
	return spinUntil(now, due, quit), nil
}

// SystemClock is c for the runner, with the most precise wait the platform
// offers.
func SystemClock(c measure.Clock) Clock { return systemClock{c} }

type systemClock struct{ c measure.Clock }

func (s systemClock) Now() int64 { return s.c.Now() }

func (s systemClock) NewTimer(maxSpin time.Duration) Timer {
	if t, err := newPreciseTimer(s.c, maxSpin); err == nil {
		return t
	}
	return newGoTimer(s.c, maxSpin)
}

func (s systemClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// goTimer waits on a runtime timer, the wait of last resort. Go's timers
// wake through the network poller, whose waits have millisecond
// resolution: one fires up to a millisecond late when the process is
// otherwise idle, which is why the precise timer is preferred.
type goTimer struct {
	c    measure.Clock
	now  func() int64
	t    *time.Timer
	lead lead
}

func newGoTimer(c measure.Clock, maxLead time.Duration) *goTimer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &goTimer{c: c, now: c.Now, t: t, lead: newLead(maxLead)}
}

func (g *goTimer) WaitUntil(due int64, quit <-chan struct{}) bool {
	wake := due - g.lead.ns
	if d := wake - g.c.Now(); d > 0 {
		g.t.Reset(time.Duration(d))
		select {
		case <-g.t.C:
			g.lead.woke(wake, g.c.Now())
		case <-quit:
			g.t.Stop()
			return false
		}
	}
	return spinUntil(g.now, due, quit)
}

func (g *goTimer) Wake() {}

func (g *goTimer) Close() { g.t.Stop() }

// spinUntil yields until now reads due, for the last microseconds of a
// wait.
func spinUntil(now func() int64, due int64, quit <-chan struct{}) bool {
	for now() < due {
		select {
		case <-quit:
			return false
		default:
		}
		runtime.Gosched()
	}
	select {
	case <-quit:
		return false
	default:
		return true
	}
}
