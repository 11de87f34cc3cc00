package hbase

import (
	"errors"

	"github.com/go-hbase/hbase/internal/engine"
)

// Client talks to one HBase cluster. It is safe for concurrent use; create one per cluster and
// share it. Close it when done: it owns connections and goroutines.
//
// The packages built on it take it as it is: admin.New(client) for the administrative calls,
// bufwriter.New(client, table) for buffered writes, parallelscan.New(ctx, client, scan) for
// scans of key ranges in parallel.
type Client struct {
	e *engine.Client
}

func init() {
	engine.RegisterClientOf(func(c any) *engine.Client {
		if cl, _ := c.(*Client); cl != nil {
			return cl.e
		}
		return nil
	})
}

// NewClient returns a client for the HBase cluster whose ZooKeeper quorum is zkQuorum
// ("host1:2181,host2:2181"; a server's port defaults to 2181, and a chroot may follow:
// "host1:2181/apps"). It does not connect: the first call does (Ping checks that the cluster
// answers), so NewClient fails only on bad arguments: an address that is not host:port, an
// empty quorum without WithBootstrapServers, a bad option. Those errors wrap
// hberr.ErrConfiguration and name what is wrong.
func NewClient(zkQuorum string, opts ...Option) (*Client, error) {
	cfg := engine.DefaultConfig()
	for _, opt := range opts {
		err := errors.New("hbase: nil Option")
		if opt != nil {
			err = opt(&cfg)
		}
		if err == nil {
			continue
		}
		// Options may have logged in already (kerberos.WithKeytab); stop their ticket renewal.
		cfg.CloseHandshaker()
		return nil, engine.Misconfigured(err)
	}
	if err := cfg.Check(zkQuorum); err != nil {
		cfg.CloseHandshaker()
		return nil, err
	}
	e, err := engine.New(zkQuorum, cfg)
	if err != nil {
		return nil, err
	}
	return &Client{e: e}, nil
}

// Close fails every call in progress and every later call with hberr.ErrClosed, closes the
// connections to the region servers and the ZooKeeper session, and waits for the client's
// goroutines to end. It is safe to call more than once.
func (c *Client) Close() error { return c.e.Close() }
