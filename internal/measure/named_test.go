package measure

import (
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
)

// TestCollectorNamedOperations: a native workload's operations, registered
// by name, are counted, timed and named like YCSB's, after them.
func TestCollectorNamedOperations(t *testing.T) {
	t.Parallel()
	checkout, err := db.NamedOp("measure-checkout")
	if err != nil {
		t.Fatal(err)
	}
	c, fc := newFakeCollector(Options{Interval: time.Second, Service: true})
	r := c.NewRecorder()
	var ivs []string
	c.Start(func(iv *Interval) {
		for _, m := range iv.Measurements {
			ivs = append(ivs, m.Name)
		}
	})
	r.Record(db.Read, db.OK, 0, 1*ms, 1*ms+1000)
	r.Record(checkout, db.OK, 0, 2*ms, 2*ms+5000)
	r.Record(checkout, db.OK, 0, 3*ms, 3*ms+7000)
	r.Record(checkout, db.Error, 0, 4*ms, 4*ms+9000)
	r.RecordError(checkout, errTest("WriteConflict"), 1)
	fc.ns.Store(10 * ms)
	s := c.Stop()
	if s.Operations != 4 || s.Invalid != 0 {
		t.Errorf("operations %d, invalid %d; want 4 counted, none invalid", s.Operations, s.Invalid)
	}
	if s.Status[checkout][db.OK] != 2 || s.Status[checkout][db.Error] != 1 {
		t.Errorf("status of the named operation: %v", s.Status[checkout])
	}
	var names []string
	for _, m := range s.Measurements {
		names = append(names, m.Name)
	}
	want := []string{"READ", "measure-checkout", "measure-checkout-FAILED"}
	if len(names) != len(want) || names[0] != want[0] || names[1] != want[1] || names[2] != want[2] {
		t.Errorf("measurements %v, want %v", names, want)
	}
	if len(ivs) != 3 || ivs[1] != "measure-checkout" {
		t.Errorf("the interval's measurements %v", ivs)
	}
	if got := s.Measurements[1].Service.Max(); got != 7 {
		t.Errorf("the named operation's max %d µs, want 7", got)
	}
	if len(s.ErrorMessages) != 1 || s.ErrorMessages[0].Op != checkout || s.ErrorMessages[0].Messages[0].Message != "WriteConflict" {
		t.Errorf("error messages %+v", s.ErrorMessages)
	}
}

type errTest string

func (e errTest) Error() string { return string(e) }
