package embedded

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"log/slog"
	"net"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// fakeFerret stands in for FerretDB behind a gate: each request it receives
// waits until the test answers it.
type fakeFerret struct {
	requests chan *heldRequest
	closed   chan struct{} // a value per connection the gate closed
}

type heldRequest struct {
	cmd   string
	reqID uint32
	conn  net.Conn
}

func (f *fakeFerret) dial() (net.Conn, error) {
	gateEnd, ferretEnd := net.Pipe()

	go func() {
		r := bufio.NewReader(ferretEnd)

		for {
			msg, err := readMessage(r)
			if err != nil {
				_ = ferretEnd.Close()
				f.closed <- struct{}{}

				return
			}

			f.requests <- &heldRequest{cmd: commandName(msg), reqID: binary.LittleEndian.Uint32(msg[4:]), conn: ferretEnd}
		}
	}()

	return gateEnd, nil
}

// answer sends the reply, {ok: 1}, in answer to the request.
func (h *heldRequest) answer(t *testing.T) {
	t.Helper()

	if _, err := h.conn.Write(wireMessage(t, opMsg, 0, h.reqID, bson.D{{Key: "ok", Value: 1.0}})); err != nil {
		t.Fatalf("answering %s: %v", h.cmd, err)
	}
}

func startGate(t *testing.T, slots int) (*gate, *fakeFerret) {
	t.Helper()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}

	f := &fakeFerret{requests: make(chan *heldRequest, 100), closed: make(chan struct{}, 100)}
	g := newGate(ln, f.dial, slots, slog.New(slog.DiscardHandler))
	g.start()
	t.Cleanup(g.close)

	return g, f
}

// next is the next request that reaches FerretDB.
func (f *fakeFerret) next(t *testing.T) *heldRequest {
	t.Helper()

	select {
	case h := <-f.requests:
		return h
	case <-time.After(testTimeout):
		t.Fatal("no request reached FerretDB")
		return nil
	}
}

// noneYet fails if a request has reached FerretDB and not been taken by
// next.
func (f *fakeFerret) noneYet(t *testing.T, when string) {
	t.Helper()

	select {
	case h := <-f.requests:
		t.Fatalf("%s, %s reached FerretDB", when, h.cmd)
	default:
	}
}

// waitFor waits until cond holds; it fails only on a hang.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()

	deadline := time.Now().Add(testTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s after %v", what, testTimeout)
		}

		time.Sleep(time.Millisecond)
	}
}

func (g *gate) queuedIs(n int64) func() bool {
	return func() bool { return g.queued.Load() == n }
}

func (g *gate) openConns() int {
	g.mu.Lock()
	defer g.mu.Unlock()

	return len(g.conns)
}

type gateClient struct {
	conn net.Conn
	r    *bufio.Reader
}

func dialGate(t *testing.T, g *gate) *gateClient {
	t.Helper()

	c, err := net.Dial("tcp", g.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}

	t.Cleanup(func() { _ = c.Close() })

	return &gateClient{conn: c, r: bufio.NewReader(c)}
}

// send sends the command {cmd: 1, $db: "test"} as an OP_MSG, or as an
// OP_QUERY on test.$cmd.
func (c *gateClient) send(t *testing.T, op uint32, cmd string, reqID uint32) {
	t.Helper()

	if _, err := c.conn.Write(wireMessage(t, op, 0, reqID, bson.D{{Key: cmd, Value: 1}, {Key: "$db", Value: "test"}})); err != nil {
		t.Fatalf("sending %s: %v", cmd, err)
	}
}

// reply reads a reply and checks that it answers reqID.
func (c *gateClient) reply(t *testing.T, reqID uint32) {
	t.Helper()

	_ = c.conn.SetReadDeadline(time.Now().Add(testTimeout))

	msg, err := readMessage(c.r)
	if err != nil {
		t.Fatalf("reading the reply to request %d: %v", reqID, err)
	}

	if got := binary.LittleEndian.Uint32(msg[8:]); got != reqID {
		t.Fatalf("reply to request %d, want %d", got, reqID)
	}
}

// wireMessage is an OP_MSG (flags, then doc as its body) or an OP_QUERY on
// test.$cmd with doc as its query.
func wireMessage(t *testing.T, op, flags, reqID uint32, doc bson.D) []byte {
	t.Helper()

	raw, err := bson.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}

	msg := make([]byte, 16, 64+len(raw))
	msg = binary.LittleEndian.AppendUint32(msg, flags)

	if op == opQuery {
		msg = append(msg, "test.$cmd\x00"...)
		msg = binary.LittleEndian.AppendUint32(msg, 0) // skip
		msg = binary.LittleEndian.AppendUint32(msg, 1) // return
		msg = append(msg, raw...)
	} else {
		msg = append(msg, 0) // section kind 0: the body
		msg = append(msg, raw...)
	}

	binary.LittleEndian.PutUint32(msg[0:], uint32(len(msg)))
	binary.LittleEndian.PutUint32(msg[4:], reqID)
	binary.LittleEndian.PutUint32(msg[8:], reqID) // responseTo, for replies
	binary.LittleEndian.PutUint32(msg[12:], op)

	return msg
}

