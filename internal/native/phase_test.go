package native

import (
	"testing"

	"github.com/mongobench/mongobench/internal/db"
)

// TestPhaseRunnerNumbering: a load numbers its inserts from 0; a run after
// the loaded documents, in a window its seed chooses, the same for every
// worker of the phase and another for another seed.
func TestPhaseRunnerNumbering(t *testing.T) {
	t.Parallel()
	f := mustParse(t, `
collections:
  c: {documents: 1000, document: {_id: {^number: {}}}}
operations:
  - {name: phase-ins, kind: insertOne, collection: c}
  - {name: phase-find, kind: find, collection: c, weight: 3}
phases: {load: {count: 1000, operations: [phase-ins]}, measure: {count: 10}}
`)
	c := f.Collections[0]
	client, dbName := connect(t)
	base := func(ph *Phase, id int, seed uint64) int64 {
		p, err := NewPhaseRunner(f, ph, client, dbName)
		if err != nil {
			t.Fatal(err)
		}
		return p.NewWorker(id, seed).(*phaseWorker).e.DocBase[c]
	}
	if got := base(f.Load, 0, 77); got != 0 {
		t.Errorf("load numbers from %d, want 0", got)
	}
	run := base(f.Measure, 0, 77)
	if run < 1000 || run != base(f.Measure, 3, 77) {
		t.Errorf("run numbers from %d (worker 3: %d); want one base past the 1000 loaded", run, base(f.Measure, 3, 77))
	}
	if other := base(f.Measure, 0, 78); other == run || other < 1000 {
		t.Errorf("seeds 77 and 78 number their inserts from %d and %d", run, other)
	}
	p, _ := NewPhaseRunner(f, f.Measure, client, dbName)
	if ops := p.Operations(); len(ops) != 2 || ops[0].String() != "phase-ins" || ops[1].String() != "phase-find" {
		t.Errorf("operations registered as %v", ops)
	}
	if _, ok := db.ParseOp("phase-find"); !ok {
		t.Error("the phase's operations are not registered")
	}
}
