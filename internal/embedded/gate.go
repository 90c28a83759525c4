package embedded

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// maxActiveCommands is how many commands the gate lets FerretDB run at once.
//
// FerretDB 1.24's SQLite backend gives each database a pool of at most 100
// connections, and an update (a delete, a findAndModify too) holds one for
// its query while it waits for a second one for its write. With 100 updates
// past their query, none can get its second connection, and nothing ever
// times the wait out: FerretDB cancels a command only when its connection's
// read loop ends, which it cannot while the command runs. Clients that give
// up and reconnect only add waiters. At two connections a command, 32
// commands leave a third of the pool to the cursors that finds and
// aggregations keep open between getMores.
const maxActiveCommands = 32

// maxMessageSize is the largest wire message FerretDB (like MongoDB) accepts.
const maxMessageSize = 48_000_000

// Wire protocol opcodes the gate looks into.
const (
	opQuery = 2004
	opMsg   = 2013
)

// ungated are the commands that never wait for a turn. hello and isMaster
// open and monitor connections, and use no SQLite connection of the data's
// databases: queued behind data commands they would make a driver give up
// on a busy but healthy server and close its whole pool. getMore and
// killCursors only use the connection their cursor already holds, and
// finishing or killing that cursor gives it back: queued behind commands
// that wait for a connection, they would deadlock.
var ungated = map[string]bool{
	"hello":       true,
	"isMaster":    true,
	"ismaster":    true,
	"getMore":     true,
	"killCursors": true,
}

// gate sits between the clients and FerretDB: every client connection gets
// a connection of its own to FerretDB, and the gate passes requests and
// replies through unchanged. It holds a request back while
// maxActiveCommands others are running (see there why), and drops it
// unsent when its client disconnects first, so the work of clients that
// gave up never reaches FerretDB. A client that disconnects while its
// command runs has its socket closed at once and its FerretDB connection
// closed once the command ends (FerretDB cannot stop it), which also closes
// the client's cursors.
type gate struct {
	ln     net.Listener
	dial   func() (net.Conn, error) // a new connection to FerretDB
	slots  chan struct{}            // one token per running command
	queued atomic.Int64             // requests waiting for a slot
	log    *slog.Logger
	served sync.WaitGroup

	mu     sync.Mutex
	conns  map[net.Conn]struct{} // open client and FerretDB connections
	closed bool
}

func newGate(ln net.Listener, dial func() (net.Conn, error), slots int, log *slog.Logger) *gate {
	return &gate{
		ln:    ln,
		dial:  dial,
		slots: make(chan struct{}, slots),
		log:   log,
		conns: map[net.Conn]struct{}{},
	}
}

// start accepts clients until close.
func (g *gate) start() {
	g.served.Add(1)

	go g.serve()
}

func (g *gate) serve() {
	defer g.served.Done()

	var backoff time.Duration

	for {
		c, err := g.ln.Accept()
		if err != nil {
			if g.isClosed() || errors.Is(err, net.ErrClosed) {
				return
			}

			// Out of file descriptors, most likely: retry as net/http does
			// rather than stop serving.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			g.log.Warn("accepting a connection failed; retrying", "error", err, "in", backoff)
			time.Sleep(backoff)

			continue
		}

		backoff = 0

		if !g.track(c) {
			_ = c.Close()
			return
		}

		g.served.Add(1)

		go g.pass(c)
	}
}

// close stops accepting, disconnects every client, and returns once every
// connection's goroutines have ended. Commands running in FerretDB go on
// until FerretDB itself is stopped.
func (g *gate) close() {
	g.mu.Lock()
	g.closed = true
	conns := g.conns
	g.conns = nil
	g.mu.Unlock()

	_ = g.ln.Close()

	for c := range conns {
		_ = c.Close()
	}

	g.served.Wait()
}

func (g *gate) isClosed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()

	return g.closed
}

// track registers c for close; false means the gate is closed already.
func (g *gate) track(c net.Conn) bool {
	g.mu.Lock()
	defer g.mu.Unlock()

	if g.closed {
		return false
	}

	g.conns[c] = struct{}{}

	return true
}

// release closes c and forgets it.
func (g *gate) release(c net.Conn) {
	g.mu.Lock()
	delete(g.conns, c)
	g.mu.Unlock()

	_ = c.Close()
}

