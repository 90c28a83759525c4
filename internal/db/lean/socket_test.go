package lean

import (
	"bytes"
	"errors"
	"io"
	"net"
	"testing"
	"time"
)

// socketPair returns the client end of a loopback TCP connection as a
// socket, and the server end as it is.
func socketPair(t *testing.T) (*socket, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	peer := <-accepted
	if peer == nil {
		t.Fatal("no connection accepted")
	}
	s, err := newSocket(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(); _ = peer.Close() })
	return s, peer
}

// TestSocketWritesAllOfALargeMessage writes more than the kernel's
// buffers on both ends hold (16 MiB; loopback's are a few MiB), so the
// write cannot finish in one call whenever the peer starts reading: it
// must wait for room and resume where it stopped, and every byte arrive
// in order.
func TestSocketWritesAllOfALargeMessage(t *testing.T) {
	s, peer := socketPair(t)
	msg := make([]byte, 16<<20)
	for i := range msg {
		msg[i] = byte(i * 7)
	}
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(peer, int64(len(msg))))
		got <- b
	}()
	n, err := s.Write(msg)
	if err != nil || n != len(msg) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(msg))
	}
	if b := <-got; !bytes.Equal(b, msg) {
		t.Fatalf("the peer read %d bytes, not the %d written, or not in order", len(b), len(msg))
	}
}

// TestSocketReads reads what the peer sent, in as many pieces as it
// arrives, and io.EOF once the peer has closed.
func TestSocketReads(t *testing.T) {
	s, peer := socketPair(t)
	if _, err := peer.Write([]byte("hello, world")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	var all []byte
	for len(all) < 12 {
		n, err := s.Read(buf)
		if err != nil {
			t.Fatalf("Read after %q: %v", all, err)
		}
		all = append(all, buf[:n]...)
	}
	if string(all) != "hello, world" {
		t.Fatalf("read %q", all)
	}
	if n, err := s.Read(nil); n != 0 || err != nil {
		t.Fatalf("Read(nil) = %d, %v; want 0, nil", n, err)
	}
	_ = peer.Close()
	if n, err := s.Read(buf); n != 0 || !errors.Is(err, io.EOF) {
		t.Fatalf("Read after the peer closed = %d, %v; want 0, io.EOF", n, err)
	}
}

// TestSocketDeadline: a read past its deadline fails as a timeout, which
// is what classifyNet reports as db.ErrTimeout; and moving the deadline
// into the past from another goroutine ends a read, which is how a
// cancelled run stops a worker waiting for its reply. Whether the read
// was already waiting or had not started, it must end as a timeout.
func TestSocketDeadline(t *testing.T) {
	s, _ := socketPair(t)
	if err := s.SetDeadline(time.Now().Add(10 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	_, err := s.Read(make([]byte, 8))
	if !isTimeout(err) {
		t.Fatalf("a read past its deadline returned %v, not a timeout", err)
	}

	if err := s.SetDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.Read(make([]byte, 8))
		done <- err
	}()
	if err := s.SetDeadline(time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !isTimeout(err) {
			t.Fatalf("the interrupted read returned %v, not a timeout", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a deadline in the past did not interrupt the waiting read")
	}
}

// TestSocketClosed: reading or writing a closed connection fails, naming
// the closed connection, rather than touching a descriptor number the
// process may have reused.
func TestSocketClosed(t *testing.T) {
	s, _ := socketPair(t)
	_ = s.Close()
	if _, err := s.Write([]byte("x")); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Write on a closed connection: %v; want net.ErrClosed", err)
	}
	if _, err := s.Read(make([]byte, 1)); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Read on a closed connection: %v; want net.ErrClosed", err)
	}
}
