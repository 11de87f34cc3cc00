package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pause"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
)

// bootstrapRefresh is how often the list of bootstrap servers is asked for again (HBase's
// hbase.client.bootstrap.refresh_interval_secs default).
const bootstrapRefresh = 5 * time.Minute

// bootstrapRegistry finds hbase:meta by asking the servers' connection registry
// (ClientMetaService: region servers from HBase 2.5, masters from 2.3), trying the known bootstrap servers in turn. After a
// success it refreshes the list from the server that answered now and then, keeping the
// configured servers as the last resort.
type bootstrapRegistry struct {
	c          *Client
	configured []string

	mu        sync.Mutex
	servers   []string // the list to try, the last server that answered first
	conns     map[string]*region.Client
	refreshed time.Time
	waiting   map[string]time.Time // servers a lookup waits for, since when (pending)
}

func newBootstrapRegistry(c *Client, servers []string) *bootstrapRegistry {
	return &bootstrapRegistry{c: c, configured: servers, servers: slices.Clone(servers),
		conns: make(map[string]*region.Client), waiting: make(map[string]time.Time)}
}

func (b *bootstrapRegistry) LocateMeta(ctx context.Context) (string, error) {
	var meta string
	err := b.locate(ctx, func(resp *pb.GetMetaRegionLocationsResponse) (err error) {
		meta, err = wire.PrimaryMetaServer(resp)
		return err
	})
	return meta, err
}

// LocateMetaReplicas returns the servers of hbase:meta's secondary replicas (servers[i] holds
// replica i+1, "" when it has none now) for WithMetaReplicaLookups: the same
// GetMetaRegionLocations answer as LocateMeta's lists them all, so one call to one bootstrap
// server reads every replica.
func (b *bootstrapRegistry) LocateMetaReplicas(ctx context.Context) ([]string, error) {
	var servers []string
	err := b.locate(ctx, func(resp *pb.GetMetaRegionLocationsResponse) (err error) {
		servers, err = wire.MetaReplicaServers(resp, maxMetaReplicas)
		return err
	})
	return servers, err
}

// locate asks the bootstrap servers in turn where hbase:meta's replicas are, until one answers
// what read takes (an answer read refuses counts as that server's failure).
func (b *bootstrapRegistry) locate(ctx context.Context, read func(*pb.GetMetaRegionLocationsResponse) error) error {
	b.mu.Lock()
	servers := slices.Clone(b.servers)
	b.mu.Unlock()
	var errs []error
	settled := 0
	for i, addr := range servers {
		err := b.locateAt(ctx, addr, len(servers)-i, read)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			// The servers asked so far, the last one cut short.
			asked := servers[:i+1]
			errs = append(errs, fmt.Errorf("%s: %w", addr, err))
			return CtxErr(ctx, fmt.Errorf("%w (%s): %w", hberr.ErrBootstrapUnreachable, strings.Join(asked, ","), errors.Join(errs...)))
		}
		if err = b.c.configError(err); errors.Is(err, hberr.ErrConfiguration) || errors.Is(err, errNoRegistry) {
			settled++
		}
		errs = append(errs, fmt.Errorf("%s: %w", addr, err))
	}
	err := fmt.Errorf("%w (%s): %w", hberr.ErrBootstrapUnreachable, strings.Join(servers, ","), errors.Join(errs...))
	if settled == len(servers) {
		// Every server is of a kind no retry changes (no registry, TLS where the client is
		// plaintext...): the callers waiting for hbase:meta get this error at once (failFast).
		return misconfigured{err}
	}
	return err
}

// errNoRegistry is wrapped by the error of a bootstrap server that does not serve the
// connection registry.
var errNoRegistry = errors.New("the server has no connection registry: region servers serve it from HBase 2.5, masters from 2.3")

// minServerWait is the least time one bootstrap server is given to answer when the lookup's
// time is shared among several.
const minServerWait = time.Second

// locateAt asks one bootstrap server where hbase:meta's replicas are, giving it its share of
// what is left of ctx (left servers still to ask, itself included), so that a silent server
// leaves time for the others. A server without ClientMetaService either answers
// UnknownServiceException or, like HBase 2.4 region servers, resets the connection after
// reading its header, before any call: a new connection that dies on its first call without
// an answer is tried once more, and dying again the same way counts as no registry.
func (b *bootstrapRegistry) locateAt(ctx context.Context, addr string, left int, read func(*pb.GetMetaRegionLocationsResponse) error) error {
	if dl, ok := ctx.Deadline(); ok && left > 1 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, max(time.Until(dl)/time.Duration(left), minServerWait))
		defer cancel()
	}
	b.asking(addr, true)
	defer b.asking(addr, false)
	start := time.Now()
	err := b.ask(ctx, addr, read)
	if err != nil && ctx.Err() != nil {
		// Not the context's error: the caller would take it for its own deadline.
		err = fmt.Errorf("no answer in %v", time.Since(start).Round(time.Millisecond))
	}
	return err
}

