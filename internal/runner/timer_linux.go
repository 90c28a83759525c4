package runner

import (
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mongobench/mongobench/internal/measure"
)

// fdTimer waits on a timerfd. Its expiry makes the descriptor readable,
// which wakes the network poller at once, to the microsecond: the runtime's
// own timers would wait for the poller's next millisecond tick. The
// descriptor is read through the runtime's poller, so a waiting worker
// holds no thread.
type fdTimer struct {
	c    measure.Clock
	fd   int
	f    *os.File
	buf  [8]byte
	spin spin
	// fallback waits when the descriptor fails, which it should not.
	fallback *goTimer
}

func newPreciseTimer(c measure.Clock, maxSpin time.Duration) (*fdTimer, error) {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("timerfd: %w", err)
	}
	return &fdTimer{c: c, fd: fd, f: os.NewFile(uintptr(fd), "timerfd"), spin: newSpin(maxSpin)}, nil
}

// arm sets the timer to expire in d (relative: the runtime's monotonic
// clock is CLOCK_MONOTONIC, so no offset between the two is needed).
func (t *fdTimer) arm(d time.Duration) error {
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(max(d, 1)))}
	return unix.TimerfdSettime(t.fd, 0, &spec, nil)
}

func (t *fdTimer) WaitUntil(due int64, quit <-chan struct{}) bool {
	if t.fallback != nil {
		return t.fallback.WaitUntil(due, quit)
	}
	// A read can return early (a Wake, or an expiry left over from one):
	// the loop sleeps again for what is left.
	for {
		wake := due - t.spin.window
		d := wake - t.c.Now()
		if d <= 0 {
			break
		}
		if err := t.arm(time.Duration(d)); err != nil {
			t.fallback = newGoTimer(t.c, time.Duration(t.spin.max))
			return t.fallback.WaitUntil(due, quit)
		}
		// Armed before quit is looked at: a Wake after this look ends
		// the read, and one before it was overridden by the arm but
		// came after quit was closed, which this look sees.
		select {
		case <-quit:
			return false
		default:
		}
		if _, err := t.f.Read(t.buf[:]); err != nil {
			t.fallback = newGoTimer(t.c, time.Duration(t.spin.max))
			return t.fallback.WaitUntil(due, quit)
		}
		t.spin.woke(wake, t.c.Now())
	}
	return spinUntil(t.c, due, quit)
}

func (t *fdTimer) Wake() { _ = t.arm(1) }

func (t *fdTimer) Close() {
	_ = t.f.Close()
	if t.fallback != nil {
		t.fallback.Close()
	}
}
