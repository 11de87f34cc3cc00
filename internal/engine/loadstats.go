package engine

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pause"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
)

// Backpressure: a region server with hbase.client.backpressure.enabled set sends the load
// of each region a MultiRequest touched in the response (MultiResponse.regionStatistics:
// memstore load, heap occupancy, compaction pressure, each a percentage). With
// WithBackpressure the client keeps the latest figures per server and region and delays the
// next writes to a loaded region, as the Java client's ExponentialClientBackoffPolicy does.

// Heap occupancy above the low watermark counts as load, scaled from 0.1 at the low mark to
// 1 at the high one (HBase's hbase.heap.occupancy.low_water_mark and high_water_mark
// defaults, which the Java policy reads).
const (
	heapLowWatermark  = 0.95
	heapHighWatermark = 0.98
)

// loadStatsTTL is how long a region's figures stand without a newer response. The Java
// client keeps them until replaced; single mutations (Mutate RPCs) carry none, so without an
// age limit a region seen loaded once would delay every later single write to it.
const loadStatsTTL = 5 * time.Second

// loadTracker keeps the latest load figures per region server (address) and region name.
type loadTracker struct {
	servers sync.Map // string → *serverLoad
}

type serverLoad struct {
	mu      sync.Mutex
	regions map[string]regionLoad
}

// regionLoad is one region's figures, percentages clamped to [0, 100].
type regionLoad struct {
	memstore, heap, compaction int32
	at                         time.Time
}

// noteLoad keeps the region statistics of a MultiResponse from conn's server.
func (c *Client) noteLoad(conn *region.Client, resp *pb.MultiResponse) {
	if c.opts.BackpressureMax <= 0 {
		return
	}
	st := resp.GetRegionStatistics()
	if st == nil || len(st.GetRegion()) == 0 {
		return
	}
	addr := conn.Addr()
	v, ok := c.load.servers.Load(addr)
	if !ok {
		v, _ = c.load.servers.LoadOrStore(addr, &serverLoad{regions: make(map[string]regionLoad)})
	}
	sl := v.(*serverLoad)
	now := time.Now()
	sl.mu.Lock()
	defer sl.mu.Unlock()
	for i, spec := range st.GetRegion() {
		if i >= len(st.GetStat()) {
			break // a malformed response: figures for fewer regions than it names
		}
		s := st.GetStat()[i]
		sl.regions[string(spec.GetValue())] = regionLoad{
			memstore:   percent(s.GetMemStoreLoad()),
			heap:       percent(s.GetHeapOccupancy()),
			compaction: percent(s.GetCompactionPressure()),
			at:         now,
		}
	}
}

func percent(v int32) int32 { return min(max(v, 0), 100) }

// loadDelay is how long the next write to region on the server at addr waits: 0 without
// fresh figures.
func (c *Client) loadDelay(addr string, region []byte, now time.Time) time.Duration {
	v, ok := c.load.servers.Load(addr)
	if !ok {
		return 0
	}
	sl := v.(*serverLoad)
	sl.mu.Lock()
	l, ok := sl.regions[string(region)]
	sl.mu.Unlock()
	if !ok || now.Sub(l.at) > loadStatsTTL {
		return 0
	}
	return backpressureDelay(l, c.opts.BackpressureMax)
}

// backpressureDelay is ExponentialClientBackoffPolicy.getBackoffTime's arithmetic.
func backpressureDelay(l regionLoad, maxDelay time.Duration) time.Duration {
	p := float64(l.memstore) / 100
	heap := float64(l.heap) / 100
	if heap >= heapLowWatermark {
		heap = min(heap, heapHighWatermark)
		p = max(p, 0.1+(1-0.1)*(heap-heapLowWatermark)/(heapHighWatermark-heapLowWatermark))
	}
	p = max(p, float64(l.compaction)/100)
	return time.Duration(min(math.Pow(p, 4), 1) * float64(maxDelay))
}

// paceWrite delays a single call that writes (any method but Get) to region r on conn for
// the load its server reported; it returns an error only when ctx ends meanwhile.
func (c *Client) paceWrite(ctx context.Context, r *regionInfo, conn *region.Client, call wire.Call) error {
	if c.opts.BackpressureMax <= 0 || call.Method() == "Get" {
		return nil
	}
	return c.holdWrite(ctx, conn.Addr(), c.loadDelay(conn.Addr(), r.name, time.Now()))
}

// paceBatch delays one server's MultiRequest holding mutations for the most loaded of the
// regions it writes to.
func (c *Client) paceBatch(ctx context.Context, sb *serverBatch, calls []hrpc.Batchable) error {
	if c.opts.BackpressureMax <= 0 {
		return nil
	}
	var d time.Duration
	now := time.Now()
	for _, r := range sb.regions {
		for _, i := range sb.actions[r] {
			if wireOf(calls[i]).Method() != "Get" {
				d = max(d, c.loadDelay(sb.conn.Addr(), r.name, now))
				break
			}
		}
	}
	return c.holdWrite(ctx, sb.conn.Addr(), d)
}

// holdWrite waits d (when positive) before a write to addr, or until ctx ends.
func (c *Client) holdWrite(ctx context.Context, addr string, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	if c.Hooks != nil && c.Hooks.Backoff != nil {
		c.Hooks.Backoff(ctx, hbasetrace.BackoffInfo{Pause: d, Backpressure: true, Server: addr})
	}
	start := time.Now()
	err := pause.Sleep(ctx, d)
	c.stats.backpressureDelays.Add(1)
	c.stats.backpressureNanos.Add(uint64(time.Since(start)))
	if err != nil {
		return &hberr.RetryError{Err: err, Last: fmt.Errorf("%w: a write held %v for the load %s reports (hbase.WithBackpressure)",
			errBackpressure, d, addr)}
	}
	return nil
}
