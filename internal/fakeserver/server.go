package fakeserver

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// Handler answers one request. It runs in its own goroutine; it may block, but should return
// when r.Done() is closed (the connection or server went away).
type Handler func(r *Request) Response

// Request is one decoded request frame.
type Request struct {
	Header *pb.RequestHeader
	Method string // Header.GetMethodName()
	Param  []byte // the marshalled request message
	Cells  []byte // the request cellblock, nil if none
	Conn   *Conn

	ctx context.Context
}

// Unmarshal decodes the request message into m.
func (r *Request) Unmarshal(m proto.Message) error { return proto.Unmarshal(r.Param, m) }

// Done is closed when the request's connection or the server is closed.
func (r *Request) Done() <-chan struct{} { return r.ctx.Done() }

// Response is what the server does with a request. The zero value answers at once with an
// empty response message (valid for any response type without required fields); set Msg,
// Cells or Exception for a real answer and the other fields for faults.
type Response struct {
	Msg       proto.Message         // the response message
	Cells     []byte                // a cellblock to send after it
	Exception *pb.ExceptionResponse // answer with an exception instead (Msg and Cells ignored)

	Delay     time.Duration // wait this long before answering (others may overtake)
	NoReply   bool          // never answer
	CloseConn bool          // close the connection instead of answering (after Raw, if set)
	Raw       []byte        // write these bytes instead of a response frame (garbage, truncated frames)
	// CallID, when set, overrides the call id answered (to answer an unknown call).
	CallID *uint32
}

// Layer is a security layer (same method set as region.Layer): every byte after the connection
// header travels as be32 length | Wrap(bytes) in both directions.
type Layer interface {
	Wrap(dst, plain []byte) ([]byte, error)
	Unwrap(dst, token []byte) ([]byte, error)
}

// Options configure a Server.
type Options struct {
	Handler Handler
	// NewLayer, when set, makes every connection layered after its ConnectionHeader (which is
	// read in clear), using a fresh Layer per connection.
	NewLayer func() Layer
	// Logger receives server events; nil discards them.
	Logger *slog.Logger
}

// Server is a fake HBase server on 127.0.0.1.
type Server struct {
	opts Options
	ln   net.Listener
	log  *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	conns   map[*Conn]struct{}
	headers []*pb.ConnectionHeader

	requests atomic.Int64
	accepted atomic.Int64
}

// Start listens on 127.0.0.1:0 and serves until Close.
func Start(opts Options) (*Server, error) {
	if opts.Handler == nil {
		return nil, errors.New("fakeserver: Options.Handler is nil")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("fakeserver: %w", err)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{opts: opts, ln: ln, log: log, ctx: ctx, cancel: cancel, conns: map[*Conn]struct{}{}}
	s.wg.Add(1)
	go s.acceptLoop()
	return s, nil
}

// Addr returns the "127.0.0.1:port" the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Requests returns how many request frames the server has read.
func (s *Server) Requests() int64 { return s.requests.Load() }

// Accepted returns how many connections the server has accepted.
func (s *Server) Accepted() int64 { return s.accepted.Load() }

// ConnectionHeaders returns the connection headers received so far.
func (s *Server) ConnectionHeaders() []*pb.ConnectionHeader {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*pb.ConnectionHeader(nil), s.headers...)
}

// DropConnections closes every open connection (the listener stays open).
func (s *Server) DropConnections() {
	s.mu.Lock()
	conns := make([]*Conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

// Close stops the server, closes all connections, unblocks handlers (Request.Done) and waits
// for all of the server's goroutines.
func (s *Server) Close() error {
	s.cancel()
	err := s.ln.Close()
	s.DropConnections()
	s.wg.Wait()
	return err
}

func (s *Server) acceptLoop() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.accepted.Add(1)
		ctx, cancel := context.WithCancel(s.ctx)
		c := &Conn{srv: s, nc: nc, ctx: ctx, cancel: cancel}
		s.mu.Lock()
		if s.ctx.Err() != nil {
			s.mu.Unlock()
			nc.Close()
			cancel()
			return
		}
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go c.serve()
	}
}

// Conn is one accepted connection.
type Conn struct {
	srv    *Server
	nc     net.Conn
	ctx    context.Context
	cancel context.CancelFunc
	layer  Layer
	header *pb.ConnectionHeader // set before any request is handled

	wmu     sync.Mutex
	wrapped []byte
	closed  atomic.Bool
}

// Header returns the connection header the client sent.
func (c *Conn) Header() *pb.ConnectionHeader { return c.header }

// Close closes the connection (as a crashing server would).
func (c *Conn) Close() {
	if c.closed.Swap(true) {
		return
	}
	c.cancel()
	c.nc.Close()
}

// Write writes raw bytes to the connection (through the layer, if any).
func (c *Conn) Write(p []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.layer == nil {
		_, err := c.nc.Write(p)
		return err
	}
	out := append(c.wrapped[:0], 0, 0, 0, 0)
	out, err := c.layer.Wrap(out, p)
	if err != nil {
		return err
	}
	binary.BigEndian.PutUint32(out, uint32(len(out)-4))
	c.wrapped = out
	_, err = c.nc.Write(out)
	return err
}

func (c *Conn) serve() {
	var handlers sync.WaitGroup
	defer func() {
		c.Close()
		handlers.Wait()
		c.srv.mu.Lock()
		delete(c.srv.conns, c)
		c.srv.mu.Unlock()
		c.srv.wg.Done()
	}()
	br := bufio.NewReader(c.nc)
	hdr, err := readSetup(br)
	if err != nil {
		c.srv.log.Debug("fakeserver: bad connection setup", "err", err)
		return
	}
	c.header = hdr
	c.srv.mu.Lock()
	c.srv.headers = append(c.srv.headers, hdr)
	c.srv.mu.Unlock()
	var in io.Reader = br
	if c.srv.opts.NewLayer != nil {
		c.layer = c.srv.opts.NewLayer()
		in = bufio.NewReader(&unwrapReader{src: br, layer: c.layer})
	}
	for {
		req, err := readRequest(in)
		if err != nil {
			if !errors.Is(err, io.EOF) && !c.closed.Load() {
				c.srv.log.Debug("fakeserver: read request", "err", err)
			}
			return
		}
		c.srv.requests.Add(1)
		req.Conn, req.ctx = c, c.ctx
		handlers.Add(1)
		go func() {
			defer handlers.Done()
			c.handle(req)
		}()
	}
}

func (c *Conn) handle(req *Request) {
	resp := c.srv.opts.Handler(req)
	if resp.Delay > 0 {
		t := time.NewTimer(resp.Delay)
		select {
		case <-t.C:
		case <-c.ctx.Done():
			t.Stop()
			return
		}
	}
	switch {
	case resp.NoReply:
		return
	case resp.Raw != nil:
		c.Write(resp.Raw) //nolint:errcheck // the client sees what it sees
	case !resp.CloseConn:
		id := req.Header.GetCallId()
		if resp.CallID != nil {
			id = *resp.CallID
		}
		frame, err := EncodeResponse(id, resp.Msg, resp.Cells, resp.Exception)
		if err != nil {
			c.srv.log.Error("fakeserver: encode response", "err", err)
			c.Close()
			return
		}
		c.Write(frame) //nolint:errcheck
	}
	if resp.CloseConn {
		c.Close()
	}
}
