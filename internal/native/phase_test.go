package native

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

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

// countRecorder counts what a worker records, on a clock of its own.
type countRecorder struct{ ok, failed int }

func (r *countRecorder) Now() int64 { return 0 }
func (r *countRecorder) Record(_ db.Op, err error, _, _ int64) {
	if err != nil {
		r.failed++
	} else {
		r.ok++
	}
}
func (r *countRecorder) RecordPart(db.Op, error, int64, int64) {}

// TestPartitionedLoadDisjoint: the parts of a partitioned load each run
// slots 0… of their share, numbered from the share's offset (First):
// three parts of a 12-document load, each on a worker and seed of its
// own, insert documents 0 to 11, each once, the same documents an
// unpartitioned load inserts.
func TestPartitionedLoadDisjoint(t *testing.T) {
	t.Parallel()
	f := mustParse(t, `
collections:
  c:
    documents: 12
    document: {_id: {^number: {}}, v: {^int64: {min: 0, max: 1000000}}}
operations:
  - {name: part-ins, kind: insertOne, collection: c}
  - {name: part-many, kind: insertMany, collection: c, batch: 3}
phases:
  load: {count: 4, operations: [part-many]}
`)
	client, dbName := connect(t)
	ctx := t.Context()
	for part, first := range []int64{0, 1, 2, 3} {
		p, err := NewPhaseRunner(f, f.Load, client, dbName)
		if err != nil {
			t.Fatal(err)
		}
		// Each part's share here is one insertMany of 3 documents.
		p.First = first
		w := p.NewWorker(0, uint64(100+part))
		rec := &countRecorder{}
		w.Do(ctx, 0, rec)
		if rec.ok != 1 || rec.failed != 0 {
			t.Fatalf("part %d: %d OK, %d failed; want its one insertMany OK (no duplicate of another part's)", part, rec.ok, rec.failed)
		}
	}
	cur, err := client.Database(dbName).Collection("c").Find(ctx, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	var docs []struct {
		ID int64 `bson:"_id"`
		V  int64 `bson:"v"`
	}
	if err := cur.All(ctx, &docs); err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for _, d := range docs {
		seen[d.ID] = true
	}
	if len(docs) != 12 || len(seen) != 12 {
		t.Fatalf("%d documents, %d distinct ids; want 12 distinct", len(docs), len(seen))
	}
	// The values are those of the document numbers, whoever inserted them.
	tmpl := f.Collections[0].Document
	for _, d := range docs {
		want, _ := tmpl.Append(nil, NewCtx(), d.ID)
		if got := bson.Raw(want).Lookup("v").Int64(); got != d.V {
			t.Errorf("document %d: v %d, want the template's %d for its number", d.ID, d.V, got)
		}
	}
}
