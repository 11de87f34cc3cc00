package zk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	gozk "github.com/go-zookeeper/zk"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pause"
)

// DefaultSessionTimeout is the session timeout asked of ZooKeeper unless WithSessionTimeout
// says otherwise. ZooKeeper clamps it to [2, 20] tick times.
const DefaultSessionTimeout = 30 * time.Second

// maxZNodeSize bounds the replies go-zookeeper will buffer; HBase's location znodes are well
// under 1 KiB and ZooKeeper's own jute.maxbuffer default is 1 MiB.
const maxZNodeSize = 1 << 20

// transientAttempts is how many times a lookup is sent while the session is changing under it
// (connection dropped with the request outstanding, session expired, or every server of the
// quorum failed once, which takes go-zookeeper about a second); each failure of that kind
// means go-zookeeper is already reconnecting, so a later try often succeeds.
const transientAttempts = 4

// Client looks up HBase server locations in ZooKeeper. It is safe for concurrent use.
type Client struct {
	servers        []string
	parent         string
	sessionTimeout time.Duration
	logger         *slog.Logger

	mu     sync.Mutex
	closed bool
	sess   *session
	calls  sync.WaitGroup // goroutines blocked in go-zookeeper calls on behalf of lookups
}

// Option configures a Client. Like every option of the module it checks its argument, and New
// returns the first bad one.
type Option func(*Client) error

// WithZNodeParent sets the znode under which HBase keeps its state (zookeeper.znode.parent).
// The default is "/hbase".
func WithZNodeParent(parent string) Option {
	return func(c *Client) error {
		if parent == "" {
			return errors.New("zk: empty znode parent")
		}
		c.parent = parent
		return nil
	}
}

// WithSessionTimeout sets the ZooKeeper session timeout. The default is DefaultSessionTimeout.
func WithSessionTimeout(d time.Duration) Option {
	return func(c *Client) error {
		if d <= 0 {
			return fmt.Errorf("zk: session timeout %v is not positive", d)
		}
		c.sessionTimeout = d
		return nil
	}
}

// WithLogger sets the logger; go-zookeeper's own messages are routed to it at debug level.
// The default discards everything.
func WithLogger(l *slog.Logger) Option {
	return func(c *Client) error {
		if l == nil {
			return errors.New("zk: nil logger")
		}
		c.logger = l
		return nil
	}
}

// New returns a Client for the quorum, a ZooKeeper connect string ("host1:2181,host2:2181",
// the port defaulting to 2181), optionally followed by a chroot ("host1:2181,host2:2181/apps"
// reads /apps/hbase/...), as ParseQuorum reads it. It does not connect: the session is opened
// by the first lookup. It fails on a bad option or a quorum ParseQuorum refuses (a
// *QuorumError).
func New(quorum string, opts ...Option) (*Client, error) {
	c := &Client{parent: "/hbase", sessionTimeout: DefaultSessionTimeout, logger: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		if o == nil {
			return nil, errors.New("zk: nil Option")
		}
		if err := o(c); err != nil {
			return nil, err
		}
	}
	servers, chroot, err := ParseQuorum(quorum)
	if err != nil {
		return nil, err
	}
	c.servers = servers
	// Every path, the parent's included, is under the chroot.
	c.parent = strings.TrimSuffix(chroot+"/"+strings.Trim(c.parent, "/"), "/")
	if c.parent == "" {
		c.parent = "/"
	}
	return c, nil
}

