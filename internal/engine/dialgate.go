package engine

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/go-hbase/hbase/region"
)

// A server whose connections keep failing is not dialled again at once: a fleet of clients
// with a wrong setting (a plaintext client against a TLS-only cluster, a bootstrap address
// that refuses) would otherwise open tens of connections a second each, until their
// deadlines. After a failed connection to a server, the next one waits a pause that doubles
// with every failure in a row, from minRedialPause to maxRedialPause (the Java client keeps
// such a server on its failed-servers list for 2 s: hbase.ipc.client.failed.servers.expiry).
// Meanwhile a call that needs the server gets the latest failure at once, as it would from a
// dial. A connection failed when its dial or handshake failed, or when the server closed it
// before answering anything; the first answer on a connection makes the server healthy.
const (
	minRedialPause = 50 * time.Millisecond
	maxRedialPause = 2 * time.Second
)

// dialGate holds the recent connection failures of each server the client dials.
type dialGate struct {
	mu      sync.Mutex
	servers map[string]*serverDials
}

type serverDials struct {
	fails int       // failed connections in a row
	until time.Time // no new connection before
	last  error     // why the latest one failed
	// conn is the latest connection made: whether it died before answering is seen at the
	// next dial.
	conn *region.Client
}

// redialError is the error of a call that needs a server inside its pause: the server's
// latest failure, unchanged in text and in what it wraps, so that it is handled as that
// failure is.
type redialError struct {
	addr  string
	fails int
	wait  time.Duration // left of the pause
	last  error
}

func (e *redialError) Error() string { return e.last.Error() }
func (e *redialError) Unwrap() error { return e.last }

// admit returns nil when a connection to addr may be made now, else a *redialError.
func (g *dialGate) admit(addr string, now time.Time) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.servers[addr]
	if s == nil {
		return nil
	}
	if conn := s.conn; conn != nil {
		switch {
		case conn.Stats().BytesRead > 0:
			delete(g.servers, addr) // it answered: healthy
			return nil
		case IsDead(conn):
			s.conn = nil
			if err := conn.Err(); err != nil && !errors.Is(err, region.ErrClosed) {
				s.failed(err, now)
			}
		}
	}
	if now.Before(s.until) {
		return &redialError{addr: addr, fails: s.fails, wait: s.until.Sub(now), last: s.last}
	}
	return nil
}

// dialed records a dial of addr: its connection, or its failure. A dial cut short by its
// context (gaveUp) says nothing about the server.
func (g *dialGate) dialed(addr string, conn *region.Client, err error, gaveUp bool, now time.Time) {
	if err != nil && gaveUp {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.servers == nil {
		g.servers = make(map[string]*serverDials)
	}
	s := g.servers[addr]
	if s == nil {
		s = &serverDials{}
		g.servers[addr] = s
	}
	if err != nil {
		s.failed(err, now)
		return
	}
	s.conn = conn
}

func (s *serverDials) failed(err error, now time.Time) {
	s.fails++
	s.last = err
	pause := min(minRedialPause<<min(s.fails-1, 16), maxRedialPause)
	// ±25 %, so that clients that failed together do not come back together.
	pause = pause*3/4 + rand.N(pause/2+1)
	s.until = now.Add(pause)
}

// DialServer connects to addr with opts unless addr is in its pause after failed connections
// (then it returns the latest failure at once), and records the outcome. A failure no retry
// mends (a handshake refused for the client's settings) is marked hberr.ErrConfiguration, so
// that every caller (the region lookups, the admin's master and region server connections,
// the bootstrap registry) fails its call at once instead of dialling until its deadline.
func (c *Client) DialServer(ctx context.Context, addr string, opts []region.Option) (*region.Client, error) {
	if err := c.admit(addr); err != nil {
		return nil, c.configError(err)
	}
	conn, err := region.Dial(ctx, addr, opts...)
	c.gate.dialed(addr, conn, err, ctx.Err() != nil, time.Now())
	return conn, c.configError(err)
}

// admit is the gate's admit, logging a refusal.
func (c *Client) admit(addr string) error {
	err := c.gate.admit(addr, time.Now())
	if re, ok := err.(*redialError); ok {
		c.Log.Debug("hbase: not dialling a failing server yet", "addr", re.addr, "failures", re.fails,
			"wait", re.wait, "err", re.last)
	}
	return err
}
