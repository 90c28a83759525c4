// Package nullserver is a MongoDB wire-protocol server that answers every
// request at once with a canned, valid reply. With no database behind it, a
// benchmark client run against it measures the client's own cost per
// operation.
//
// It speaks OP_MSG and, for the first hello that drivers send, the legacy
// OP_QUERY (answered with OP_REPLY). It poses as a standalone MongoDB 7.0
// without compression or authentication. A find returns one YCSB-shaped
// record whose _id echoes an equality filter; writes report as many records
// touched as they carried statements; any other command succeeds.
package nullserver

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Sizes of the per-connection buffers. They start small because a
// calibration may open thousands of connections, grow to fit the largest
// message seen, and are given back past keepBufferSize (a large insert
// batch) so that an idle connection does not pin up to maxMessageSize bytes.
const (
	readBufferSize = 16 << 10
	msgBufferSize  = 4 << 10
	keepBufferSize = 1 << 20
)

// Server is a running null server. Its methods are safe for concurrent use.
type Server struct {
	ln       net.Listener
	started  time.Time
	requests atomic.Int64
	connIDs  atomic.Int32

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup

	closeOnce sync.Once
	closeErr  error

	// Set before any connection is served, never changed.
	record   bool
	respond  Responder
	recMu    sync.Mutex
	recorded []Command
}

// Start listens on addr (host:port; "127.0.0.1:0" picks a free port) and
// serves connections until Close.
func Start(addr string) (*Server, error) { return StartWith(addr, Options{}) }

// StartWith is Start with options.
func StartWith(addr string, opts Options) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("nullserver: listen on %s: %w", addr, err)
	}
	s := &Server{ln: ln, started: time.Now(), conns: make(map[net.Conn]struct{}), record: opts.Record, respond: opts.Respond}
	s.wg.Add(1)
	go s.acceptLoop()
	return s, nil
}

// Addr returns the address the server listens on, as host:port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URI returns a connection string for the server. directConnection=true
// makes drivers treat it as the single server it is, without discovery.
func (s *Server) URI() string {
	host, port, err := net.SplitHostPort(s.Addr())
	if err != nil {
		return "mongodb://" + s.Addr() + "/?directConnection=true"
	}
	// A wildcard listen address is not something a client can dial.
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "mongodb://" + net.JoinHostPort(host, port) + "/?directConnection=true"
}

// Requests returns the number of requests served so far, including the
// drivers' handshakes and heartbeats and the requests that asked for no
// reply.
func (s *Server) Requests() int64 { return s.requests.Load() }

// Close stops listening, closes every connection and waits until all of the
// server's goroutines have returned. Later calls return the first result.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		err := s.ln.Close()
		for c := range s.conns {
			// The connection's goroutine sees the error and returns.
			_ = c.Close()
		}
		s.mu.Unlock()
		s.wg.Wait()
		if err != nil {
			s.closeErr = fmt.Errorf("nullserver: close listener: %w", err)
		}
	})
	return s.closeErr
}

func (s *Server) acceptLoop() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			if s.isClosed() || errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of file descriptors and the like: wait for some to be
			// released instead of spinning.
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if !s.track(c) {
			_ = c.Close()
			return
		}
		go s.serve(c)
	}
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Connections is how many client connections are open now (each of the
// driver's monitors holds one or two of its own).
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// track registers a new connection, unless the server is closing. The
// WaitGroup is incremented under the same lock that Close takes before
// waiting, so no goroutine starts after Close began to wait.
func (s *Server) track(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[c] = struct{}{}
	s.wg.Add(1)
	return true
}

func (s *Server) untrack(c net.Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// serve answers the requests of one connection in order until the client
// goes away, sends a malformed message, or the server closes.
func (s *Server) serve(c net.Conn) {
	defer s.wg.Done()
	defer s.untrack(c)
	defer c.Close()

	h := handler{
		srv:     s,
		connID:  s.connIDs.Add(1),
		host:    s.Addr(),
		pid:     int64(os.Getpid()),
		started: s.started,
		now:     time.Now,
	}
	r := bufio.NewReaderSize(c, readBufferSize)
	in := make([]byte, 0, msgBufferSize)
	out := make([]byte, 0, msgBufferSize)
	for {
		var err error
		in, err = readMessage(r, in)
		if err != nil {
			// EOF, a closed connection or a broken frame: a real server
			// drops the connection too, since the stream cannot be resynced.
			return
		}
		req, err := parseMessage(in)
		if err != nil {
			return
		}
		s.requests.Add(1)
		out = h.appendReply(out[:0], &req)
		if len(out) > 0 {
			if _, err := c.Write(out); err != nil {
				return
			}
		}
		if cap(in) > keepBufferSize {
			in = make([]byte, 0, msgBufferSize)
		}
		if cap(out) > keepBufferSize {
			out = make([]byte, 0, msgBufferSize)
		}
	}
}

// readMessage reads one whole wire message into buf, growing it if needed.
func readMessage(r io.Reader, buf []byte) ([]byte, error) {
	if cap(buf) < 4 {
		buf = make([]byte, 4, msgBufferSize)
	}
	buf = buf[:4]
	if _, err := io.ReadFull(r, buf); err != nil {
		return buf, fmt.Errorf("read message length: %w", err)
	}
	n := int(int32(binary.LittleEndian.Uint32(buf)))
	if n < headerLen || n > maxMessageSize {
		return buf, malformed("message length %d out of range [%d, %d]", n, headerLen, maxMessageSize)
	}
	if cap(buf) < n {
		grown := make([]byte, n)
		copy(grown, buf)
		buf = grown
	}
	buf = buf[:n]
	if _, err := io.ReadFull(r, buf[4:]); err != nil {
		return buf, fmt.Errorf("read message body: %w", err)
	}
	return buf, nil
}
