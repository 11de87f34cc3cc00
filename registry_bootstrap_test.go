package hbase

import (
	"errors"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// fakeRegistry is a ClientMetaService that puts hbase:meta on meta and reports nodes as the
// bootstrap servers.
func fakeRegistry(t *testing.T, meta string, nodes []string, asked *atomic.Int64) *fakeserver.Server {
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
			return fakeserver.Response{Msg: &pb.GetMetaRegionLocationsResponse{MetaLocations: []*pb.RegionLocation{
				{RegionInfo: &pb.RegionInfo{RegionId: proto.Uint64(1), TableName: &pb.TableName{Namespace: []byte("hbase"), Qualifier: []byte("meta")}, ReplicaId: proto.Int32(1)}, ServerName: sn("127.0.0.1:1"), SeqNum: proto.Int64(1)},
				{RegionInfo: &pb.RegionInfo{RegionId: proto.Uint64(1), TableName: &pb.TableName{Namespace: []byte("hbase"), Qualifier: []byte("meta")}}, ServerName: sn(meta), SeqNum: proto.Int64(1)},
			}}}
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

// deadAddr returns an address nothing listens on.
func deadAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// The client finds hbase:meta (the primary replica's server) through the first bootstrap
// server that answers, skipping a dead one, and learns the servers that one reports.
func TestBootstrapRegistryLocatesMeta(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	var asked atomic.Int64
	other := deadAddr(t)
	reg := fakeRegistry(t, fc.srv.Addr(), []string{other}, &asked)
	dead := deadAddr(t)
	c, err := NewClient("", WithBootstrapServers(dead, reg.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	get, err := hrpc.NewGet([]byte("t"), []byte("row"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(testContext(t, 10*time.Second), get); err != nil {
		t.Fatalf("Get through the bootstrap registry: %v", err)
	}
	if asked.Load() != 1 || fc.metaScans.Load() != 1 {
		t.Errorf("registry asked %d times, meta scanned %d times; want 1 and 1", asked.Load(), fc.metaScans.Load())
	}
	b := c.reg.(*bootstrapRegistry)
	b.mu.Lock()
	servers := strings.Join(b.servers, ",")
	b.mu.Unlock()
	if want := reg.Addr() + "," + other + "," + dead; servers != want {
		t.Errorf("bootstrap servers after the lookup = %s; want %s (the one that answered, those it reported, the configured)", servers, want)
	}
}

// No bootstrap server answering is an error naming them, wrapping hberr.ErrBootstrapUnreachable.
func TestBootstrapRegistryUnreachable(t *testing.T) {
	a, b := deadAddr(t), deadAddr(t)
	c, err := NewClient("", WithBootstrapServers(a, b), WithRegionLookupTimeout(500*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	get, _ := hrpc.NewGet([]byte("t"), []byte("row"))
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
