package tpcc

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/results"
)

// opRecorder stands in for the runner's session: a fake clock that
// advances 1 ms a reading, and the operations recorded by name and
// outcome.
type opRecorder struct {
	mu     sync.Mutex
	clock  int64
	ok     map[string]int64
	failed map[string]int64
	errs   []error
	parts  int
}

func newOpRecorder() *opRecorder {
	return &opRecorder{ok: map[string]int64{}, failed: map[string]int64{}}
}

func (r *opRecorder) Now() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clock += int64(time.Millisecond)
	return r.clock
}

func (r *opRecorder) Record(op db.Op, err error, startNs, endNs int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.failed[op.String()]++
		r.errs = append(r.errs, err)
		return
	}
	r.ok[op.String()]++
}

func (r *opRecorder) RecordPart(db.Op, error, int64, int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.parts++
}

func (r *opRecorder) total() int64 {
	var n int64
	for _, m := range []map[string]int64{r.ok, r.failed} {
		for _, v := range m {
			n += v
		}
	}
	return n
}

// runPhase runs each of workers' n transactions, the workers at once.
func runPhase(t *testing.T, p *PhaseRunner, workers, n int, seed uint64) *opRecorder {
	t.Helper()
	rec := newOpRecorder()
	var wg sync.WaitGroup
	for id := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := p.NewWorker(id, seed)
			defer w.Close()
			for slot := range n {
				w.Do(context.Background(), int64(id*n+slot), rec)
			}
		}()
	}
	wg.Wait()
	return rec
}

// testPhase is a PhaseRunner on exec, for the fake server's harness.
func testPhase(t *testing.T, exec *Executor, s PhaseSettings) *PhaseRunner {
	t.Helper()
	p := &PhaseRunner{exec: exec, db: exec.db, settings: s, now: time.Now}
	for ty := range NumTypes {
		code, err := db.NamedOp(OpNames[ty])
		if err != nil {
			t.Fatal(err)
		}
		p.codes[ty] = code
	}
	return p
}

func TestTpmC(t *testing.T) {
	for _, tc := range []struct {
		ok, rolledBack, ms int64
		want               float64
	}{
		{7, 1, 120000, 3}, // six committed in two minutes
		{0, 0, 60000, 0},
		{5, 0, 0, 0}, // no runtime: no rate
		{45, 0, 30000, 90},
	} {
		if got := TpmC(tc.ok, tc.rolledBack, tc.ms); got != tc.want {
			t.Errorf("TpmC(%d, %d, %d) = %v, want %v", tc.ok, tc.rolledBack, tc.ms, got, tc.want)
		}
	}
}

func TestSummaryLines(t *testing.T) {
	sec := &results.TPCC{TpmC: 1234.567, Warehouses: 2, Standard: false,
		Transactions: []results.TPCCTransaction{
			{Name: "NewOrder", Retries: 3, CommitRetries: 1, Aborts: 4, RolledBack: 2},
			{Name: "Payment", Retries: 5},
		},
		Check: []results.TPCCCondition{{Number: 1, Checked: 2}, {Number: 2, Checked: 20, Failed: 1, Examples: []string{"district 1,3: D_NEXT_O_ID 9"}}},
	}
	want := []string{
		"[TPCC], tpmC, 1234.57",
		"[TPCC], Warehouses, 2",
		"[WARNING], Scale, items or customers smaller than TPC-C's: figures are not comparable with TPC-C's",
		"[NewOrder], Retries, 3", "[NewOrder], CommitRetries, 1", "[NewOrder], Aborts, 4", "[NewOrder], RolledBack, 2",
		"[Payment], Retries, 5", "[Payment], CommitRetries, 0", "[Payment], Aborts, 0",
		"[CHECK], Condition1, OK (2 checked; 0 failed)",
		"[CHECK], Condition2, FAILED (20 checked; 1 failed)",
		"[CHECK], Condition2, district 1;3: D_NEXT_O_ID 9",
	}
	if got := SummaryLines(sec); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if SummaryLines(nil) != nil {
		t.Error("lines without a section")
	}
}

func TestCheckError(t *testing.T) {
	err := &CheckError{Broken: []int{1, 3}, Range: WarehouseRange{First: 1, Last: 2}}
	if got, want := err.Error(), "tpcc check: consistency condition(s) 1, 3 broken on warehouses 1-2"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
