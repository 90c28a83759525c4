package native

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/results"
)

// TestPhaseCountsDocuments runs a mix of operations on two workers of a
// phase against ten known documents and checks each operation's counts
// against what every one of its runs must have returned or affected:
// the find 5 documents, the updateMany 5 matched (modified only the
// first time), the insert of an existing _id nothing but a duplicate
// key error, the delete of nothing 0.
func TestPhaseCountsDocuments(t *testing.T) {
	t.Parallel()
	f := mustParse(t, `
collections:
  c:
    documents: 10
    document: {_id: {^number: {}}, g: {^int64: {min: 0, max: 1, dist: sequence}}}
operations:
  - {name: cnt-find, kind: find, collection: c, filter: {g: 0}}
  - {name: cnt-update, kind: updateMany, collection: c, filter: {g: 1}, update: {$set: {seen: true}}}
  - {name: cnt-dup, kind: insertOne, collection: c, document: {_id: 3}}
  - {name: cnt-none, kind: deleteOne, collection: c, filter: {g: 7}}
  - {name: cnt-count, kind: countDocuments, collection: c, filter: {g: 1}}
phases: {measure: {count: 60}}
`)
	client, dbName := connect(t)
	ctx := context.Background()
	coll := client.Database(dbName).Collection("c")
	for n := range int64(10) {
		doc, _ := f.Collections[0].Document.Append(nil, NewCtx(), n)
		if _, err := coll.InsertOne(ctx, bson.Raw(doc)); err != nil {
			t.Fatal(err)
		}
	}
	p, err := NewPhaseRunner(f, f.Measure, client, dbName)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Documents(); got != nil {
		t.Fatalf("before any worker closed: %+v, want nil", got)
	}
	rec := &fakeRecorder{}
	const slots = 60
	for id := range 2 {
		w := p.NewWorker(id, 5)
		for slot := int64(id); slot < slots; slot += 2 {
			w.Do(ctx, slot, rec)
		}
		w.Close()
	}
	docs := p.Documents()
	if len(docs) != 5 {
		t.Fatalf("%d operations counted, want 5: %+v", len(docs), docs)
	}
	var total int64
	by := map[string]results.OpDocuments{}
	for _, d := range docs {
		total += d.Operations
		by[d.Operation] = d
		if d.Operations == 0 {
			t.Errorf("%s never ran in %d slots; the test checks nothing of it", d.Operation, slots)
		}
		if d.PerOperation != results.PerOp(d.Documents, d.Operations) {
			t.Errorf("%s: %v per operation, want %d / %d", d.Operation, d.PerOperation, d.Documents, d.Operations)
		}
	}
	if total != slots {
		t.Errorf("%d operations counted, want the %d run", total, slots)
	}
	check := func(name, counted string, perOp int64) {
		d := by[name]
		if d.Counted != counted || d.Documents != perOp*d.Operations {
			t.Errorf("%s: %d documents %s in %d operations, want %d each, %s", name, d.Documents, d.Counted, d.Operations, perOp, counted)
		}
	}
	check("cnt-find", "returned", 5)
	check("cnt-update", "matched", 5)
	check("cnt-dup", "inserted", 0)
	check("cnt-none", "deleted", 0)
	check("cnt-count", "returned", 5)
	if m := by["cnt-update"].Modified; m == nil || *m != 5 {
		t.Errorf("cnt-update modified %v, want 5 (the first run; the others find them set)", m)
	}
	if m := by["cnt-find"].Modified; m != nil {
		t.Errorf("a find says it modified %d documents", *m)
	}
	dup := by["cnt-dup"]
	if len(dup.Errors) != 1 || dup.Errors[0].Code != 11000 || dup.Errors[0].Name != "DuplicateKey" || dup.Errors[0].Count != dup.Operations {
		t.Errorf("cnt-dup's errors %+v, want 11000 DuplicateKey × %d", dup.Errors, dup.Operations)
	}
	if errs := by["cnt-find"].Errors; errs != nil {
		t.Errorf("cnt-find failed: %+v", errs)
	}
	if again := p.Documents(); again != nil {
		t.Errorf("counts taken twice: %+v", again)
	}
}

