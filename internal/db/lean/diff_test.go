package lean_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/nullserver"
	"github.com/mongobench/mongobench/internal/nullserver/nullservertest"
)

// taker is the lean worker's report of which operations it takes.
type taker interface{ Takes(db.Op) bool }

// script runs every operation kind the binding has, with the variations
// that change what is sent (projections, batch sizes), and returns what
// each call returned.
func script(t *testing.T, w db.DB) []string {
	t.Helper()
	ctx := context.Background()
	f := []db.Field{{Name: "field0", Value: []byte("value0")}, {Name: "field1", Value: []byte("value1")}}
	var out []string
	note := func(what string, err error) { out = append(out, fmt.Sprintf("%s: %v", what, err)) }
	got := map[string]string{}
	visit := func(name string, v []byte) { got[name] = string(v) }
	note("read all", w.Read(ctx, "usertable", "user1", nil, visit))
	out = append(out, fmt.Sprint(got))
	note("read one field", w.Read(ctx, "usertable", "user2", []string{"field1"}, nil))
	note("read two fields", w.Read(ctx, "usertable", "user3", []string{"field2", "field7"}, nil))
	note("update", w.Update(ctx, "usertable", "user4", f))
	note("update one field", w.Update(ctx, "usertable", "user5", f[:1]))
	note("insert", w.Insert(ctx, "usertable", "user6", f))
	note("delete", w.Delete(ctx, "usertable", "user7"))
	note("scan", w.Scan(ctx, "usertable", "user8", 5, nil, nil))
	bi := w.(db.BatchInserter)
	note("insert batch of 1", bi.InsertBatch(ctx, "usertable", []string{"user9"}, [][]db.Field{f}))
	note("insert batch of 3", bi.InsertBatch(ctx, "usertable", []string{"user10", "user11", "user12"}, [][]db.Field{f, f[:1], f}))
	note("read other table", w.Read(ctx, "other", "user13", nil, nil))
	note("update again", w.Update(ctx, "usertable", "user14", f))
	return out
}

type serverKind struct {
	name    string
	version string // "" = standalone, else a mongos of that version
}

