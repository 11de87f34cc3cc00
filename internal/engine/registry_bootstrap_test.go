package engine

import (
	"errors"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/testkit"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// fakeRegistry is a ClientMetaService that puts hbase:meta on meta, its replica i+1 on
// replicas[i] (listed first; "": a replica without a server) and reports nodes as the
// bootstrap servers.
func fakeRegistry(t *testing.T, meta string, nodes []string, asked *atomic.Int64, replicas ...string) *fakeserver.Server {
	t.Helper()
	sn := func(addr string) *pb.ServerName {
		host, port, _ := net.SplitHostPort(addr)
		p, _ := strconv.Atoi(port)
		return &pb.ServerName{HostName: proto.String(host), Port: proto.Uint32(uint32(p))}
	}
	srv, err := fakeserver.Start(fakeserver.Options{Handler: func(r *fakeserver.Request) fakeserver.Response {
		if svc := r.Conn.Header().GetServiceName(); svc != wire.RegistryService {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", "service "+svc)}
		}
		switch r.Method {
		case wire.MethodGetMetaRegionLocations:
			asked.Add(1)
			resp := &pb.GetMetaRegionLocationsResponse{}
			for i, addr := range append(slices.Clone(replicas), meta) {
				id := int32(i + 1)
				if i == len(replicas) {
					id = 0
				}
				loc := &pb.RegionLocation{RegionInfo: &pb.RegionInfo{RegionId: proto.Uint64(1), TableName: &pb.TableName{Namespace: []byte("hbase"), Qualifier: []byte("meta")}, ReplicaId: proto.Int32(id)}, SeqNum: proto.Int64(1)}
				if addr != "" {
					loc.ServerName = sn(addr)
				}
				resp.MetaLocations = append(resp.MetaLocations, loc)
			}
			return fakeserver.Response{Msg: resp}
		case wire.MethodGetBootstrapNodes:
			resp := &pb.GetBootstrapNodesResponse{}
			for _, n := range nodes {
				resp.ServerName = append(resp.ServerName, sn(n))
			}
			return fakeserver.Response{Msg: resp}
		}
		return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", "unsupported "+r.Method)}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// The client finds hbase:meta (the primary replica's server) through the first bootstrap
// server that answers, skipping a dead one, and learns the servers that one reports.
func TestBootstrapRegistryLocatesMeta(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	var asked atomic.Int64
	other := testkit.DeadAddr(t)
	reg := fakeRegistry(t, fc.srv.Addr(), []string{other}, &asked, "127.0.0.1:1")
	dead := testkit.DeadAddr(t)
	c, err := NewClient("", WithBootstrapServers(dead, reg.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	get, err := hrpc.NewGet("t", []byte("row"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(testContext(t, 10*time.Second), get); err != nil {
		t.Fatalf("Get through the bootstrap registry: %v", err)
	}
	if asked.Load() != 1 || fc.metaScans.Load() != 1 {
		t.Errorf("registry asked %d times, meta scanned %d times; want 1 and 1", asked.Load(), fc.metaScans.Load())
	}
	b := c.Reg.(*bootstrapRegistry)
	b.mu.Lock()
	servers := strings.Join(b.servers, ",")
	b.mu.Unlock()
	if want := reg.Addr() + "," + other + "," + dead; servers != want {
		t.Errorf("bootstrap servers after the lookup = %s; want %s (the one that answered, those it reported, the configured)", servers, want)
	}
}

// No bootstrap server answering is an error naming them, wrapping hberr.ErrBootstrapUnreachable.
func TestBootstrapRegistryUnreachable(t *testing.T) {
	a, b := testkit.DeadAddr(t), testkit.DeadAddr(t)
	c, err := NewClient("", WithBootstrapServers(a, b), WithRegionLookupTimeout(500*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	get, _ := hrpc.NewGet("t", []byte("row"))
	_, err = c.Get(testContext(t, 2*time.Second), get)
	if !errors.Is(err, hberr.ErrBootstrapUnreachable) || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), b) {
		t.Fatalf("err = %v; want hberr.ErrBootstrapUnreachable naming %s and %s", err, a, b)
	}
}

func TestBootstrapServersOption(t *testing.T) {
	for _, c := range []struct {
		quorum string
		opts   []Option
	}{
		{"zk:2181", []Option{WithBootstrapServers("rs:16020")}}, // both
		{"", []Option{WithBootstrapServers()}},
		{"", []Option{WithBootstrapServers("rs")}}, // no port
	} {
		if cl, err := NewClient(c.quorum, c.opts...); err == nil {
			cl.Close()
			t.Errorf("NewClient(%q, ...) succeeded", c.quorum)
		}
	}
}

// With WithBootstrapServers, WithMetaReplicaLookups learns hbase:meta's replicas from one
// GetMetaRegionLocations answer (replica 2 has no server: skipped, replica 3 keeps its id) and
// spreads the lookups over them.
func TestBootstrapRegistryMetaReplicas(t *testing.T) {
	var regions []fakeRegion
	for i, start := range []string{"", "b", "c", "d", "e", "f", "g", "h"} {
		end := ""
		if i < 7 {
			end = string(rune('b' + i))
		}
		regions = append(regions, fakeRegion{table: "t", start: start, end: end, id: uint64(i + 1)})
	}
	primary := newFakeCluster(t, regions...)
	var replicas [2]*fakeCluster
	var mu sync.Mutex
	names := map[string]int{} // region names the replicas were scanned by
	for i := range replicas {
		replicas[i] = newFakeCluster(t, regions...)
		for j := range replicas[i].regions {
			replicas[i].regions[j].addr = primary.srv.Addr()
		}
		replicas[i].beforeMeta = func(r *fakeserver.Request) {
			var req pb.ScanRequest
			if r.Unmarshal(&req) == nil && req.Region != nil {
				mu.Lock()
				names[replicas[i].srv.Addr()+" "+string(req.Region.GetValue())]++
				mu.Unlock()
			}
		}
	}
	var asked atomic.Int64
	reg := fakeRegistry(t, primary.srv.Addr(), nil, &asked, replicas[0].srv.Addr(), "", replicas[1].srv.Addr())
	c, err := NewClient("", WithBootstrapServers(reg.Addr()), WithMetaReplicaLookups())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := testContext(t, 10*time.Second)
	get := func(row string) {
		t.Helper()
		g, _ := hrpc.NewGet("t", []byte(row))
		if _, err := c.Get(ctx, g); err != nil {
			t.Fatalf("Get %q: %v", row, err)
		}
	}
	get("a0")
	reps := waitReplicas(t, c, 2, 5*time.Second)
	want := []metaReplica{{1, replicas[0].srv.Addr()}, {3, replicas[1].srv.Addr()}}
	if !slices.Equal(reps, want) {
		t.Fatalf("replicas %v; want %v", reps, want)
	}
	if n := asked.Load(); n != 2 {
		t.Errorf("GetMetaRegionLocations asked %d times; want 2 (hbase:meta, then all its replicas at once)", n)
	}
	for _, row := range []string{"b0", "c0", "d0", "e0", "f0", "g0"} {
		get(row)
	}
	onReplicas := replicas[0].metaScans.Load() + replicas[1].metaScans.Load()
	if replicas[0].metaScans.Load() == 0 || replicas[1].metaScans.Load() == 0 || c.metaReplicaRPCs.Load() != onReplicas {
		t.Fatalf("replica lookups: %d and %d scans, %d counted", replicas[0].metaScans.Load(), replicas[1].metaScans.Load(), c.metaReplicaRPCs.Load())
	}
	mu.Lock()
	defer mu.Unlock()
	for name := range names {
		if name != replicas[0].srv.Addr()+" hbase:meta,,1_0001" && name != replicas[1].srv.Addr()+" hbase:meta,,1_0003" {
			t.Errorf("a replica was scanned as %q", name)
		}
	}
	t.Logf("hbase:meta scans: primary %d, replica 1 %d, replica 3 %d; registry asked %d times",
		primary.metaScans.Load(), replicas[0].metaScans.Load(), replicas[1].metaScans.Load(), asked.Load())
}
