package region

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

// keyValue encodes one cell as KeyValueCodec does: be32 length, then the KeyValue
// (be32 keylen | be32 vallen | be16 rowlen | row | famlen | fam | qual | be64 ts | type | value).
func keyValue(row, fam, qual, value []byte, ts uint64) []byte {
	keyLen := 2 + len(row) + 1 + len(fam) + len(qual) + 8 + 1
	b := binary.BigEndian.AppendUint32(nil, uint32(8+keyLen+len(value)))
	b = binary.BigEndian.AppendUint32(b, uint32(keyLen))
	b = binary.BigEndian.AppendUint32(b, uint32(len(value)))
	b = binary.BigEndian.AppendUint16(b, uint16(len(row)))
	b = append(b, row...)
	b = append(b, byte(len(fam)))
	b = append(b, fam...)
	b = append(b, qual...)
	b = binary.BigEndian.AppendUint64(b, ts)
	b = append(b, 4) // Put
	return append(b, value...)
}

func regionSpec(name []byte) *pb.RegionSpecifier {
	return &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: name}
}

// TestRealHBase talks to a real HBase 2.6.1 mini cluster: ClientService Get and Mutate (with
// cellblocks both ways) on a region server, a typed error for a bogus region, and
// MasterService.IsMasterRunning on the master.
func TestRealHBase(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an HBase mini cluster")
	}
	cluster := hbasetest.StartT(t, hbasetest.Options{RegionServers: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := cluster.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.RegionServers) != 1 {
		t.Fatalf("status: %+v", st)
	}
	const table = "regiontest"
	if err := cluster.CreateTable(ctx, table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	regions, err := cluster.Regions(ctx, table)
	if err != nil || len(regions) != 1 {
		t.Fatalf("regions: %v %v", regions, err)
	}
	reg := regions[0]

	rs, err := Dial(ctx, reg.Addr, WithService("ClientService"), WithUser("regiontest"))
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()

	t.Run("meta", func(t *testing.T) {
		// hbase:meta holds the table's region, keyed by its name.
		req := &pb.GetRequest{Region: regionSpec([]byte("hbase:meta,,1")), Get: &pb.Get{Row: reg.Name}}
		var resp pb.GetResponse
		cells, err := rs.CallPriority(ctx, HighPriority, "Get", req, nil, &resp)
		if err != nil {
			t.Fatal(err)
		}
		// Announcing version 2.6 makes the server return the cells in a cellblock.
		n := resp.GetResult().GetAssociatedCellCount()
		if n == 0 || len(cells) == 0 || !bytes.Contains(cells, reg.Name) {
			t.Fatalf("meta row: %d cells announced, cellblock %d bytes, result %v", n, len(cells), resp.GetResult())
		}
	})

	t.Run("mutate and get", func(t *testing.T) {
		row, fam, qual, value := []byte("row1"), []byte("f"), []byte("q"), []byte("value from go")
		put := &pb.MutateRequest{
			Region: regionSpec(reg.Name),
			Mutation: &pb.MutationProto{
				Row:                 row,
				MutateType:          pb.MutationProto_PUT.Enum(),
				AssociatedCellCount: proto.Int32(1),
			},
		}
		var mresp pb.MutateResponse
		if _, err := rs.Call(ctx, "Mutate", put, keyValue(row, fam, qual, value, uint64(time.Now().UnixMilli())), &mresp); err != nil {
			t.Fatal(err)
		}
		got, err := cluster.Get(ctx, table, row)
		if err != nil || len(got) != 1 || !bytes.Equal(got[0].Value, value) {
			t.Fatalf("Java client reads %v %v", got, err)
		}
		var gresp pb.GetResponse
		cells, err := rs.Call(ctx, "Get", &pb.GetRequest{Region: regionSpec(reg.Name), Get: &pb.Get{Row: row}}, nil, &gresp)
		if err != nil {
			t.Fatal(err)
		}
		if gresp.GetResult().GetAssociatedCellCount() != 1 || !bytes.HasSuffix(cells, value) {
			t.Fatalf("get: %v, cells %q", gresp.GetResult(), cells)
		}
	})

	t.Run("many gets", func(t *testing.T) {
		// Not a benchmark (the cluster shares the machine), but a figure for the record.
		req := &pb.GetRequest{Region: regionSpec(reg.Name), Get: &pb.Get{Row: []byte("row1")}}
		const n = 2000
		var seq time.Duration
		for round := range 2 { // the first round warms the server's JIT up
			start := time.Now()
			for range n {
				if _, err := rs.Call(ctx, "Get", req, nil, &pb.GetResponse{}); err != nil {
					t.Fatal(err)
				}
			}
			seq = time.Since(start) / n
			t.Logf("round %d: sequential %v/op", round, seq)
		}
		before := rs.Stats()
		start := time.Now()
		errs := make(chan error, 64)
		for range 64 {
			go func() {
				var err error
				for range n / 64 {
					if _, err = rs.Call(ctx, "Get", req, nil, &pb.GetResponse{}); err != nil {
						break
					}
				}
				errs <- err
			}()
		}
		for range 64 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		par := time.Since(start) / (n / 64 * 64)
		after := rs.Stats()
		t.Logf("real HBase Get: sequential %v/op, 64 goroutines %v/op, %.1f calls/write",
			seq, par, float64(after.Calls-before.Calls)/float64(after.Writes-before.Writes))
	})

	t.Run("bogus region", func(t *testing.T) {
		req := &pb.GetRequest{Region: regionSpec([]byte("nosuchtable,,1.0123456789abcdef0123456789abcdef.")), Get: &pb.Get{Row: []byte("r")}}
		_, err := rs.Call(ctx, "Get", req, nil, &pb.GetResponse{})
		var re *hberr.RemoteError
		if !errors.Is(err, hberr.ErrRegionUnavailable) || !errors.As(err, &re) {
			t.Fatalf("err = %v", err)
		}
		t.Logf("bogus region: %v", err)
		if rs.Err() != nil {
			t.Fatalf("connection died: %v", rs.Err())
		}
	})

	t.Run("master", func(t *testing.T) {
		m, err := Dial(ctx, st.Master.Addr, WithService("MasterService"), WithUser("regiontest"))
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		var resp pb.IsMasterRunningResponse
		if _, err := m.Call(ctx, "IsMasterRunning", &pb.IsMasterRunningRequest{}, nil, &resp); err != nil {
			t.Fatal(err)
		}
		if !resp.GetIsMasterRunning() {
			t.Fatal("master says it is not running")
		}
	})
}
