package selfmon

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestRunQueueWait: with twice as many busy threads as CPUs, threads wait
// for a CPU, and the probe sees it. Only the presence of the wait is
// checked, not its size, which depends on the machine's load. Each
// thread burns a fixed amount of its own CPU time, not of wall time: on a
// busy machine the threads take longer and wait more, but still burn
// enough for the wait to be seen.
func TestRunQueueWait(t *testing.T) {
	if _, ok := runQueueWait(); !ok {
		t.Skip("this kernel has no schedstat")
	}
	busy := 2 * runtime.NumCPU()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(busy))
	const burnEach = 150 * time.Millisecond
	p := Start()
	var wg sync.WaitGroup
	for range busy {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			// The thread may have run before (a pooled OS thread): count
			// from what it had used.
			for start := threadCPU(t); threadCPU(t)-start < burnEach; {
			}
		})
	}
	wg.Wait()
	u := p.Stop()
	if !u.RunQueueWaitAvailable || u.RunQueueWait <= 0 {
		t.Fatalf("%d busy threads on %d CPUs: run-queue wait %v (available %v)", busy, runtime.NumCPU(), u.RunQueueWait, u.RunQueueWaitAvailable)
	}
	// How long they waited depends on what else the machine runs; the
	// share it makes of the allowed CPUs, and the verdict on it, are
	// checked on fake readings (TestProbeFigures).
	if want := utilization(u.RunQueueWait, u.Wall, u.Limits.Allowed); u.Waiting != want {
		t.Errorf("Waiting %g, want %g from a wait of %v over %v", u.Waiting, want, u.RunQueueWait, u.Wall)
	}
}

// threadCPU is the CPU time the calling OS thread has used.
func threadCPU(t *testing.T) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		t.Error(err)
		return time.Hour
	}
	return time.Duration(ts.Nano())
}
