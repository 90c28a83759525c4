package runner

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/selfmon"
	"github.com/mongobench/mongobench/internal/workload"
	"github.com/mongobench/mongobench/workloads"
)

// memFlatEnv enables TestMemoryFlat: 10^8 operations per workload take half
// a minute or more, too long for every go test run.
const memFlatEnv = "MONGOBENCH_MEMFLAT"

// memCheckpoint is the memory of the process once a run has started ops
// operations.
type memCheckpoint struct {
	ops     int64
	elapsed time.Duration
	heapIn  uint64 // HeapInuse as the run left it
	stacks  uint64 // StackInuse
	numGC   uint32 // collections so far, the checkpoints' own included
	peakRSS int64  // largest resident set since the previous checkpoint
	// live and settledRSS are read after a collection that returns the
	// freed memory to the system: what the client holds, without the
	// garbage that awaits the next collection.
	live       uint64
	settledRSS int64
}

// TestMemoryFlat checks the client's memory goal: flat (±10%) from 10^6 to
// 10^8 operations. A real server cannot take 10^8 operations in a test, so
// the whole client path but the driver (workload, workers, sessions,
// recorders, collector) runs against a binding that answers at once, and the
// memory is read at 10^6, 10^7 and 10^8 operations.
//
// The live heap and the settled resident set must stay flat. The peak
// resident set between checkpoints is printed, not checked: it also holds
// garbage awaiting collection, and since this path allocates next to nothing
// per operation, the heap takes seconds to reach the garbage collector's
// goal (about twice the live heap), and the peak climbs toward it over the
// first checkpoints. A real run, whose driver allocates on every call,
// reaches that bound within its first second. What the measurement collector
// keeps per status interval grows with time, not operations: a few hundred
// bytes per interval.
//
//	MONGOBENCH_MEMFLAT=1 go test ./internal/runner -run MemoryFlat -v -timeout 30m
func TestMemoryFlat(t *testing.T) {
	if os.Getenv(memFlatEnv) == "" {
		t.Skipf("set %s=1 to run 10^8 operations per workload", memFlatEnv)
	}
	checkpoints := []int64{1e6, 1e7, 1e8}
	for _, name := range []string{"workloada", "workloadd"} {
		t.Run(name, func(t *testing.T) {
			got := runMeasuringMemory(t, name, 16, checkpoints)
			t.Logf("%s, 16 threads:", name)
			t.Logf("%12s %9s %10s %10s %6s %10s %10s %12s", "operations", "elapsed", "HeapInuse", "stacks", "GCs", "peak RSS", "live heap", "settled RSS")
			for _, c := range got {
				t.Logf("%12d %9s %10s %10s %6d %10s %10s %12s", c.ops, c.elapsed.Round(time.Millisecond),
					mib(int64(c.heapIn)), mib(int64(c.stacks)), c.numGC, mib(c.peakRSS), mib(int64(c.live)), mib(c.settledRSS))
			}
			first, last := got[0], got[len(got)-1]
			// Each limit is 10% or a fixed slack, whichever is larger.
			// Growing with operations, even 1 byte per operation would
			// add 95 MiB by 10^8; the slack is what moves with time on a
			// process of about 10 MiB: interval summaries, span
			// fragmentation, and the garbage collector's metadata for the heap's
			// peak, which rises over the first seconds.
			if limit := first.live + max(first.live/10, 256<<10); last.live > limit {
				t.Errorf("live heap grew from %s at %d operations to %s at %d (limit %s)",
					mib(int64(first.live)), first.ops, mib(int64(last.live)), last.ops, mib(int64(limit)))
			}
			if limit := first.settledRSS + max(first.settledRSS/10, 2<<20); first.settledRSS > 0 && last.settledRSS > limit {
				t.Errorf("settled RSS grew from %s at %d operations to %s at %d (limit %s)",
					mib(first.settledRSS), first.ops, mib(last.settledRSS), last.ops, mib(limit))
			}
		})
	}
}

// runMeasuringMemory runs the built-in workload name against nopDB until
// the last checkpoint and reads the memory at each one.
func runMeasuringMemory(t *testing.T, name string, threads int, checkpoints []int64) []memCheckpoint {
	t.Helper()
	data, err := workloads.Files.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := workload.Parse(strings.NewReader(string(data)), name)
	if err != nil {
		t.Fatal(err)
	}
	// Run a little past the last checkpoint, so it is read while the
	// workers still run.
	total := checkpoints[len(checkpoints)-1] * 101 / 100
	for k, v := range map[string]string{
		"recordcount": "1000000", "operationcount": fmt.Sprint(total), "threadcount": fmt.Sprint(threads),
	} {
		p.Set(k, v, "test")
	}
	spec, _, err := workload.Resolve(p, true)
	if err != nil {
		t.Fatal(err)
	}
	core, err := workload.NewCore(spec, spec.RecordCount, 1)
	if err != nil {
		t.Fatal(err)
	}
	clock := measure.NewClock()
	// The first status interval allocates the run's total histograms when
	// it closes: a short interval closes it before the first checkpoint, so
	// that every reading holds them. The interval summaries this adds are
	// the part that grows with time.
	collector := measure.NewCollector(measure.Options{Interval: 100 * time.Millisecond, Service: true, Threads: threads}, clock)
	progress := &Progress{}
	var calls atomic.Int64

	// Start from a settled heap, so the first checkpoint is not billed
	// for the garbage of an earlier subtest.
	runtime.GC()
	out := make([]memCheckpoint, 0, len(checkpoints))
	finished, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		start := time.Now()
		probe := selfmon.StartSampling(10 * time.Millisecond)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for _, cp := range checkpoints {
			for progress.Started() < cp {
				select {
				case <-tick.C:
				case <-finished:
					probe.Stop()
					return
				}
			}
			u := probe.Stop()
			c := memCheckpoint{ops: progress.Started(), elapsed: time.Since(start), peakRSS: u.PeakRSS}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			c.heapIn, c.stacks = ms.HeapInuse, ms.StackInuse
			debug.FreeOSMemory()
			runtime.ReadMemStats(&ms)
			c.numGC = ms.NumGC
			// Marked by the collection just forced, unlike HeapAlloc,
			// which also counts what was allocated while it ran.
			live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
			metrics.Read(live)
			c.live = live[0].Value.Uint64()
			c.settledRSS = selfmon.Start().Stop().RSS
			out = append(out, c)
			probe = selfmon.StartSampling(10 * time.Millisecond)
		}
		probe.Stop()
	}()

	collector.Start(nil)
	_, err = Run(context.Background(), Config{
		Core: core, Transactions: true, Threads: threads, Operations: total,
		Seed: 1, Clock: SystemClock(clock), Collector: collector,
		NewDB: func() db.DB { return nopDB{&calls} },
	}, progress)
	sum := collector.Stop()
	close(finished)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(checkpoints) {
		t.Fatalf("run ended after %d operations, before checkpoint %d", progress.Started(), checkpoints[len(out)])
	}
	if sum.Operations != total {
		t.Fatalf("%d operations recorded, want %d", sum.Operations, total)
	}
	t.Logf("%d record stalls, %d status intervals", sum.RecordStalls, len(sum.Intervals))
	return out
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
