package engine

import (
	"context"
	"sync"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/region"
)

// connPool keeps one region.Client per region server address, shared by all regions served
// there. Dials run in a goroutine of the client so that a caller giving up does not abort a
// dial other callers wait for.
type connPool struct {
	mu    sync.Mutex
	conns map[string]*poolEntry
}

type poolEntry struct {
	ready chan struct{} // closed when the dial finished
	conn  *region.Client
	err   error
}

// conn returns the live connection to addr, dialling it if needed.
func (c *Client) conn(ctx context.Context, addr string) (*region.Client, error) {
	p := &c.pool
	p.mu.Lock()
	e := p.conns[addr]
	if e != nil {
		select {
		case <-e.ready:
			if e.err != nil || IsDead(e.conn) {
				e = nil // dial failed or connection died: dial again
			}
		default:
		}
	}
	if e == nil {
		if err := c.admit(addr); err != nil {
			p.mu.Unlock()
			return nil, err // the server's connections keep failing: not yet again
		}
		e = &poolEntry{ready: make(chan struct{})}
		if !c.spawn(func() { c.dial(addr, e) }) {
			p.mu.Unlock()
			return nil, hberr.ErrClosed
		}
		p.conns[addr] = e
	}
	p.mu.Unlock()
	select {
	case <-e.ready:
		return e.conn, e.err
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

func IsDead(conn *region.Client) bool {
	select {
	case <-conn.Done():
		return true
	default:
		return false
	}
}

// dial connects e and, once connected, watches the connection until it dies to take every
// region it served out of service at once.
func (c *Client) dial(addr string, e *poolEntry) {
	ctx, cancel := context.WithTimeout(c.lifetime, c.opts.LookupTimeout)
	start := time.Now()
	conn, err := region.Dial(ctx, addr, c.ConnOptions()...)
	c.gate.dialed(addr, conn, err, c.lifetime.Err() != nil, time.Now())
	cancel()
	c.connected(addr, start, err)
	if err == nil && c.lifetime.Err() != nil {
		conn.Close()
		conn, err = nil, hberr.ErrClosed
	}
	e.conn, e.err = conn, err
	close(e.ready)
	if err != nil {
		c.Log.Debug("hbase: dial failed", "addr", addr, "err", err)
		c.pool.mu.Lock()
		if c.pool.conns[addr] == e {
			delete(c.pool.conns, addr)
		}
		c.pool.mu.Unlock()
		return
	}
	select {
	case <-conn.Done():
		c.Log.Info("hbase: connection to region server lost", "addr", addr, "err", conn.Err())
		c.pool.mu.Lock()
		if c.pool.conns[addr] == e {
			delete(c.pool.conns, addr)
		}
		c.pool.mu.Unlock()
		c.connClosed(conn, conn.Err())
		c.serverFailed(conn, conn.Err())
		c.dropped.Delete(conn)
	case <-c.lifetime.Done():
		conn.Close()
		c.connClosed(conn, nil)
	}
}

// ConnOptions are the options of every region server connection.
func (c *Client) ConnOptions() []region.Option {
	opts := []region.Option{region.WithService("ClientService"), region.WithUser(c.opts.User),
		region.WithLogger(c.Log)}
	if c.opts.Handshaker != nil {
		opts = append(opts, region.WithHandshaker(c.opts.Handshaker))
	}
	if c.opts.TLS != nil {
		opts = append(opts, region.WithTLS(c.opts.TLS))
	}
	if len(c.opts.ConnAttrs) > 0 {
		opts = append(opts, region.WithConnectionAttributes(c.opts.ConnAttrs))
	}
	opts = append(opts, c.hookOptions()...)
	return append(opts, c.opts.ConnOptions...)
}

// serverFailed takes every region served through conn out of service at once; one goroutine
// looks them all up again together (relocateRegions).
func (c *Client) serverFailed(conn *region.Client, cause error) {
	if c.lifetime.Err() != nil {
		return
	}
	if v, ok := c.dropped.Load(conn); ok {
		cause = v.(error) // the client closed it: why says more than "connection closed"
	}
	var owned []*regionInfo
	for _, r := range c.cache.onConn(conn) {
		if r.markUnavailable(conn) {
			r.setFailure(cause) // what its callers are told until the relocation says more
			owned = append(owned, r)
		}
	}
	if len(owned) > 0 && !c.spawn(func() { c.relocateRegions(conn.Addr(), owned, cause) }) {
		for _, r := range owned {
			r.retire()
		}
	}
	c.markUnavailable(c.meta, conn)
}
