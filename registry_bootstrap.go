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
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/pb"
	"github.com/go-hbase/hbase/region"
)

// bootstrapRefresh is how often the list of bootstrap servers is asked for again (HBase's
// hbase.client.bootstrap.refresh_interval_secs default).
const bootstrapRefresh = 5 * time.Minute

// ErrBootstrapUnreachable is wrapped by the error of a meta lookup that no bootstrap server
// answered (WithBootstrapServers); the error also wraps each server's error.
var ErrBootstrapUnreachable = errors.New("hbase: no bootstrap server answered")

// bootstrapRegistry finds hbase:meta by asking the servers' connection registry
// (ClientMetaService, HBase 2.5+), trying the known bootstrap servers in turn. After a
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
	for _, addr := range servers {
		conn, err := b.conn(ctx, addr)
		if err == nil {
			resp := &pb.GetMetaRegionLocationsResponse{}
			if _, err = conn.Call(ctx, hrpc.MethodGetMetaRegionLocations, hrpc.MetaLocationsRequest(), nil, resp); err == nil {
				var meta string
				if meta, err = hrpc.PrimaryMetaServer(resp); err == nil {
					b.answered(ctx, addr, conn)
					return meta, nil
				}
			}
		}
		if ctx.Err() != nil {
			return "", context.Cause(ctx)
		}
		if re, ok := errors.AsType[*hberr.RemoteError](err); ok && strings.HasSuffix(re.Class, "UnknownServiceException") {
			err = fmt.Errorf("%w (the server has no connection registry: region servers serve it from HBase 2.5, masters from 2.3)", err)
		}
		errs = append(errs, fmt.Errorf("%s: %w", addr, err))
	}
	return "", fmt.Errorf("%w (%s): %w", ErrBootstrapUnreachable, strings.Join(servers, ","), errors.Join(errs...))
}

// LocateMaster asks the bootstrap servers in turn for the active master.
func (b *bootstrapRegistry) LocateMaster(ctx context.Context) (string, error) {
	b.mu.Lock()
	servers := slices.Clone(b.servers)
	b.mu.Unlock()
	var errs []error
	for _, addr := range servers {
		conn, err := b.conn(ctx, addr)
		if err == nil {
			resp := &pb.GetActiveMasterResponse{}
			if _, err = conn.Call(ctx, hrpc.MethodGetActiveMaster, hrpc.ActiveMasterRequest(), nil, resp); err == nil {
				if resp.ServerName == nil {
					err = errors.New("no active master now")
				} else {
					return hrpc.ServerAddr(resp.ServerName)
				}
			}
		}
		if ctx.Err() != nil {
			return "", context.Cause(ctx)
		}
		errs = append(errs, fmt.Errorf("%s: %w", addr, err))
	}
	return "", fmt.Errorf("%w (%s): %w", ErrBootstrapUnreachable, strings.Join(servers, ","), errors.Join(errs...))
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
		if _, err := conn.Call(ctx, hrpc.MethodGetBootstrapNodes, hrpc.BootstrapNodesRequest(), nil, resp); err == nil {
			list = append(list, hrpc.ServerAddrs(resp)...)
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

// conn returns the registry connection to addr, dialling it when there is none or it died.
// Lookups are rare (once per client and after meta moves), so dials are not shared.
func (b *bootstrapRegistry) conn(ctx context.Context, addr string) (*region.Client, error) {
	b.mu.Lock()
	conn := b.conns[addr]
	b.mu.Unlock()
	if conn != nil && !isDead(conn) {
		return conn, nil
	}
	conn, err := region.Dial(ctx, addr, append(b.c.connOptions(), region.WithService(hrpc.RegistryService))...)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if old := b.conns[addr]; old != nil && !isDead(old) {
		conn.Close() // another lookup dialled meanwhile
		return old, nil
	}
	b.conns[addr] = conn
	return conn, nil
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