// TestGateBoundsRunningCommands: with every slot taken, further commands
// wait, and each answer lets exactly one more through.
func TestGateBoundsRunningCommands(t *testing.T) {
	t.Parallel()

	const slots, clients = 2, 5

	g, f := startGate(t, slots)

	cs := make([]*gateClient, clients)
	for i := range cs {
		cs[i] = dialGate(t, g)
		cs[i].send(t, opMsg, "update", uint32(100+i))
	}

	running := []*heldRequest{f.next(t), f.next(t)}

	for done := 0; done < clients; done++ {
		waitFor(t, "the other commands to queue", g.queuedIs(int64(max(0, clients-done-slots))))
		f.noneYet(t, "with every slot taken")

		h := running[0]
		running = running[1:]
		h.answer(t)

		if done+slots < clients {
			running = append(running, f.next(t))
		}
	}

	for i, c := range cs {
		c.reply(t, uint32(100+i))
	}
}

// TestGateUngated: connection handshakes, heartbeats and cursor commands
// pass while every slot is taken; other commands wait.
func TestGateUngated(t *testing.T) {
	t.Parallel()

	for _, tc := range []struct {
		op     uint32
		cmd    string
		passes bool
	}{
		// Handshakes and heartbeats, as OP_MSG and as the legacy OP_QUERY.
		{opMsg, "hello", true},
		{opQuery, "isMaster", true},
		{opQuery, "ismaster", true},
		{opMsg, "isMaster", true},
		// They free connections that cursors hold.
		{opMsg, "getMore", true},
		{opMsg, "killCursors", true},
		// Everything else waits, ping included (FerretDB's reads the
		// backend's status), and names are case-sensitive as in FerretDB.
		{opMsg, "ping", false},
		{opMsg, "find", false},
		{opMsg, "GetMore", false},
		{opQuery, "find", false},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			t.Parallel()

			g, f := startGate(t, 1)

			busy := dialGate(t, g)
			busy.send(t, opMsg, "update", 1)
			held := f.next(t)

			c := dialGate(t, g)
			c.send(t, tc.op, tc.cmd, 2)

			if tc.passes {
				h := f.next(t)
				if h.cmd != tc.cmd {
					t.Fatalf("%s reached FerretDB, want %s", h.cmd, tc.cmd)
				}

				h.answer(t)
				c.reply(t, 2)
				held.answer(t)
				busy.reply(t, 1)

				return
			}

			waitFor(t, tc.cmd+" to queue", g.queuedIs(1))
			f.noneYet(t, "with the slot taken")
			held.answer(t)

			if h := f.next(t); h.cmd != tc.cmd {
				t.Fatalf("%s reached FerretDB, want %s", h.cmd, tc.cmd)
			} else {
				h.answer(t)
			}

			c.reply(t, 2)
		})
	}
}

// TestGateDropsAbandonedRequests: a request whose client disconnects while
// it waits for its turn never reaches FerretDB.
func TestGateDropsAbandonedRequests(t *testing.T) {
	t.Parallel()

	g, f := startGate(t, 1)

	busy := dialGate(t, g)
	busy.send(t, opMsg, "update", 1)
	held := f.next(t)

	quitter := dialGate(t, g)
	quitter.send(t, opMsg, "delete", 2)
	waitFor(t, "the delete to queue", g.queuedIs(1))
	_ = quitter.conn.Close()
	waitFor(t, "the delete to leave the queue", g.queuedIs(0))

	held.answer(t)
	busy.reply(t, 1)

	later := dialGate(t, g)
	later.send(t, opMsg, "insert", 3)

	if h := f.next(t); h.cmd != "insert" {
		t.Fatalf("%s reached FerretDB, want insert (the delete's client was gone)", h.cmd)
	} else {
		h.answer(t)
	}

	later.reply(t, 3)
}

