//go:build !linux || race

package region

import "net"

// fastConn returns c: raw socket reads and writes are implemented on Linux only, and left out
// of race-detector builds (see rawConn).
func fastConn(c net.Conn) net.Conn { return c }
