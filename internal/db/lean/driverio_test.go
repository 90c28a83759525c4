package lean

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo/options"
	//lint:ignore SA1019 the clock the topology and the lean path share
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/session"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/topology"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/nullserver"
)

// refuse is a fallback that must not be called: any call but Close
// panics on its nil DB.
type refuse struct{ db.DB }

func (r refuse) Close() error { return nil }

// TestDriverIO runs the lean path over the driver's own Read and Write, as
// it does under TLS, where it cannot use the socket it dialled: every
// operation kind must reach the server and come back.
func TestDriverIO(t *testing.T) {
	s, err := nullserver.StartWith("127.0.0.1:0", nullserver.Options{Record: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := newClient(t, s)
	if c.rawIO {
		t.Fatal("raw socket I/O without a dialer")
	}
	w := c.NewDB(refuse{})
	defer w.Close()
	ctx := context.Background()
	f := []db.Field{{Name: "field0", Value: []byte("v")}}
	if err := w.Read(ctx, "usertable", "user1", nil, nil); err != nil {
		t.Errorf("read: %v", err)
	}
	if err := w.Update(ctx, "usertable", "user1", f); err != nil {
		t.Errorf("update: %v", err)
	}
	if err := w.Insert(ctx, "usertable", "user1", f); err != nil {
		t.Errorf("insert: %v", err)
	}
	if err := w.Delete(ctx, "usertable", "user1"); err != nil {
		t.Errorf("delete: %v", err)
	}
	if err := w.(db.BatchInserter).InsertBatch(ctx, "usertable", []string{"a", "b"}, [][]db.Field{f, f}); err != nil {
		t.Errorf("insert batch: %v", err)
	}
	var names []string
	for _, cmd := range s.Commands() {
		names = append(names, cmd.Name+":"+itoa(len(cmd.Sequences["documents"])+len(cmd.Sequences["updates"])+len(cmd.Sequences["deletes"])))
	}
	want := "find:0 update:1 insert:1 delete:1 insert:2"
	if got := joinWords(names); got != want {
		t.Errorf("server saw %q, want %q", got, want)
	}
}

// newClient is a lean client over a topology of its own connected to s,
// closed with the test.
func newClient(t *testing.T, s *nullserver.Server) *Client {
	t.Helper()
	opts := options.Client().ApplyURI(s.URI())
	//lint:ignore SA1019 the clock the topology and the lean path share
	clock := new(session.ClusterClock)
	cfg, err := topology.NewConfig(opts, clock)
	if err != nil {
		t.Fatal(err)
	}
	topo, err := topology.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := topo.Connect(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = topo.Disconnect(context.Background()) })
	c, err := New(Config{Topology: topo, Clock: clock, Options: opts, Database: "ycsb", OpTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background(), nil) })
	return c
}

// TestConnectionBeforeFirstOperation checks that a worker holds its
// connection once NewDB returns, so that the wait for it is not counted
// in its first operation's latency, and that getting it sent nothing.
func TestConnectionBeforeFirstOperation(t *testing.T) {
	s, err := nullserver.StartWith("127.0.0.1:0", nullserver.Options{Record: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := newClient(t, s)
	w := c.NewDB(refuse{})
	defer w.Close()
	if w.(*worker).h.conn == nil {
		t.Fatal("no connection held after NewDB")
	}
	if cmds := s.Commands(); len(cmds) != 0 {
		t.Errorf("NewDB sent %d commands, want none", len(cmds))
	}
}

func joinWords(s []string) string {
	out := ""
	for i, w := range s {
		if i > 0 {
			out += " "
		}
		out += w
	}
	return out
}
