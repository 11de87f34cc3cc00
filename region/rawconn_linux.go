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
// wake-up and a handful of context switches per call, which a CPU profile of one caller
// against a real server shows as a fifth of the client's CPU.
//
// A raw system call is safe here because it cannot block: the netpoller made the socket
// non-blocking, so read and write return EAGAIN instead of waiting, and RawConn then parks the
// goroutine on the netpoller exactly as net.Conn does, deadlines included. While the kernel
// copies the bytes the goroutine keeps its P, as it does for any other work.
type rawConn struct {
	net.Conn
	rc syscall.RawConn
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
	return &rawConn{Conn: c, rc: rc}
}

func (c *rawConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := c.rc.Read(func(fd uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			if e != syscall.EINTR {
				n, errno = int(r), e
				return e != syscall.EAGAIN // false: wait on the netpoller, then call again
			}
		}
	})
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

func (c *rawConn) Write(p []byte) (int, error) {
	written := 0
	for written < len(p) {
		var errno syscall.Errno
		err := c.rc.Write(func(fd uintptr) bool {
			rest := p[written:]
			for {
				r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&rest[0])), uintptr(len(rest)))
				if e != syscall.EINTR {
					if errno = e; e == 0 {
						written += int(r)
					}
					return e != syscall.EAGAIN
				}
			}
		})
		if err != nil {
			return written, err
		}
		if errno != 0 {
			return written, c.opError("write", errno)
		}
	}
	return written, nil
}

func (c *rawConn) opError(op string, errno syscall.Errno) error {
	return &net.OpError{Op: op, Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: os.NewSyscallError(op, errno)}
}
