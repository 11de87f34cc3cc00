package engine

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
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

// wideScans serves scans of table "t" over wide rows the way a region server cuts them: each
// result holds at most the Scan's batch size of cells and is flagged "may have more cells in
// the row" when it is full, and each RPC holds at most budget cells (the server's size limit),
// so a batch can end early and a row can continue in the next RPC.
type wideScans struct {
	fc      *fakeCluster
	rows    []wideRow
	budget  int  // cells per RPC
	flagEnd bool // flag every row's last piece as possibly incomplete (as when a filter drops its tail)
	onNext  func(n int64) *fakeserver.Response
	calls   atomic.Int64

	mu     sync.Mutex
	nextID uint64
	open   map[uint64]*wideScanner
	sent   []string // "row:cells[+]" of every result sent, + when flagged partial
}

type wideRow struct {
	key   string
	cells int
}

type wideCell struct {
	row     string
	q       int
	lastRow bool // the row's last cell
}

type wideScanner struct {
	cells []wideCell // still to send, in scan order
	batch int
}

func qual(i int) []byte { return fmt.Appendf(nil, "q%03d", i) }

func newWideScans(t *testing.T, budget int, rows ...wideRow) *wideScans {
	regions := []fakeRegion{{table: "t", start: "", end: "m", id: 1}, {table: "t", start: "m", end: "", id: 2}}
	ws := &wideScans{rows: rows, budget: budget, open: map[uint64]*wideScanner{}}
	ws.fc = newFakeCluster(t, regions...)
	return ws
}

func (ws *wideScans) region(name []byte) (fakeRegion, bool) {
	for _, r := range ws.fc.regions {
		if bytes.Equal(r.name(), name) {
			return r, true
		}
	}
	return fakeRegion{}, false
}

func (ws *wideScans) handle(req *pb.ScanRequest) fakeserver.Response {
	n := ws.calls.Add(1)
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if req.GetCloseScanner() {
		delete(ws.open, req.GetScannerId())
		return fakeserver.Response{Msg: &pb.ScanResponse{}}
	}
	if ws.onNext != nil {
		if resp := ws.onNext(n); resp != nil {
			delete(ws.open, req.GetScannerId())
			return *resp
		}
	}
	var sc *wideScanner
	var id uint64
	if req.ScannerId == nil {
		reg, ok := ws.region(req.GetRegion().GetValue())
		if !ok {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", "no region")}
		}
		s := req.GetScan()
		rows := slices.Clone(ws.rows)
		if s.GetReversed() {
			slices.Reverse(rows)
		}
		sc = &wideScanner{batch: int(s.GetBatchSize())}
		for _, row := range rows {
			b := []byte(row.key)
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
			for q := range row.cells {
				sc.cells = append(sc.cells, wideCell{row: row.key, q: q, lastRow: q == row.cells-1})
			}
		}
		ws.nextID++
		id = ws.nextID
		ws.open[id] = sc
	} else {
		id = req.GetScannerId()
		if sc = ws.open[id]; sc == nil {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.UnknownScannerException", "no scanner")}
		}
	}
	resp := &pb.ScanResponse{ScannerId: proto.Uint64(id), MoreResults: proto.Bool(true)}
	var cells []byte
	budget, inResult := ws.budget, 0
	for budget > 0 && len(sc.cells) > 0 {
		c := sc.cells[0]
		sc.cells = sc.cells[1:]
		cells = wire.AppendCell(cells, &wire.Cell{Row: []byte(c.row), Family: famF, Qualifier: qual(c.q),
			Type: wire.CellTypePut, Value: []byte("v")})
		budget--
		inResult++
		full := sc.batch > 0 && inResult == sc.batch
		if c.lastRow || full || budget == 0 {
			partial := !c.lastRow || full || ws.flagEnd
			resp.CellsPerResult = append(resp.CellsPerResult, uint32(inResult))
			resp.PartialFlagPerResult = append(resp.PartialFlagPerResult, partial)
			ws.sent = append(ws.sent, shape(c.row, inResult, partial))
			inResult = 0
		}
	}
	resp.MoreResultsInRegion = proto.Bool(len(sc.cells) > 0)
	if len(sc.cells) == 0 {
		delete(ws.open, id)
	}
	return fakeserver.Response{Msg: resp, Cells: cells}
}

func shape(row string, cells int, partial bool) string {
	s := fmt.Sprintf("%s:%d", row, cells)
	if partial {
		s += "+"
	}
	return s
}

func (ws *wideScans) client(t *testing.T) *Client {
	metaHandle := ws.fc.handle
	ws.fc.srv.Close()
	srv, err := fakeserver.Start(fakeserver.Options{Handler: func(r *fakeserver.Request) fakeserver.Response {
		if r.Method == "Scan" {
			var req pb.ScanRequest
			if err := r.Unmarshal(&req); err == nil && !bytes.Equal(req.GetRegion().GetValue(), metaRegionName) {
				return ws.handle(&req)
			}
		}
		return metaHandle(r)
	}})
	if err != nil {
		t.Fatal(err)
	}
	ws.fc.srv = srv
	t.Cleanup(func() { srv.Close() })
	return ws.fc.client(t)
}

