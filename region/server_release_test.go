package region

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/internal/pb"
)

// tapConn records every byte read from the socket, before the client parses any of it: the
// bytes on the wire.
type tapConn struct {
	net.Conn
	mu   sync.Mutex
	read []byte
}

func (t *tapConn) Read(p []byte) (int, error) {
	n, err := t.Conn.Read(p)
	t.mu.Lock()
	t.read = append(t.read, p[:n]...)
	t.mu.Unlock()
	return n, err
}

// lastFrame returns the last complete response frame read so far (be32 length included).
func (t *tapConn) lastFrame() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	var last []byte
	for b := t.read; len(b) >= 4; {
		n := int(binary.BigEndian.Uint32(b))
		if len(b) < 4+n {
			break
		}
		last, b = b[:4+n], b[4+n:]
	}
	return bytes.Clone(last)
}

type tapDialer struct{ conns []*tapConn }

func (d *tapDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	t := &tapConn{Conn: c}
	d.conns = append(d.conns, t)
	return t, nil
}

// poison is what the test cluster's RPC servers write over a request buffer they release.
var poison = []byte("<released>")

// TestServerSendsReleasedRequestBytes shows, on the wire, the HBase server bug behind the
// corrupt Append results of issue 9. For an Append or Increment of a column that has no value
// yet, the server (HRegion.reckonDelta, HBase 2.4 to 2.6) returns the request's own cell as
// the result; when that cell came in the request's cellblock it lives in the request's
// buffer, and CallRunner releases that buffer (call.cleanup) before it encodes the response
// (call.setResponse). The response then carries whatever the buffer holds by then: with the
// default pooled allocator, now and then another request's bytes (region names, rows); here,
// with PoisonReleasedBuffers, the poison, every time. The same Append with its value in the
// protobuf message (as Java's client sends a single Append) is copied to the heap by the
// server and comes back intact, and so does an Append to a column that has a value.
func TestServerSendsReleasedRequestBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an HBase mini cluster")
	}
	// The HBase version: hbasetest.VersionEnv (GOHBASE_HBASE_VERSION), as for every cluster.
	cluster := hbasetest.StartT(t, hbasetest.Options{RegionServers: 1, PoisonReleasedBuffers: true})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const table = "released"
	if err := cluster.CreateTable(ctx, table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	regions, err := cluster.Regions(ctx, table)
	if err != nil || len(regions) != 1 {
		t.Fatalf("regions: %v %v", regions, err)
	}
	reg := regions[0]
	var dialer tapDialer
	rs, err := Dial(ctx, reg.Addr, WithService("ClientService"), WithUser("released"), WithDialer(&dialer))
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	tap := dialer.conns[0]

	row, fam := []byte("row"), []byte("f")
	nonce := uint64(time.Now().UnixNano())
	// mutate sends an Append or Increment of qual with its value in a cellblock or in the
	// message, and returns the result's cellblock and the raw response frame.
	mutate := func(t *testing.T, typ pb.MutationProto_MutationType, qual, value []byte, inCellblock bool) ([]byte, []byte) {
		t.Helper()
		nonce++
		m := &pb.MutationProto{Row: row, MutateType: typ.Enum(), Nonce: proto.Uint64(nonce)}
		var reqCells []byte
		if inCellblock {
			m.AssociatedCellCount = proto.Int32(1)
			reqCells = keyValue(row, fam, qual, value, uint64(time.Now().UnixMilli()))
		} else {
			m.ColumnValue = []*pb.MutationProto_ColumnValue{{Family: fam,
				QualifierValue: []*pb.MutationProto_ColumnValue_QualifierValue{{Qualifier: qual, Value: value}}}}
		}
		var resp pb.MutateResponse
		cells, err := rs.Call(ctx, "Mutate", &pb.MutateRequest{Region: regionSpec(reg.Name), Mutation: m}, reqCells, &resp)
		if err != nil {
			t.Fatal(err)
		}
		if n := resp.GetResult().GetAssociatedCellCount(); n != 1 {
			t.Fatalf("result has %d cells, want 1", n)
		}
		return cells, tap.lastFrame()
	}
	want := func(qual, value []byte) []byte {
		return keyValue(row, fam, qual, value, 0) // the timestamp is the server's: not compared
	}
	sameButTimestamp := func(got, want []byte) bool {
		if len(got) != len(want) {
			return false
		}
		ts := 4 + 8 + int(binary.BigEndian.Uint32(want[4:8])) - 9 // the key ends with ts and type
		return bytes.Equal(got[:ts], want[:ts]) && bytes.Equal(got[ts+8:], want[ts+8:])
	}

	for _, tc := range []struct {
		name  string
		typ   pb.MutationProto_MutationType
		value []byte
	}{
		{"append", pb.MutationProto_APPEND, []byte("appended value")},
		{"increment", pb.MutationProto_INCREMENT, binary.BigEndian.AppendUint64(nil, 42)},
	} {
		t.Run(tc.name+" of a new column, value in a cellblock", func(t *testing.T) {
			qual := []byte(tc.name + "-cellblock")
			cells, frame := mutate(t, tc.typ, qual, tc.value, true)
			t.Logf("response frame on the wire (%d bytes):\n%s", len(frame), hex.Dump(frame))
			if !bytes.Contains(frame, poison) {
				t.Fatalf("the response frame does not carry the released buffer's poison: the server bug is not there (or is fixed); result cellblock %q", cells)
			}
			if sameButTimestamp(cells, want(qual, tc.value)) {
				t.Fatalf("result is intact although the frame carries poison: %q", cells)
			}
			// The length prefix is the cell's own (cached by the server), the rest is the poison.
			if got := binary.BigEndian.Uint32(cells); int(got) != len(want(qual, tc.value))-4 {
				t.Errorf("cell length prefix %d, want the request cell's %d", got, len(want(qual, tc.value))-4)
			}
		})
		t.Run(tc.name+" of a new column, value in the message", func(t *testing.T) {
			qual := []byte(tc.name + "-message")
			cells, frame := mutate(t, tc.typ, qual, tc.value, false)
			if bytes.Contains(frame, poison) || !sameButTimestamp(cells, want(qual, tc.value)) {
				t.Fatalf("result %q, frame:\n%s", cells, hex.Dump(frame))
			}
		})
	}
	t.Run("append to a column with a value, value in a cellblock", func(t *testing.T) {
		qual := []byte("append-existing")
		mutate(t, pb.MutationProto_APPEND, qual, []byte("a"), false)
		cells, frame := mutate(t, pb.MutationProto_APPEND, qual, []byte("b"), true)
		if bytes.Contains(frame, poison) || !sameButTimestamp(cells, want(qual, []byte("ab"))) {
			t.Fatalf("result %q, frame:\n%s", cells, hex.Dump(frame))
		}
	})
}
