package hbase

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-hbase/hbase/hberr"
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
}

func newBootstrapRegistry(c *Client, servers []string) *bootstrapRegistry {
	return &bootstrapRegistry{c: c, configured: servers, servers: slices.Clone(servers), conns: make(map[string]*region.Client)}
}

func (b *bootstrapRegistry) LocateMeta(ctx context.Context) (string, error) {
	b.mu.Lock()
	servers := slices.Clone(b.servers)
	b.mu.Unlock()
	var errs []error
	lacking := 0
	for _, addr := range servers {
		meta, err := b.locateAt(ctx, addr)
		if err == nil {
			return meta, nil
		}
		if ctx.Err() != nil {
			return "", context.Cause(ctx)
		}
		if errors.Is(err, errNoRegistry) {
			lacking++
		}
		errs = append(errs, fmt.Errorf("%s: %w", addr, err))
	}
	err := fmt.Errorf("%w (%s): %w", hberr.ErrBootstrapUnreachable, strings.Join(servers, ","), errors.Join(errs...))
	if lacking == len(servers) {
		// Servers of a version without the registry stay so: no retry helps, and the
		// callers waiting for hbase:meta get this error at once (failFast).
		return "", misconfigured{err}
	}
	return "", err
}

// errNoRegistry is wrapped by the error of a bootstrap server that does not serve the
// connection registry.
var errNoRegistry = errors.New("the server has no connection registry: region servers serve it from HBase 2.5, masters from 2.3")

// locateAt asks one bootstrap server where hbase:meta is. A server without ClientMetaService
// either answers UnknownServiceException or, like HBase 2.4 region servers, resets the
// connection after reading its header, before any call: a new connection that dies on its
// first call is tried once more, and dying again the same way counts as no registry.
func (b *bootstrapRegistry) locateAt(ctx context.Context, addr string) (string, error) {
	for attempt := 1; ; attempt++ {
		conn, fresh, err := b.conn(ctx, addr)
		if err != nil {
			return "", err
		}
		resp := &pb.GetMetaRegionLocationsResponse{}
		if _, err = conn.Call(ctx, wire.MethodGetMetaRegionLocations, wire.MetaLocationsRequest(), nil, resp); err == nil {
			meta, err := wire.PrimaryMetaServer(resp)
			if err != nil {
				return "", err
			}
			b.answered(ctx, addr, conn)
			return meta, nil
		}
		if re, ok := errors.AsType[*hberr.RemoteError](err); ok && strings.HasSuffix(re.Class, "UnknownServiceException") {
			return "", fmt.Errorf("%w (%w)", err, errNoRegistry)
		}
		if !fresh || !errors.Is(err, hberr.ErrConnection) || ctx.Err() != nil {
			return "", err
		}
		if attempt == 2 {
			return "", fmt.Errorf("%w (twice on a new connection, before any answer: %w)", err, errNoRegistry)
		}
	}
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
			b.c.log.Debug("hbase: refreshing the bootstrap servers failed", "server", addr, "err", err)
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
	if conn != nil && !isDead(conn) {
		return conn, false, nil
	}
	conn, err = region.Dial(ctx, addr, append(b.c.connOptions(), region.WithService(wire.RegistryService))...)
	if err != nil {
		return nil, false, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if old := b.conns[addr]; old != nil && !isDead(old) {
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
