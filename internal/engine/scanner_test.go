package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// fakeScans serves region scans of table "t" from a fixed set of rows, for faults a real
// server does not produce on demand: expired scanners, heartbeats, rows cut into pieces.
type fakeScans struct {
	fc         *fakeCluster
	rows       []string
	mu         sync.Mutex
	nextID     uint64
	open       map[uint64]*fakeScanner
	calls      atomic.Int64
	closes     atomic.Int64
	renews     atomic.Int64
	pieces     bool                               // send every row as two results, the first partial
	morePieces bool                               // flag a row's last piece "may have more" too, as at a batch boundary
	heartbeats bool                               // answer every other next with an empty heartbeat
	cursors    bool                               // heartbeats carry a cursor: the next row
	onNext     func(n int64) *fakeserver.Response // fault to inject for RPC n, or nil
	regions    map[string]fakeRegion              // by region name
}

type fakeScanner struct {
	rows []string // still to return, in scan order
	seq  uint64
}

func newFakeScans(t *testing.T, nrows int, regions ...fakeRegion) *fakeScans {
	fs := &fakeScans{open: map[uint64]*fakeScanner{}, regions: map[string]fakeRegion{}}
	for i := range nrows {
		fs.rows = append(fs.rows, fmt.Sprintf("r%03d", i))
	}
	for _, r := range regions {
		fs.regions[string(r.name())] = r
	}
	fs.fc = newFakeCluster(t, regions...)
	return fs
}

func (fs *fakeScans) exception(class string) fakeserver.Response {
	return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase."+class, class)}
}

func (fs *fakeScans) handle(r *fakeserver.Request, req *pb.ScanRequest) fakeserver.Response {
	n := fs.calls.Add(1)
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if req.GetCloseScanner() {
		fs.closes.Add(1)
		delete(fs.open, req.GetScannerId())
		return fakeserver.Response{Msg: &pb.ScanResponse{}}
	}
	if fs.onNext != nil {
		if resp := fs.onNext(n); resp != nil {
			if resp.Exception != nil && req.ScannerId != nil {
				delete(fs.open, req.GetScannerId())
			}
			return *resp
		}
	}
	var sc *fakeScanner
	var id uint64
	if req.ScannerId == nil {
		reg, ok := fs.regions[string(req.GetRegion().GetValue())]
		if !ok {
			return fs.exception("NotServingRegionException")
		}
		s := req.GetScan()
		var rows []string
		for _, row := range fs.rows {
			b := []byte(row)
			if bytes.Compare(b, []byte(reg.start)) < 0 || (reg.end != "" && bytes.Compare(b, []byte(reg.end)) >= 0) {
				continue
			}
			if st := s.GetStartRow(); len(st) > 0 {
				c := bytes.Compare(b, st)
				if !s.GetReversed() && (c < 0 || c == 0 && !s.GetIncludeStartRow()) ||
					s.GetReversed() && (c > 0 || c == 0 && !s.GetIncludeStartRow()) {
					continue
				}
			}
			rows = append(rows, row)
		}
		if s.GetReversed() {
			slices.Reverse(rows)
		}
		fs.nextID++
		id = fs.nextID
		sc = &fakeScanner{rows: rows}
		fs.open[id] = sc
	} else {
		id = req.GetScannerId()
		sc = fs.open[id]
		if sc == nil {
			return fs.exception("UnknownScannerException")
		}
		if req.NextCallSeq != nil {
			if req.GetNextCallSeq() != sc.seq {
				return fs.exception("OutOfOrderScannerNextException")
			}
			sc.seq++
		}
		if req.GetRenew() {
			fs.renews.Add(1)
			return fakeserver.Response{Msg: &pb.ScanResponse{}}
		}
		if fs.heartbeats && n%2 == 0 {
			resp := &pb.ScanResponse{ScannerId: proto.Uint64(id), MoreResults: proto.Bool(true),
				MoreResultsInRegion: proto.Bool(true), HeartbeatMessage: proto.Bool(true)}
			if fs.cursors && len(sc.rows) > 0 {
				resp.Cursor = &pb.Cursor{Row: []byte(sc.rows[0])}
			}
			return fakeserver.Response{Msg: resp}
		}
	}
	k := min(int(req.GetNumberOfRows()), len(sc.rows))
	resp := &pb.ScanResponse{ScannerId: proto.Uint64(id), MoreResults: proto.Bool(true)}
	var cells []byte
	for _, row := range sc.rows[:k] {
		cell := func(q string) {
			cells = wire.AppendCell(cells, &wire.Cell{Row: []byte(row), Family: famF, Qualifier: []byte(q),
				Type: wire.CellTypePut, Value: []byte("v" + row)})
		}
		if fs.pieces {
			cell("a")
			resp.CellsPerResult = append(resp.CellsPerResult, 1)
			resp.PartialFlagPerResult = append(resp.PartialFlagPerResult, true)
		}
		cell("q")
		resp.CellsPerResult = append(resp.CellsPerResult, 1)
		resp.PartialFlagPerResult = append(resp.PartialFlagPerResult, fs.morePieces)
	}
	sc.rows = sc.rows[k:]
	resp.MoreResultsInRegion = proto.Bool(len(sc.rows) > 0)
	if len(sc.rows) == 0 {
		delete(fs.open, id)
	}
	return fakeserver.Response{Msg: resp, Cells: cells}
}