// scanShapes runs a scan to its end and returns the shape of each result ("row:cells", "+"
// when Partial) and every cell as "row/qualifier", in the order returned.
func scanShapes(t *testing.T, c *Client, opts ...hrpc.ScanOption) (shapes, cells []string) {
	t.Helper()
	ctx := testContext(t, 10*time.Second)
	for res, err := range c.Scan(ctx, mustScan(t, opts...)) {
		if err != nil {
			t.Fatalf("Next after %v: %v", shapes, err)
		}
		row := string(res.Cells[0].Row)
		for _, c := range res.Cells {
			if string(c.Row) != row {
				t.Fatalf("result of row %q holds a cell of row %q", row, c.Row)
			}
			cells = append(cells, row+"/"+string(c.Qualifier))
		}
		shapes = append(shapes, shape(row, len(res.Cells), res.Partial))
	}
	return shapes, cells
}

// javaBatches is what the Java client's Scan.setBatch(batch) returns for rows (without
// allow-partial-results): each row in results of batch cells, its last result smaller when
// the row's width is not a multiple of batch. Only the count is given here; the Partial flag
// is checked apart (javaPartialFlags).
func javaBatches(batch int, reversed bool, rows ...wideRow) (shapes, cells []string) {
	rows = slices.Clone(rows)
	if reversed {
		slices.Reverse(rows)
	}
	for _, r := range rows {
		for i := 0; i < r.cells; i += batch {
			shapes = append(shapes, fmt.Sprintf("%s:%d", r.key, min(batch, r.cells-i)))
		}
		for q := range r.cells {
			cells = append(cells, r.key+"/"+string(qual(q)))
		}
	}
	return shapes, cells
}

// checkPartialFlags checks the Partial flags of a batched scan as Java sets them: every
// result of a row but its last may have more cells; the last one does unless it is short
// (a full last batch may carry the server's "may have more" flag, as in Java).
func checkPartialFlags(t *testing.T, shapes []string, batch int) {
	t.Helper()
	for i, s := range shapes {
		row, rest, _ := strings.Cut(s, ":")
		last := i == len(shapes)-1 || !strings.HasPrefix(shapes[i+1], row+":")
		partial := strings.HasSuffix(rest, "+")
		var n int
		fmt.Sscanf(strings.TrimSuffix(rest, "+"), "%d", &n)
		switch {
		case !last && !partial:
			t.Errorf("result %d (%s) is not the row's last but not Partial", i, s)
		case last && partial && n < batch:
			t.Errorf("result %d (%s) is the row's short last piece but Partial", i, s)
		}
	}
}

func stripFlags(shapes []string) []string {
	out := make([]string, len(shapes))
	for i, s := range shapes {
		out[i] = strings.TrimSuffix(s, "+")
	}
	return out
}

var wideRows = []wideRow{{"a", 10}, {"b", 3}, {"c", 14}, {"d", 1}, {"e", 20}, {"m", 7}, {"n", 16}, {"o", 2}}

// TestScanBatchMatchesJava: whatever the server's size limit cuts, a batched scan returns
// each row in full batches as Java's client does: batches ended early by the RPC's size
// limit and resumed in the next RPC, rows split across RPCs (one cell per RPC at the
// extreme), the last piece of a row, regions boundaries, reversed scans, and scanners reopened
// in the middle of a row.
func TestScanBatchMatchesJava(t *testing.T) {
	const batch = 7
	// Faults at a few RPCs, not periodic ones: a batch that needs more RPCs than the period
	// would never complete, since a reopen drops the cells not returned yet (as in Java).
	at := func(class string, rpcs ...int64) func(n int64) *fakeserver.Response {
		return func(n int64) *fakeserver.Response {
			if slices.Contains(rpcs, n) {
				return &fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase."+class, "injected")}
			}
			return nil
		}
	}
	moved := func(rpcs ...int64) func(n int64) *fakeserver.Response {
		return at("NotServingRegionException", rpcs...)
	}
	expired := at("UnknownScannerException", 3, 9, 16, 24)
	for _, tc := range []struct {
		name     string
		budget   int
		reversed bool
		flagEnd  bool
		fault    func(n int64) *fakeserver.Response
	}{
		{name: "batch ended early and resumed", budget: 5},
		{name: "row split across RPCs", budget: 1},
		{name: "several rows per RPC", budget: 25},
		{name: "budget of exactly one batch", budget: batch},
		{name: "last pieces flagged incomplete", budget: 5, flagEnd: true},
		{name: "reversed", budget: 4, reversed: true},
		{name: "reopened mid-row", budget: 3, fault: moved(3, 5, 11, 18, 26)},
		{name: "expired mid-row, last pieces flagged", budget: 4, flagEnd: true, fault: expired},
		{name: "reversed reopened mid-row", budget: 6, reversed: true, fault: moved(2, 7, 12, 20)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := newWideScans(t, tc.budget, wideRows...)
			ws.flagEnd = tc.flagEnd
			var faults atomic.Int64
			if tc.fault != nil {
				ws.onNext = func(n int64) *fakeserver.Response {
					r := tc.fault(n)
					if r != nil {
						faults.Add(1)
					}
					return r
				}
			}
			c := ws.client(t)
			opts := []hrpc.ScanOption{hrpc.BatchSize(batch)}
			if tc.reversed {
				opts = append(opts, hrpc.Reversed())
			}
			shapes, cells := scanShapes(t, c, opts...)
			wantShapes, wantCells := javaBatches(batch, tc.reversed, wideRows...)
			if got := stripFlags(shapes); !slices.Equal(got, wantShapes) {
				t.Fatalf("results = %v\nwant      %v (server sent %v)", got, wantShapes, ws.sent)
			}
			if !slices.Equal(cells, wantCells) {
				t.Fatalf("cells = %v\nwant %v", cells, wantCells)
			}
			checkPartialFlags(t, shapes, batch)
			if tc.fault != nil && faults.Load() < 2 {
				t.Fatalf("only %d faults injected", faults.Load())
			}
			if tc.budget%batch != 0 && slices.Equal(stripFlags(ws.sent), wantShapes) {
				t.Fatal("the server sent full batches: the test does not test regrouping")
			}
		})
	}
}

