package lean_test

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/wiremessage"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/nullserver"
)

type namedOp struct {
	name string
	run  func() error
}

// opsOn returns one call of each operation kind on path, against an
// in-process null server.
func opsOn(b testing.TB, path string) []namedOp {
	ops, _ := opsAndServer(b, path)
	return ops
}

// opsAndServer is opsOn, and the null server's address.
func opsAndServer(b testing.TB, path string) ([]namedOp, string) {
	s, err := nullserver.Start("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	c, err := mongo.Open(context.Background(), mongo.Config{URL: s.URI(), Database: "ycsb", Threads: 1, OpTimeout: 30 * time.Second, Path: path})
	if err != nil {
		b.Fatal(err)
	}
	w := c.NewDB()
	b.Cleanup(func() {
		_ = w.Close()
		_ = c.Close(context.Background())
	})
	ctx := context.Background()
	f := make([]db.Field, 10)
	for i := range f {
		f[i] = db.Field{Name: "field" + string(rune('0'+i)), Value: make([]byte, 100)}
	}
	keys := make([]string, 100)
	vals := make([][]db.Field, 100)
	for i := range keys {
		keys[i], vals[i] = "user"+string(rune('a'+i%26))+string(rune('a'+i/26)), f
	}
	return []namedOp{
		{"read", func() error { return w.Read(ctx, "usertable", "user1", nil, nil) }},
		{"update", func() error { return w.Update(ctx, "usertable", "user1", f[:1]) }},
		{"insert", func() error { return w.Insert(ctx, "usertable", "user1", f) }},
		{"delete", func() error { return w.Delete(ctx, "usertable", "user1") }},
		{"insertbatch100", func() error { return w.(db.BatchInserter).InsertBatch(ctx, "usertable", keys, vals) }},
	}, s.Addr()
}

// benchOps measures each operation kind on one path. The lean path's
// allocations are the figure to watch (go test -bench . -benchmem); the
// driver's path is there to compare.
func benchOps(b *testing.B, path string) {
	for _, op := range opsOn(b, path) {
		b.Run(op.name, func(b *testing.B) {
			if err := op.run(); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := op.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkLean(b *testing.B)   { benchOps(b, mongo.PathLean) }
func BenchmarkDriver(b *testing.B) { benchOps(b, mongo.PathDriver) }

// TestLeanAllocatesNothing checks that an operation on the lean path
// allocates nothing once the worker's buffers have grown: what it costs
// above the socket is encoding into them. The null server runs in this
// process, so its own allocations per request, measured on a raw round
// trip that allocates nothing on the client's side, are taken off.
func TestLeanAllocatesNothing(t *testing.T) {
	ops, addr := opsAndServer(t, mongo.PathLean)
	server := serverAllocs(t, addr)
	for _, op := range ops {
		if err := op.run(); err != nil {
			t.Fatal(err)
		}
		n := testing.AllocsPerRun(200, func() {
			if err := op.run(); err != nil {
				t.Fatal(err)
			}
		})
		if n-server != 0 {
			t.Errorf("%s: %.1f allocations per operation (the server's %.1f taken off), want 0", op.name, n-server, server)
		}
	}
}

// serverAllocs is what the null server at addr allocates per request: a
// pre-encoded ping sent and its reply read into a buffer, which on this
// side allocates nothing.
func serverAllocs(t *testing.T, addr string) float64 {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	body, err := bson.Marshal(bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})
	if err != nil {
		t.Fatal(err)
	}
	msg := make([]byte, 16, 21+len(body))
	binary.LittleEndian.PutUint32(msg[12:], uint32(wiremessage.OpMsg))
	msg = binary.LittleEndian.AppendUint32(msg, 0)
	msg = append(msg, byte(wiremessage.SingleDocument))
	msg = append(msg, body...)
	binary.LittleEndian.PutUint32(msg, uint32(len(msg)))
	buf := make([]byte, 4096)
	roundTrip := func() {
		if _, err := c.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, buf[:4]); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, buf[4:binary.LittleEndian.Uint32(buf)]); err != nil {
			t.Fatal(err)
		}
	}
	roundTrip()
	return testing.AllocsPerRun(200, roundTrip)
}
