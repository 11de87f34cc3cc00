package engine

import (
	"bufio"
	"context"
	"encoding/binary"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// startLeanRegionServer serves table "t" (one region, through the fake cluster's hbase:meta)
// from a server that answers every call with msg and cells and allocates nothing per call:
// allocation counts of a Client against it are the client's own.
func startLeanRegionServer(tb testing.TB, msg proto.Message, cells []byte, opts ...Option) *Client {
	tb.Helper()
	metaAddr := startLeanServer(tb, msg, cells)
	c, err := NewClient("", append([]Option{withMetaLocator(func(context.Context) (string, error) { return metaAddr, nil }), WithServerLatency(false)}, opts...)...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	return c
}

// startLeanServer is startLeanRegionServer's servers: it returns the address of the fake
// cluster's hbase:meta.
func startLeanServer(tb testing.TB, msg proto.Message, cells []byte) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	wire, err := proto.Marshal(msg)
	if err != nil {
		tb.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Go(func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, nc)
			mu.Unlock()
			wg.Go(func() { serveLean(nc, wire, cells) })
		}
	})
	tb.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	fc := &fakeCluster{regions: []fakeRegion{{table: "t", id: 1, addr: ln.Addr().String()}}}
	srv, err := fakeserver.Start(fakeserver.Options{Handler: fc.handle})
	if err != nil {
		tb.Fatal(err)
	}
	fc.srv = srv
	tb.Cleanup(func() { srv.Close() })
	return srv.Addr()
}

// serveLean reads the preamble and the connection header, then answers each request frame
// with msg and cells under the request's call id.
func serveLean(nc net.Conn, msg, cells []byte) {
	br := bufio.NewReaderSize(nc, 64<<10)
	bw := bufio.NewWriterSize(nc, 64<<10)
	var pre [6]byte
	if _, err := io.ReadFull(br, pre[:]); err != nil {
		return
	}
	frame := make([]byte, 0, 4096)
	n := make([]byte, 4)
	readFrame := func() bool {
		if _, err := io.ReadFull(br, n); err != nil {
			return false
		}
		l := int(binary.BigEndian.Uint32(n))
		if cap(frame) < l {
			frame = make([]byte, l)
		}
		frame = frame[:l]
		_, err := io.ReadFull(br, frame)
		return err == nil
	}
	if !readFrame() { // connection header
		return
	}
	var meta, hdr [16]byte
	cbm := protowire.AppendVarint(protowire.AppendTag(meta[:0], 1, protowire.VarintType), uint64(len(cells)))
	out := make([]byte, 0, 64+len(msg)+len(cells))
	for readFrame() {
		h, n := protowire.ConsumeBytes(frame) // the RequestHeader
		if n < 0 {
			return
		}
		num, _, n := protowire.ConsumeTag(h)
		if n < 0 || num != 1 {
			return
		}
		id, _ := protowire.ConsumeVarint(h[n:])
		rh := protowire.AppendVarint(protowire.AppendTag(hdr[:0], 1, protowire.VarintType), id)
		rh = protowire.AppendBytes(protowire.AppendTag(rh, 3, protowire.BytesType), cbm)
		out = protowire.AppendBytes(out[:4], rh)
		out = protowire.AppendBytes(out, msg)
		out = append(out, cells...)
		binary.BigEndian.PutUint32(out, uint32(len(out)-4))
		bw.Write(out)
		if br.Buffered() == 0 && bw.Flush() != nil {
			return
		}
	}
}

// startLeanGetServer answers every call as a region server answers a Get of a one-cell row
// (associated_cell_count 1, stale false, the cell of 100 bytes in the cellblock).
func startLeanGetServer(tb testing.TB, row []byte, opts ...Option) *Client {
	cells := wire.AppendCell(nil, &wire.Cell{Row: row, Family: []byte("f"), Qualifier: []byte("q"),
		Timestamp: 1, Type: wire.CellTypePut, Value: make([]byte, 100)})
	return startLeanRegionServer(tb, &pb.GetResponse{Result: &pb.Result{AssociatedCellCount: proto.Int32(1), Stale: proto.Bool(false)}}, cells, opts...)
}

// TestGetAllocations: a Get through the whole Client (region cache, retry loop, region
// connection, response check and decoding) allocates twice: the response frame, which the
// result's cells alias and the caller owns, and the Result with its cell. Issue 15's bound is
// 6 per Get. A Timeline Get that its primary answers before the hedge delay allocates no more
// than a Strong one: its race and timer are recycled, and its primary's leg listens for the
// race's abort instead of a cancellable context made for each read.
func TestGetAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, cons := range []hrpc.ConsistencyLevel{hrpc.Strong, hrpc.Timeline} {
		t.Run(cons.String(), func(t *testing.T) {
			c := startLeanGetServer(t, []byte("row"))
			get, _ := hrpc.NewGet("t", []byte("row"), hrpc.Consistency(cons))
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			if _, err := c.Get(ctx, get); err != nil {
				t.Fatal(err)
			}
			if cons == hrpc.Timeline {
				r := c.cache.get([]byte("t"), []byte("row"))
				r.setReplicas([]*regionInfo{{table: r.table, start: r.start, end: r.end, name: []byte("t,,10001_0001"),
					id: r.id, replicaID: 1, addr: r.location()}})
			}
			allocs := testing.AllocsPerRun(500, func() {
				res, err := c.Get(ctx, get)
				if err != nil || len(res.Cells) != 1 {
					t.Fatal(res, err)
				}
			})
			if allocs > 2 {
				t.Errorf("a %s Get allocates %.1f times, want at most 2", cons, allocs)
			}
			if cons == hrpc.Timeline && c.Stats().HedgesSent > 5 {
				t.Errorf("%d hedges sent: the primary answers at once", c.Stats().HedgesSent)
			}
		})
	}
}

// BenchmarkClientGetLean: one Get at a time through a whole Client against a server that
// allocates nothing, so B/op and allocs/op are the client's.
func BenchmarkClientGetLean(b *testing.B) {
	c := startLeanGetServer(b, []byte("row"))
	get, _ := hrpc.NewGet("t", []byte("row"))
	ctx := b.Context()
	if _, err := c.Get(ctx, get); err != nil {
		b.Fatal(err)
	}
	b.Run("sequential", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.Get(ctx, get); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.SetParallelism(8)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := c.Get(ctx, get); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}