// TestPhaseCountsSkipCut: an operation cut by the phase's end (its
// context done, an error) is not counted, as it is not timed; one that
// finished before is.
func TestPhaseCountsSkipCut(t *testing.T) {
	t.Parallel()
	f := mustParse(t, `
collections:
  c: {documents: 1, document: {_id: {^number: {}}}}
operations: [{name: cut-find, kind: find, collection: c}]
phases: {measure: {count: 2}}
`)
	client, dbName := connect(t)
	p, err := NewPhaseRunner(f, f.Measure, client, dbName)
	if err != nil {
		t.Fatal(err)
	}
	w := p.NewWorker(0, 1)
	w.Do(context.Background(), 0, &fakeRecorder{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w.Do(ctx, 1, &fakeRecorder{})
	w.Close()
	if d := p.Documents(); len(d) != 1 || d[0].Operations != 1 || d[0].Errors != nil {
		t.Errorf("counted %+v, want the one finished operation", d)
	}
}

// TestServerCode: the code of each kind of error the driver returns, and
// none for an error that is not the server's.
func TestServerCode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  error
		code int32
		name string
	}{
		{mongo.CommandError{Code: 251, Name: "NoSuchTransaction"}, 251, "NoSuchTransaction"},
		{fmt.Errorf("step 1 (x): %w", mongo.CommandError{Code: 112, Name: "WriteConflict"}), 112, "WriteConflict"},
		{mongo.WriteException{WriteErrors: []mongo.WriteError{{Code: 11000}}}, 11000, "DuplicateKey"},
		{mongo.WriteException{WriteErrors: []mongo.WriteError{{Code: 9999}}}, 9999, ""},
		{mongo.WriteException{WriteConcernError: &mongo.WriteConcernError{Code: 64, Name: "WriteConcernFailed"}}, 64, "WriteConcernFailed"},
		{mongo.BulkWriteException{WriteErrors: []mongo.BulkWriteError{{WriteError: mongo.WriteError{Code: 121}}}}, 121, "DocumentValidationFailure"},
		{context.DeadlineExceeded, 0, ""},
		{errors.New("connection reset"), 0, ""},
	} {
		code, name := ServerCode(c.err)
		if code != c.code || name != c.name {
			t.Errorf("ServerCode(%v) = %d %q, want %d %q", c.err, code, name, c.code, c.name)
		}
	}
}

// TestCountingAllocatesNothing: counting an operation that succeeded
// costs no allocation, whatever it returned (the driver's own
// allocations are the driver's).
func TestCountingAllocatesNothing(t *testing.T) {
	var tl tally
	if n := testing.AllocsPerRun(1000, func() { tl.add(Result{Documents: 20, Modified: 1}, nil) }); n != 0 {
		t.Errorf("%v allocations per counted operation, want 0", n)
	}
	if tl.docs != 20*1001 || tl.modified != 1001 {
		t.Errorf("counted %d documents, %d modified over 1001 operations", tl.docs, tl.modified)
	}
}

// TestFileConfig: a run records the workload's name and each parameter
// as it read it, a -p override included.
func TestFileConfig(t *testing.T) {
	t.Parallel()
	src := []byte(`
name: posts
parameters: {documents: 10, text: 20}
collections:
  c:
    documents: ${documents}
    document: {_id: {^number: {}}}
operations: [{name: i, kind: insertOne, collection: c}]
phases: {load: {count: 1}}
`)
	f, err := Parse("dir/posts.yaml", src, []Parameter{{Name: "text", Value: "2000"}})
	if err != nil {
		t.Fatal(err)
	}
	got := f.Config()
	want := map[string]string{"native": "posts", "native.documents": "10", "native.text": "2000"}
	if len(got) != len(want) {
		t.Errorf("config %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("config[%s] = %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	f.Name = ""
	if got := f.Config()["native"]; got != "posts.yaml" {
		t.Errorf("a workload without a name recorded as %q, want its file's", got)
	}
}
