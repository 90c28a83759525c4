package runner

import (
	"fmt"
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/mongobench/mongobench/internal/measure"
)

// fdTimer waits on a timerfd. Its expiry makes the descriptor readable,
// which wakes the network poller at once, to the microsecond: the runtime's
// own timers would wait for the poller's next millisecond tick. The
// descriptor is waited for through the runtime's poller, so a waiting
// worker holds no thread.
//
// Setting and reading the timer are raw system calls, which the runtime
// does not see: a system call it sees wakes its monitor thread (sysmon)
// when every processor was idle, which is the state of an open loop
// between operations, and the monitor then polls every 20 µs for a while.
// Woken for each operation, it cost more CPU than the operation did.
type fdTimer struct {
	c    measure.Clock
	now  func() int64
	fd   int
	f    *os.File
	rc   syscall.RawConn
	lead lead
	// spec and buf live here, not on the stack of a call that passes their
	// address to the kernel, where they would be moved to the heap;
	// wakeSpec is Wake's, which another goroutine calls.
	spec, wakeSpec unix.ItimerSpec
	buf            [8]byte
	// drain reads the expiry count: false while the timer has not gone
	// off. readErr is what it met other than that.
	drain   func(fd uintptr) bool
	readErr error
	// fallback waits when the descriptor fails, which it should not.
	fallback *goTimer
}

func newPreciseTimer(c measure.Clock, maxLead time.Duration) (*fdTimer, error) {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("timerfd: %w", err)
	}
	f := os.NewFile(uintptr(fd), "timerfd")
	rc, err := f.SyscallConn()
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("timerfd: %w", err)
	}
	t := &fdTimer{c: c, now: c.Now, fd: fd, f: f, rc: rc, lead: newLead(maxLead)}
	t.drain = t.read
	return t, nil
}

// set arms the timer to expire in d (relative: the runtime's monotonic
// clock is CLOCK_MONOTONIC, so no offset between the two is needed).
// Setting it also clears an expiry not yet read.
func (t *fdTimer) set(d time.Duration) error {
	return t.setSpec(&t.spec, d)
}

func (t *fdTimer) setSpec(spec *unix.ItimerSpec, d time.Duration) error {
	spec.Value = unix.NsecToTimespec(int64(max(d, 1)))
	_, _, e := unix.RawSyscall6(unix.SYS_TIMERFD_SETTIME, uintptr(t.fd), 0, uintptr(unsafe.Pointer(spec)), 0, 0, 0)
	if e != 0 {
		return fmt.Errorf("timerfd_settime: %w", e)
	}
	return nil
}

// sleep returns once the timer has gone off.
func (t *fdTimer) sleep() error {
	if err := t.rc.Read(t.drain); err != nil {
		return err
	}
	err := t.readErr
	t.readErr = nil
	return err
}

func (t *fdTimer) read(fd uintptr) bool {
	_, _, e := unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&t.buf[0])), uintptr(len(t.buf)))
	switch {
	case e == 0:
		return true
	case e == unix.EAGAIN:
		return false
	case e == unix.EINTR:
		return t.read(fd)
	default:
		t.readErr = fmt.Errorf("timerfd read: %w", error(e))
		return true
	}
}

func (t *fdTimer) WaitUntil(due int64, quit <-chan struct{}) bool {
	if t.fallback != nil {
		return t.fallback.WaitUntil(due, quit)
	}
	ok, err := sleepThenYield(t.now, t, &t.lead, due, quit)
	if err != nil {
		t.fallback = newGoTimer(t.c, time.Duration(t.lead.max))
		return t.fallback.WaitUntil(due, quit)
	}
	return ok
}

func (t *fdTimer) Wake() { _ = t.setSpec(&t.wakeSpec, 1) }

func (t *fdTimer) Close() {
	_ = t.f.Close()
	if t.fallback != nil {
		t.fallback.Close()
	}
}
