package mongo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/embedded"
)

var server *embedded.Server

func TestMain(m *testing.M) {
	s, err := embedded.Start(context.Background(), embedded.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot start the embedded server:", err)
		os.Exit(1)
	}
	server = s
	code := m.Run()
	s.Close()
	os.Exit(code)
}

var dbNum atomic.Int64

func open(t *testing.T, upsert bool) *Client { return openPath(t, upsert, PathDriver) }

// paths are the wire paths every operation test runs on, against a real
// server's replies: not found, duplicate keys, partial batches.
var paths = []string{PathDriver, PathLean}

func openPath(t *testing.T, upsert bool, path string) *Client {
	t.Helper()
	url := fmt.Sprintf("%sbinding%d", server.URI(), dbNum.Add(1))
	c, err := Open(context.Background(), Config{URL: url, Database: DatabaseFromURL(url), Upsert: upsert, Threads: 2, OpTimeout: 10 * time.Second, Path: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

func fields(v string) []db.Field {
	return []db.Field{{Name: "field0", Value: []byte(v + "0")}, {Name: "field1", Value: []byte(v + "1")}}
}

func TestOperations(t *testing.T) {
	t.Parallel()
	for _, path := range paths {
		t.Run(path, func(t *testing.T) { testOperations(t, path) })
	}
}

func testOperations(t *testing.T, path string) {
	ctx := context.Background()
	c := openPath(t, false, path)
	w := c.NewDB()
	defer w.Close()

	if err := w.Read(ctx, "t", "user1", nil, nil); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("read of a missing key: %v, want ErrNotFound", err)
	}
	if err := w.Update(ctx, "t", "user1", fields("x")); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("update of a missing key: %v, want ErrNotFound", err)
	}
	if err := w.Delete(ctx, "t", "user1"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("delete of a missing key: %v, want ErrNotFound", err)
	}
	for _, k := range []string{"user1", "user2", "user3"} {
		if err := w.Insert(ctx, "t", k, fields(k)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Insert(ctx, "t", "user1", fields("again")); !errors.Is(err, db.ErrDuplicateKey) || db.StatusOf(err) != db.Error {
		t.Errorf("duplicate insert: %v (status %v), want ErrDuplicateKey / ERROR", err, db.StatusOf(err))
	}

	got := map[string]string{}
	visit := func(name string, value []byte) { got[name] = string(value) }
	if err := w.Read(ctx, "t", "user2", nil, visit); err != nil {
		t.Fatal(err)
	}
	if got["_id"] != "user2" || got["field0"] != "user20" || got["field1"] != "user21" {
		t.Errorf("read all fields: %v", got)
	}
	clear(got)
	if err := w.Read(ctx, "t", "user2", []string{"field1"}, visit); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["field0"]; ok || got["field1"] != "user21" {
		t.Errorf("read with projection field1: %v", got)
	}

	if err := w.Update(ctx, "t", "user2", []db.Field{{Name: "field0", Value: []byte("new")}}); err != nil {
		t.Fatal(err)
	}
	clear(got)
	_ = w.Read(ctx, "t", "user2", nil, visit)
	if got["field0"] != "new" || got["field1"] != "user21" {
		t.Errorf("after $set of field0: %v", got)
	}

	var keys []string
	scanVisit := func(name string, value []byte) {
		if name == "_id" {
			keys = append(keys, string(value))
		}
	}
	if err := w.Scan(ctx, "t", "user2", 5, nil, scanVisit); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0] != "user2" || keys[1] != "user3" {
		t.Errorf("scan from user2: %v, want [user2 user3]", keys)
	}
	if err := w.Scan(ctx, "t", "user9", 5, nil, nil); db.StatusOf(err) != db.NotFound {
		t.Errorf("empty scan: %v", err)
	}
	if err := w.Delete(ctx, "t", "user3"); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.KeyExists(ctx, "t", "user3"); err != nil || ok {
		t.Errorf("user3 exists after delete: %v %v", ok, err)
	}
	if n, err := c.Count(ctx, "t"); err != nil || n != 2 {
		t.Errorf("count = %d, %v; want 2", n, err)
	}
}

// Workers share one handle per table, and each caches the last one it
// used: a worker moving between tables must still reach the table it names.
func TestTablesAcrossWorkers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := open(t, false)
	w1, w2 := c.NewDB(), c.NewDB()
	defer w1.Close()
	defer w2.Close()
	other := map[string]string{"a": "b", "b": "a"}
	steps := []struct {
		w     db.DB
		table string
	}{{w1, "a"}, {w1, "b"}, {w2, "b"}, {w2, "a"}, {w1, "a"}}
	for i, st := range steps {
		key := fmt.Sprintf("user%d", i)
		if err := st.w.Insert(ctx, st.table, key, fields(key)); err != nil {
			t.Fatalf("insert %s into %s: %v", key, st.table, err)
		}
		if err := w2.Read(ctx, other[st.table], key, nil, nil); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("%s inserted into table %s: read from table %s gave %v, want ErrNotFound", key, st.table, other[st.table], err)
		}
		if err := w1.Read(ctx, st.table, key, nil, nil); err != nil {
			t.Errorf("%s inserted into table %s: read back: %v", key, st.table, err)
		}
	}
	if w1.(*worker).coll("a") != w2.(*worker).coll("a") {
		t.Error("two workers hold different handles of table a")
	}
}

