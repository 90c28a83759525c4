package lean

import (
	"context"
	"net"
	"sync"
)

// Dialer dials the driver's connections and remembers each plain TCP
// socket by its local address, so that a worker holding a connection the
// driver checked out (handshake and authentication done) can write and
// read that socket itself: the driver's own Read and Write start a
// goroutine and allocate a buffer for every message, and net.Conn's wake
// the runtime's monitor thread (see socket). It is the driver's default
// dialer (a zero net.Dialer) otherwise.
type Dialer struct {
	d     net.Dialer
	conns sync.Map // local address -> *trackedConn
}

// DialContext implements options.ContextDialer.
func (d *Dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	c, err := d.d.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	s, err := newSocket(c)
	if err != nil {
		return c, nil
	}
	tc := &trackedConn{socket: s, dialer: d, key: c.LocalAddr().String()}
	d.conns.Store(tc.key, tc)
	return tc, nil
}

// RawDialer dials connections whose reads and writes are socket's, for
// the driver's own use: on the driver path every message it sends and
// receives then costs no wake-up of the runtime's monitor thread. It is
// the driver's default dialer (a zero net.Dialer) otherwise.
type RawDialer struct{ d net.Dialer }

// DialContext implements options.ContextDialer.
func (r *RawDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	c, err := r.d.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	if s, err := newSocket(c); err == nil {
		return s, nil
	}
	return c, nil
}

// lookup returns the socket whose local address is addr.
func (d *Dialer) lookup(addr string) (*socket, bool) {
	v, ok := d.conns.Load(addr)
	if !ok {
		return nil, false
	}
	return v.(*trackedConn).socket, true
}

// trackedConn forgets itself when the driver closes it.
type trackedConn struct {
	*socket
	dialer *Dialer
	key    string
	once   sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() { c.dialer.conns.CompareAndDelete(c.key, c) })
	return c.socket.Close()
}
