package engine

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/metarow"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// hostileSplits are split keys whose region names do not sort in byte order in hbase:meta:
// below ',' (0x2c), ',' itself and around it, and the top byte.
var hostileSplits = []string{"\x00", "\x00\x01\xff", "\x01", "\x10\xff\x00", "+", ",", ",,", "-", "\xff"}

// hostileTables are tables whose names sort around "t" in byte order but after all of t's
// rows in hbase:meta's order ("t,..." against "t-").
var hostileTables = []string{"t", "t-", "t.", "t0", "t_", "u"}

func hostileRegions() []fakeRegion {
	var regions []fakeRegion
	for _, table := range hostileTables {
		starts := append([]string{""}, hostileSplits...)
		for i, start := range starts {
			end := ""
			if i+1 < len(starts) {
				end = starts[i+1]
			}
			regions = append(regions, fakeRegion{table: table, start: start, end: end, id: uint64(i)})
		}
	}
	return regions
}

// metaScanResponse is a ScanResponse of hbase:meta holding rows in the order given.
func metaScanResponse(rows ...[]byte) (*pb.ScanResponse, []byte) {
	var cells []byte
	var counts []uint32
	for _, row := range rows {
		cells = wire.AppendCell(cells, &wire.Cell{Row: row, Family: infoFamily, Qualifier: serverCol,
			Type: wire.CellTypePut, Value: []byte("rs:16020")})
		counts = append(counts, 1)
	}
	return &pb.ScanResponse{CellsPerResult: counts}, cells
}

// TestScanCheckFollowsMetaOrder: the response check of a scan of hbase:meta accepts rows in
// hbase:meta's order (which is not byte order) and still rejects rows out of that order; a
// scan of a user table keeps byte order.
func TestScanCheckFollowsMetaOrder(t *testing.T) {
	var rows [][]byte
	for _, r := range hostileRegions() {
		rows = append(rows, r.name())
	}
	slices.SortFunc(rows, metarow.Compare)
	if slices.IsSortedFunc(rows, bytes.Compare) {
		t.Fatal("the rows are in byte order too: the test would not tell the orders apart")
	}
	reversed := slices.Clone(rows)
	slices.Reverse(reversed)
	for _, c := range []struct {
		name           string
		meta, reversed bool
		rows           [][]byte
		ok             bool
	}{
		{"meta forward", true, false, rows, true},
		{"meta reversed", true, true, reversed, true},
		{"meta forward, rows reversed", true, false, reversed, false},
		{"meta reversed, rows forward", true, true, rows, false},
		{"user table, the same rows", false, false, rows, false},
		{"user table, byte order", false, false, slices.SortedFunc(slices.Values(rows), bytes.Compare), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, cells := metaScanResponse(c.rows...)
			d := scanCheck{meta: c.meta, reversed: c.reversed}
			err := d.CheckResponse(resp, cells)
			if (err == nil) != c.ok {
				t.Fatalf("CheckResponse: %v, want ok %v", err, c.ok)
			}
			if c.ok && len(d.results) != len(c.rows) {
				t.Fatalf("%d results, want %d", len(d.results), len(c.rows))
			}
		})
	}
}

// TestMetaScansWithHostileSplitKeys scans hbase:meta of a fake cluster whose tables are split
// at keys below, at and around ',' next to tables named around "t": MetaRegions (Admin.Regions) lists every
// region of each table in key order at once, and the public Scanner returns every hbase:meta
// row exactly once in hbase:meta's order, in pages of 3 rows, also when the scanner expires in
// the middle and the scan reopens after the last row it returned (where a byte-order
// comparison drops the rows that follow "t,,..." as returned already).
func TestMetaScansWithHostileSplitKeys(t *testing.T) {
	regions := hostileRegions()
	fc := newFakeCluster(t, regions...)
	c := fc.client(t)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()

	for _, table := range hostileTables {
		got, err := c.MetaRegions(ctx, table)
		if err != nil {
			t.Fatalf("Regions(%q): %v", table, err)
		}
		var starts []string
		for _, r := range got {
			starts = append(starts, string(r.Start))
		}
		want := append([]string{""}, hostileSplits...)
		if !slices.Equal(starts, want) {
			t.Errorf("Regions(%q) start keys %q, want %q", table, starts, want)
		}
	}
	if _, err := c.MetaRegions(ctx, "t1"); !hberr.IsNotFound(err) {
		t.Errorf("Regions of a missing table: %v, want hberr.ErrTableNotFound", err)
	}

	var want []string
	for _, r := range regions {
		want = append(want, string(r.name()))
	}
	slices.SortFunc(want, func(a, b string) int { return metarow.Compare([]byte(a), []byte(b)) })
	for _, expire := range []bool{false, true} {
		t.Run(fmt.Sprintf("scanner expires: %v", expire), func(t *testing.T) {
			base := fc.metaScans.Load()
			fc.afterMeta = func(n int64, resp fakeserver.Response) fakeserver.Response {
				if expire && n == base+3 {
					return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.UnknownScannerException", "expired")}
				}
				return resp
			}
			defer func() { fc.afterMeta = nil }()
			scan, err := hrpc.NewScan(MetaTableName, hrpc.NumberOfRows(3))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for res, err := range c.Scan(ctx, scan) {
				if err != nil {
					t.Fatalf("scan of hbase:meta after %d rows: %v", len(got), err)
				}
				got = append(got, string(res.Cells[0].Row))
			}
			if !slices.Equal(got, want) {
				t.Errorf("scan of hbase:meta returned %d rows:\n%q\nwant %d:\n%q", len(got), got, len(want), want)
			}
		})
	}
}

// TestNewScanOfMetaOrdersStartAndStop: a Scan of hbase:meta checks its start and stop rows in
// hbase:meta's order, and refuses a Prefix that this order cannot turn into a range.
func TestNewScanOfMetaOrdersStartAndStop(t *testing.T) {
	start, stop := hrpc.StartRow([]byte("t,,")), hrpc.StopRow([]byte("t,\x00,"))
	if _, err := hrpc.NewScan(MetaTableName, start, stop); err != nil {
		t.Errorf("meta scan from t's first region to its \\x00 region: %v", err)
	}
	if _, err := hrpc.NewScan("t", start, stop); err == nil {
		t.Error("a user table's scan with its start row after its stop row in byte order was accepted")
	}
	if _, err := hrpc.NewScan(MetaTableName, hrpc.Prefix([]byte("t,"))); err == nil {
		t.Error("a Prefix holding ',' on hbase:meta was accepted")
	}
	if _, err := hrpc.NewScan(MetaTableName, hrpc.Prefix([]byte("t"))); err != nil {
		t.Errorf("Prefix without ',' on hbase:meta: %v", err)
	}
}