// pass serves one client: its requests, one at a time, to its own FerretDB
// connection, opened at its first request.
func (g *gate) pass(client net.Conn) {
	defer g.served.Done()
	defer g.release(client)

	requests := make(chan []byte)
	gone := make(chan struct{}) // closed when the client has disconnected
	done := make(chan struct{}) // closed when pass returns
	defer close(done)

	// The client is read all the time, not only between commands: that is
	// how a disconnect is seen while a request waits or runs.
	g.served.Add(1)

	go func() {
		defer g.served.Done()
		defer close(gone)
		// Closing at once answers the client's FIN instead of leaving its
		// socket in CLOSE-WAIT for as long as its command runs.
		defer g.release(client)

		r := bufio.NewReader(client)

		for {
			msg, err := readMessage(r)
			if err != nil {
				if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
					g.log.Debug("client connection ends", "client", client.RemoteAddr().String(), "error", err)
				}

				return
			}

			select {
			case requests <- msg:
			case <-done:
				return
			}
		}
	}()

	var (
		backend net.Conn
		replies *bufio.Reader
	)

	defer func() {
		if backend != nil {
			g.release(backend)
		}
	}()

	for {
		var msg []byte

		select {
		case msg = <-requests:
		case <-gone:
			return
		}

		gated := !ungated[commandName(msg)]
		if gated && !g.acquire(gone) {
			g.log.Debug("request dropped: its client disconnected before its turn", "client", client.RemoteAddr().String())
			return
		}

		if backend == nil {
			var err error
			if backend, err = g.dial(); err != nil {
				g.log.Warn("cannot connect to FerretDB", "error", err)
				g.releaseSlot(gated)

				return
			}

			if !g.track(backend) {
				_ = backend.Close()
				backend = nil

				g.releaseSlot(gated)

				return
			}

			replies = bufio.NewReader(backend)
		}

		// FerretDB answers every request with exactly one reply (it sends
		// one even when the client asked for none), so the slot is held
		// until the command has ended inside FerretDB, whether or not its
		// client still waits for it.
		reply, err := roundTrip(backend, replies, msg)
		g.releaseSlot(gated)

		if err != nil {
			return
		}

		if _, err = client.Write(reply); err != nil {
			return
		}
	}
}

// acquire waits for a slot; false means the client left first.
func (g *gate) acquire(gone <-chan struct{}) bool {
	g.queued.Add(1)
	defer g.queued.Add(-1)

	select {
	case g.slots <- struct{}{}:
	case <-gone:
		return false
	}

	// Both may have been ready, and select picks at random.
	select {
	case <-gone:
		<-g.slots
		return false
	default:
		return true
	}
}

func (g *gate) releaseSlot(gated bool) {
	if gated {
		<-g.slots
	}
}

func roundTrip(backend net.Conn, replies *bufio.Reader, msg []byte) ([]byte, error) {
	if _, err := backend.Write(msg); err != nil {
		return nil, fmt.Errorf("sending a request to FerretDB: %w", err)
	}

	reply, err := readMessage(replies)
	if err != nil {
		return nil, fmt.Errorf("reading FerretDB's reply: %w", err)
	}

	return reply, nil
}

// readMessage reads one whole wire message, header included.
func readMessage(r io.Reader) ([]byte, error) {
	var header [16]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return nil, err
	}

	size := binary.LittleEndian.Uint32(header[0:])
	if size < uint32(len(header)) || size > maxMessageSize {
		return nil, fmt.Errorf("wire message of %d bytes: want %d to %d", size, len(header), maxMessageSize)
	}

	msg := make([]byte, size)
	copy(msg, header[:])

	if _, err := io.ReadFull(r, msg[len(header):]); err != nil {
		return nil, fmt.Errorf("wire message body: %w", err)
	}

	return msg, nil
}

// commandName is the name of the command msg carries (the first key of its
// command document), or "" when it carries none the gate can read. Anything
// it cannot read waits for its turn like a data command, and FerretDB
// answers it as it sees fit.
func commandName(msg []byte) string {
	if len(msg) < 21 {
		return ""
	}

	switch binary.LittleEndian.Uint32(msg[12:]) {
	case opMsg:
		end := len(msg)
		if binary.LittleEndian.Uint32(msg[16:])&1 != 0 { // checksumPresent
			end -= 4
		}

		for p := 20; p < end; {
			kind := msg[p]
			p++

			if p+4 > end {
				return ""
			}

			size := int(binary.LittleEndian.Uint32(msg[p:]))
			if size < 5 || p+size > end {
				return ""
			}

			if kind == 0 {
				return firstKey(msg[p : p+size])
			}

			if kind != 1 {
				return ""
			}

			p += size
		}

	case opQuery:
		// flags, then the namespace as a C string, then skip and return.
		ns := bytes.IndexByte(msg[20:], 0)
		if ns < 0 {
			return ""
		}

		p := 20 + ns + 1 + 8
		if p+4 > len(msg) {
			return ""
		}

		size := int(binary.LittleEndian.Uint32(msg[p:]))
		if size < 5 || p+size > len(msg) {
			return ""
		}

		return firstKey(msg[p : p+size])
	}

	return ""
}

func firstKey(doc []byte) string {
	e, err := bson.Raw(doc).IndexErr(0)
	if err != nil {
		return ""
	}

	return e.Key()
}
