package engine

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/internal/histogram"
)

// opKind indexes the latency histograms of one server by operation.
type opKind uint8

const (
	kindGet opKind = iota
	kindPut
	kindDelete
	kindAppend
	kindIncrement
	kindCheckAndMutate
	kindMutateRow
	kindScan
	kindBatch // each MultiRequest of a SendBatch
	kindOther
	numKinds
)

var kindNames = [numKinds]string{"Get", "Put", "Delete", "Append", "Increment", "CheckAndMutate",
	"MutateRow", "Scan", batchOp, "Other"}

func kindOf(op string) opKind {
	switch op {
	case "Get":
		return kindGet
	case "Put":
		return kindPut
	case "Delete":
		return kindDelete
	case "Append":
		return kindAppend
	case "Increment":
		return kindIncrement
	case "CheckAndMutate":
		return kindCheckAndMutate
	case "MutateRow":
		return kindMutateRow
	case "Scan":
		return kindScan
	case batchOp:
		return kindBatch
	}
	return kindOther
}

// Latencies are recorded in microseconds from 1 µs to 10 minutes with 2 significant digits
// (percentiles within 0.78%): about 14 KB per histogram, made on a server's first RPC of a
// kind.
const (
	latencyMin    = 1
	latencyMax    = int64(10 * time.Minute / time.Microsecond)
	latencyDigits = 2
)

// latencies are the histograms of RPC latency per region server and operation kind.
// Recording reads the server map without writing to shared memory (sync.Map) and takes the
// histogram's own mutex, so callers of different servers or kinds do not contend.
type latencies struct {
	servers sync.Map // host:port -> *serverLatency
}

type serverLatency struct {
	kinds [numKinds]kindLatency
}

type kindLatency struct {
	mu sync.Mutex
	h  *histogram.Histogram
}

func newLatencies() *latencies { return &latencies{} }

func (l *latencies) record(addr string, k opKind, d time.Duration) {
	v, ok := l.servers.Load(addr)
	if !ok {
		v, _ = l.servers.LoadOrStore(addr, &serverLatency{})
	}
	s := v.(*serverLatency)
	us := max(int64(d/time.Microsecond), latencyMin)
	kl := &s.kinds[k]
	kl.mu.Lock()
	if kl.h == nil {
		kl.h = histogram.New(latencyMax, latencyDigits)
	}
	kl.h.Record(us) // clamped to latencyMax
	kl.mu.Unlock()
}

// ServerLatency returns the latency of every RPC the client sent to region servers, per
// server and kind of operation, sorted by server then operation: a server slower than the
// others stands out. Each attempt is one RPC: a call retried on another server counts on
// both. It is nil when latency is not kept (WithServerLatency(false)).
func (c *Client) ServerLatency() []hbasetrace.ServerLatency {
	if c.lat == nil {
		return nil
	}
	var addrs []string
	var servers []*serverLatency
	for a, s := range c.lat.servers.Range {
		addrs, servers = append(addrs, a.(string)), append(servers, s.(*serverLatency))
	}
	var out []hbasetrace.ServerLatency
	us := func(v int64) time.Duration { return time.Duration(v) * time.Microsecond }
	for i, s := range servers {
		for k := range s.kinds {
			kl := &s.kinds[k]
			kl.mu.Lock()
			if kl.h != nil && kl.h.Count() > 0 {
				h := kl.h
				out = append(out, hbasetrace.ServerLatency{Server: addrs[i], Op: kindNames[k], Count: h.Count(),
					Mean: time.Duration(h.Mean() * float64(time.Microsecond)),
					P50:  us(h.Percentile(50)), P90: us(h.Percentile(90)),
					P99: us(h.Percentile(99)), P999: us(h.Percentile(99.9)), Max: us(h.Max())})
			}
			kl.mu.Unlock()
		}
	}
	slices.SortFunc(out, func(a, b hbasetrace.ServerLatency) int {
		return cmp.Or(cmp.Compare(a.Server, b.Server), cmp.Compare(a.Op, b.Op))
	})
	return out
}

// ResetServerLatency empties the latency histograms, to measure a new period (a benchmark
// after its warm-up).
func (c *Client) ResetServerLatency() {
	if c.lat == nil {
		return
	}
	for _, v := range c.lat.servers.Range {
		s := v.(*serverLatency)
		for k := range s.kinds {
			kl := &s.kinds[k]
			kl.mu.Lock()
			if kl.h != nil {
				kl.h.Reset()
			}
			kl.mu.Unlock()
		}
	}
}
