package runner

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
)

// fakeOps runs named operations that take 1 ms on the run clock; slots
// divisible by failEvery fail.
type fakeOps struct {
	op        db.Op
	failEvery int64
	mu        sync.Mutex
	slots     map[int64]int
	closed    int
}

func (f *fakeOps) NewWorker(int, uint64) OpWorker { return f }

func (f *fakeOps) Do(_ context.Context, slot int64, rec OpRecorder) {
	f.mu.Lock()
	f.slots[slot]++
	f.mu.Unlock()
	var err error
	if f.failEvery > 0 && slot%f.failEvery == 0 {
		err = errors.New("injected")
	}
	start := rec.Now()
	if err != nil {
		// A part before the failure: timed, not counted.
		rec.RecordPart(f.op, err, start, start+500_000)
	}
	rec.Record(f.op, err, start, start+1_000_000)
}

func (f *fakeOps) Close() {
	f.mu.Lock()
	f.closed++
	f.mu.Unlock()
}

// TestOpRunnerPhase: a phase of named operations runs every slot once
// over its workers, counts and times them as operations, and its
// failures stop it at --max-errors as YCSB's do.
func TestOpRunnerPhase(t *testing.T) {
	t.Parallel()
	op, err := db.NamedOp("runner-op")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name               string
		failEvery, maxErrs int64
		wantOps, wantFails int64
	}{
		{"all ok", 0, 0, 100, 0},
		// Slots 0, 10, 20 … fail: 10 of 100.
		{"some fail", 10, 0, 100, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeOps{op: op, failEvery: tc.failEvery, slots: map[int64]int{}}
			c := measure.NewCollector(measure.Options{Threads: 4, Service: true}, measure.NewClock())
			cfg := Config{Ops: f, Threads: 4, Operations: 100, Seed: 1, Clock: newFakeClock(0), Collector: c, MaxErrors: tc.maxErrs}
			c.Start(nil)
			res, err := Run(context.Background(), cfg, nil)
			sum := c.Stop()
			if err != nil {
				t.Fatal(err)
			}
			if len(f.slots) != 100 || f.closed != 4 {
				t.Errorf("%d distinct slots run, %d workers closed; want 100 and 4", len(f.slots), f.closed)
			}
			for s, n := range f.slots {
				if n != 1 || s < 0 || s >= 100 {
					t.Fatalf("slot %d run %d times", s, n)
				}
			}
			// Each failure is recorded twice (a part, then the operation);
			// only the operation counts, as an operation and as a failure.
			if sum.Operations != tc.wantOps || sum.Status[op][db.Error] != 2*tc.wantFails || res.Failures != tc.wantFails {
				t.Errorf("operations %d, errors %d (runner %d); want %d, %d and %d", sum.Operations, sum.Status[op][db.Error], res.Failures, tc.wantOps, 2*tc.wantFails, tc.wantFails)
			}
			m := measurement(t, sum, "runner-op")
			if m.Service.TotalCount() != tc.wantOps-tc.wantFails || m.Service.Max() < 999 || m.Service.Max() > 1001 {
				t.Errorf("runner-op: %d samples, max %d µs", m.Service.TotalCount(), m.Service.Max())
			}
		})
	}
}
