package fakehbase

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/internal/fakeserver"
)

// Server is an in-memory HBase cluster in the test process: one or more region servers
// listening on 127.0.0.1, the first of which is also the master and holds hbase:meta. Its
// methods are safe for concurrent use.
type Server struct {
	log       *slog.Logger
	tb        testing.TB // NewServer's test, which misuses of the kit fail; nil for Start
	clock     func() time.Time
	clusterID string
	servers   []*regionServer

	mu         sync.Mutex
	closed     bool
	seq        uint64 // the sequence number of the last write
	namespaces map[string]*namespace
	tables     map[string]*table
	meta       *table
	regions    map[string]*region // by full and by encoded name
	nextServer int                // where the next region goes (round robin)
	procs      map[uint64]*procedure
	lastProc   uint64
	procNonces map[[2]uint64]uint64
	scanners   map[uint64]*scanner
	closedScan map[uint64]bool
	lastScan   uint64
	nonces     map[[2]uint64]*nonceResult
	nonceOrder [][2]uint64 // the nonces in the order they came, to forget the oldest
	faults     []*fault
	calls      []callRecord
}

// regionServer is one listener: a region server (the first is also the master).
type regionServer struct {
	s         *Server
	idx       int
	fs        *fakeserver.Server
	host      string
	port      int
	startCode int64
}

func (rs *regionServer) addr() string { return net.JoinHostPort(rs.host, strconv.Itoa(rs.port)) }

// Option configures a Server.
type Option func(*config) error

type config struct {
	servers int
	log     *slog.Logger
	clock   func() time.Time
}

// WithRegionServers sets the number of region servers (1 to 16; default 1). Regions are
// spread over them in turn, so a client keeps several connections, as with a real cluster,
// and MoveRegion moves a region to another server.
func WithRegionServers(n int) Option {
	return func(c *config) error {
		if n < 1 || n > 16 {
			return fmt.Errorf("fakehbase: WithRegionServers(%d): want 1 to 16", n)
		}
		c.servers = n
		return nil
	}
}

// WithLogger makes the server log what it does (connections, failed requests) to l, at
// debug level.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		if l == nil {
			return errors.New("fakehbase: WithLogger(nil)")
		}
		c.log = l
		return nil
	}
}

// WithClock sets the clock the server takes its time from: the timestamps of cells written
// without one, TTLs, region ids. A fixed clock makes timestamps predictable in a test.
func WithClock(now func() time.Time) Option {
	return func(c *config) error {
		if now == nil {
			return errors.New("fakehbase: WithClock(nil)")
		}
		c.clock = now
		return nil
	}
}

// Start starts a server on 127.0.0.1. Close it when done.
func Start(opts ...Option) (*Server, error) {
	cfg := config{servers: 1, clock: time.Now, log: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		if o == nil {
			return nil, errors.New("fakehbase: nil Option")
		}
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	s := &Server{
		log: cfg.log, clock: cfg.clock, clusterID: hex.EncodeToString(id),
		namespaces: map[string]*namespace{
			defaultNS: {name: defaultNS, props: map[string]string{}},
			systemNS:  {name: systemNS, props: map[string]string{}},
		},
		tables: map[string]*table{}, regions: map[string]*region{}, procs: map[uint64]*procedure{}, procNonces: map[[2]uint64]uint64{},
		scanners: map[uint64]*scanner{}, closedScan: map[uint64]bool{}, nonces: map[[2]uint64]*nonceResult{},
	}
	for i := range cfg.servers {
		rs := &regionServer{s: s, idx: i, host: "127.0.0.1", startCode: s.now() + int64(i)}
		fs, err := fakeserver.Start(fakeserver.Options{Handler: rs.handle, Logger: cfg.log})
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("fakehbase: %w", err)
		}
		rs.fs = fs
		_, port, _ := net.SplitHostPort(fs.Addr())
		rs.port, _ = strconv.Atoi(port)
		s.servers = append(s.servers, rs)
	}
	s.meta = newMetaTable()
	s.tables[metaTable] = s.meta
	s.regions[metaRegionName] = s.meta.regions[0]
	s.regions[metaEncoded] = s.meta.regions[0]
	s.log.Debug("fakehbase: started", "addr", s.Addr(), "servers", len(s.servers))
	return s, nil
}

// NewServer starts a server for test t and closes it when the test ends; it fails the test
// if the server cannot start.
func NewServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s, err := Start(opts...)
	if err != nil {
		t.Fatal(err)
	}
	s.tb = t
	t.Cleanup(func() { s.Close() })
	return s
}

// Addr returns the "127.0.0.1:port" of the first region server, the bootstrap server of a
// client: hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr())).
func (s *Server) Addr() string { return s.servers[0].addr() }

// NewClient returns a client of the server: hbase.NewClient with the server as its bootstrap
// server, then opts.
func (s *Server) NewClient(opts ...hbase.Option) (*hbase.Client, error) {
	return hbase.NewClient("", append([]hbase.Option{hbase.WithBootstrapServers(s.Addr())}, opts...)...)
}

// Close stops every region server, closing their connections, and waits for their
// goroutines. Clients of the server see their connections fail.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	var errs []error
	for _, rs := range s.servers {
		if rs.fs != nil {
			if err := rs.fs.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// now is the server's time in milliseconds.
func (s *Server) now() int64 { return s.clock().UnixMilli() }
