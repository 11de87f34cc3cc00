package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"log/slog"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
)

// TestDeltasIntactOnAServerThatReusesReleasedBuffers runs every way the client sends an Append
// or Increment against a cluster whose RPC servers overwrite a request's buffer as soon as
// they release it (hbasetest.Options.PoisonReleasedBuffers). The servers return, for a column
// with no value yet, the request's own cell after releasing the request
// (region/server_release_test.go shows the bytes); the client sends deltas in the message
// so that the cell is the server's copy, and every result here must be intact.
func TestDeltasIntactOnAServerThatReusesReleasedBuffers(t *testing.T) {
	if hbasetest.Skipped() {
		t.Skip("integration test: starts its own HBase mini cluster")
	}
	cl := hbasetest.StartT(t, hbasetest.Options{RegionServers: 1, PoisonReleasedBuffers: true})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const table = "deltas"
	if err := cl.CreateTable(ctx, table, []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	logs := &logRecords{}
	c, err := NewClient(cl.ZKQuorum, WithZNodeParent(cl.ZNodeParent), WithLogger(slog.New(logs)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tb := table
	wantCell := func(t *testing.T, what string, cells []hrpc.Cell, row, qual, value []byte) {
		t.Helper()
		if len(cells) != 1 || !bytes.Equal(cells[0].Row, row) || !bytes.Equal(cells[0].Family, famF) ||
			!bytes.Equal(cells[0].Qualifier, qual) || !bytes.Equal(cells[0].Value, value) {
			t.Errorf("%s: cells %+v, want %s/f:%s = %q", what, cells, row, qual, value)
		}
	}
	count := binary.BigEndian.AppendUint64(nil, 5)

	t.Run("Append and Increment", func(t *testing.T) {
		app, _ := hrpc.NewAppend(tb, []byte("r1"), hrpc.Value(famF, []byte("a"), []byte("first value")))
		res, err := c.Append(ctx, app)
		if err != nil {
			t.Fatal(err)
		}
		wantCell(t, "Append", res.Cells, []byte("r1"), []byte("a"), []byte("first value"))
		inc, _ := hrpc.NewIncrement(tb, []byte("r1"), hrpc.Amount(famF, []byte("n"), 5))
		if res, err = c.Increment(ctx, inc); err != nil {
			t.Fatal(err)
		}
		wantCell(t, "Increment", res.Cells, []byte("r1"), []byte("n"), count)
	})
	t.Run("batched", func(t *testing.T) {
		app, _ := hrpc.NewAppend(tb, []byte("r2"), hrpc.Value(famF, []byte("a"), []byte("batched value")))
		inc, _ := hrpc.NewIncrement(tb, []byte("r3"), hrpc.Amount(famF, []byte("n"), 5))
		res := c.SendBatch(ctx, []hrpc.Batchable{app, inc})
		if res[0].Err != nil || res[1].Err != nil {
			t.Fatal(res[0].Err, res[1].Err)
		}
		wantCell(t, "batched Append", res[0].Result.Cells, []byte("r2"), []byte("a"), []byte("batched value"))
		wantCell(t, "batched Increment", res[1].Result.Cells, []byte("r3"), []byte("n"), count)
	})
	t.Run("CheckAndMutate of row mutations", func(t *testing.T) {
		put, _ := hrpc.NewPut(tb, []byte("r4"), hrpc.Value(famF, []byte("p"), []byte("x")))
		app, _ := hrpc.NewAppend(tb, []byte("r4"), hrpc.Value(famF, []byte("a"), []byte("conditional value")))
		rm, err := hrpc.NewRowMutations([]hrpc.Mutation{put, app})
		if err != nil {
			t.Fatal(err)
		}
		cam, err := hrpc.NewCheckAndMutateRow(hrpc.IfNotExists(famF, []byte("p")), rm)
		if err != nil {
			t.Fatal(err)
		}
		resp, cells, err := c.Send(ctx, hrpcwire.CheckAndMutate(cam)) // CheckAndMutate drops the result; the decoding keeps it
		if err != nil {
			t.Fatal(err)
		}
		ok, res, err := hrpcwire.DecodeCheckAndMutate(cam, resp, cells)
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		wantCell(t, "CheckAndMutate's Append", res.Cells, []byte("r4"), []byte("a"), []byte("conditional value"))
	})
	if recs := logs.corruptLogs(); len(recs) > 0 {
		t.Errorf("corrupt responses: %v", recs)
	}
}
