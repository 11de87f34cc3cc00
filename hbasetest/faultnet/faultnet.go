// Package faultnet injects network faults into the connections a program makes, for tests of
// how it behaves when the network between it and its servers misbehaves: added latency, a
// partition that drops everything and resets nothing (a black hole), a connection reset in
// the middle of a response, and a server that sends slowly.
//
// A Network is a dialer. Give its DialContext to the client under test, for go-hbase:
//
//	fn := faultnet.New()
//	client, err := hbase.NewClient(quorum, hbase.WithDialer(fn.DialContext))
//	if err != nil {
//		return err
//	}
//	defer client.Close()
//	...
//	fn.BlackHole("rs1:16020") // partition the client from one region server
//	...
//	fn.Heal("rs1:16020")
//
// Faults are set per server address, as the client dials it ("host:port"), and apply at once
// to the connections already open to that address and to later ones, until Heal. They act on
// what the client sees: bytes the server sends during a black hole are held back (as TCP
// would retransmit them) and delivered once it heals, in order.
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan, kerberos,
// hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet and fakehbase. Before v1.0.0 a minor
// version (v0.X.0) may change the API of the stable packages; CHANGELOG.md lists every change with
// what to use instead; a patch version (v0.X.Y) never changes it. The lower layers (region, zk,
// sasl, cipher) may change in any minor version. internal/... is not API.
package faultnet

import (
	"context"
	"errors"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Network makes connections through a net.Dialer and injects the faults set on it. It is safe
// for concurrent use; the zero value is not: use New.
type Network struct {
	dialer net.Dialer

	mu      sync.Mutex
	faults  map[string]faults
	changed chan struct{} // closed and replaced whenever a fault changes
	conns   map[*conn]struct{}
	dials   atomic.Int64
}

// faults are the faults of one address.
type faults struct {
	blackHole  bool
	latency    time.Duration
	slowBytes  int
	slowEvery  time.Duration
	resetAfter int // bytes still to deliver before a reset; -1: none
}

var noFaults = faults{resetAfter: -1}

// New returns a Network without faults.
func New() *Network {
	return &Network{faults: map[string]faults{}, changed: make(chan struct{}), conns: map[*conn]struct{}{}}
}

// update changes the faults of addr and wakes every connection and dial waiting on them.
func (n *Network) update(addr string, change func(f *faults)) {
	n.mu.Lock()
	f, ok := n.faults[addr]
	if !ok {
		f = noFaults
	}
	change(&f)
	if f == noFaults {
		delete(n.faults, addr)
	} else {
		n.faults[addr] = f
	}
	close(n.changed)
	n.changed = make(chan struct{})
	n.mu.Unlock()
}

// current returns the faults of addr and a channel closed at the next change.
func (n *Network) current(addr string) (faults, <-chan struct{}) {
	n.mu.Lock()
	defer n.mu.Unlock()
	f, ok := n.faults[addr]
	if !ok {
		f = noFaults
	}
	return f, n.changed
}

// BlackHole partitions the program from addr: new dials hang until their context ends, and
// reads and writes on open connections hang until their deadline or Close. Nothing is reset:
// the server sees a silent client, the client a silent server, as when packets are dropped.
func (n *Network) BlackHole(addr string) { n.update(addr, func(f *faults) { f.blackHole = true }) }

// Latency delays every byte the server sends by d after it arrived, and every dial by d.
func (n *Network) Latency(addr string, d time.Duration) {
	n.update(addr, func(f *faults) { f.latency = max(d, 0) })
}

// SlowReads makes the server's bytes arrive at most bytes at a time, one piece every every.
func (n *Network) SlowReads(addr string, bytes int, every time.Duration) {
	n.update(addr, func(f *faults) { f.slowBytes, f.slowEvery = max(bytes, 1), max(every, 0) })
}

// ResetAfter resets the first connection to addr that delivers bytes more bytes from the
// server: the client gets those bytes, then a read error wrapping syscall.ECONNRESET, and the
// server a TCP reset. With bytes smaller than the next response, it breaks that response in
// the middle. It fires once.
func (n *Network) ResetAfter(addr string, bytes int) {
	n.update(addr, func(f *faults) { f.resetAfter = max(bytes, 0) })
}

// Heal removes every fault of addr: held-back bytes flow again and hung dials proceed.
func (n *Network) Heal(addr string) { n.update(addr, func(f *faults) { *f = noFaults }) }

// HealAll removes every fault of every address.
func (n *Network) HealAll() {
	n.mu.Lock()
	clear(n.faults)
	close(n.changed)
	n.changed = make(chan struct{})
	n.mu.Unlock()
}

// Open returns how many connections to addr are open (not yet closed by the program or
// reset).
func (n *Network) Open(addr string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	k := 0
	for c := range n.conns {
		if c.addr == addr {
			k++
		}
	}
	return k
}

// Dials returns how many dials the Network was asked for.
func (n *Network) Dials() int64 { return n.dials.Load() }

// takeReset accounts k bytes about to be delivered on a connection to addr and returns how
// many of them to deliver and whether to reset the connection after them.
func (n *Network) takeReset(addr string, k int) (int, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	f, ok := n.faults[addr]
	if !ok || f.resetAfter < 0 {
		return k, false
	}
	if k < f.resetAfter {
		f.resetAfter -= k
		n.faults[addr] = f
		return k, false
	}
	k = f.resetAfter
	f.resetAfter = -1
	if f == noFaults {
		delete(n.faults, addr)
	} else {
		n.faults[addr] = f
	}
	return k, true
}

// DialContext dials addr, waiting first while addr is black-holed (until ctx ends) and for
// its latency. The connection it returns carries addr's faults.
func (n *Network) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	n.dials.Add(1)
	for {
		f, changed := n.current(addr)
		if !f.blackHole {
			if f.latency > 0 {
				t := time.NewTimer(f.latency)
				select {
				case <-t.C:
				case <-ctx.Done():
					t.Stop()
					return nil, &net.OpError{Op: "dial", Net: network, Err: ctx.Err()}
				}
			}
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, &net.OpError{Op: "dial", Net: network, Err: ctx.Err()}
		}
	}
	nc, err := n.dialer.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	c := &conn{Conn: nc, n: n, addr: addr, chunks: make(chan chunk, 4), closed: make(chan struct{}),
		deadlines: make(chan struct{})}
	n.mu.Lock()
	n.conns[c] = struct{}{}
	n.mu.Unlock()
	go c.pump()
	return c, nil
}

