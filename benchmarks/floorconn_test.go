package benchmarks

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os/user"
	"runtime/pprof"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/region"
)

// floorConn is the least a Go client can do to send Gets one at a time on one connection to
// a region server: a SIMPLE handshake once, then per Get a hand-encoded request frame into a
// reused buffer, one write, the response read into a reused buffer and checked (call id, no
// exception, a cell of the asked row in the cellblock). No region cache, no retries, no
// deadlines, no allocations. It exists only to measure the floor of a Go client's CPU per
// Get (TestOneCallerFloor); it is no model for the client.
type floorConn struct {
	rw     io.ReadWriter
	closer io.Closer
	out    []byte // the request being written
	in     []byte // bytes read: in[:n], the frame last returned in[:used]
	n      int
	used   int
	callID uint32
	// replies, when set, is where the connection's reader goroutine hands each response over
	// (go-hbase's shape); when nil, the caller reads its own response.
	replies chan floorReply
}

// floorReply is what a response says, decoded; the row is copied out of the read buffer so
// that a reader goroutine can go on reading while the caller looks at it.
type floorReply struct {
	callID uint32
	row    [hbasetest.PERowLength]byte
	rowLen int
	err    error
}

// newFloorConn does the handshake on rw (preamble, then the ConnectionHeader go-hbase sends:
// KeyValueCodec cellblocks, version 2.6.1) and, when reader is not empty, starts a reader
// goroutine carrying the pprof label block=reader.
func newFloorConn(rw io.ReadWriter, closer io.Closer, reader string) (*floorConn, error) {
	username := "go-hbase"
	if u, err := user.Current(); err == nil && u.Username != "" {
		username = u.Username
	}
	hdr, err := proto.Marshal(&pb.ConnectionHeader{
		UserInfo:            &pb.UserInformation{EffectiveUser: proto.String(username)},
		ServiceName:         proto.String("ClientService"),
		CellBlockCodecClass: proto.String(region.KeyValueCodec),
		VersionInfo: &pb.VersionInfo{
			Version: proto.String("2.6.1"), Url: proto.String("-"), Revision: proto.String("-"),
			User: proto.String("-"), Date: proto.String("-"), SrcChecksum: proto.String("-"),
			VersionMajor: proto.Uint32(2), VersionMinor: proto.Uint32(6),
		},
	})
	if err != nil {
		return nil, err
	}
	b := append([]byte("HBas\x00\x50"), binary.BigEndian.AppendUint32(nil, uint32(len(hdr)))...)
	if _, err := rw.Write(append(b, hdr...)); err != nil {
		return nil, fmt.Errorf("floor: handshake: %w", err)
	}
	f := &floorConn{rw: rw, closer: closer, out: make([]byte, 0, 256), in: make([]byte, 4096)}
	if reader != "" {
		f.replies = make(chan floorReply, 1)
		go pprof.Do(context.Background(), pprof.Labels("block", reader), func(context.Context) {
			for {
				frame, err := f.readFrame()
				r := floorReply{err: err}
				if err == nil {
					r = parseFloorReply(frame)
				}
				f.replies <- r
				if err != nil {
					return
				}
			}
		})
	}
	return f, nil
}

func (f *floorConn) Close() error { return f.closer.Close() }

// get sends a Get of row in the region named regionName and waits for its response.
func (f *floorConn) get(ctx context.Context, regionName, row []byte) error {
	f.callID++
	f.out = appendFloorGet(f.out[:0], f.callID, regionName, row)
	if _, err := f.rw.Write(f.out); err != nil {
		return fmt.Errorf("floor: write: %w", err)
	}
	var r floorReply
	if f.replies != nil {
		select {
		case r = <-f.replies:
		case <-ctx.Done():
			return ctx.Err()
		}
	} else {
		frame, err := f.readFrame()
		if err != nil {
			return err
		}
		r = parseFloorReply(frame)
	}
	switch {
	case r.err != nil:
		return r.err
	case r.callID != f.callID:
		return fmt.Errorf("floor: response to call %d, want %d", r.callID, f.callID)
	case !bytes.Equal(r.row[:r.rowLen], row):
		// A string copy: the reply itself must not escape to the heap.
		return fmt.Errorf("floor: cell of row %q, want %q", string(r.row[:r.rowLen]), row)
	}
	return nil
}

// appendFloorGet appends the frame of a Get of row (RPC.proto's RequestHeader with call_id,
// method_name "Get" and request_param, then Client.proto's GetRequest{region: RegionSpecifier
// {REGION_NAME, regionName}, get: Get{row}}): the request go-hbase sends for
// hrpc.NewGet(table, row), without its optional header fields.
func appendFloorGet(b []byte, callID uint32, regionName, row []byte) []byte {
	const method = "Get"
	hdrLen := protowire.SizeTag(1) + protowire.SizeVarint(uint64(callID)) +
		protowire.SizeTag(3) + protowire.SizeBytes(len(method)) + protowire.SizeTag(4) + 1
	specLen := protowire.SizeTag(1) + 1 + protowire.SizeTag(2) + protowire.SizeBytes(len(regionName))
	getLen := protowire.SizeTag(1) + protowire.SizeBytes(len(row))
	paramLen := protowire.SizeTag(1) + protowire.SizeBytes(specLen) + protowire.SizeTag(2) + protowire.SizeBytes(getLen)
	total := protowire.SizeVarint(uint64(hdrLen)) + hdrLen + protowire.SizeVarint(uint64(paramLen)) + paramLen
	b = binary.BigEndian.AppendUint32(b, uint32(total))
	b = protowire.AppendVarint(b, uint64(hdrLen))
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(callID))
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	b = protowire.AppendString(b, method)
	b = protowire.AppendTag(b, 4, protowire.VarintType)
	b = protowire.AppendVarint(b, 1)
	b = protowire.AppendVarint(b, uint64(paramLen))
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(specLen))
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(pb.RegionSpecifier_REGION_NAME))
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, regionName)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(getLen))
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendBytes(b, row)
	return b
}

