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

// A worker stops sleeping shortly before its due time and yields the
// processor in a loop for the rest: the end of a kernel sleep and the
// scheduler's hand-over take some microseconds, more on a loaded machine,
// which would otherwise be counted as the server's latency. The window
// follows how late the worker's sleeps actually end (towards the upper end
// of those delays), so an idle machine spins little; yielding costs CPU
// for that long per operation, so the window is capped so that all
// workers together spin at most spinShare of one CPU.
const (
	initialSpin = 20 * time.Microsecond
	spinShare   = 0.05
	maxSpin     = time.Millisecond
)

// spinCap is the spin window allowed at target operations per second.
func spinCap(target float64) time.Duration {
	if target <= 0 {
		return 0
	}
	return min(time.Duration(spinShare/target*float64(time.Second)), maxSpin)
}

// spin is one timer's spin window, learnt from its own wake-ups.
type spin struct {
	window, max int64
}

func newSpin(maxWindow time.Duration) spin {
	return spin{window: min(int64(initialSpin), int64(maxWindow)), max: int64(maxWindow)}
}

// woke learns from a sleep meant to end at target that ended at now: the
// window moves up fast and down slowly, so that most sleeps end before
// the window begins.
func (s *spin) woke(target, now int64) {
	d := now - target
	if d < 0 {
		return
	}
	if d > s.window {
		s.window += (d - s.window) / 8
	} else {
		s.window -= (s.window - d) / 72
	}
	s.window = min(s.window, s.max)
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
	t    *time.Timer
	spin spin
}

func newGoTimer(c measure.Clock, maxSpin time.Duration) *goTimer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &goTimer{c: c, t: t, spin: newSpin(maxSpin)}
}

func (g *goTimer) WaitUntil(due int64, quit <-chan struct{}) bool {
	wake := due - g.spin.window
	if d := wake - g.c.Now(); d > 0 {
		g.t.Reset(time.Duration(d))
		select {
		case <-g.t.C:
			g.spin.woke(wake, g.c.Now())
		case <-quit:
			g.t.Stop()
			return false
		}
	}
	return spinUntil(g.c, due, quit)
}

func (g *goTimer) Wake() {}

func (g *goTimer) Close() { g.t.Stop() }

// spinUntil yields until the clock reads due, for the last microseconds of
// a wait.
func spinUntil(c measure.Clock, due int64, quit <-chan struct{}) bool {
	for c.Now() < due {
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