func TestInsertBatch(t *testing.T) {
	t.Parallel()
	for _, path := range paths {
		t.Run(path, func(t *testing.T) { testInsertBatch(t, path) })
	}
}

func testInsertBatch(t *testing.T, path string) {
	ctx := context.Background()
	c := openPath(t, false, path)
	w := c.NewDB().(db.BatchInserter)
	keys := []string{"user1", "user2", "user3"}
	vals := [][]db.Field{fields("a"), fields("b"), fields("c")}
	if err := w.InsertBatch(ctx, "t", keys, vals); err != nil {
		t.Fatal(err)
	}
	// Re-sending with one new key: unordered, so the new one goes in and
	// exactly the duplicates are reported.
	err := w.InsertBatch(ctx, "t", []string{"user1", "user4", "user3"}, vals)
	var be *db.BatchError
	if !errors.As(err, &be) {
		t.Fatalf("error %v, want a BatchError", err)
	}
	if len(be.Failed) != 2 || be.Failed[0] != 0 || be.Failed[1] != 2 {
		t.Errorf("failed indexes %v, want [0 2]", be.Failed)
	}
	if n, _ := c.Count(ctx, "t"); n != 4 {
		t.Errorf("count = %d, want 4", n)
	}
}

func TestUpsert(t *testing.T) {
	t.Parallel()
	for _, path := range paths {
		t.Run(path, func(t *testing.T) { testUpsert(t, path) })
	}
}

func testUpsert(t *testing.T, path string) {
	ctx := context.Background()
	c := openPath(t, true, path)
	w := c.NewDB()
	for i := 0; i < 2; i++ {
		if err := w.Insert(ctx, "t", "user1", fields(fmt.Sprint(i))); err != nil {
			t.Fatalf("upsert %d: %v", i, err)
		}
		if err := w.(db.BatchInserter).InsertBatch(ctx, "t", []string{"user2", "user3"}, [][]db.Field{fields("x"), fields("y")}); err != nil {
			t.Fatalf("batch upsert %d: %v", i, err)
		}
	}
	if n, _ := c.Count(ctx, "t"); n != 3 {
		t.Errorf("count = %d, want 3", n)
	}
}

func TestOpenUnreachable(t *testing.T) {
	t.Parallel()
	_, err := Open(context.Background(), Config{URL: "mongodb://u:S3NTINEL@127.0.0.1:1/db", Database: "db", ConnectTimeout: 500 * time.Millisecond})
	if err == nil {
		t.Fatal("no error for a closed port")
	}
	want := "no MongoDB server answered at mongodb://u:***@127.0.0.1:1/db within 500ms"
	if got := err.Error(); len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("error = %q, want it to start with %q", got, want)
	}
	if strings.Contains(err.Error(), "S3NTINEL") {
		t.Errorf("error shows the password: %v", err)
	}
}

// TestURLMinPoolSize: a minPoolSize in the URL sizes the benchmark's pool
// alone. The metrics client, whose pool holds two connections, used to
// take it too, and the driver refused the pair, so no run could start;
// and above the default maximum of 100 the benchmark's own pool was
// refused alike.
func TestURLMinPoolSize(t *testing.T) {
	url := server.URI() + "minpool?minPoolSize=150"
	mon, err := OpenMonitor(Config{URL: url, ConnectTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("the metrics client refused minPoolSize=150: %v", err)
	}
	defer mon.Disconnect(context.Background())
	if err := mon.Ping(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	c, err := Open(context.Background(), Config{URL: url, Database: "minpool", Threads: 4, OpTimeout: 10 * time.Second, ConnectTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("the benchmark's client refused minPoolSize=150: %v", err)
	}
	_ = c.Close(context.Background())
}
