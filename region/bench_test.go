package region

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/cputime"
	"github.com/go-hbase/hbase/internal/pb"
)

// benchGets runs Gets through one client, sequentially and from parallel goroutines.
func benchGets(b *testing.B, addr string) {
	c := dialT(b, addr)
	ctx := context.Background()
	req := getRequest("row-0001")
	b.Run("sequential", func(b *testing.B) {
		b.ReportAllocs()
		var resp pb.GetResponse
		for b.Loop() {
			resp.Reset()
			if _, err := c.Call(ctx, "Get", req, nil, &resp); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The same with a response check, as the client runs every call (Checker): the
	// check's own work is in hrpc's BenchmarkCheckGetResponse.
	b.Run("sequential-checked", func(b *testing.B) {
		b.ReportAllocs()
		var resp pb.GetResponse
		check := rowCheck("row-0001")
		for b.Loop() {
			resp.Reset()
			if _, err := c.CallChecked(ctx, NormalPriority, "Get", req, nil, &resp, check); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, par := range []int{1, 32} {
		b.Run(fmt.Sprintf("parallel-x%d", par), func(b *testing.B) {
			benchParallel(b, c, req, par)
		})
	}
}

// rowCheck accepts a GetResponse whose cells are all of one row.
type rowCheck string

func (r rowCheck) CheckResponse(resp proto.Message, _ []byte) error {
	for _, c := range resp.(*pb.GetResponse).GetResult().GetCell() {
		if string(c.Row) != string(r) {
			return fmt.Errorf("cell of row %q", c.Row)
		}
	}
	return nil
}

// benchParallel runs par*GOMAXPROCS goroutines calling through c and reports how many calls
// shared one write.
func benchParallel(b *testing.B, c *Client, req proto.Message, par int) {
	ctx := context.Background()
	{
		b.ReportAllocs()
		b.SetParallelism(par)
		before := c.Stats()
		b.RunParallel(func(pb_ *testing.PB) {
			var resp pb.GetResponse
			for pb_.Next() {
				resp.Reset()
				if _, err := c.Call(ctx, "Get", req, nil, &resp); err != nil {
					b.Error(err)
					return
				}
			}
		})
		after := c.Stats()
		if calls := after.Calls - before.Calls; calls > 0 {
			b.ReportMetric(float64(calls)/float64(after.Writes-before.Writes), "calls/write")
		}
	}
}

// BenchmarkGetFake: one Get through one region client against the in-process fake server on
// loopback. The allocations include the fake server's (a goroutine and protobuf decoding per
// request); BenchmarkGetLean isolates the client's.
func BenchmarkGetFake(b *testing.B) {
	srv := startFake(b, echoGet)
	benchGets(b, srv.Addr())
}

// BenchmarkGetLean is BenchmarkGetFake against a minimal server that allocates nothing per
// request, so B/op and allocs/op are the client's (including unmarshalling the response).
func BenchmarkGetLean(b *testing.B) {
	addr := startLeanServer(b)
	benchGets(b, addr)
}

// startLeanServer answers every request with the same GetResponse (one cell) and its call id.
func startLeanServer(b *testing.B) string { return startLeanServerWith(b, serveLean) }

func startLeanServerWith(b *testing.B, serve func(net.Conn, []byte)) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	respMsg, _ := proto.Marshal(&pb.GetResponse{Result: &pb.Result{Cell: []*pb.Cell{{Row: []byte("row-0001"), Value: []byte("value")}}}})
	var wg sync.WaitGroup
	var conns []net.Conn
	var mu sync.Mutex
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, nc)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				serve(nc, respMsg)
			}()
		}
	}()
	b.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return ln.Addr().String()
}

func serveLean(nc net.Conn, respMsg []byte) {
	br := bufio.NewReaderSize(nc, 64<<10)
	bw := bufio.NewWriterSize(nc, 64<<10)
	var hdr [6]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		return
	}
	serveLeanFrames(br, bw, respMsg, true)
}

