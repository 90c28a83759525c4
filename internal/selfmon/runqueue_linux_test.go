package selfmon

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestRunQueueWait: with twice as many busy threads as CPUs, each thread
// waits for a CPU about half the time, and the probe sees it. Only the
// presence and rough size of the wait are checked, not a timing.
func TestRunQueueWait(t *testing.T) {
	if _, ok := runQueueWait(); !ok {
		t.Skip("this kernel has no schedstat")
	}
	busy := 2 * runtime.NumCPU()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(busy))
	p := Start()
	var wg sync.WaitGroup
	deadline := time.Now().Add(300 * time.Millisecond)
	for range busy {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for time.Now().Before(deadline) {
			}
		})
	}
	wg.Wait()
	u := p.Stop()
	if !u.RunQueueWaitAvailable || u.RunQueueWait <= 0 {
		t.Fatalf("%d busy threads on %d CPUs: run-queue wait %v (available %v)", busy, runtime.NumCPU(), u.RunQueueWait, u.RunQueueWaitAvailable)
	}
	// busy threads for 0.3 s on NumCPU CPUs want 2× the CPU time there
	// is: the waits add up to about the CPU time used.
	if u.RunQueueWait < u.CPU()/4 {
		t.Errorf("run-queue wait %v against %v of CPU: too small for %d threads on %d CPUs", u.RunQueueWait, u.CPU(), busy, runtime.NumCPU())
	}
	if u.Waiting <= 0 || !u.ClientBound() {
		t.Errorf("Waiting %.2f, Utilization %.2f: a process that wants twice its CPUs is CPU-bound", u.Waiting, u.Utilization)
	}
}
