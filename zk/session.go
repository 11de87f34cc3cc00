package zk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	gozk "github.com/go-zookeeper/zk"

	"github.com/go-hbase/hbase/hberr"
)

// session is one go-zookeeper connection. go-zookeeper keeps it alive by itself: it
// reconnects after a dropped connection and, when the server says the session expired, it
// asks for a new session on its next connect. So one session value lives as long as the
// Client; "new session after expiry" happens inside it.
type session struct {
	conn   *gozk.Conn
	events <-chan gozk.Event // closed when go-zookeeper's goroutines have finished
	logger *slog.Logger

	// go-zookeeper waits for the connect response for 6.7 session timeouts and does not stop
	// for Close; closing the socket under it does. lifetime also aborts dials in progress.
	lifetime context.Context
	end      context.CancelFunc
	mu       sync.Mutex
	tcp      net.Conn // the current connection to a ZooKeeper server
	// failure is why the latest connection to a server of the quorum failed (its dial, or
	// go-zookeeper's handshake), cleared when a session is established. go-zookeeper reports
	// only ErrNoServer to its callers; this says why.
	failure error
	// established is set once a session was established.
	established atomic.Bool
}

func newSession(servers []string, timeout time.Duration, logger *slog.Logger) (*session, error) {
	s := &session{logger: logger}
	s.lifetime, s.end = context.WithCancel(context.Background())
	conn, events, err := gozk.Connect(servers, timeout,
		gozk.WithDialer(s.dial),
		gozk.WithLogger(zkLogger{logger, s}),
		gozk.WithLogInfo(false),
		gozk.WithMaxBufferSize(maxZNodeSize),
		gozk.WithEventCallback(s.onEvent),
	)
	if err != nil {
		s.end()
		return nil, err // none of servers resolved
	}
	s.conn, s.events = conn, events
	return s, nil
}

// dial is go-zookeeper's Dialer; it remembers the connection so that close can cut it.
func (s *session) dial(network, addr string, timeout time.Duration) (net.Conn, error) {
	d := net.Dialer{Timeout: timeout}
	c, err := d.DialContext(s.lifetime, network, addr)
	if err != nil {
		s.failed(err)
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lifetime.Err() != nil {
		c.Close()
		return nil, s.lifetime.Err()
	}
	s.tcp = c
	return &answerConn{Conn: c, addr: addr, verdict: s.failed}, nil
}

// onEvent runs on go-zookeeper's goroutines and must not block.
func (s *session) onEvent(ev gozk.Event) {
	if ev.Type != gozk.EventSession {
		return
	}
	switch ev.State {
	case gozk.StateHasSession:
		s.established.Store(true)
		s.failed(nil)
		s.logger.Info("zk: session established", "server", ev.Server)
	case gozk.StateExpired:
		s.logger.Warn("zk: session expired; asking for a new one", "server", ev.Server)
	case gozk.StateDisconnected:
		s.logger.Debug("zk: connection lost", "server", ev.Server)
	}
}

// failed records why connecting failed (nil: a session was established). A server of the
// wrong kind (hberr.ErrConfiguration) stays the failure until a session is established: with
// it, the quorum cannot be right whatever its other servers do meanwhile.
func (s *session) failed(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil && errors.Is(s.failure, hberr.ErrConfiguration) && !errors.Is(err, hberr.ErrConfiguration) {
		return
	}
	s.failure = err
}

// lastFailure is why the latest connection to the quorum failed, or nil.
func (s *session) lastFailure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failure
}

// close ends the session and waits for go-zookeeper's goroutines to exit.
func (s *session) close() {
	// Close sends ZooKeeper a closeSession (waiting up to a second for the answer) so the
	// server drops the session now rather than after the timeout; then the socket is cut in
	// case go-zookeeper is blocked reading a server that does not answer.
	s.conn.Close()
	s.end()
	s.mu.Lock()
	if s.tcp != nil {
		s.tcp.Close()
	}
	s.mu.Unlock()
	for range s.events { // go-zookeeper closes it when its connection loop has returned
	}
}

// zkLogger routes go-zookeeper's printf logging to slog. Its messages are about reconnects
// that it handles itself, so they are debug level; the session events above carry what
// matters at info and warn.
// go-zookeeper's handshake failures reach only its log; the session keeps the latest as its
// failure, unless answerConn has already judged the answer (and recorded its verdict).
type zkLogger struct {
	l *slog.Logger
	s *session
}

func (z zkLogger) Printf(format string, args ...any) {
	if format == "authentication failed: %s" && len(args) == 1 && args[0] != gozk.ErrSessionExpired && !judged(args[0]) {
		// (An expired session is no failure to connect: go-zookeeper asks for a new one.)
		z.s.failed(fmt.Errorf("no ZooKeeper handshake: %v", args[0]))
	}
	if !z.l.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	z.l.Debug(fmt.Sprintf(format, args...), "component", "go-zookeeper")
}

// judged reports whether v is an error answerConn returned, already recorded.
func judged(v any) bool {
	err, ok := v.(error)
	if !ok {
		return false
	}
	_, foreign := errors.AsType[*NotZooKeeperError](err)
	_, silent := errors.AsType[*noAnswerError](err)
	return foreign || silent
}
