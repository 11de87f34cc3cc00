package engine

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// movableReplica is a fake server of a secondary replica for Gets and Scans: it answers with
// its value, marked stale (a Get: one cell; a scan's open: rows r1, in two pieces, and r2),
// unless fault is set, which it answers instead.
type movableReplica struct {
	srv   *fakeserver.Server
	value string
	asked atomic.Int64
	fault atomic.Pointer[pb.ExceptionResponse]
}

func startMovableReplica(t testing.TB, value string) *movableReplica {
	t.Helper()
	m := &movableReplica{value: value}
	srv, err := fakeserver.Start(fakeserver.Options{Handler: m.handle})
	if err != nil {
		t.Fatal(err)
	}
	m.srv = srv
	t.Cleanup(func() { srv.Close() })
	return m
}

func (m *movableReplica) handle(r *fakeserver.Request) fakeserver.Response {
	m.asked.Add(1)
	if e := m.fault.Load(); e != nil {
		return fakeserver.Response{Exception: e}
	}
	cell := func(cells []byte, row, q string) []byte {
		return wire.AppendCell(cells, &wire.Cell{Row: []byte(row), Family: []byte("f"), Qualifier: []byte(q),
			Type: wire.CellTypePut, Value: []byte(m.value)})
	}
	if r.Method == "Scan" {
		cells := cell(cell(cell(nil, "r1", "a"), "r1", "b"), "r2", "a")
		return fakeserver.Response{Msg: &pb.ScanResponse{CellsPerResult: []uint32{1, 1, 1},
			PartialFlagPerResult: []bool{true, false, false}, Stale: proto.Bool(true),
			MoreResults: proto.Bool(false), MoreResultsInRegion: proto.Bool(false)}, Cells: cells}
	}
	var req pb.GetRequest
	if r.Method != "Get" || r.Unmarshal(&req) != nil {
		return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", "unexpected")}
	}
	return fakeserver.Response{Msg: &pb.GetResponse{Result: &pb.Result{AssociatedCellCount: proto.Int32(1),
		Stale: proto.Bool(true)}}, Cells: cell(nil, string(req.GetGet().GetRow()), "q")}
}

// silentPrimaryCluster is a fake cluster whose region t has its secondary replica 1 on sec and
// whose primary never answers a Get or a scan.
func silentPrimaryCluster(t testing.TB, sec string) *fakeCluster {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1, encoded: fakeEncoded, replicas: []string{sec}})
	fc.onGet = func(int64, *pb.GetRequest) fakeserver.Response { return fakeserver.Response{NoReply: true} }
	fc.onScan = func(int64, *pb.ScanRequest) fakeserver.Response { return fakeserver.Response{NoReply: true} }
	return fc
}

func checkFromReplica(t *testing.T, what string, res *hrpc.Result, want string) {
	t.Helper()
	if string(res.Cells[0].Value) != want || !res.Stale || res.ReplicaID != 1 || !res.Hedged {
		t.Fatalf("%s: %q, stale %v, replica %d, hedged %v; want %q from replica 1, stale and hedged", what,
			res.Cells[0].Value, res.Stale, res.ReplicaID, res.Hedged, want)
	}
}

// Which replica answered a Timeline read and whether it was hedged: the primary in time (0,
// not hedged), the primary after the delay (0, hedged), a secondary (1, hedged, stale); a
// Strong read says 0, not hedged. A Timeline scan's rows say the same, and its stale rows are
// counted once each, whatever the pieces they come in.
func TestTimelineResultReplica(t *testing.T) {
	sec := startReplicaServer(t, "sec1", 100*time.Millisecond, "")
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1, encoded: fakeEncoded, replicas: []string{sec.srv.Addr()}})
	var primaryDelay atomic.Int64
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response {
		return primaryAnswer(req, time.Duration(primaryDelay.Load()))
	}
	c := fc.client(t, WithHedgeDelay(20*time.Millisecond), WithHedgeBudget(1))
	read := func(cons hrpc.ConsistencyLevel) *hrpc.Result {
		t.Helper()
		res, err := c.Get(testContext(t, 5*time.Second), timelineGet(t, "r", cons))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, tc := range []struct {
		name    string
		cons    hrpc.ConsistencyLevel
		delay   time.Duration
		replica uint16
		hedged  bool
	}{
		{"Strong", hrpc.Strong, 0, 0, false},
		{"primary in time", hrpc.Timeline, 0, 0, false},
		{"primary after the delay", hrpc.Timeline, 50 * time.Millisecond, 0, true},
		{"secondary", hrpc.Timeline, 400 * time.Millisecond, 1, true},
	} {
		primaryDelay.Store(int64(tc.delay))
		res := read(tc.cons)
		if res.ReplicaID != tc.replica || res.Hedged != tc.hedged || res.Stale != (tc.replica > 0) {
			t.Errorf("%s: replica %d, hedged %v, stale %v; want %d, %v", tc.name, res.ReplicaID, res.Hedged, res.Stale, tc.replica, tc.hedged)
		}
	}

	rep := startMovableReplica(t, "sec")
	for _, partial := range []bool{false, true} {
		fc := silentPrimaryCluster(t, rep.srv.Addr())
		c := fc.client(t, WithHedgeDelay(5*time.Millisecond))
		opts := []hrpc.ScanOption{hrpc.Consistency(hrpc.Timeline)}
		if partial {
			opts = append(opts, hrpc.AllowPartialResults())
		}
		scan, _ := hrpc.NewScan("t", opts...)
		results := 0
		for res, err := range c.Scan(testContext(t, 2*time.Second), scan) {
			if err != nil {
				t.Fatal(err)
			}
			results++
			checkFromReplica(t, "scan", res, "sec")
		}
		if s := c.Stats(); s.StaleScanRows != 2 || s.StaleResults != 0 {
			t.Errorf("partial %v: %d results; stats count %d stale scan rows, %d stale results; want 2, 0", partial,
				results, s.StaleScanRows, s.StaleResults)
		}
	}
}
