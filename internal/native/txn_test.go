package native

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/txnretry"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/nullserver"
)

// The transaction tests run against the null server in its recording
// mode, not the embedded server: FerretDB 1.24 has no transactions, and
// no real server can be made to fail with a chosen error label on a
// chosen command. The null server records the exact commands the driver
// sends and lets a test inject the errors.

const txnFile = `
collections:
  accounts: {documents: 10, document: {_id: {^number: {}}, balance: 100}}
operations:
  - name: transfer
    kind: transaction
    readConcern: snapshot
    writeConcern: majority
    retries: 2
    let: {from: {^ref: accounts._id}}
    steps:
      - {kind: find, collection: accounts, filter: {_id: {^let: from}}}
      - {kind: updateOne, collection: accounts, filter: {_id: {^let: from}}, update: {$inc: {balance: -1}}}
phases: {measure: {count: 1}}
`

// labelled is a server error carrying labels, as a replica set answers a
// write conflict (TransientTransactionError) or a commit whose outcome it
// cannot tell (UnknownTransactionCommitResult).
func labelled(code int32, name string, labels ...string) bson.Raw {
	ls := bson.A{}
	for _, l := range labels {
		ls = append(ls, l)
	}
	b, _ := bson.Marshal(bson.D{
		{Key: "ok", Value: 0.0}, {Key: "errmsg", Value: "injected"}, {Key: "code", Value: code},
		{Key: "codeName", Value: name}, {Key: "errorLabels", Value: ls},
	})
	return b
}

