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
// goroutine and allocate a buffer for every message. It is the driver's
// default dialer (a zero net.Dialer) otherwise.
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
	tc := &trackedConn{Conn: c, dialer: d, key: c.LocalAddr().String()}
	d.conns.Store(tc.key, tc)
	return tc, nil
}

// lookup returns the socket whose local address is addr.
func (d *Dialer) lookup(addr string) (net.Conn, bool) {
	v, ok := d.conns.Load(addr)
	if !ok {
		return nil, false
	}
	return v.(*trackedConn).Conn, true
}

// trackedConn forgets itself when the driver closes it.
type trackedConn struct {
	net.Conn
	dialer *Dialer
	key    string
	once   sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() { c.dialer.conns.CompareAndDelete(c.key, c) })
	return c.Conn.Close()
}