// TestGateClientGoneWhileRunning: a client that disconnects while its
// command runs has its socket closed at once, keeps its slot until
// FerretDB has answered (the command still runs there), and then has its
// FerretDB connection closed.
func TestGateClientGoneWhileRunning(t *testing.T) {
	t.Parallel()

	g, f := startGate(t, 1)

	quitter := dialGate(t, g)
	quitter.send(t, opMsg, "update", 1)
	held := f.next(t)
	waitFor(t, "the client and FerretDB connections", func() bool { return g.openConns() == 2 })

	_ = quitter.conn.Close()
	waitFor(t, "the gate to close the client's socket", func() bool { return g.openConns() == 1 })

	other := dialGate(t, g)
	other.send(t, opMsg, "find", 2)
	waitFor(t, "the find to queue", g.queuedIs(1))
	f.noneYet(t, "while the abandoned update runs")

	held.answer(t)

	select {
	case <-f.closed:
	case <-time.After(testTimeout):
		t.Fatal("the abandoned update's FerretDB connection stayed open after its answer")
	}

	if h := f.next(t); h.cmd != "find" {
		t.Fatalf("%s reached FerretDB, want find", h.cmd)
	} else {
		h.answer(t)
	}

	other.reply(t, 2)
}

// TestGateClose disconnects clients, even with a command running.
func TestGateClose(t *testing.T) {
	t.Parallel()

	g, f := startGate(t, 1)

	c := dialGate(t, g)
	c.send(t, opMsg, "update", 1)
	f.next(t)

	g.close()

	_ = c.conn.SetReadDeadline(time.Now().Add(testTimeout))
	var ne net.Error

	if _, err := readMessage(c.r); err == nil {
		t.Fatal("a reply after close")
	} else if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the client was not disconnected")
	}

	if _, err := net.Dial("tcp", g.ln.Addr().String()); err == nil {
		t.Error("the gate still accepts connections after close")
	}
}

func TestCommandName(t *testing.T) {
	t.Parallel()

	body := func(cmd string) []byte {
		raw, err := bson.Marshal(bson.D{{Key: cmd, Value: 1}})
		if err != nil {
			t.Fatal(err)
		}

		return raw
	}

	// msgWith is an OP_MSG with the given flags and raw sections.
	msgWith := func(flags uint32, sections ...[]byte) []byte {
		msg := make([]byte, 16, 64)
		msg = binary.LittleEndian.AppendUint32(msg, flags)

		for _, s := range sections {
			msg = append(msg, s...)
		}

		binary.LittleEndian.PutUint32(msg[0:], uint32(len(msg)))
		binary.LittleEndian.PutUint32(msg[12:], opMsg)

		return msg
	}

	kind0 := func(cmd string) []byte { return append([]byte{0}, body(cmd)...) }

	// A document sequence: kind 1, size, identifier, documents.
	seq := []byte{1}
	seq = binary.LittleEndian.AppendUint32(seq, uint32(4+len("documents\x00")+len(body("x"))))
	seq = append(seq, "documents\x00"...)
	seq = append(seq, body("x")...)

	withChecksum := append(msgWith(1, kind0("find")), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(withChecksum[0:], uint32(len(withChecksum)))

	compressed := msgWith(0, kind0("hello"))
	binary.LittleEndian.PutUint32(compressed[12:], 2012) // OP_COMPRESSED

	for _, tc := range []struct {
		name string
		msg  []byte
		want string
	}{
		{"op_msg", wireMessage(t, opMsg, 0, 1, bson.D{{Key: "getMore", Value: 1}}), "getMore"},
		{"op_query", wireMessage(t, opQuery, 0, 1, bson.D{{Key: "isMaster", Value: 1}}), "isMaster"},
		// The body may follow a document sequence.
		{"sequence first", msgWith(0, seq, kind0("insert")), "insert"},
		{"checksum", withChecksum, "find"},
		// Unreadable or no command: the request waits its turn.
		{"empty document", msgWith(0, []byte{0, 5, 0, 0, 0, 0}), ""},
		{"sequence only", msgWith(0, seq), ""},
		{"unknown section kind", msgWith(0, append([]byte{7}, body("hello")...)), ""},
		{"section past the end", msgWith(0, []byte{0, 0xff, 0, 0, 0, 0}), ""},
		{"header only", msgWith(0)[:16], ""},
		{"other opcode", compressed, ""},
		{"op_query without namespace end", append(wireMessage(t, opQuery, 0, 1, bson.D{})[:20], 't', 'e'), ""},
	} {
		if got := commandName(tc.msg); got != tc.want {
			t.Errorf("%s: commandName = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func FuzzCommandName(f *testing.F) {
	raw, err := bson.Marshal(bson.D{{Key: "hello", Value: 1}})
	if err != nil {
		f.Fatal(err)
	}

	f.Add(append(make([]byte, 20), append([]byte{0}, raw...)...))
	f.Add([]byte{})

	f.Fuzz(func(t *testing.T, msg []byte) {
		for _, op := range []uint32{opMsg, opQuery} {
			if len(msg) >= 16 {
				binary.LittleEndian.PutUint32(msg[12:], op)
			}

			// Any bytes at all: no panic, and a name only from inside msg.
			if name := commandName(msg); name != "" && !bytes.Contains(msg, []byte(name)) {
				t.Fatalf("command %q is not in the message", name)
			}
		}
	})
}