// chunk is what one read of the real connection got, and when.
type chunk struct {
	b  []byte
	at time.Time
}

// conn delivers the bytes a pump goroutine reads from the real connection as the faults of
// its address allow.
type conn struct {
	net.Conn
	n    *Network
	addr string

	chunks  chan chunk
	pumpErr error // set before chunks is closed

	// Read's state: one Read at a time.
	cur   []byte
	curAt time.Time

	closed    chan struct{} // closed by Close or a reset
	closeOnce sync.Once
	reset     atomic.Bool

	dmu           sync.Mutex
	readDeadline  time.Time
	writeDeadline time.Time
	deadlines     chan struct{} // closed and replaced when a deadline changes
}

func (c *conn) pump() {
	for {
		buf := make([]byte, 32<<10)
		k, err := c.Conn.Read(buf)
		if k > 0 {
			select {
			case c.chunks <- chunk{buf[:k], time.Now()}:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			c.pumpErr = err
			close(c.chunks)
			return
		}
	}
}

var errChanged = errors.New("faultnet: changed")

// wait blocks until until (zero: no time limit), a fault change, a deadline change, the
// deadline of the direction, or the end of the connection, and says which.
func (c *conn) wait(until time.Time, changed <-chan struct{}, write bool) error {
	c.dmu.Lock()
	deadline, deadlines := c.readDeadline, c.deadlines
	if write {
		deadline = c.writeDeadline
	}
	c.dmu.Unlock()
	if !deadline.IsZero() && !time.Now().Before(deadline) {
		return os.ErrDeadlineExceeded
	}
	var timer <-chan time.Time
	if !until.IsZero() {
		t := time.NewTimer(time.Until(until))
		defer t.Stop()
		timer = t.C
	}
	var dl <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		dl = t.C
	}
	select {
	case <-timer:
		return nil
	case <-dl:
		return os.ErrDeadlineExceeded
	case <-changed:
		return errChanged
	case <-deadlines:
		return errChanged
	case <-c.closed:
		return c.endErr("read")
	}
}

