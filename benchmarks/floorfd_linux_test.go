package benchmarks

import (
	"fmt"
	"io"
	"net"
	"syscall"
	"unsafe"
)

// blockingFD is a TCP socket left in blocking mode and outside the runtime's netpoller, read
// and written with raw system calls (no entersyscall/exitsyscall): a Get costs the process
// one write(2) and the read(2)s that wait in the kernel for the response, and nothing of the
// Go scheduler. It is the floor under any Go client's one-caller round trip; no client
// could ship it (a read blocks its thread, holding its P, with no deadline but the
// socket's receive timeout).
type blockingFD int

// dialBlocking connects to addr (host:port, IPv4) with TCP_NODELAY, as net.Dial does, and a
// 30 s receive timeout so that a silent server fails the read instead of hanging the test.
func dialBlocking(addr string) (blockingFD, error) {
	ta, err := net.ResolveTCPAddr("tcp4", addr)
	if err != nil {
		return -1, err
	}
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	sa := &syscall.SockaddrInet4{Port: ta.Port}
	copy(sa.Addr[:], ta.IP.To4())
	if err := syscall.Connect(fd, sa); err != nil {
		syscall.Close(fd)
		return -1, fmt.Errorf("connect %s: %w", addr, err)
	}
	tv := syscall.Timeval{Sec: 30}
	err = syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1)
	if err == nil {
		err = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
	}
	if err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return blockingFD(fd), nil
}

func (fd blockingFD) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		switch {
		case e == syscall.EINTR:
			continue
		case e != 0:
			return 0, e
		case n == 0:
			return 0, io.EOF
		}
		return int(n), nil
	}
}

func (fd blockingFD) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(&p[done])), uintptr(len(p)-done))
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return done, e
		}
		done += int(n)
	}
	return done, nil
}

func (fd blockingFD) Close() error { return syscall.Close(int(fd)) }

// pollRawConn reads and writes a net.TCPConn with raw system calls through its RawConn, as
// region's rawConn does: the socket stays non-blocking and on the netpoller (a read that
// finds nothing parks the goroutine), but the calls skip entersyscall and exitsyscall. Read
// and Write may overlap; two Reads or two Writes may not.
type pollRawConn struct {
	net.Conn
	rc              syscall.RawConn
	rp, wp          []byte
	rn, wn          int
	rerr, werr      syscall.Errno
	readFn, writeFn func(fd uintptr) bool // bound once: a closure per call would allocate
}

func newPollRawConn(c net.Conn) (*pollRawConn, error) {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return nil, fmt.Errorf("%T is no TCP connection", c)
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil, err
	}
	p := &pollRawConn{Conn: c, rc: rc}
	p.readFn = func(fd uintptr) bool {
		for {
			n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p.rp[0])), uintptr(len(p.rp)))
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false
			}
			p.rn, p.rerr = int(n), e
			return true
		}
	}
	p.writeFn = func(fd uintptr) bool {
		for len(p.wp) > p.wn {
			n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p.wp[p.wn])), uintptr(len(p.wp)-p.wn))
			switch {
			case e == syscall.EAGAIN:
				return false
			case e == syscall.EINTR:
				continue
			case e != 0:
				p.werr = e
				return true
			}
			p.wn += int(n)
		}
		return true
	}
	return p, nil
}

func (p *pollRawConn) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	p.rp = b
	err := p.rc.Read(p.readFn)
	p.rp = nil
	switch {
	case err != nil:
		return 0, err
	case p.rerr != 0:
		return 0, p.rerr
	case p.rn == 0:
		return 0, io.EOF
	}
	return p.rn, nil
}

func (p *pollRawConn) Write(b []byte) (int, error) {
	p.wp, p.wn, p.werr = b, 0, 0
	err := p.rc.Write(p.writeFn)
	n := p.wn
	p.wp = nil
	if err == nil && p.werr != 0 {
		err = p.werr
	}
	return n, err
}
