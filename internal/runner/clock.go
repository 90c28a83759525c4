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
	// NewTimer returns the timer of one worker's open-loop waits.
	NewTimer() Timer
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

// spinWindow is how long before its due time a worker stops sleeping and
// yields the processor in a loop instead: the end of a kernel sleep and
// the scheduler's hand-over take some microseconds, which would otherwise
// be counted as the server's latency. Yielding costs CPU for that long
// per operation, so it is kept to what the wake-up takes on a loaded
// machine.
const spinWindow = 20 * time.Microsecond

// SystemClock is c for the runner, with the most precise wait the platform
// offers.
func SystemClock(c measure.Clock) Clock { return systemClock{c} }

type systemClock struct{ c measure.Clock }

func (s systemClock) Now() int64 { return s.c.Now() }

func (s systemClock) NewTimer() Timer {
	if t, err := newPreciseTimer(s.c); err == nil {
		return t
	}
	return newGoTimer(s.c)
}

func (s systemClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// goTimer waits on a runtime timer, the wait of last resort. Go's timers
// wake through the network poller, whose waits have millisecond
// resolution: one fires up to a millisecond late when the process is
// otherwise idle, which is why the precise timer is preferred.
type goTimer struct {
	c measure.Clock
	t *time.Timer
}

func newGoTimer(c measure.Clock) *goTimer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &goTimer{c: c, t: t}
}

func (g *goTimer) WaitUntil(due int64, quit <-chan struct{}) bool {
	if d := due - g.c.Now() - int64(spinWindow); d > 0 {
		g.t.Reset(time.Duration(d))
		select {
		case <-g.t.C:
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