// readFrame returns the body of the next response frame (after its 4-byte length), valid
// until the next call.
func (f *floorConn) readFrame() ([]byte, error) {
	if f.used > 0 {
		f.n = copy(f.in, f.in[f.used:f.n])
		f.used = 0
	}
	if err := f.fill(4); err != nil {
		return nil, err
	}
	need := 4 + int(binary.BigEndian.Uint32(f.in))
	if need > 64<<20 {
		return nil, fmt.Errorf("floor: response frame of %d bytes", need)
	}
	if need > len(f.in) {
		f.in = append(f.in[:f.n], make([]byte, need-f.n)...)
	}
	if err := f.fill(need); err != nil {
		return nil, err
	}
	f.used = need
	return f.in[4:need], nil
}

// fill reads until at least n bytes are buffered.
func (f *floorConn) fill(n int) error {
	for f.n < n {
		k, err := f.rw.Read(f.in[f.n:])
		f.n += k
		if err != nil && f.n < n {
			return fmt.Errorf("floor: read: %w", err)
		}
	}
	return nil
}

var errFloorMalformed = errors.New("floor: malformed response")

// parseFloorReply decodes a response frame's body: varint length, ResponseHeader{call_id 1,
// exception 2, cell_block_meta 3{length 1}}, varint length, GetResponse, cellblock. It
// checks only what tells a result came back: no exception, and a cellblock whose first
// KeyValue (be32 length, be32 key length, be32 value length, be16 row length, row) has a row.
func parseFloorReply(b []byte) floorReply {
	var r floorReply
	hdrLen, k := protowire.ConsumeVarint(b)
	if k < 0 || uint64(len(b)-k) < hdrLen {
		return floorReply{err: errFloorMalformed}
	}
	hdr, rest := b[k:k+int(hdrLen)], b[k+int(hdrLen):]
	cellsLen := -1
	for len(hdr) > 0 {
		num, typ, n := protowire.ConsumeTag(hdr)
		if n < 0 {
			return floorReply{err: errFloorMalformed}
		}
		hdr = hdr[n:]
		switch {
		case num == 1 && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(hdr)
			if n < 0 {
				return floorReply{err: errFloorMalformed}
			}
			r.callID, hdr = uint32(v), hdr[n:]
		case num == 2:
			return floorReply{err: errors.New("floor: the server answered with an exception")}
		case num == 3 && typ == protowire.BytesType:
			meta, n := protowire.ConsumeBytes(hdr)
			if n < 0 {
				return floorReply{err: errFloorMalformed}
			}
			hdr = hdr[n:]
			if f, t, m := protowire.ConsumeTag(meta); m > 0 && f == 1 && t == protowire.VarintType {
				v, m2 := protowire.ConsumeVarint(meta[m:])
				if m2 < 0 {
					return floorReply{err: errFloorMalformed}
				}
				cellsLen = int(v)
			}
		default:
			n := protowire.ConsumeFieldValue(num, typ, hdr)
			if n < 0 {
				return floorReply{err: errFloorMalformed}
			}
			hdr = hdr[n:]
		}
	}
	paramLen, k := protowire.ConsumeVarint(rest)
	if k < 0 || uint64(len(rest)-k) < paramLen {
		return floorReply{err: errFloorMalformed}
	}
	cells := rest[k+int(paramLen):]
	if cellsLen <= 0 || len(cells) != cellsLen || len(cells) < 14 {
		return floorReply{callID: r.callID, err: fmt.Errorf("floor: no cell in the response (cellblock of %d bytes)", len(cells))}
	}
	rowLen := int(binary.BigEndian.Uint16(cells[12:14]))
	if rowLen > len(r.row) || 14+rowLen > len(cells) {
		return floorReply{callID: r.callID, err: errFloorMalformed}
	}
	r.rowLen = copy(r.row[:], cells[14:14+rowLen])
	return r
}

// floorWork runs blocks of one-caller randomRead Gets through f, drawing the rows as the
// other sides do (hbasetest.WorkRow) and sending each to the region of regions (sorted by
// start key, all on f's server) that holds it.
func floorWork(f *floorConn, regions []hbasetest.Region) func(ctx context.Context, w hbasetest.Work) (hbasetest.WorkBlock, error) {
	key := make([]byte, 0, hbasetest.PERowLength)
	return func(ctx context.Context, w hbasetest.Work) (hbasetest.WorkBlock, error) {
		if w.Workload != hbasetest.WorkloadRandomRead || w.Threads > 1 {
			return hbasetest.WorkBlock{}, fmt.Errorf("floor: only one-caller %s", hbasetest.WorkloadRandomRead)
		}
		lat := make([]time.Duration, w.N)
		began := time.Now()
		for i := range w.N {
			t0 := time.Now()
			key = hbasetest.PEKey(key[:0], hbasetest.WorkRow(w.Seed, i, w.Rows))
			if err := f.get(ctx, regionOf(regions, key).Name, key); err != nil {
				return hbasetest.WorkBlock{}, err
			}
			lat[i] = time.Since(t0)
		}
		return hbasetest.WorkBlock{Wall: time.Since(began), Rows: int64(w.N), Latencies: lat}, nil
	}
}

// regionOf returns the region of regions (sorted by start key, covering every key) holding key.
func regionOf(regions []hbasetest.Region, key []byte) *hbasetest.Region {
	i := len(regions) - 1
	for i > 0 && bytes.Compare(key, regions[i].StartKey) < 0 {
		i--
	}
	return &regions[i]
}
