//go:build !linux

package region

import "net"

// fastConn returns c: raw socket reads and writes are implemented on Linux only.
func fastConn(c net.Conn) net.Conn { return c }
