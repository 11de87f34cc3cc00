package engine

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// Tests of the response integrity checks (issue 9): a response that cannot be the answer to
// its request is never returned as data. The connection is reset and the response logged once
// at error level with its bytes; reads are sent again, writes that must not be applied twice
// report hberr.ErrIndeterminate.

// logRecords collects the client's log records at error level.
type logRecords struct {
	mu   sync.Mutex
	recs []slog.Record
}

func (l *logRecords) Enabled(_ context.Context, lv slog.Level) bool { return lv >= slog.LevelError }
func (l *logRecords) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recs = append(l.recs, r.Clone())
	return nil
}
func (l *logRecords) WithAttrs(attrs []slog.Attr) slog.Handler { return l } // the logger's attrs are not checked
func (l *logRecords) WithGroup(string) slog.Handler            { return l }

// corruptLogs returns the attributes of each "corrupt response" record.
func (l *logRecords) corruptLogs() []map[string]string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]string
	for _, r := range l.recs {
		if !strings.Contains(r.Message, "corrupt response") {
			continue
		}
		m := map[string]string{}
		r.Attrs(func(a slog.Attr) bool { m[a.Key] = a.Value.String(); return true })
		out = append(out, m)
	}
	return out
}

func rowCells(row string, n int) []byte {
	var b []byte
	for range n {
		b = wire.AppendCell(b, &wire.Cell{Row: []byte(row), Family: []byte("f"), Qualifier: []byte("q"),
			Type: wire.CellTypePut, Value: []byte("value of " + row)})
	}
	return b
}

func oneCellResult(count int32) *pb.Result {
	return &pb.Result{AssociatedCellCount: proto.Int32(count)}
}

// checkEvidence checks that exactly one corrupt response was logged, with what an operator
// needs to find it.
func checkEvidence(t *testing.T, logs *logRecords, method string, bodyHas []byte) {
	t.Helper()
	recs := logs.corruptLogs()
	if len(recs) != 1 {
		t.Fatalf("%d corrupt-response log records, want 1: %v", len(recs), recs)
	}
	r := recs[0]
	for _, k := range []string{"call_id", "method", "region", "frame_len", "header", "body_head", "err"} {
		if r[k] == "" {
			t.Errorf("log record lacks %s: %v", k, r)
		}
	}
	if r["method"] != method {
		t.Errorf("logged method %q, want %q", r["method"], method)
	}
	if bodyHas != nil && !strings.Contains(r["body_head"], hex.EncodeToString(bodyHas)) {
		t.Errorf("body_head %s does not show the bytes %q", r["body_head"], bodyHas)
	}
}

func TestGetOfAnotherRowIsRetriedOnANewConnection(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply func(req *pb.GetRequest) fakeserver.Response
	}{
		{"cell of another row", func(*pb.GetRequest) fakeserver.Response {
			return fakeserver.Response{Msg: &pb.GetResponse{Result: oneCellResult(1)}, Cells: rowCells("someone else's row", 1)}
		}},
		{"fewer cells than announced", func(req *pb.GetRequest) fakeserver.Response {
			return fakeserver.Response{Msg: &pb.GetResponse{Result: oneCellResult(2)}, Cells: rowCells(string(req.GetGet().GetRow()), 1)}
		}},
		{"more cells than announced", func(req *pb.GetRequest) fakeserver.Response {
			return fakeserver.Response{Msg: &pb.GetResponse{Result: oneCellResult(1)}, Cells: rowCells(string(req.GetGet().GetRow()), 2)}
		}},
		{"cellblock that does not parse", func(*pb.GetRequest) fakeserver.Response {
			bad := rowCells("row", 1)
			copy(bad[4:], "0,179542") // the bytes of issue 9: key and value lengths from text
			return fakeserver.Response{Msg: &pb.GetResponse{Result: oneCellResult(1)}, Cells: bad}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
			fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
				if n == 1 {
					return tc.reply(req)
				}
				return fakeserver.Response{Msg: &pb.GetResponse{Result: oneCellResult(1)}, Cells: rowCells(string(req.GetGet().GetRow()), 1)}
			}
			logs := &logRecords{}
			c := fc.client(t, WithLogger(slog.New(logs)))
			res, err := c.Get(testContext(t, 5*time.Second), mustGetT(t, "t", "mine"))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Cells) != 1 || string(res.Cells[0].Row) != "mine" || string(res.Cells[0].Value) != "value of mine" {
				t.Fatalf("result %+v", res.Cells)
			}
			if n := fc.gets.Load(); n != 2 {
				t.Errorf("%d Gets reached the server, want 2 (the corrupt answer, then the retry)", n)
			}
			if n := fc.srv.Accepted(); n != 2 {
				t.Errorf("%d connections, want 2: the connection that carried the corrupt response is reset", n)
			}
			checkEvidence(t, logs, "Get", nil)
		})
	}
}