// txnServer starts a recording null server; fail decides, per command in
// order, whether it gets an injected error instead of the canned reply.
func txnServer(t *testing.T, fail func(name string, seen int) bson.Raw) (*nullserver.Server, *mongo.Client) {
	t.Helper()
	var mu sync.Mutex
	seen := map[string]int{}
	srv, err := nullserver.StartWith("127.0.0.1:0", nullserver.Options{Record: true, Respond: func(req nullserver.Request) ([]byte, bool) {
		if fail == nil {
			return nil, false
		}
		mu.Lock()
		seen[req.Name]++
		n := seen[req.Name]
		mu.Unlock()
		r := fail(req.Name, n)
		return r, r != nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	// Retrying is the executor's job here, not the driver's.
	client, err := mongo.Connect(options.Client().ApplyURI(srv.URI()).SetRetryWrites(false).SetRetryReads(false))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	return srv, client
}

// step is what a recorded command says about its transaction.
type step struct {
	name         string
	txn          int64
	start        bool // startTransaction: true
	autocommit   bool // autocommit: false present
	readConcern  string
	writeConcern string
	lsid         string
}

func steps(t *testing.T, srv *nullserver.Server) []step {
	t.Helper()
	var out []step
	for _, c := range srv.Commands() {
		s := step{name: c.Name}
		if v, err := c.Doc.LookupErr("txnNumber"); err == nil {
			s.txn = v.Int64()
		}
		if v, err := c.Doc.LookupErr("startTransaction"); err == nil {
			s.start = v.Boolean()
		}
		if v, err := c.Doc.LookupErr("autocommit"); err == nil {
			s.autocommit = !v.Boolean()
		}
		if v, err := c.Doc.LookupErr("readConcern", "level"); err == nil {
			s.readConcern = v.StringValue()
		}
		if v, err := c.Doc.LookupErr("writeConcern", "w"); err == nil {
			s.writeConcern = v.String()
		}
		if v, err := c.Doc.LookupErr("lsid"); err == nil {
			s.lsid = v.String()
		}
		out = append(out, s)
	}
	return out
}

func runTransfer(t *testing.T, client *mongo.Client) (Result, []time.Duration, error) {
	t.Helper()
	f := mustParse(t, txnFile)
	e := NewExecutor(client, "bank", f, 7)
	var waits []time.Duration
	e.sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	res, err := e.Do(context.Background(), f.Operations[0], 3)
	return res, waits, err
}

func TestTransactionCommandSequence(t *testing.T) {
	t.Parallel()
	srv, client := txnServer(t, nil)
	res, waits, err := runTransfer(t, client)
	if err != nil {
		t.Fatal(err)
	}
	if res.Retries != 0 || res.CommitRetries != 0 || len(waits) != 0 {
		t.Errorf("a clean transaction retried: %+v, waits %v", res, waits)
	}
	got := steps(t, srv)
	if len(got) != 3 {
		t.Fatalf("%d commands, want find, update, commitTransaction: %+v", len(got), got)
	}
	want := []step{
		{name: "find", txn: 1, start: true, autocommit: true, readConcern: "snapshot"},
		{name: "update", txn: 1, autocommit: true},
		{name: "commitTransaction", txn: 1, autocommit: true, writeConcern: `"majority"`},
	}
	for i, w := range want {
		g := got[i]
		w.lsid = got[0].lsid
		if g != w {
			t.Errorf("command %d:\n got %+v\nwant %+v", i+1, g, w)
		}
	}
	if got[0].lsid == "" {
		t.Error("the transaction's commands carry no lsid")
	}
}

func TestTransactionRetriesTransientError(t *testing.T) {
	t.Parallel()
	// The first update conflicts, as a write conflict does on a replica set.
	srv, client := txnServer(t, func(name string, seen int) bson.Raw {
		if name == "update" && seen == 1 {
			return labelled(112, "WriteConflict", txnretry.LabelTransient)
		}
		return nil
	})
	res, waits, err := runTransfer(t, client)
	if err != nil {
		t.Fatal(err)
	}
	if res.Retries != 1 || len(waits) != 1 {
		t.Fatalf("retries %d, waits %v; want one retry after one wait", res.Retries, waits)
	}
	if waits[0] < 0 || waits[0] >= txnretry.Default.Base {
		t.Errorf("first wait %v outside [0, %v)", waits[0], txnretry.Default.Base)
	}
	var names []string
	var txns []int64
	for _, s := range steps(t, srv) {
		names = append(names, s.name)
		txns = append(txns, s.txn)
	}
	if strings.Join(names, " ") != "find update abortTransaction find update commitTransaction" {
		t.Errorf("commands %v", names)
	}
	if txns[0] != 1 || txns[2] != 1 || txns[3] != 2 || txns[5] != 2 {
		t.Errorf("txnNumbers %v: the retry must be a new transaction", txns)
	}
}

func TestTransactionRetriesUnknownCommit(t *testing.T) {
	t.Parallel()
	srv, client := txnServer(t, func(name string, seen int) bson.Raw {
		if name == "commitTransaction" && seen == 1 {
			return labelled(64, "WriteConcernFailed", txnretry.LabelUnknownCommit)
		}
		return nil
	})
	res, _, err := runTransfer(t, client)
	if err != nil {
		t.Fatal(err)
	}
	if res.CommitRetries != 1 || res.Retries != 0 {
		t.Fatalf("%+v; want one commit retried, the transaction not", res)
	}
	got := steps(t, srv)
	if len(got) != 4 || got[2].name != "commitTransaction" || got[3].name != "commitTransaction" || got[3].txn != 1 {
		t.Errorf("commands %+v; want the same transaction committed twice", got)
	}
}

// TestTransactionRetriesBounded: a conflict that never clears is tried
// retries+1 times, with waits that grow within their bound, then fails.
func TestTransactionRetriesBounded(t *testing.T) {
	t.Parallel()
	srv, client := txnServer(t, func(name string, _ int) bson.Raw {
		if name == "update" {
			return labelled(112, "WriteConflict", txnretry.LabelTransient)
		}
		return nil
	})
	res, waits, err := runTransfer(t, client)
	if !txnretry.HasLabel(err, txnretry.LabelTransient) {
		t.Fatalf("err %v; want the last TransientTransactionError", err)
	}
	if res.Retries != 2 || len(waits) != 2 {
		t.Fatalf("retries %d, waits %v; want the file's 2", res.Retries, waits)
	}
	for k, w := range waits {
		if limit := txnretry.Default.Ceiling(k + 1); w < 0 || w >= limit {
			t.Errorf("wait %d is %v, outside [0, %v)", k, w, limit)
		}
	}
	aborts := 0
	for _, s := range steps(t, srv) {
		if s.name == "abortTransaction" {
			aborts++
		}
	}
	if aborts != 3 {
		t.Errorf("%d aborts, want one per attempt (3)", aborts)
	}
}

// TestNonTransientNotRetried: an error without the label ends the
// transaction at once.
func TestNonTransientNotRetried(t *testing.T) {
	t.Parallel()
	_, client := txnServer(t, func(name string, _ int) bson.Raw {
		if name == "find" {
			return labelled(13, "Unauthorized")
		}
		return nil
	})
	res, waits, err := runTransfer(t, client)
	if err == nil || res.Retries != 0 || len(waits) != 0 {
		t.Fatalf("err %v, %+v, waits %v; want the error at once", err, res, waits)
	}
}

// recorded is what a fake recorder was told.
type recorded struct {
	op   string
	err  error
	part bool
}

type fakeRecorder struct {
	t    int64
	seen []recorded
}

func (f *fakeRecorder) Now() int64 { f.t += 1000; return f.t }
func (f *fakeRecorder) Record(op db.Op, err error, _, _ int64) {
	f.seen = append(f.seen, recorded{op.String(), err, false})
}
func (f *fakeRecorder) RecordPart(op db.Op, err error, _, _ int64) {
	f.seen = append(f.seen, recorded{op.String(), err, true})
}

// TestPhaseRecordsRetries: in a phase, each attempt tried again is
// recorded as a part of the operation under NAME.retries, with what it
// failed with, and the operation itself once.
func TestPhaseRecordsRetries(t *testing.T) {
	t.Parallel()
	_, client := txnServer(t, func(name string, seen int) bson.Raw {
		if name == "update" && seen <= 2 {
			return labelled(112, "WriteConflict", txnretry.LabelTransient)
		}
		return nil
	})
	f := mustParse(t, strings.Replace(txnFile, "name: transfer", "name: phase-transfer", 1))
	p, err := NewPhaseRunner(f, f.Measure, client, "bank")
	if err != nil {
		t.Fatal(err)
	}
	w := p.NewWorker(0, 1)
	w.(*phaseWorker).e.sleep = func(context.Context, time.Duration) error { return nil }
	rec := &fakeRecorder{}
	w.Do(context.Background(), 0, rec)
	if len(rec.seen) != 3 {
		t.Fatalf("recorded %+v; want two retried attempts and the operation", rec.seen)
	}
	for i, r := range rec.seen[:2] {
		if r.op != "phase-transfer.retries" || !r.part || !txnretry.HasLabel(r.err, txnretry.LabelTransient) {
			t.Errorf("record %d: %+v; want a part phase-transfer.retries with the conflict", i, r)
		}
	}
	if last := rec.seen[2]; last.op != "phase-transfer" || last.part || last.err != nil {
		t.Errorf("the operation recorded as %+v", last)
	}
}