// start hooks the scan handler into the fake cluster.
func (fs *fakeScans) client(t *testing.T, opts ...Option) *Client {
	metaHandle := fs.fc.handle
	fs.fc.srv.Close()
	srv, err := fakeserver.Start(fakeserver.Options{Handler: func(r *fakeserver.Request) fakeserver.Response {
		if r.Method == "Scan" {
			var req pb.ScanRequest
			if err := r.Unmarshal(&req); err == nil && !bytes.Equal(req.GetRegion().GetValue(), metaRegionName) {
				return fs.handle(r, &req)
			}
		}
		return metaHandle(r)
	}})
	if err != nil {
		t.Fatal(err)
	}
	fs.fc.srv = srv
	t.Cleanup(func() { srv.Close() })
	return fs.fc.client(t, opts...)
}

func threeRegions() []fakeRegion {
	return []fakeRegion{{table: "t", start: "", end: "r010", id: 1}, {table: "t", start: "r010", end: "r020", id: 2},
		{table: "t", start: "r020", end: "", id: 3}}
}

func drain(t *testing.T, sc *Scanner) []string {
	t.Helper()
	var got []string
	for sc.Next() {
		got = append(got, string(sc.Result().Cells[0].Row))
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("Next after %v: %v", got, err)
	}
	return got
}

// drainSeq is drain through the iterator form.
func drainSeq(t *testing.T, rows iter.Seq2[*hrpc.Result, error]) []string {
	t.Helper()
	var got []string
	for res, err := range rows {
		if err != nil {
			t.Fatalf("after %v: %v", got, err)
		}
		got = append(got, string(res.Cells[0].Row))
	}
	return got
}

func TestScannerAcrossRegionsWithFaults(t *testing.T) {
	for _, tc := range []struct {
		name       string
		reversed   bool
		pieces     bool
		heartbeats bool
		fault      func(n int64) *fakeserver.Response
	}{
		{name: "plain"},
		{name: "reversed", reversed: true},
		{name: "pieces", pieces: true},
		{name: "reversed pieces", reversed: true, pieces: true},
		{name: "expired scanners", fault: func(n int64) *fakeserver.Response {
			if n%4 == 3 {
				r := fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.UnknownScannerException", "expired")}
				return &r
			}
			return nil
		}},
		{name: "reversed moved regions", reversed: true, pieces: true, fault: func(n int64) *fakeserver.Response {
			if n%5 == 2 {
				r := fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", "moved")}
				return &r
			}
			return nil
		}},
		{name: "heartbeats", heartbeats: true},
		{name: "reversed heartbeats with pieces", reversed: true, heartbeats: true, pieces: true},
		// Corrupt responses (issue 9) reset the connection; the scan reopens after the last
		// row it returned and never hands out their rows.
		{name: "result with cells of two rows", pieces: true, fault: func(n int64) *fakeserver.Response {
			if n%4 == 2 {
				return corruptScanResponse([]uint32{2}, "r005", "x999")
			}
			return nil
		}},
		{name: "reversed results out of order", reversed: true, fault: func(n int64) *fakeserver.Response {
			if n%4 == 2 {
				return corruptScanResponse([]uint32{1, 1}, "r001", "r020")
			}
			return nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := newFakeScans(t, 30, threeRegions()...)
			fs.pieces, fs.heartbeats = tc.pieces, tc.heartbeats
			var faults atomic.Int64
			if tc.fault != nil {
				fs.onNext = func(n int64) *fakeserver.Response {
					r := tc.fault(n)
					if r != nil {
						faults.Add(1)
					}
					return r
				}
			}
			c := fs.client(t)
			opts := []hrpc.ScanOption{hrpc.NumberOfRows(3)}
			if tc.reversed {
				opts = append(opts, hrpc.Reversed())
			}
			got := drainSeq(t, c.Scan(testContext(t, 10*time.Second), mustScan(t, opts...)))
			want := slices.Clone(fs.rows)
			if tc.reversed {
				slices.Reverse(want)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("rows = %v\nwant %v", got, want)
			}
			if tc.fault != nil && faults.Load() < 2 {
				t.Fatalf("only %d faults injected", faults.Load())
			}
		})
	}
}

