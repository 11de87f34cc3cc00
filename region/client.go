package region

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-hbase/hbase/hberr"
)

// Client is one connection to one server for one service. It is safe for concurrent use:
// callers' goroutines encode and write their requests (coalescing concurrent writes), and
// whoever holds the read role completes calls by call id: the reader goroutine, or a lone
// caller reading its own response (lone.go).
type Client struct {
	addr string
	cfg  config
	log  *slog.Logger
	conn net.Conn

	nextID        atomic.Uint32
	dead          atomic.Bool
	loggedCorrupt atomic.Bool // a corrupt response was logged (once per connection)

	explainOnce sync.Once     // unanswered (firstanswer.go): one probe per connection
	explainDone chan struct{} // closed when explained is set
	explained   error

	mu       sync.Mutex
	calls    map[uint32]*call // outstanding calls; nil once dead
	err      error            // why the connection died
	done     chan struct{}    // closed when dead
	reading  bool             // someone holds the read role (lone reading only)
	watching bool             // the reader goroutine holds it for an idle connection

	rd readSide // the read role's state
	// Lone reading (lone.go); lone is false on connections whose reader goroutine always reads.
	lone        bool
	poller      idlePoller
	wake        chan struct{} // hands the read role to the reader goroutine
	interrupted chan struct{} // interruptFn is over
	interruptFn func()        // c.interruptRead, bound once
	idleWatch   *time.Timer   // runs watchIdle
	wait        loneWait      // the lone caller's context

	w        writer
	wg       sync.WaitGroup // the reader and any write-draining goroutine
	callPool sync.Pool      // *call
	// frames holds written large request frames (*[]byte) for the next large requests: the
	// writer takes a large frame from its call instead of copying it (writer.enqueue), and
	// gives the buffer back here once written.
	frames sync.Pool

	stats struct {
		calls, writes           atomic.Uint64
		bytesWritten, bytesRead atomic.Uint64
		loneCalls, handOffs     atomic.Uint64 // lone.go; for tests
	}
}

// Dial connects to addr ("host:port"), runs the connection setup (SIMPLE, or the
// WithHandshaker) bounded by ctx, and starts the reader goroutine. It fails first on a bad
// option.
func Dial(ctx context.Context, addr string, opts ...Option) (*Client, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("region: dial %s: %w", addr, err)
	}
	conn, err := cfg.Dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("region: dial %s: %w", addr, err)
	}
	if !cfg.netConnIO {
		conn = fastConn(conn)
	}
	if cfg.TLS != nil {
		if conn, err = startTLS(ctx, conn, host, cfg.TLS); err != nil {
			return nil, fmt.Errorf("region: dial %s: %w", addr, err)
		}
	}
	layer, err := handshake(ctx, conn, host, cfg)
	if err != nil {
		conn.Close()
		if closedEarly(err) && ctx.Err() == nil {
			err = explainUnanswered(ctx, &cfg, addr, err) // a security handshake the server did not answer
		}
		return nil, fmt.Errorf("region: dial %s: %w", addr, err)
	}
	c := &Client{
		addr:  addr,
		cfg:   cfg,
		log:   cfg.Logger.With("addr", addr, "service", cfg.Service),
		conn:  conn,
		calls: make(map[uint32]*call),
		done:  make(chan struct{}),
	}
	c.callPool.New = func() any { return &call{done: make(chan struct{}, 1)} }
	c.w.init(conn, layer, cfg)
	var src *bufio.Reader
	poller, lone := conn.(idlePoller)
	if lone = lone && layer == nil; lone {
		src = bufio.NewReaderSize(loneSource{c}, cfg.ReadBufferSize)
	} else {
		src = bufio.NewReaderSize(conn, cfg.ReadBufferSize)
	}
	var br *bufio.Reader
	if layer != nil {
		br = bufio.NewReaderSize(&layerReader{src: src, layer: layer, maxToken: cfg.MaxFrameSize}, cfg.ReadBufferSize)
	} else {
		br = src
	}
	c.initReadSide(br)
	c.wg.Add(1)
	if lone {
		c.lone, c.poller = true, poller
		c.wake = make(chan struct{}, 1)
		c.interrupted = make(chan struct{}, 1)
		c.interruptFn = c.interruptRead
		c.idleWatch = time.AfterFunc(c.idleDelay(), c.watchIdle)
		go c.readTurns()
	} else {
		go c.readLoop()
	}
	c.log.Debug("region: connected", "layered", layer != nil, "lone_reading", c.lone)
	return c, nil
}

// Addr returns the address the client was dialled with.
func (c *Client) Addr() string { return c.addr }

// Done returns a channel closed when the connection is dead (broken or closed).
func (c *Client) Done() <-chan struct{} { return c.done }

// Err returns why the connection died, or nil while it is alive. The error wraps ErrClosed
// (Close) or hberr.ErrConnection and the cause.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close fails every outstanding call with an error wrapping ErrClosed, closes the connection
// and waits for the client's goroutines to end. It is safe to call more than once.
func (c *Client) Close() error {
	c.fail(newConnError(c.addr, ErrClosed, nil))
	c.wg.Wait()
	return nil
}

// Stats are counters of a client's activity.
type Stats struct {
	Calls        uint64 // calls whose request was queued for writing
	Writes       uint64 // write system calls (several coalesced requests share one)
	BytesWritten uint64 // bytes written to the socket (after any security layer)
	BytesRead    uint64 // bytes of response frames read (after any security layer is removed)
	InFlight     int    // calls waiting for their response now
}

// Stats returns the client's counters.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	inFlight := len(c.calls)
	c.mu.Unlock()
	return Stats{Calls: c.stats.calls.Load(), Writes: c.stats.writes.Load(),
		BytesWritten: c.stats.bytesWritten.Load(), BytesRead: c.stats.bytesRead.Load(),
		InFlight: inFlight}
}

// fail marks the connection dead with err, closes the socket and fails every outstanding call
// at once. Only the first error counts.
func (c *Client) fail(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	c.dead.Store(true)
	calls := c.calls
	c.calls = nil
	close(c.done)
	if c.idleWatch != nil {
		c.idleWatch.Stop()
	}
	c.mu.Unlock()

	c.conn.Close()
	for _, cl := range calls {
		cl.complete(err)
	}
	if len(calls) > 0 || !isClosed(err) {
		c.log.Debug("region: connection dead", "err", err, "failed_calls", len(calls))
	}
}

func isClosed(err error) bool {
	ce, ok := err.(*ConnError)
	return ok && ce.sentinel == ErrClosed
}

// connFailed wraps an I/O or protocol error into the error all calls get.
func (c *Client) connFailed(cause error) error {
	return newConnError(c.addr, hberr.ErrConnection, cause)
}
