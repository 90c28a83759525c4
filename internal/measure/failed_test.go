package measure

import (
	"sync"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
)

// TestIntervalFailed checks the per-interval failure count that an error
// rate is computed from: failures of operations count, NOT_FOUND and the
// parts of a composite operation do not, and neither do VERIFY and
// INSERT-BATCH, which are not operations.
func TestIntervalFailed(t *testing.T) {
	t.Parallel()
	c, fc := newFakeCollector(Options{Interval: 10 * time.Millisecond, Service: true})
	r := c.NewRecorder()
	var mu sync.Mutex
	var seen []Interval
	c.Start(func(iv *Interval) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, *iv)
	})
	// Interval 0: 4 operations, 2 failed.
	r.Record(db.Read, db.OK, 0, 1*ms, 2*ms)
	r.Record(db.Read, db.NotFound, 0, 2*ms, 3*ms)
	r.Record(db.Read, db.Error, 0, 3*ms, 4*ms)
	r.Record(db.Update, db.Timeout, 0, 4*ms, 5*ms)
	r.Record(db.Verify, db.Error, 0, 5*ms, 6*ms)
	r.Record(db.InsertBatch, db.Error, 0, 6*ms, 7*ms)
	// Interval 1: a READ-MODIFY-WRITE whose read part failed is one
	// failed operation, not two.
	r.RecordPart(db.Read, db.Error, 0, 11*ms, 12*ms)
	r.Record(db.ReadModifyWrite, db.Error, 0, 11*ms, 13*ms)
	r.Record(db.Insert, db.OK, 0, 14*ms, 15*ms)
	fc.ns.Store(19 * ms)
	c.Stop()

	mu.Lock()
	defer mu.Unlock()
	want := []struct{ ops, failed int64 }{{4, 2}, {2, 1}}
	if len(seen) != len(want) {
		t.Fatalf("got %d intervals, want %d", len(seen), len(want))
	}
	for i, w := range want {
		if seen[i].Operations != w.ops || seen[i].Failed != w.failed {
			t.Errorf("interval %d: %d operations, %d failed; want %d, %d", i, seen[i].Operations, seen[i].Failed, w.ops, w.failed)
		}
	}
}