func start(t *testing.T, sk serverKind) *nullserver.Server {
	t.Helper()
	opts := nullserver.Options{Record: true}
	if sk.version != "" {
		cl, err := nullservertest.NewCluster(sk.version, "shard0")
		if err != nil {
			t.Fatal(err)
		}
		opts.Respond = cl.Respond
	}
	s, err := nullserver.StartWith("127.0.0.1:0", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// TestSameCommands runs the same operations through the driver's path and
// the lean path against recording null servers and checks that both sent
// the same commands, field for field, in the same order: only the session
// id may differ, and maxTimeMS by the milliseconds between the two runs.
func TestSameCommands(t *testing.T) {
	servers := []serverKind{
		{name: "standalone"},
		{name: "mongos 7.0", version: "7.0.12"},
		{name: "mongos 4.4", version: "4.4.29"},
	}
	type combo struct {
		name    string
		query   string
		upsert  bool
		timeout time.Duration
		// lean: the operations the lean path must take under this
		// combination; the rest go to the driver.
		lean []db.Op
		// fallback: words Fallbacks must name.
		fallback string
	}
	all := []db.Op{db.Read, db.Update, db.Insert, db.Delete, db.InsertBatch}
	combos := []combo{
		{name: "defaults", timeout: 30 * time.Second, lean: all},
		{name: "no operation timeout", lean: all},
		{name: "w=majority j=true", query: "w=majority&journal=true", timeout: 10 * time.Second, lean: all},
		{name: "w=2", query: "w=2", timeout: 10 * time.Second, lean: all},
		{name: "w=1", query: "w=1", timeout: 10 * time.Second, lean: all},
		{name: "readConcern majority", query: "readConcernLevel=majority", timeout: 10 * time.Second, lean: all},
		{name: "readConcern local w=majority", query: "readConcernLevel=local&w=majority", timeout: 10 * time.Second, lean: all},
		{name: "retryWrites=false", query: "retryWrites=false", timeout: 10 * time.Second, lean: all},
		{name: "retryReads=false", query: "retryReads=false", timeout: 10 * time.Second, lean: all},
		{name: "readPreference primary", query: "readPreference=primary", timeout: 10 * time.Second, lean: all},
		{name: "readPreference secondaryPreferred", query: "readPreference=secondaryPreferred", timeout: 10 * time.Second,
			lean: []db.Op{db.Update, db.Insert, db.Delete, db.InsertBatch}, fallback: "read: readPreference=secondaryPreferred"},
		{name: "readPreference nearest", query: "readPreference=nearest", timeout: 10 * time.Second,
			lean: []db.Op{db.Update, db.Insert, db.Delete, db.InsertBatch}, fallback: "read: readPreference=nearest"},
		{name: "w=0", query: "w=0", timeout: 10 * time.Second, lean: []db.Op{db.Read}, fallback: "update, delete: w=0"},
		{name: "upsert", upsert: true, timeout: 10 * time.Second,
			lean: []db.Op{db.Read, db.Update, db.Delete}, fallback: "insert, batched insert: mongodb.upsert=true"},
		{name: "compressors", query: "compressors=zlib", timeout: 10 * time.Second, fallback: "compressors in the URL"},
		{name: "timeoutMS", query: "timeoutMS=5000", fallback: "timeoutMS in the URL"},
	}
	for _, sk := range servers {
		for _, cb := range combos {
			t.Run(sk.name+"/"+cb.name, func(t *testing.T) {
				t.Parallel()
				var sent [2][]nullserver.Command
				var results [2][]string
				for i, path := range []string{mongo.PathDriver, mongo.PathLean} {
					s := start(t, sk)
					url := "mongodb://" + s.Addr() + "/ycsb"
					if cb.query != "" {
						url += "?" + cb.query
					}
					c, err := mongo.Open(context.Background(), mongo.Config{URL: url, Database: "ycsb", Threads: 1,
						Upsert: cb.upsert, OpTimeout: cb.timeout, Path: path})
					if err != nil {
						t.Fatal(err)
					}
					w := c.NewDB()
					if path == mongo.PathLean {
						p, fb := c.Path()
						if p != mongo.PathLean {
							t.Errorf("path %q, want lean", p)
						}
						if cb.fallback != "" && !strings.Contains(strings.Join(fb, "; "), cb.fallback) {
							t.Errorf("fallbacks %q do not name %q", fb, cb.fallback)
						}
						tk, ok := w.(taker)
						for _, op := range all {
							want := slices.Contains(cb.lean, op)
							if got := ok && tk.Takes(op); got != want {
								t.Errorf("lean path takes %v: %v, want %v", op, got, want)
							}
						}
					}
					results[i] = script(t, w)
					_ = w.Close()
					_ = c.Close(context.Background())
					sent[i] = s.Commands()
				}
				if !slices.Equal(results[0], results[1]) {
					t.Errorf("results differ:\ndriver %q\nlean   %q", results[0], results[1])
				}
				compare(t, sent[0], sent[1])
			})
		}
	}
}

// compare checks that two recorded command sequences are the same but for
// the session ids and a few milliseconds of maxTimeMS.
func compare(t *testing.T, driver, lean []nullserver.Command) {
	t.Helper()
	if len(driver) != len(lean) {
		t.Fatalf("driver sent %d commands, lean %d:\ndriver %v\nlean   %v", len(driver), len(lean), driver, lean)
	}
	for _, cmds := range [][]nullserver.Command{driver, lean} {
		if err := txnNumbersIncrease(cmds); err != nil {
			t.Error(err)
		}
	}
	for i := range driver {
		d, l := driver[i], lean[i]
		if err := sameDoc(d.Doc, l.Doc); err != nil {
			t.Errorf("command %d (%s): %v\ndriver %s\nlean   %s", i, d.Name, err, d.Doc, l.Doc)
		}
		if len(d.Sequences) != len(l.Sequences) {
			t.Errorf("command %d (%s): %d document sequences, lean %d", i, d.Name, len(d.Sequences), len(l.Sequences))
		}
		for id, docs := range d.Sequences {
			ldocs := l.Sequences[id]
			if len(docs) != len(ldocs) {
				t.Errorf("command %d (%s): sequence %s of %d documents, lean %d", i, d.Name, id, len(docs), len(ldocs))
				continue
			}
			for j := range docs {
				if !bytes.Equal(docs[j], ldocs[j]) {
					t.Errorf("command %d (%s): %s[%d] differs:\ndriver %s\nlean   %s", i, d.Name, id, j, docs[j], ldocs[j])
				}
			}
		}
	}
}

// sameDoc compares two command documents element by element, in order,
// type and value, but for lsid's value (a session id of either path) and
// maxTimeMS's (the time left, counted at slightly different moments).
func sameDoc(a, b bson.Raw) error {
	ea, err := a.Elements()
	if err != nil {
		return err
	}
	eb, err := b.Elements()
	if err != nil {
		return err
	}
	if len(ea) != len(eb) {
		return fmt.Errorf("%d fields, lean %d", len(ea), len(eb))
	}
	for i := range ea {
		ka, kb := ea[i].Key(), eb[i].Key()
		va, vb := ea[i].Value(), eb[i].Value()
		if ka != kb || va.Type != vb.Type {
			return fmt.Errorf("field %d: %s (%v), lean %s (%v)", i, ka, va.Type, kb, vb.Type)
		}
		switch ka {
		case "lsid":
			if err := isSessionID(va.Document()); err != nil {
				return fmt.Errorf("driver's lsid: %w", err)
			}
			if err := isSessionID(vb.Document()); err != nil {
				return fmt.Errorf("lean lsid: %w", err)
			}
		case "txnNumber":
			// Checked by increasing: where some operations of a run go to
			// the driver, each path counts its own session's writes.
		case "maxTimeMS":
			if d := va.Int64() - vb.Int64(); d < -1000 || d > 1000 {
				return fmt.Errorf("maxTimeMS %d, lean %d", va.Int64(), vb.Int64())
			}
		default:
			if !bytes.Equal(va.Value, vb.Value) {
				return fmt.Errorf("%s: %s, lean %s", ka, va, vb)
			}
		}
	}
	return nil
}

func isSessionID(d bson.Raw) error {
	subtype, data, ok := d.Lookup("id").BinaryOK()
	if !ok || subtype != 4 || len(data) != 16 {
		return errors.New("not {id: UUID}")
	}
	if n, _ := d.Elements(); len(n) != 1 {
		return errors.New("more than id")
	}
	return nil
}

// txnNumbersIncrease checks that each session's retryable writes carry
// increasing transaction numbers, from 1, as a new session's must.
func txnNumbersIncrease(cmds []nullserver.Command) error {
	last := map[string]int64{}
	for i, c := range cmds {
		v, err := c.Doc.LookupErr("txnNumber")
		if err != nil {
			continue
		}
		id := c.Doc.Lookup("lsid").String()
		n := v.Int64()
		if n != last[id]+1 {
			return fmt.Errorf("command %d (%s): txnNumber %d after %d in its session", i, c.Name, n, last[id])
		}
		last[id] = n
	}
	return nil
}

// TestServerGone checks that when the server goes away under a worker
// holding a connection, operations fail with an error (not a hang, not a
// success) and the binding closes cleanly.
func TestServerGone(t *testing.T) {
	s, err := nullserver.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := mongo.Open(context.Background(), mongo.Config{URL: s.URI(), Database: "ycsb", Threads: 1,
		OpTimeout: 2 * time.Second, ConnectTimeout: time.Second, Path: mongo.PathLean})
	if err != nil {
		t.Fatal(err)
	}
	w := c.NewDB()
	ctx := context.Background()
	if err := w.Read(ctx, "usertable", "user1", nil, nil); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	for _, op := range []struct {
		name string
		run  func() error
	}{
		{"read", func() error { return w.Read(ctx, "usertable", "user1", nil, nil) }},
		{"update", func() error {
			return w.Update(ctx, "usertable", "user1", []db.Field{{Name: "field0", Value: []byte("x")}})
		}},
	} {
		err := op.run()
		if err == nil {
			t.Errorf("%s after the server closed: no error", op.name)
			continue
		}
		if st := db.StatusOf(err); st != db.Error && st != db.Timeout {
			t.Errorf("%s after the server closed: %v (status %v), want ERROR or TIMEOUT", op.name, err, st)
		}
	}
	_ = w.Close()
	closeCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_ = c.Close(closeCtx)
}

// TestCancelled checks that an operation on a cancelled context returns
// the cancellation at once, as the driver's path does.
func TestCancelled(t *testing.T) {
	s := start(t, serverKind{name: "standalone"})
	c, err := mongo.Open(context.Background(), mongo.Config{URL: s.URI(), Database: "ycsb", Threads: 1, Path: mongo.PathLean})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	w := c.NewDB()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	if err := w.Read(ctx, "usertable", "user1", nil, nil); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := w.Read(ctx, "usertable", "user1", nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("read on a cancelled context: %v, want context.Canceled", err)
	}
}