func TestScannerClosesServerScanner(t *testing.T) {
	fs := newFakeScans(t, 30, threeRegions()...)
	c := fs.client(t)
	ctx := testContext(t, 10*time.Second)
	sc := c.NewScanner(ctx, mustScan(t, hrpc.NumberOfRows(2)))
	if !sc.Next() {
		t.Fatal(sc.Err())
	}
	sc.Close()
	waitFor(t, func() bool { return fs.closes.Load() == 1 }, "close_scanner after Close")
	if sc.Next() || sc.Err() != nil {
		t.Fatalf("Next after Close = true or Err %v, want false and nil", sc.Err())
	}

	// Cancelling the Scan's context closes the server-side scanner too.
	sctx, cancel := contextWithCancel(t)
	sc = c.NewScanner(sctx, mustScan(t, hrpc.NumberOfRows(2)))
	if !sc.Next() {
		t.Fatal(sc.Err())
	}
	cancel()
	waitFor(t, func() bool { return fs.closes.Load() == 2 }, "close_scanner after cancel")

	// Breaking out of a range loop closes it as well.
	for range c.Scan(ctx, mustScan(t, hrpc.NumberOfRows(2))) {
		break
	}
	waitFor(t, func() bool { return fs.closes.Load() == 3 }, "close_scanner after break")

	// The iterator's scanner runs under the caller's context: when it ends in the loop, the
	// rows already received come, then the context's error, and the server-side scanner is
	// closed.
	ictx, icancel := contextWithCancel(t)
	rows, loopErr := 0, error(nil)
	for _, err := range c.Scan(ictx, mustScan(t, hrpc.NumberOfRows(2))) {
		if err != nil {
			loopErr = err
			break
		}
		rows++
		icancel()
	}
	if rows != 2 || !errors.Is(loopErr, context.Canceled) {
		t.Fatalf("cancelled in the loop: %d rows, error %v; want the 2 rows received, then context.Canceled", rows, loopErr)
	}
	waitFor(t, func() bool { return fs.closes.Load() == 4 }, "close_scanner after the context ended in the loop")
	fs.mu.Lock()
	open := len(fs.open)
	fs.mu.Unlock()
	if open != 0 {
		t.Fatalf("%d scanners left open on the server", open)
	}
}

func TestScannerLimitAndLeaseRenewal(t *testing.T) {
	fs := newFakeScans(t, 30, threeRegions()...)
	c := fs.client(t, WithScannerLeaseRenewal(30*time.Millisecond))
	ctx := testContext(t, 10*time.Second)
	sc := c.NewScanner(ctx, mustScan(t, hrpc.NumberOfRows(4), hrpc.Limit(13)))
	if !sc.Next() {
		t.Fatal(sc.Err())
	}
	time.Sleep(150 * time.Millisecond) // a slow consumer
	if fs.renews.Load() == 0 {
		t.Fatal("no lease renewal while the consumer was idle")
	}
	got := 1 + len(drain(t, sc))
	if got != 13 {
		t.Fatalf("limit 13 returned %d rows", got)
	}
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// corruptScanResponse answers a scan RPC with results of the given cell counts over cells of
// the given rows, in that order.
func corruptScanResponse(counts []uint32, rows ...string) *fakeserver.Response {
	var cells []byte
	for _, r := range rows {
		cells = wire.AppendCell(cells, &wire.Cell{Row: []byte(r), Family: []byte("f"), Qualifier: []byte("q"), Type: wire.CellTypePut})
	}
	return &fakeserver.Response{Msg: &pb.ScanResponse{CellsPerResult: counts, ScannerId: proto.Uint64(1 << 40),
		MoreResults: proto.Bool(true), MoreResultsInRegion: proto.Bool(true)}, Cells: cells}
}

// TestScannerPiecesAcrossReopens: rows passed on in pieces (BatchSize) must come out once
// each, cell by cell, when the scan is reopened in between, also when the server flags a
// row's last piece as possibly incomplete (it does at a batch boundary): the scan then starts
// again at that row and drops the cells it returned already (the stress test found rows
// repeated before).
func TestScannerPiecesAcrossReopens(t *testing.T) {
	fs := newFakeScans(t, 30, threeRegions()...)
	fs.pieces, fs.morePieces = true, true
	fs.onNext = func(n int64) *fakeserver.Response {
		if n%3 == 2 {
			r := fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", "moved")}
			return &r
		}
		return nil
	}
	c := fs.client(t)
	ctx := testContext(t, 10*time.Second)
	var got, want []string
	for _, r := range fs.rows {
		want = append(want, r+":a", r+":q")
	}
	for res, err := range c.Scan(ctx, mustScan(t, hrpc.NumberOfRows(2), hrpc.BatchSize(1))) {
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Cells {
			got = append(got, string(c.Row)+":"+string(c.Qualifier))
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("cells = %v\nwant %v", got, want)
	}
}