// LocateMeta returns the host:port of the region server holding hbase:meta, read from
// <parent>/meta-region-server. It returns an error wrapping ErrNoNode if meta is not
// assigned yet, and a *NoParentError if the parent znode itself is missing. Like HBase's own client it returns the server even when the znode says the
// region is still in transition: the region server answers NotServingRegion until it is open.
func (c *Client) LocateMeta(ctx context.Context) (string, error) {
	path := c.parent + "/meta-region-server"
	data, err := c.get(ctx, path)
	if err != nil {
		return "", err
	}
	loc, err := parseMetaRegionServer(data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if loc.state != stateOpen {
		c.logger.DebugContext(ctx, "zk: hbase:meta is in transition", "server", loc.addr, "state", loc.state)
	}
	return loc.addr, nil
}

// LocateMetaReplica returns the host:port of the region server holding replica id (1 and up)
// of hbase:meta, read from <parent>/meta-region-server-<id> (ZNodePaths.getZNodeForReplica).
// It returns an error wrapping ErrNoNode if the cluster has no such replica, or it is not
// assigned.
func (c *Client) LocateMetaReplica(ctx context.Context, id int) (string, error) {
	if id < 1 {
		return "", fmt.Errorf("zk: hbase:meta replica id %d: secondaries are 1 and up", id)
	}
	path := c.parent + "/meta-region-server-" + strconv.Itoa(id)
	data, err := c.get(ctx, path)
	if err != nil {
		return "", err
	}
	loc, err := parseMetaRegionServer(data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return loc.addr, nil
}

// LocateMaster returns the host:port of the active master, read from <parent>/master.
// It returns an error wrapping ErrNoNode if no master is active, and a *NoParentError if the
// parent znode itself is missing.
func (c *Client) LocateMaster(ctx context.Context) (string, error) {
	path := c.parent + "/master"
	data, err := c.get(ctx, path)
	if err != nil {
		return "", err
	}
	addr, err := parseMaster(data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return addr, nil
}

// Close ends the session and waits for every goroutine the Client started, including
// go-zookeeper's, to exit. Lookups after Close, or cut short by it, return ErrClosed.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	s := c.sess
	c.sess = nil
	c.mu.Unlock()
	if s != nil {
		s.close()
	}
	c.calls.Wait()
	return nil
}

// get reads one znode, retrying while the session changes under the request, and returning
// as soon as ctx is done.
func (c *Client) get(ctx context.Context, path string) ([]byte, error) {
	var err error
	for attempt := 0; attempt < transientAttempts; attempt++ {
		if attempt > 0 {
			if werr := pause.Sleep(ctx, time.Duration(attempt)*50*time.Millisecond); werr != nil {
				return nil, fmt.Errorf("zk: get %s: %w (after: %v)", path, werr, err)
			}
		}
		var data []byte
		data, err = c.getOnce(ctx, path)
		switch {
		case err == nil:
			return data, nil
		case errors.Is(err, ErrUnreachable):
			return nil, err
		case errors.Is(err, gozk.ErrNoNode):
			return nil, c.noNode(ctx, path)
		case errors.Is(err, ErrClosed), c.isClosed():
			// go-zookeeper reports its own closing as ErrClosing or ErrConnectionClosed.
			return nil, fmt.Errorf("zk: get %s: %w", path, ErrClosed)
		case errors.Is(err, gozk.ErrNoServer) && !c.everConnected() && c.unreachable() != nil:
			// Every server failed in go-zookeeper's last round and none ever answered this
			// client (a wrong address, ZooKeeper down): the caller decides whether to wait
			// for the next round (it owns the retry policy). A session that was up rides
			// through a reconnect instead.
			return nil, c.unreachable()
		case errors.Is(err, gozk.ErrSessionExpired), errors.Is(err, gozk.ErrConnectionClosed),
			errors.Is(err, gozk.ErrNoServer):
			c.logger.DebugContext(ctx, "zk: request lost, retrying", "path", path, "err", err)
		default:
			// ctx errors and the rest go to the caller, who owns the retry policy.
			return nil, fmt.Errorf("zk: get %s: %w", path, err)
		}
	}
	if why := c.unreachable(); why != nil && errors.Is(err, gozk.ErrNoServer) {
		return nil, fmt.Errorf("zk: get %s: %w", path, why)
	}
	return nil, fmt.Errorf("zk: get %s: %w", path, err)
}

// everConnected reports whether the client's session was ever established.
func (c *Client) everConnected() bool {
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	return s != nil && s.established.Load()
}

// unreachable returns why the session is not established when connecting failed, or nil: a
// server of the wrong kind (*NotZooKeeperError) as it is, any other failure as an
// *UnreachableError.
func (c *Client) unreachable() error {
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	if s == nil {
		return nil
	}
	err := s.lastFailure()
	if err == nil || errors.Is(err, hberr.ErrConfiguration) {
		return err
	}
	return &UnreachableError{Servers: c.servers, Err: err}
}

// getOnce sends one Get.
func (c *Client) getOnce(ctx context.Context, path string) ([]byte, error) {
	var data []byte
	err := c.call(ctx, func(conn *gozk.Conn) error {
		var err error
		data, _, err = conn.Get(path)
		return err
	})
	if err != nil {
		return nil, err // data may still be written by a call that outlived ctx
	}
	return data, nil
}

// call runs one go-zookeeper request. go-zookeeper's calls block without a context, so the
// request runs in a goroutine that ends when go-zookeeper answers: at the latest when the
// session is closed, which Close does before waiting for it. Its results must be written
// only by fn, and read only when call returned no context error.
func (c *Client) call(ctx context.Context, fn func(*gozk.Conn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	s, err := c.sessionLocked()
	if err != nil {
		c.mu.Unlock()
		return err
	}
	c.calls.Add(1)
	c.mu.Unlock()

	done := make(chan error, 1)
	go func() {
		defer c.calls.Done()
		done <- fn(s.conn)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sessionLocked returns the session, making it if there is none. c.mu must be held.
func (c *Client) sessionLocked() (*session, error) {
	if c.closed {
		return nil, ErrClosed
	}
	if c.sess == nil {
		s, err := newSession(c.servers, c.sessionTimeout, c.logger)
		if err != nil {
			// go-zookeeper resolves the servers first: none resolved.
			return nil, &UnreachableError{Servers: c.servers, Err: err}
		}
		c.sess = s
	}
	return c.sess, nil
}

func (c *Client) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}