// ask is locateAt's exchange with addr.
func (b *bootstrapRegistry) ask(ctx context.Context, addr string, read func(*pb.GetMetaRegionLocationsResponse) error) error {
	for attempt := 1; ; attempt++ {
		conn, fresh, err := b.conn(ctx, addr)
		if re, ok := errors.AsType[*redialError](err); ok && attempt == 2 {
			// The second try is deliberate: it waits out the pause after the first
			// connection's failure (dialgate.go), the shortest one.
			if err := pause.Sleep(ctx, re.wait); err != nil {
				return err
			}
			conn, fresh, err = b.conn(ctx, addr)
		}
		if err != nil {
			return err
		}
		resp := &pb.GetMetaRegionLocationsResponse{}
		if _, err = conn.Call(ctx, wire.MethodGetMetaRegionLocations, wire.MetaLocationsRequest(), nil, resp); err == nil {
			if err := read(resp); err != nil {
				return err
			}
			b.answered(ctx, addr, conn)
			return nil
		}
		if re, ok := errors.AsType[*hberr.RemoteError](err); ok && strings.HasSuffix(re.Class, "UnknownServiceException") {
			return fmt.Errorf("%w (%w)", err, errNoRegistry)
		}
		if !fresh || !errors.Is(err, region.ErrNoAnswer) || ctx.Err() != nil {
			return err
		}
		if attempt == 2 {
			return fmt.Errorf("%w (twice on a new connection: it is no HBase server, or %w)", err, errNoRegistry)
		}
	}
}

// asking notes that a lookup is waiting for addr (on), or no longer (!on), for pending.
func (b *bootstrapRegistry) asking(addr string, on bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if on {
		b.waiting[addr] = time.Now()
	} else {
		delete(b.waiting, addr)
	}
}

// pending describes the servers a lookup is waiting for now, as the error of a lookup that
// would end now: a caller whose context ends while a bootstrap server is silent learns which,
// and for how long, rather than a bare deadline. It is nil when no lookup waits.
func (b *bootstrapRegistry) pending() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.waiting) == 0 {
		return nil
	}
	addrs := slices.Sorted(maps.Keys(b.waiting))
	errs := make([]error, 0, len(addrs))
	for _, addr := range addrs {
		errs = append(errs, fmt.Errorf("%s: no answer in %v", addr, time.Since(b.waiting[addr]).Round(time.Millisecond)))
	}
	return fmt.Errorf("%w (%s): %w", hberr.ErrBootstrapUnreachable, strings.Join(addrs, ","), errors.Join(errs...))
}

// LocateMaster asks the bootstrap servers in turn for the active master.
func (b *bootstrapRegistry) LocateMaster(ctx context.Context) (string, error) {
	b.mu.Lock()
	servers := slices.Clone(b.servers)
	b.mu.Unlock()
	var errs []error
	for _, addr := range servers {
		conn, _, err := b.conn(ctx, addr)
		if err == nil {
			resp := &pb.GetActiveMasterResponse{}
			if _, err = conn.Call(ctx, wire.MethodGetActiveMaster, wire.ActiveMasterRequest(), nil, resp); err == nil {
				if resp.ServerName == nil {
					err = errors.New("no active master now")
				} else {
					return wire.ServerAddr(resp.ServerName)
				}
			}
		}
		if ctx.Err() != nil {
			return "", context.Cause(ctx)
		}
		errs = append(errs, fmt.Errorf("%s: %w", addr, err))
	}
	return "", fmt.Errorf("%w (%s): %w", hberr.ErrBootstrapUnreachable, strings.Join(servers, ","), errors.Join(errs...))
}

// answered puts addr first and, when the list is due for a refresh, replaces it with the
// bootstrap nodes addr reports (plus the configured ones).
func (b *bootstrapRegistry) answered(ctx context.Context, addr string, conn *region.Client) {
	b.mu.Lock()
	due := time.Since(b.refreshed) > bootstrapRefresh
	b.mu.Unlock()
	list := []string{addr}
	if due {
		resp := &pb.GetBootstrapNodesResponse{}
		if _, err := conn.Call(ctx, wire.MethodGetBootstrapNodes, wire.BootstrapNodesRequest(), nil, resp); err == nil {
			list = append(list, wire.ServerAddrs(resp)...)
		} else {
			b.c.Log.Debug("hbase: refreshing the bootstrap servers failed", "server", addr, "err", err)
			due = false
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if due {
		b.refreshed = time.Now()
	} else {
		list = append(list, b.servers...)
	}
	list = append(list, b.configured...)
	b.servers = dedupe(list)
}

func dedupe(list []string) []string {
	out := list[:0]
	seen := make(map[string]bool, len(list))
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// conn returns the registry connection to addr, dialling it when there is none or it died;
// fresh says it was dialled now. Lookups are rare (once per client and after meta moves), so
// dials are not shared.
func (b *bootstrapRegistry) conn(ctx context.Context, addr string) (conn *region.Client, fresh bool, err error) {
	b.mu.Lock()
	conn = b.conns[addr]
	b.mu.Unlock()
	if conn != nil && !IsDead(conn) {
		return conn, false, nil
	}
	conn, err = b.c.DialServer(ctx, addr, append(b.c.ConnOptions(), region.WithService(wire.RegistryService)))
	if err != nil {
		return nil, false, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if old := b.conns[addr]; old != nil && !IsDead(old) {
		conn.Close() // another lookup dialled meanwhile
		return old, false, nil
	}
	b.conns[addr] = conn
	return conn, true, nil
}

func (b *bootstrapRegistry) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, conn := range b.conns {
		conn.Close()
	}
	clear(b.conns)
	return nil
}
