package lean_test

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/wiremessage"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/nullserver"
	"github.com/mongobench/mongobench/internal/nullserver/nullservertest"
)

// faultProxy forwards wire messages between clients and a server, and
// lets a test spoil the reply to the first command of a given name: drop
// the connection instead (a network error after the server applied the
// command), or replace the reply.
type faultProxy struct {
	ln      net.Listener
	target  string
	command string
	replace []byte // nil: close the connection instead of replying
	done    atomic.Bool
	wg      sync.WaitGroup
}

func startProxy(t *testing.T, target, command string, replace []byte) *faultProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{ln: ln, target: target, command: command, replace: replace}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.wg.Add(1)
			go p.serve(c)
		}
	}()
	t.Cleanup(func() { _ = ln.Close() })
	return p
}

func readMsg(r io.Reader) ([]byte, error) {
	var h [4]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, err
	}
	msg := make([]byte, binary.LittleEndian.Uint32(h[:]))
	copy(msg, h[:])
	_, err := io.ReadFull(r, msg[4:])
	return msg, err
}

// commandName is the first key of an OP_MSG's body.
func commandName(msg []byte) string {
	if len(msg) < 21 || wiremessage.OpCode(binary.LittleEndian.Uint32(msg[12:])) != wiremessage.OpMsg || msg[20] != 0 {
		return ""
	}
	elems, err := bson.Raw(msg[21:]).Elements()
	if err != nil || len(elems) == 0 {
		return ""
	}
	return elems[0].Key()
}

func (p *faultProxy) serve(c net.Conn) {
	defer p.wg.Done()
	defer c.Close()
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	defer s.Close()
	for {
		req, err := readMsg(c)
		if err != nil {
			return
		}
		if _, err := s.Write(req); err != nil {
			return
		}
		reply, err := readMsg(s)
		if err != nil {
			return
		}
		if commandName(req) == p.command && p.done.CompareAndSwap(false, true) {
			if p.replace == nil {
				return
			}
			reply = append(reply[:21:21], p.replace...)
			binary.LittleEndian.PutUint32(reply, uint32(len(reply)))
		}
		if _, err := c.Write(reply); err != nil {
			return
		}
	}
}

// TestRetries: on a mongos, where writes are retryable, a network error
// after the server applied an update, and a write concern error labelled
// RetryableWriteError, are each retried once with the same session and
// transaction number, and the operation succeeds, as on the driver's path.
func TestRetries(t *testing.T) {
	wce, err := bson.Marshal(bson.D{{Key: "n", Value: int32(1)}, {Key: "nModified", Value: int32(1)},
		{Key: "writeConcernError", Value: bson.D{{Key: "code", Value: int32(91)}, {Key: "errmsg", Value: "shutting down"}}},
		{Key: "errorLabels", Value: bson.A{"RetryableWriteError"}}, {Key: "ok", Value: 1.0}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		replace []byte
	}{{"network error", nil}, {"retryable write concern error", wce}} {
		t.Run(tc.name, func(t *testing.T) {
			cl, err := nullservertest.NewCluster("7.0.12", "shard0")
			if err != nil {
				t.Fatal(err)
			}
			s, err := nullserver.StartWith("127.0.0.1:0", nullserver.Options{Record: true, Respond: cl.Respond})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			p := startProxy(t, s.Addr(), "update", tc.replace)
			url := "mongodb://" + p.ln.Addr().String() + "/ycsb?directConnection=true"
			for _, path := range []string{mongo.PathDriver, mongo.PathLean} {
				p.done.Store(false)
				before := len(s.Commands())
				c, err := mongo.Open(context.Background(), mongo.Config{URL: url, Database: "ycsb", Threads: 1, OpTimeout: 5 * time.Second, ConnectTimeout: 2 * time.Second, Path: path})
				if err != nil {
					t.Fatal(err)
				}
				w := c.NewDB()
				if err := w.Update(context.Background(), "usertable", "user1", []db.Field{{Name: "field0", Value: []byte("v")}}); err != nil {
					t.Errorf("%s: update: %v", path, err)
				}
				_ = w.Close()
				_ = c.Close(context.Background())
				var updates []bson.Raw
				for _, cmd := range s.Commands()[before:] {
					if cmd.Name == "update" {
						updates = append(updates, cmd.Doc)
					}
				}
				if len(updates) != 2 {
					t.Fatalf("%s: the server saw %d updates, want the first and its retry", path, len(updates))
				}
				if a, b := updates[0].Lookup("lsid").String(), updates[1].Lookup("lsid").String(); a != b {
					t.Errorf("%s: retried in another session: %s, then %s", path, a, b)
				}
				if a, b := updates[0].Lookup("txnNumber"), updates[1].Lookup("txnNumber"); a.Int64() != 1 || b.Int64() != 1 {
					t.Errorf("%s: txnNumber %v then %v, want 1 both times", path, a, b)
				}
			}
		})
	}
}