// TestScanBatchAllowPartialPassesPieces: with AllowPartialResults the pieces go to the caller
// as the server sent them (Java's AllowPartialScanResultCache), batch size or not.
func TestScanBatchAllowPartialPassesPieces(t *testing.T) {
	for _, batch := range []int{0, 7} {
		t.Run(fmt.Sprint("batch ", batch), func(t *testing.T) {
			ws := newWideScans(t, 5, wideRows...)
			c := ws.client(t)
			opts := []hrpc.ScanOption{hrpc.AllowPartialResults()}
			if batch > 0 {
				opts = append(opts, hrpc.BatchSize(batch))
			}
			shapes, cells := scanShapes(t, c, opts...)
			if !slices.Equal(shapes, ws.sent) {
				t.Fatalf("results = %v\nserver sent %v", shapes, ws.sent)
			}
			if _, want := javaBatches(1, false, wideRows...); !slices.Equal(cells, want) {
				t.Fatalf("cells = %v\nwant %v", cells, want)
			}
		})
	}
}

// TestScanBatchLimitCountsRows: a limit counts rows, not results, when rows come in batches.
func TestScanBatchLimitCountsRows(t *testing.T) {
	for _, flagEnd := range []bool{false, true} {
		t.Run(fmt.Sprint("flagEnd ", flagEnd), func(t *testing.T) {
			ws := newWideScans(t, 5, wideRows...)
			ws.flagEnd = flagEnd
			c := ws.client(t)
			shapes, _ := scanShapes(t, c, hrpc.BatchSize(7), hrpc.Limit(3))
			want, _ := javaBatches(7, false, wideRows[:3]...)
			if got := stripFlags(shapes); !slices.Equal(got, want) {
				t.Fatalf("results = %v\nwant      %v", got, want)
			}
		})
	}
}

// TestScanBatchRegroup checks the regrouping alone on crafted pieces, including a piece
// larger than a batch and a row that ends with the next row's piece.
func TestScanBatchRegroup(t *testing.T) {
	piece := func(row string, from, to int, partial bool) *hrpc.Result {
		r := &hrpc.Result{Partial: partial}
		for q := from; q < to; q++ {
			r.Cells = append(r.Cells, hrpc.Cell{Row: []byte(row), Qualifier: qual(q)})
		}
		return r
	}
	b := scanBatches{size: 4}
	var got []string
	emit := func(r *hrpc.Result) {
		got = append(got, shape(string(r.Cells[0].Row), len(r.Cells), r.Partial)+"@"+string(r.Cells[0].Qualifier))
	}
	b.add(piece("a", 0, 3, true), emit)  // short: held
	b.add(piece("a", 3, 5, true), emit)  // a:4 out, 1 held
	b.add(piece("a", 5, 15, true), emit) // 11 cells: two batches out, 3 held
	b.add(piece("b", 0, 4, false), emit) // row change: a's 3 out, then b whole
	b.add(piece("c", 0, 2, true), emit)
	b.endRow(emit) // region end
	b.add(piece("d", 0, 2, true), emit)
	b.reset() // reopened: d's cells come again
	b.add(piece("d", 0, 5, false), emit)
	want := []string{"a:4+@q000", "a:4+@q004", "a:4+@q008", "a:3@q012", "b:4@q000", "c:2@q000", "d:4+@q000", "d:1@q004"}
	if !slices.Equal(got, want) {
		t.Fatalf("batches = %v\nwant      %v", got, want)
	}
}
