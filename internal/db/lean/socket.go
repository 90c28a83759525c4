package lean

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// socket is a plain TCP connection whose Read and Write are system calls
// the runtime does not see, on the non-blocking descriptor, waiting through
// the network poller when it would block, as net.Conn's do. Its other
// methods, deadlines and Close among them, are the connection's own.
//
// A system call the runtime sees (net.Conn's Read and Write make one)
// wakes its monitor thread (sysmon) when every processor was idle, and the
// monitor then polls every 20 µs until they are idle again. Between an open
// loop's operations every processor is idle, so each operation woke it,
// and those wake-ups cost more CPU than the operation: at -target 2000 on
// 4 threads, a loop of raw reads and writes took 43–48 µs of CPU per
// operation where net.Conn's took 91–94. The descriptor is non-blocking,
// so no call here can hold a processor while it waits.
//
// As with net.Conn, a Read and a Write may run at once; two Reads, or two
// Writes, may not (the driver and the lean path never do that).
type socket struct {
	net.Conn
	rc   syscall.RawConn
	r, w direction
}

// direction is what a read's or a write's callback works on and reports,
// kept here so that passing it costs no allocation; fn is bound once for
// the same reason.
type direction struct {
	p     []byte
	n     int
	errno syscall.Errno
	fn    func(fd uintptr) bool
}

// newSocket returns c with raw reads and writes, or an error when c has no
// descriptor to read and write directly.
func newSocket(c net.Conn) (*socket, error) {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil, errors.New("no file descriptor")
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil, err
	}
	s := &socket{Conn: c, rc: rc}
	s.r.fn = s.readOnce
	s.w.fn = s.writeAll
	return s, nil
}

// Write writes all of p, waiting for room when the socket's buffer is full.
func (s *socket) Write(p []byte) (int, error) {
	d := &s.w
	d.p, d.n, d.errno = p, 0, 0
	err := s.rc.Write(d.fn)
	n, errno := d.n, d.errno
	d.p = nil
	if err != nil {
		return n, err
	}
	if errno != 0 {
		return n, s.opError("write", os.NewSyscallError("write", errno))
	}
	return n, nil
}

func (s *socket) writeAll(fd uintptr) bool {
	d := &s.w
	for d.n < len(d.p) {
		n, _, e := unix.RawSyscall(unix.SYS_WRITE, fd, uintptr(unsafe.Pointer(&d.p[d.n])), uintptr(len(d.p)-d.n))
		switch e {
		case 0:
			d.n += int(n)
		case unix.EINTR:
		case unix.EAGAIN:
			return false
		default:
			d.errno = e
			return true
		}
	}
	return true
}

// Read reads what has arrived into p, at least a byte, waiting until
// something has; io.EOF when the server closed the connection.
func (s *socket) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	d := &s.r
	d.p, d.n, d.errno = p, 0, 0
	err := s.rc.Read(d.fn)
	n, errno := d.n, d.errno
	d.p = nil
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, s.opError("read", os.NewSyscallError("read", errno))
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (s *socket) readOnce(fd uintptr) bool {
	d := &s.r
	for {
		n, _, e := unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&d.p[0])), uintptr(len(d.p)))
		switch e {
		case 0:
			d.n = int(n)
			return true
		case unix.EINTR:
		case unix.EAGAIN:
			return false
		default:
			d.errno = e
			return true
		}
	}
}

// opError is err as net.Conn would have returned it.
func (s *socket) opError(op string, err error) error {
	return &net.OpError{Op: op, Net: s.LocalAddr().Network(), Source: s.LocalAddr(), Addr: s.RemoteAddr(), Err: err}
}
