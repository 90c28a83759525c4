package selfmon

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestRunQueueWait: with twice as many busy threads as CPUs, each thread
// waits for a CPU about half the time, and the probe sees it. Only the
// presence and rough size of the wait are checked, not a timing. Each
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
	// busy threads on NumCPU CPUs want 2× the CPU time there is: the
	// waits add up to about the CPU time used.
	if u.RunQueueWait < u.CPU()/4 {
		t.Errorf("run-queue wait %v against %v of CPU: too small for %d threads on %d CPUs", u.RunQueueWait, u.CPU(), busy, runtime.NumCPU())
	}
	if u.Waiting <= 0 || u.Utilization+u.Waiting <= 0.8 {
		t.Errorf("Waiting %.2f, Utilization %.2f: a process that wants twice its CPUs is CPU-bound", u.Waiting, u.Utilization)
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
