//go:build linux && !race

package region

import (
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// rawConn is a TCP connection whose reads and writes skip the runtime's system-call
// bookkeeping (entersyscall and exitsyscall). Whenever every goroutine of the process has been
// waiting, which for a caller that waits for each response is between any two of its calls,
// the runtime's sysmon thread is asleep, and the next ordinary system call wakes it: a futex
// wake-up and a handful of context switches per call (TestRawIOAgainstRealHBase: 0.72x the
// client CPU per Get of net.Conn's own reads and writes).
//
// A raw system call is safe here because it cannot block: the netpoller made the socket
// non-blocking, so read and write return EAGAIN instead of waiting, and RawConn then parks the
// goroutine on the netpoller exactly as net.Conn does, deadlines included. While the kernel
// copies the bytes the goroutine keeps its P, as it does for any other work.
//
// Unlike net.Conn, a rawConn takes one Read at a time and one Write at a time (a Read and a
// Write may overlap): a region connection has one reader at a time (whoever holds the read
// role: its reader goroutine or a lone caller, lone.go) and one writer at a time.
//
// Race-detector builds keep net.Conn (rawconn_other.go): its reads and writes tell the race
// detector that a write happens before the read of the same bytes, which tests with an
// in-process server rely on, and raw system calls cannot tell it so.
type rawConn struct {
	net.Conn
	rc syscall.RawConn

	// The read and the write in progress, and the functions RawConn calls for them, bound
	// once: a closure per call would escape to the heap through the RawConn interface.
	rp      []byte
	rn      int
	rerr    syscall.Errno
	readFn  func(fd uintptr) bool
	wp      []byte
	wn      int
	werr    syscall.Errno
	writeFn func(fd uintptr) bool
	// pollIdle's peek.
	pb     [1]byte
	pn     int
	perr   syscall.Errno
	peekFn func(fd uintptr) bool
}

// fastConn returns c with raw reads and writes when it is a TCP connection, else c.
func fastConn(c net.Conn) net.Conn {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return c
	}
	r := &rawConn{Conn: c, rc: rc}
	r.readFn, r.writeFn, r.peekFn = r.readOnce, r.writeOnce, r.peekOnce
	return r
}

// pollIdle tells, without waiting, whether the socket has bytes to read (true), has nothing
// (false), or is at its end or broken (an error: io.EOF for the server's FIN). It reads
// nothing: one recv with MSG_PEEK|MSG_DONTWAIT. A lone caller asks it before writing on a
// connection nobody was reading (lone.go). It must not overlap a Read.
func (c *rawConn) pollIdle() (bool, error) {
	if err := c.rc.Read(c.peekFn); err != nil {
		return false, err
	}
	switch {
	case c.perr == syscall.EAGAIN:
		return false, nil
	case c.perr != 0:
		return false, c.opError("read", c.perr)
	case c.pn == 0:
		return false, io.EOF
	}
	return true, nil
}

// peekOnce peeks at one byte; it never asks RawConn to wait.
func (c *rawConn) peekOnce(fd uintptr) bool {
	for {
		r, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&c.pb[0])), 1,
			syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
		if e != syscall.EINTR {
			c.pn, c.perr = int(r), e
			return true
		}
	}
}

func (c *rawConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.rp = p
	err := c.rc.Read(c.readFn)
	n, errno := c.rn, c.rerr
	c.rp = nil
	switch {
	case err != nil:
		return 0, err // a deadline or a closed connection, as *net.OpError
	case errno != 0:
		return 0, c.opError("read", errno)
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// readOnce reads into c.rp; false (EAGAIN) makes RawConn wait on the netpoller and call again.
func (c *rawConn) readOnce(fd uintptr) bool {
	for {
		r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&c.rp[0])), uintptr(len(c.rp)))
		if e != syscall.EINTR {
			c.rn, c.rerr = int(r), e
			return e != syscall.EAGAIN
		}
	}
}

func (c *rawConn) Write(p []byte) (int, error) {
	c.wp, c.wn = p, 0
	defer func() { c.wp = nil }()
	for c.wn < len(p) {
		if err := c.rc.Write(c.writeFn); err != nil {
			return c.wn, err
		}
		if c.werr != 0 {
			return c.wn, c.opError("write", c.werr)
		}
	}
	return c.wn, nil
}

// writeOnce writes what is left of c.wp once; a partial write returns true and Write calls
// again, EAGAIN returns false and RawConn waits for the socket to drain first.
func (c *rawConn) writeOnce(fd uintptr) bool {
	rest := c.wp[c.wn:]
	for {
		r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&rest[0])), uintptr(len(rest)))
		if e != syscall.EINTR {
			if c.werr = e; e == 0 {
				c.wn += int(r)
			}
			return e != syscall.EAGAIN
		}
	}
}

func (c *rawConn) opError(op string, errno syscall.Errno) error {
	return &net.OpError{Op: op, Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: os.NewSyscallError(op, errno)}
}