func TestAppendWithCorruptResultIsIndeterminate(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onMutate = func(_ int64, req *pb.MutateRequest) fakeserver.Response {
		// What issue 9's server sent: another request's bytes where the result should be.
		return fakeserver.Response{Msg: &pb.MutateResponse{Result: oneCellResult(1)}, Cells: rowCells("acc,c0,1795427574060.", 1)}
	}
	logs := &logRecords{}
	c := fc.client(t, WithLogger(slog.New(logs)))
	app, err := hrpc.NewAppend("t", []byte("mine"), hrpc.Value([]byte("f"), []byte("q"), []byte("x")))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Append(testContext(t, 5*time.Second), app)
	if !errors.Is(err, hberr.ErrIndeterminate) || !errors.Is(err, hberr.ErrCorruptResponse) || !errors.Is(err, wire.ErrForeignCells) {
		t.Fatalf("Append = %v, %v; want hberr.ErrIndeterminate wrapping hberr.ErrCorruptResponse and ErrForeignCells", res, err)
	}
	if n := fc.mutates.Load(); n != 1 {
		t.Errorf("%d Mutates reached the server, want 1: an Append is not sent again", n)
	}
	checkEvidence(t, logs, "Mutate", []byte("acc,c0,1795427574060."))
	// The client goes on working on a new connection.
	fc.onMutate = nil
	put, _ := hrpc.NewPut("t", []byte("mine"), hrpc.Value([]byte("f"), []byte("q"), []byte("x")))
	if _, err := c.Put(testContext(t, 5*time.Second), put); err != nil {
		t.Fatal(err)
	}
}

func TestCheckAndMutateWithCorruptResultIsIndeterminate(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onMutate = func(int64, *pb.MutateRequest) fakeserver.Response {
		return fakeserver.Response{Msg: &pb.MutateResponse{Processed: proto.Bool(true), Result: oneCellResult(2)}, Cells: rowCells("mine", 1)}
	}
	c := fc.client(t, WithLogger(slog.New(&logRecords{})))
	put, _ := hrpc.NewPut("t", []byte("mine"), hrpc.Value([]byte("f"), []byte("q"), []byte("x")))
	cam, err := hrpc.NewCheckAndMutate(hrpc.IfNotExists([]byte("f"), []byte("q")), put)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CheckAndMutate(testContext(t, 5*time.Second), cam); !errors.Is(err, hberr.ErrIndeterminate) {
		t.Fatalf("CheckAndMutate = %v, want hberr.ErrIndeterminate", err)
	}
	if n := fc.mutates.Load(); n != 1 {
		t.Errorf("%d Mutates reached the server, want 1", n)
	}
}

func TestUndecodableMessageIsRetried(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onGet = func(n int64, req *pb.GetRequest) fakeserver.Response {
		if n == 1 {
			// A well-framed response whose message is not a GetResponse: field 1 (result) as
			// a varint instead of a message.
			return fakeserver.Response{Msg: rawMessage(protowire.AppendTag(nil, 1, protowire.BytesType))}
		}
		return fakeserver.Response{Msg: &pb.GetResponse{Result: oneCellResult(1)}, Cells: rowCells(string(req.GetGet().GetRow()), 1)}
	}
	logs := &logRecords{}
	c := fc.client(t, WithLogger(slog.New(logs)))
	if _, err := c.Get(testContext(t, 5*time.Second), mustGetT(t, "t", "mine")); err != nil {
		t.Fatal(err)
	}
	if n := fc.gets.Load(); n != 2 {
		t.Errorf("%d Gets, want 2", n)
	}
	checkEvidence(t, logs, "Get", nil)
}

// rawMessage is a proto.Message whose marshalled form is given bytes (pb.Cell's unknown
// fields carry them: the fake server marshals it as they are).
func rawMessage(b []byte) proto.Message {
	m := &pb.Cell{}
	m.ProtoReflect().SetUnknown(b)
	return m
}

func TestBatchWithCorruptResponse(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onMulti = func(n int64, req *pb.MultiRequest) fakeserver.Response {
		resp := fc.multi(n, req)
		if n == 1 {
			// The Get's cell is of another row.
			resp.Cells = bytes.ReplaceAll(resp.Cells, []byte("mine"), []byte("mina"))
		}
		return resp
	}
	c := fc.client(t, WithLogger(slog.New(&logRecords{})))
	get := mustGetT(t, "t", "mine")
	inc, _ := hrpc.NewIncrement("t", []byte("other"), hrpc.Amount([]byte("f"), []byte("n"), 1))
	put, _ := hrpc.NewPut("t", []byte("third"), hrpc.Value([]byte("f"), []byte("q"), []byte("x")))
	res := c.SendBatch(testContext(t, 5*time.Second), []hrpc.Batchable{get, inc, put})
	if res[0].Err != nil || string(res[0].Result.Cells[0].Row) != "mine" {
		t.Errorf("Get = %+v, %v; want its row, read again", res[0].Result, res[0].Err)
	}
	if !errors.Is(res[1].Err, hberr.ErrIndeterminate) || !errors.Is(res[1].Err, hberr.ErrCorruptResponse) {
		t.Errorf("Increment = %v, want hberr.ErrIndeterminate", res[1].Err)
	}
	if res[2].Err != nil {
		t.Errorf("Put = %v, want it sent again", res[2].Err)
	}
	if n := fc.multis.Load(); n != 2 {
		t.Errorf("%d Multis, want 2", n)
	}
}

