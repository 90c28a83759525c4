package mongo

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/testcert"
)

// TestLeanOverTLS: under TLS the lean path cannot use the socket it
// dialled and goes through the driver's Read and Write; every operation
// kind must still do what it does on the driver's path.
func TestLeanOverTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cert, key := testcert.Write(t, dir)
	srv, err := embedded.Start(context.Background(), embedded.Options{TLS: &embedded.TLSOptions{CertFile: cert, KeyFile: key}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	url := strings.TrimSuffix(srv.URI(), "/?tls=true") + "/leantls?tls=true&tlsCAFile=" + cert
	c, err := Open(context.Background(), Config{URL: url, Database: "leantls", Threads: 1, OpTimeout: 10 * time.Second, Path: PathLean})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if p, _ := c.Path(); p != PathLean {
		t.Fatalf("path %q, want lean", p)
	}
	w := c.NewDB()
	defer w.Close()
	ctx := context.Background()
	if err := w.Insert(ctx, "t", "user1", fields("a")); err != nil {
		t.Fatal(err)
	}
	if err := w.Insert(ctx, "t", "user1", fields("a")); !errors.Is(err, db.ErrDuplicateKey) {
		t.Errorf("duplicate insert over TLS: %v, want ErrDuplicateKey", err)
	}
	if err := w.(db.BatchInserter).InsertBatch(ctx, "t", []string{"user2", "user3"}, [][]db.Field{fields("b"), fields("c")}); err != nil {
		t.Fatal(err)
	}
	if err := w.Update(ctx, "t", "user2", []db.Field{{Name: "field0", Value: []byte("new")}}); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	if err := w.Read(ctx, "t", "user2", nil, func(name string, v []byte) { got[name] = string(v) }); err != nil {
		t.Fatal(err)
	}
	if got["field0"] != "new" || got["field1"] != "b1" {
		t.Errorf("read over TLS after the update: %v", got)
	}
	if err := w.Delete(ctx, "t", "user3"); err != nil {
		t.Fatal(err)
	}
	if err := w.Read(ctx, "t", "user3", nil, nil); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("read of a deleted record over TLS: %v, want ErrNotFound", err)
	}
}
