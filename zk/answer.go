package zk

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/go-hbase/hbase/hberr"
)

// A quorum that names a server of another kind (an HTTP server, HBase's RPC port, a TLS port,
// a port that accepts and says nothing) used to be found out late or never: go-zookeeper waits
// 6.7 session timeouts (200 s by default) for the answer to its connect request, takes the
// first four bytes of any answer for a length and allocates that much ("HTTP" is 1.2 GB),
// and reports nothing but ErrNoServer. answerConn reads that answer itself, within
// answerTimeout, and judges it before go-zookeeper sees a byte.

// answerTimeout is how long a server has to answer the connect request. ZooKeeper answers in
// milliseconds; a server that says nothing for a second is named, and go-zookeeper moves on
// to the next server of the quorum.
const answerTimeout = time.Second

// A connect response is protocol version, timeout, session id (4+4+8 bytes), the password
// (a 4-byte length and its bytes, 16 from ZooKeeper, -1 for none) and, from ZooKeeper 3.4, a
// read-only flag byte.
const (
	minConnectResponse = 20
	maxConnectResponse = 1024
)

// quoteBytes is how much of a foreign answer an error quotes.
const quoteBytes = 32

// NotZooKeeperError is a server of the quorum that answered ZooKeeper's connect request with
// bytes no ZooKeeper sends: an HTTP server, HBase's RPC port, a TLS port. No retry helps: it
// matches hberr.ErrConfiguration.
type NotZooKeeperError struct {
	Server string // host:port, as dialled
	Answer []byte // the first bytes it sent (at most 32)
}

func (e *NotZooKeeperError) Error() string {
	if e.TLS() {
		return fmt.Sprintf("zk: %s is not a ZooKeeper server: it answered ZooKeeper's connect request with a TLS record: "+
			"it is a TLS port (ZooKeeper's secureClientPort?), and this client speaks to ZooKeeper in plaintext only: "+
			"give the quorum ZooKeeper's plaintext client port", e.Server)
	}
	more := ""
	if len(e.Answer) == quoteBytes {
		more = "..."
	}
	return fmt.Sprintf("zk: %s is not a ZooKeeper server: it answered ZooKeeper's connect request with %q%s "+
		"(is the port ZooKeeper's client port, %d by default?)", e.Server, e.Answer, more, DefaultPort)
}

// TLS reports whether the answer was a TLS record (a handshake or an alert): a TLS port.
func (e *NotZooKeeperError) TLS() bool {
	a := e.Answer
	return len(a) >= 3 && (a[0] == 0x15 || a[0] == 0x16) && a[1] == 0x03 && a[2] <= 0x04
}

// Is matches hberr.ErrConfiguration.
func (e *NotZooKeeperError) Is(target error) bool { return target == hberr.ErrConfiguration }

// noAnswerError is a server that did not answer the connect request: silent, or closing the
// connection. It may be the network or a ZooKeeper not serving, so it is no configuration
// error: lookups fail with ErrUnreachable naming it, and the caller decides whether to retry.
type noAnswerError struct{ msg string }

func (e *noAnswerError) Error() string { return e.msg }

// answerConn is a connection to a server of the quorum whose first Read reads and judges the
// answer to go-zookeeper's connect request, then hands it to go-zookeeper. go-zookeeper reads
// a connection from one goroutine at a time (the connect, then its receive loop, started
// after it), so the fields need no lock.
type answerConn struct {
	net.Conn
	addr     string
	verdict  func(error) // records a failure's error in the session
	judged   bool
	answer   []byte    // the connect response, not yet read by go-zookeeper
	deadline time.Time // the read deadline go-zookeeper asked for
}

func (c *answerConn) Read(p []byte) (int, error) {
	if !c.judged {
		c.judged = true
		if err := c.readAnswer(); err != nil {
			c.verdict(err)
			return 0, err
		}
	}
	if len(c.answer) > 0 {
		n := copy(p, c.answer)
		c.answer = c.answer[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

func (c *answerConn) SetReadDeadline(t time.Time) error {
	c.deadline = t
	return c.Conn.SetReadDeadline(t)
}

func (c *answerConn) SetDeadline(t time.Time) error {
	c.deadline = t
	return c.Conn.SetDeadline(t)
}

// readAnswer reads the connect response within answerTimeout into c.answer, or returns why it
// is not one.
func (c *answerConn) readAnswer() error {
	deadline := time.Now().Add(answerTimeout)
	if !c.deadline.IsZero() && c.deadline.Before(deadline) {
		deadline = c.deadline
	}
	if err := c.Conn.SetReadDeadline(deadline); err != nil {
		return err
	}
	defer c.Conn.SetReadDeadline(c.deadline) //nolint:errcheck // a failure shows in the next Read
	buf := make([]byte, 4, 4+maxConnectResponse)
	if n, err := io.ReadFull(c.Conn, buf); err != nil {
		if n > 0 {
			return &NotZooKeeperError{Server: c.addr, Answer: buf[:n]}
		}
		return c.unanswered(err)
	}
	size := binary.BigEndian.Uint32(buf)
	if size < minConnectResponse || size > maxConnectResponse {
		return c.foreign(buf)
	}
	buf = buf[:4+size]
	if n, err := io.ReadFull(c.Conn, buf[4:]); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return c.unanswered(err) // the network may be slow: no verdict on the server
		}
		return c.foreign(buf[:4+n])
	}
	if !connectResponse(buf[4:]) {
		return c.foreign(buf)
	}
	c.answer = buf
	return nil
}

// unanswered is the error of a server that sent nothing before err.
func (c *answerConn) unanswered(err error) error {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return &noAnswerError{fmt.Sprintf("no ZooKeeper answer in %v from %s", answerTimeout, c.addr)}
	case errors.Is(err, io.EOF), errors.Is(err, syscall.ECONNRESET):
		return &noAnswerError{fmt.Sprintf("%s closed the connection without answering ZooKeeper's connect request "+
			"(a ZooKeeper server does when it is not serving, or has too many connections from this host)", c.addr)}
	}
	return err
}

// foreign is the error of a server whose answer begins with got, no ZooKeeper answer: what
// else it sent at once is added to the quote.
func (c *answerConn) foreign(got []byte) error {
	quote := make([]byte, quoteBytes)
	n := copy(quote, got)
	if n < quoteBytes {
		c.Conn.SetReadDeadline(time.Now().Add(50 * time.Millisecond)) //nolint:errcheck // the quote is a courtesy
		m, _ := io.ReadAtLeast(c.Conn, quote[n:], len(quote)-n)
		n += m
	}
	return &NotZooKeeperError{Server: c.addr, Answer: quote[:n]}
}

// connectResponse reports whether b, a frame's body, has the shape of a connect response:
// 16 bytes, a password of its stated length (or -1, none), and at most the read-only flag.
func connectResponse(b []byte) bool {
	if len(b) < minConnectResponse {
		return false
	}
	pw := int32(binary.BigEndian.Uint32(b[16:20]))
	if pw == -1 {
		pw = 0
	}
	if pw < 0 || int(pw) > len(b)-minConnectResponse {
		return false
	}
	rest := len(b) - minConnectResponse - int(pw)
	return rest == 0 || rest == 1
}