func TestIncrementWithCorruptResultIsIndeterminate(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onMutate = func(int64, *pb.MutateRequest) fakeserver.Response {
		return fakeserver.Response{Msg: &pb.MutateResponse{Result: oneCellResult(1)}, Cells: rowCells("someone else's row", 1)}
	}
	logs := &logRecords{}
	c := fc.client(t, WithLogger(slog.New(logs)))
	inc, err := hrpc.NewIncrement("t", []byte("mine"), hrpc.Amount([]byte("f"), []byte("n"), 1))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Increment(testContext(t, 5*time.Second), inc)
	if !errors.Is(err, hberr.ErrIndeterminate) || !errors.Is(err, wire.ErrForeignCells) || hberr.IsRetryable(err) {
		t.Fatalf("Increment = %v, %v; want hberr.ErrIndeterminate wrapping ErrForeignCells, not retryable", res, err)
	}
	if n := fc.mutates.Load(); n != 1 {
		t.Errorf("%d Mutates reached the server, want 1: an Increment is not sent again", n)
	}
	checkEvidence(t, logs, "Mutate", []byte("someone else's row"))
}

func TestMutateRowWithCorruptResultIsIndeterminate(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onMulti = func(n int64, req *pb.MultiRequest) fakeserver.Response {
		resp := fc.multi(n, req)
		// A result that announces a cell the response does not carry.
		resp.Msg.(*pb.MultiResponse).RegionActionResult[0].ResultOrException[0].Result = oneCellResult(1)
		return resp
	}
	c := fc.client(t, WithLogger(slog.New(&logRecords{})))
	put, _ := hrpc.NewPut("t", []byte("mine"), hrpc.Value([]byte("f"), []byte("a"), []byte("x")))
	del, _ := hrpc.NewDelete("t", []byte("mine"), hrpc.DeleteColumn([]byte("f"), []byte("b")))
	rm, err := hrpc.NewRowMutations([]hrpc.Mutation{put, del})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.MutateRow(testContext(t, 5*time.Second), rm); !errors.Is(err, hberr.ErrIndeterminate) || !errors.Is(err, hberr.ErrCorruptResponse) {
		t.Fatalf("MutateRow = %v, want hberr.ErrIndeterminate wrapping hberr.ErrCorruptResponse", err)
	}
	if n := fc.multis.Load(); n != 1 {
		t.Errorf("%d Multis reached the server, want 1: MutateRow is not sent again", n)
	}
}

func TestPutWithCorruptResponseIsSentAgain(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.onMutate = func(n int64, req *pb.MutateRequest) fakeserver.Response {
		if n == 1 { // a Put's answer carries no cells; these belong to someone else
			return fakeserver.Response{Msg: &pb.MutateResponse{}, Cells: rowCells("someone else's row", 1)}
		}
		return fakeserver.Response{Msg: &pb.MutateResponse{}}
	}
	logs := &logRecords{}
	c := fc.client(t, WithLogger(slog.New(logs)))
	put, _ := hrpc.NewPut("t", []byte("mine"), hrpc.Value([]byte("f"), []byte("q"), []byte("x")))
	if _, err := c.Put(testContext(t, 5*time.Second), put); err != nil {
		t.Fatalf("Put = %v; want it sent again and acknowledged", err)
	}
	if n := fc.mutates.Load(); n != 2 {
		t.Errorf("%d Mutates reached the server, want 2 (the corrupt answer, then the resend)", n)
	}
	if n := fc.srv.Accepted(); n != 2 {
		t.Errorf("%d connections, want 2: the connection that carried the corrupt response is reset", n)
	}
	checkEvidence(t, logs, "Mutate", []byte("someone else's row"))
}

func TestCorruptMetaLookupIsReadAgain(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	fc.afterMeta = func(n int64, resp fakeserver.Response) fakeserver.Response {
		if n == 1 { // one cell fewer than the response announces
			counts := resp.Msg.(*pb.ScanResponse).CellsPerResult
			counts[0]++
		}
		return resp
	}
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response {
		return fakeserver.Response{Msg: &pb.GetResponse{Result: oneCellResult(1)}, Cells: rowCells(string(req.GetGet().GetRow()), 1)}
	}
	logs := &logRecords{}
	c := fc.client(t, WithLogger(slog.New(logs)))
	res, err := c.Get(testContext(t, 5*time.Second), mustGetT(t, "t", "mine"))
	if err != nil || len(res.Cells) != 1 || string(res.Cells[0].Row) != "mine" {
		t.Fatalf("Get = %+v, %v; want the row after hbase:meta was read again", res, err)
	}
	if n := fc.metaScans.Load(); n != 2 {
		t.Errorf("%d meta scans, want 2 (the corrupt answer, then the lookup again)", n)
	}
	checkEvidence(t, logs, "Scan", nil)
}