func (c *conn) endErr(op string) error {
	if c.reset.Load() {
		return &net.OpError{Op: op, Net: "tcp", Addr: c.RemoteAddr(), Err: syscall.ECONNRESET}
	}
	return net.ErrClosed
}

// Read delivers the server's bytes as the faults allow.
func (c *conn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		select {
		case <-c.closed:
			return 0, c.endErr("read")
		default:
		}
		f, changed := c.n.current(c.addr)
		if f.blackHole {
			if err := c.wait(time.Time{}, changed, false); err != nil && err != errChanged {
				return 0, err
			}
			continue
		}
		if len(c.cur) == 0 {
			if err := c.next(changed); err == errChanged {
				continue
			} else if err != nil {
				return 0, err
			}
		}
		if f.latency > 0 && time.Since(c.curAt) < f.latency {
			if err := c.wait(c.curAt.Add(f.latency), changed, false); err == errChanged {
				continue
			} else if err != nil {
				return 0, err
			}
		}
		k := min(len(p), len(c.cur))
		if f.slowBytes > 0 {
			k = min(k, f.slowBytes)
			if f.slowEvery > 0 {
				if err := c.wait(time.Now().Add(f.slowEvery), changed, false); err == errChanged {
					continue
				} else if err != nil {
					return 0, err
				}
			}
		}
		k, reset := c.n.takeReset(c.addr, k)
		copy(p, c.cur[:k])
		c.cur = c.cur[k:]
		if reset {
			c.resetNow()
		}
		if k == 0 && reset {
			return 0, c.endErr("read")
		}
		return k, nil
	}
}

// next takes the next chunk from the pump.
func (c *conn) next(changed <-chan struct{}) error {
	c.dmu.Lock()
	deadline, deadlines := c.readDeadline, c.deadlines
	c.dmu.Unlock()
	var dl <-chan time.Time
	if !deadline.IsZero() {
		if !time.Now().Before(deadline) {
			return os.ErrDeadlineExceeded
		}
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		dl = t.C
	}
	select {
	case ch, ok := <-c.chunks:
		if !ok {
			return c.pumpErr
		}
		c.cur, c.curAt = ch.b, ch.at
		return nil
	case <-dl:
		return os.ErrDeadlineExceeded
	case <-changed:
		return errChanged
	case <-deadlines:
		return errChanged
	case <-c.closed:
		return c.endErr("read")
	}
}

// Write sends p to the server, hanging while the address is black-holed.
func (c *conn) Write(p []byte) (int, error) {
	for {
		f, changed := c.n.current(c.addr)
		if !f.blackHole {
			break
		}
		if err := c.wait(time.Time{}, changed, true); err != nil && err != errChanged {
			if err == net.ErrClosed || c.reset.Load() {
				return 0, c.endErr("write")
			}
			return 0, err
		}
	}
	if c.reset.Load() {
		return 0, c.endErr("write")
	}
	return c.Conn.Write(p)
}

func (c *conn) SetDeadline(t time.Time) error {
	if err := c.SetReadDeadline(t); err != nil {
		return err
	}
	return c.SetWriteDeadline(t)
}

// SetReadDeadline bounds Read; the real connection's reads (the pump's) are not bounded.
func (c *conn) SetReadDeadline(t time.Time) error {
	c.dmu.Lock()
	c.readDeadline = t
	close(c.deadlines)
	c.deadlines = make(chan struct{})
	c.dmu.Unlock()
	return nil
}

func (c *conn) SetWriteDeadline(t time.Time) error {
	c.dmu.Lock()
	c.writeDeadline = t
	close(c.deadlines)
	c.deadlines = make(chan struct{})
	c.dmu.Unlock()
	return c.Conn.SetWriteDeadline(t)
}

// Close closes the connection; a Read or Write waiting on a fault returns net.ErrClosed.
func (c *conn) Close() error {
	err := net.ErrClosed
	c.closeOnce.Do(func() {
		close(c.closed)
		err = c.Conn.Close()
		c.n.mu.Lock()
		delete(c.n.conns, c)
		c.n.mu.Unlock()
	})
	return err
}

// resetNow closes the real connection with a TCP reset.
func (c *conn) resetNow() {
	c.reset.Store(true)
	if tc, ok := c.Conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0) // close sends RST instead of FIN
	}
	c.Close()
}
