//go:build !linux

package benchmarks

import (
	"errors"
	"net"
)

// blockingFD is Linux-only (floorfd_linux_test.go); elsewhere TestOneCallerFloor skips that
// variant.
type blockingFD int

func dialBlocking(string) (blockingFD, error) {
	return -1, errors.New("blocking raw sockets are measured on Linux only")
}

func (blockingFD) Read([]byte) (int, error)  { return 0, errors.ErrUnsupported }
func (blockingFD) Write([]byte) (int, error) { return 0, errors.ErrUnsupported }
func (blockingFD) Close() error              { return nil }

// pollRawConn is Linux-only too.
type pollRawConn struct{ net.Conn }

func newPollRawConn(net.Conn) (*pollRawConn, error) {
	return nil, errors.New("raw system calls are measured on Linux only")
}