// serveLeanFrames reads request frames from br (first the connection header, if withHeader)
// and answers each with respMsg, flushing when no more requests are buffered.
func serveLeanFrames(br *bufio.Reader, bw *bufio.Writer, respMsg []byte, withHeader bool) {
	var hdr [10]byte
	frame := make([]byte, 0, 4096)
	readFrame := func() bool {
		if _, err := io.ReadFull(br, hdr[:4]); err != nil {
			return false
		}
		n := int(binary.BigEndian.Uint32(hdr[:4]))
		if cap(frame) < n {
			frame = make([]byte, n)
		}
		frame = frame[:n]
		_, err := io.ReadFull(br, frame)
		return err == nil
	}
	if withHeader && !readFrame() { // connection header
		return
	}
	out := make([]byte, 0, 256)
	for readFrame() {
		h, n := protowire.ConsumeBytes(frame)
		if n < 0 {
			return
		}
		num, _, n := protowire.ConsumeTag(h)
		if n < 0 || num != 1 {
			return
		}
		id, _ := protowire.ConsumeVarint(h[n:])
		rh := protowire.AppendVarint(protowire.AppendTag(hdr[:0], 1, protowire.VarintType), id)
		out = out[:4]
		out = protowire.AppendBytes(out, rh)
		out = protowire.AppendBytes(out, respMsg)
		binary.BigEndian.PutUint32(out, uint32(len(out)-4))
		bw.Write(out)
		if br.Buffered() == 0 {
			if bw.Flush() != nil {
				return
			}
		}
	}
}

func BenchmarkEncodeRequest(b *testing.B) {
	req := getRequest("row-0001")
	cells := bytes.Repeat([]byte("c"), 64)
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		h := requestHeader{callID: 12345, method: "Get", timeoutMs: 5000}
		var err error
		if buf, err = appendRequest(buf[:0], &h, req, nil, cells, DefaultMaxFrameSize, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

// byteStream repeats one frame forever.
type byteStream struct {
	frame []byte
	off   int
}

func (s *byteStream) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], s.frame[s.off:])
		n += c
		s.off = (s.off + c) % len(s.frame)
	}
	return n, nil
}

func BenchmarkDecodeResponse(b *testing.B) {
	frame := seedFrames(b)[0]
	fr := frameReader{br: bufio.NewReaderSize(&byteStream{frame: frame}, 64<<10), maxFrame: DefaultMaxFrameSize}
	buf := make([]byte, 0, 256)
	claim := func(uint32, bool) ([]byte, bool) { return buf, true }
	var resp response
	b.ReportAllocs()
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		if err := fr.next(claim, &resp); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoopbackPingPong is the floor for BenchmarkGetLean/sequential on this machine: one
// 100 byte write and read each way over loopback TCP, no protocol at all. The client end reads
// and writes through net.Conn (the reference) and, in the same run, through rawConn, the raw
// system calls a region connection uses; cpu-µs/op is the whole process's CPU (both ends).
func BenchmarkLoopbackPingPong(b *testing.B) {
	for _, mode := range []string{"net.Conn", "rawConn"} {
		b.Run(mode, func(b *testing.B) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			defer ln.Close()
			done := make(chan struct{})
			go func() {
				defer close(done)
				nc, err := ln.Accept()
				if err != nil {
					return
				}
				defer nc.Close()
				echoChunks(nc, 100)
			}()
			nc, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				b.Fatal(err)
			}
			if mode == "rawConn" {
				nc = fastConn(nc)
			}
			buf := make([]byte, 100)
			cpu0 := processCPU(b)
			for b.Loop() {
				if _, err := nc.Write(buf); err != nil {
					b.Fatal(err)
				}
				if _, err := io.ReadFull(nc, buf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((processCPU(b)-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
			nc.Close()
			<-done
		})
	}
}

// processCPU is this process's user and system CPU time; it fails tb where that cannot be read.
func processCPU(tb testing.TB) time.Duration {
	tb.Helper()
	d, err := cputime.Self()
	if err != nil {
		tb.Fatal(err)
	}
	return d
}
