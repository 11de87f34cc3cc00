package admin

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/metarow"
	"github.com/go-hbase/hbase/internal/wire"
)

// hbase:meta does not keep its rows in byte order (internal/metarow). These tests run the
// calls that read hbase:meta against tables whose region names put that order to the test:
// split keys below ',' (0x2c), at it and around it, next to tables whose names sort around
// each other ("meta_t" and "meta_t-": every "meta_t,..." row sorts before "meta_t-" in
// hbase:meta, after it in byte order).
//
// The tables are a fixture of the shared cluster: created by the first test that asks
// (every admin test does, through newAdminTestClient), they stay until the cluster stops, so
// every scan of hbase:meta by a later test passes over their rows.

// metaFixtureTables sort after the admin tests' tables ("adm..."), so the admin tests'
// hbase:meta scans, which read to the end of hbase:meta in one batch, meet their rows.
var metaFixtureTables = []string{"meta_t", "meta_t-", "meta_t.", "meta_t0", "meta_t_"}

var metaFixture struct {
	mu   sync.Mutex
	done bool
}

// metaFixtureSplits returns the fixture's split keys (hostileSplits, meta_order_test.go).
func metaFixtureSplits() [][]byte {
	var out [][]byte
	for _, s := range hostileSplits {
		out = append(out, []byte(s))
	}
	return out
}

// ensureMetaFixture creates the fixture tables in the shared cluster, once.
func ensureMetaFixture(t testing.TB, c *hbase.Client) {
	t.Helper()
	metaFixture.mu.Lock()
	defer metaFixture.mu.Unlock()
	if metaFixture.done {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	a := New(c)
	for _, name := range metaFixtureTables {
		if ok, err := a.TableExists(ctx, name); err != nil {
			t.Fatalf("fixture %s: %v", name, err)
		} else if ok {
			continue
		}
		desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
		if err != nil {
			t.Fatal(err)
		}
		if err := a.CreateTable(ctx, desc, hrpc.SplitKeys(metaFixtureSplits()...)); err != nil {
			t.Fatalf("creating fixture table %s: %v", name, err)
		}
	}
	metaFixture.done = true
}

// newAdminTestClient is newTestClient with the hbase:meta fixture in the cluster.
func newAdminTestClient(t *testing.T, opts ...hbase.Option) *hbase.Client {
	t.Helper()
	c := newTestClient(t, opts...)
	ensureMetaFixture(t, c)
	return c
}

// metaCallCtx bounds one call of these tests: 30 s, far below the test's own time, so that a
// call that retries a correct answer as corrupt fails the test at its deadline instead of
// passing late.
func metaCallCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// regionRows returns a row inside each region that can hold one (the first region, ["",
// "\x00"), holds no row: no non-empty key sorts before "\x00").
func regionRows(rs []*hrpc.Region) [][]byte {
	var rows [][]byte
	for _, r := range rs {
		if len(r.Start) > 0 {
			rows = append(rows, r.Start)
		}
	}
	return rows
}

// TestMetaOrderAgainstHBase runs every call that reads hbase:meta on the fixture tables
// against the real server: Regions, Region by full and encoded name, Puts, Gets, Increments,
// a batch and scans on every region, FlushTable, CompactTable, Snapshot, a scan of hbase:meta
// through the public Scanner in small pages; then, on two of the tables, SplitTable,
// SplitRegion, MergeRegions and TruncateTable preserving the splits.
func TestMetaOrderAgainstHBase(t *testing.T) {
	c := newAdminTestClient(t)
	a := New(c)
	want := append([]string{""}, hostileSplits...)

	for _, table := range metaFixtureTables {
		t.Run(table, func(t *testing.T) {
			ctx := metaCallCtx(t)
			rs, err := a.Regions(ctx, table)
			if err != nil {
				t.Fatalf("Regions: %v", err)
			}
			if got := regionStarts(rs); !slices.Equal(got, want) {
				t.Fatalf("Regions start keys %q, want %q", got, want)
			}
			for _, r := range rs {
				for _, name := range [][]byte{r.Name, []byte(r.Encoded)} {
					got, err := a.Region(ctx, name)
					if err != nil {
						t.Fatalf("Region(%q): %v", name, err)
					}
					if !bytes.Equal(got.Name, r.Name) || !bytes.Equal(got.Start, r.Start) {
						t.Fatalf("Region(%q) = %q, want %q", name, got.Name, r.Name)
					}
				}
			}

			rows := regionRows(rs)
			var gets []hrpc.Batchable
			for _, row := range rows {
				put, err := hrpc.NewPut(table, row, hrpc.Value([]byte("f"), []byte("q"), row))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := c.Put(ctx, put); err != nil {
					t.Fatalf("Put %q: %v", row, err)
				}
				inc, err := hrpc.NewIncrement(table, row, hrpc.Amount([]byte("f"), []byte("n"), 1))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := c.Increment(ctx, inc); err != nil {
					t.Fatalf("Increment %q: %v", row, err)
				}
				get, err := hrpc.NewGet(table, row, hrpc.Columns([]byte("f"), []byte("q")))
				if err != nil {
					t.Fatal(err)
				}
				res, err := c.Get(ctx, get)
				if err != nil || len(res.Cells) != 1 || !bytes.Equal(res.Cells[0].Value, row) {
					t.Fatalf("Get %q = %v, %v", row, res, err)
				}
				gets = append(gets, get)
			}
			for i, br := range c.SendBatch(ctx, gets) {
				if br.Err != nil {
					t.Fatalf("batch Get %q: %v", rows[i], br.Err)
				}
			}
			for _, reversed := range []bool{false, true} {
				var opts []hrpc.ScanOption
				wantRows := slices.Clone(rows)
				if reversed {
					opts = append(opts, hrpc.Reversed())
					slices.Reverse(wantRows)
				}
				var got [][]byte
				for _, r := range opsScanAll(t, c, ctx, table, opts...) {
					got = append(got, r.Cells[0].Row)
				}
				if !slices.EqualFunc(got, wantRows, bytes.Equal) {
					t.Fatalf("scan (reversed %v) rows %q, want %q", reversed, got, wantRows)
				}
			}

			if err := a.FlushTable(ctx, table); err != nil {
				t.Fatalf("FlushTable: %v", err)
			}
			if err := a.CompactTable(ctx, table, false); err != nil {
				t.Fatalf("CompactTable: %v", err)
			}
			snap := "snap_" + sanitize(table)
			if err := a.Snapshot(ctx, snap, table); err != nil {
				t.Fatalf("Snapshot: %v", err)
			}
			if err := a.DeleteSnapshot(ctx, snap); err != nil {
				t.Fatalf("DeleteSnapshot: %v", err)
			}
		})
	}

	// The longest row HBase takes, by a client that has not cached its region: the lookup key
	// ("table,row,99999999999999") is longer than any row, so it is cut (internal/wire's
	// metaLookupKey); the server refused it and the client retried until the deadline.
	t.Run("the longest row", func(t *testing.T) {
		ctx := metaCallCtx(t)
		table := metaFixtureTables[0]
		row := append([]byte(","), bytes.Repeat([]byte{0}, math.MaxInt16-1)...) // in [",", ",,")
		fresh := newTestClient(t)
		put, err := hrpc.NewPut(table, row, hrpc.Value([]byte("f"), []byte("q"), []byte("long")))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fresh.Put(ctx, put); err != nil {
			t.Fatalf("Put of a %d-byte row: %v", len(row), err)
		}
		fresh = newTestClient(t)
		get, err := hrpc.NewGet(table, row)
		if err != nil {
			t.Fatal(err)
		}
		if res, err := fresh.Get(ctx, get); err != nil || len(res.Cells) != 1 || string(res.Cells[0].Value) != "long" {
			t.Fatalf("Get of a %d-byte row: %v, %v", len(row), res, err)
		}
		// A reversed scan from the row looks up the region before it.
		fresh = newTestClient(t)
		scan, err := hrpc.NewScan(table, hrpc.StartRow(row), hrpc.Reversed(), hrpc.Limit(2))
		if err != nil {
			t.Fatal(err)
		}
		var got [][]byte
		for res, err := range fresh.Scan(ctx, scan) {
			if err != nil {
				t.Fatalf("reversed scan from a %d-byte row: %v", len(row), err)
			}
			got = append(got, res.Cells[0].Row)
		}
		if len(got) != 2 || !bytes.Equal(got[0], row) || string(got[1]) != "," {
			t.Fatalf("reversed scan from the long row: %d rows, want it and \",\"", len(got))
		}
	})

	t.Run("hbase:meta through the public Scanner", func(t *testing.T) {
		ctx := metaCallCtx(t)
		for _, reversed := range []bool{false, true} {
			opts := []hrpc.ScanOption{hrpc.NumberOfRows(7), hrpc.Families(wire.MetaInfoFamily)}
			if reversed {
				opts = append(opts, hrpc.Reversed())
			}
			scan, err := hrpc.NewScan(engine.MetaTableName, opts...)
			if err != nil {
				t.Fatal(err)
			}
			var rows [][]byte
			for res, err := range c.Scan(ctx, scan) {
				if err != nil {
					t.Fatalf("scan of hbase:meta (reversed %v) after %d rows: %v", reversed, len(rows), err)
				}
				rows = append(rows, res.Cells[0].Row)
			}
			sorted := slices.SortedFunc(slices.Values(rows), metarow.Compare)
			if reversed {
				slices.Reverse(sorted)
			}
			if !slices.EqualFunc(rows, sorted, bytes.Equal) {
				t.Fatalf("hbase:meta rows (reversed %v) not in hbase:meta's order:\n%q", reversed, rows)
			}
			fixture := 0
			for _, row := range rows {
				if tb, _, ok := wire.ParseRegionName(row); ok && slices.Contains(metaFixtureTables, tb) {
					fixture++
				}
			}
			if fixture < len(metaFixtureTables)*len(want) {
				t.Fatalf("the scan of hbase:meta (reversed %v) returned %d fixture regions, want at least %d",
					reversed, fixture, len(metaFixtureTables)*len(want))
			}
		}
	})

	// Calls that change the regions, on two neighbouring tables. Split a region made by the
	// create (a daughter cannot split again before a compaction rewrites its references) at a
	// key below ',', merge two others, then truncate preserving the splits.
	for _, table := range metaFixtureTables[:2] {
		t.Run(table+" split, merge, truncate", func(t *testing.T) {
			ctx := metaCallCtx(t)
			rs, err := a.Regions(ctx, table)
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) != len(want) {
				t.Skipf("%s has %d regions, not the fixture's %d (changed by an earlier run)", table, len(rs), len(want))
			}
			if err := a.SplitTable(ctx, table, []byte("\x00\x01")); err != nil {
				t.Fatalf("SplitTable at \\x00\\x01: %v", err)
			}
			if err := a.SplitRegion(ctx, []byte(rs[6].Encoded), []byte(",\x00")); err != nil { // [",", ",,")
				t.Fatalf("SplitRegion %q at \",\\x00\": %v", rs[6].Start, err)
			}
			if err := a.MergeRegions(ctx, false, rs[4].Name, rs[5].Name); err != nil { // ["\x10\xff\x00", "+"), ["+", ",")
				t.Fatalf("MergeRegions %q, %q: %v", rs[4].Start, rs[5].Start, err)
			}
			after := []string{"", "\x00", "\x00\x01", "\x00\x01\xff", "\x01", "\x10\xff\x00", ",", ",\x00", ",,", "-", "\xff"}
			got, err := a.Regions(ctx, table)
			if err != nil {
				t.Fatal(err)
			}
			if starts := regionStarts(got); !slices.Equal(starts, after) {
				t.Fatalf("start keys after split, split and merge %q, want %q", starts, after)
			}
			if err := a.DisableTable(ctx, table); err != nil {
				t.Fatal(err)
			}
			if err := a.TruncateTable(ctx, table, true); err != nil {
				t.Fatalf("TruncateTable preserving splits: %v", err)
			}
			if got, err = a.Regions(ctx, table); err != nil {
				t.Fatal(err)
			}
			if starts := regionStarts(got); !slices.Equal(starts, after) {
				t.Fatalf("start keys after the truncate %q, want %q", starts, after)
			}
			// Put the fixture back as it was for the tests that come later: merge what was
			// split (fresh regions of the truncate: nothing to rewrite first), split what was
			// merged.
			if err := a.MergeRegions(ctx, false, got[1].Name, got[2].Name); err != nil {
				t.Fatalf("MergeRegions back: %v", err)
			}
			if err := a.MergeRegions(ctx, false, got[6].Name, got[7].Name); err != nil {
				t.Fatalf("MergeRegions back: %v", err)
			}
			if err := a.SplitTable(ctx, table, []byte("+")); err != nil {
				t.Fatalf("SplitTable back at +: %v", err)
			}
			if got, err = a.Regions(ctx, table); err != nil {
				t.Fatal(err)
			}
			if starts := regionStarts(got); !slices.Equal(starts, want) {
				t.Fatalf("start keys after putting the fixture back %q, want %q", starts, want)
			}
		})
	}
}

// TestMetaOrderPropertyAgainstHBase: for tables with random names and random binary split
// keys (bytes biased towards ',' and the low bytes), the order in which the real server
// returns hbase:meta's rows equals internal/metarow's order. The seed is logged.
func TestMetaOrderPropertyAgainstHBase(t *testing.T) {
	c := newTestClient(t)
	a := New(c)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rnd := rand.New(rand.NewPCG(seed, seed))
	const nameChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"
	keyBytes := []byte{0x00, 0x01, 0x02, '+', ',', ',', '-', '.', '0', 'a', 0x7f, 0x80, 0xfe, 0xff}
	ctx := metaCallCtx(t)
	var tablesMade []string
	for range 3 {
		name := fmt.Sprintf("meta_p%d_", tables.Add(1))
		for range 1 + rnd.IntN(3) {
			name += string(nameChars[rnd.IntN(len(nameChars))])
		}
		splits := map[string]bool{}
		for len(splits) < 6 {
			k := make([]byte, 1+rnd.IntN(4))
			for i := range k {
				if rnd.IntN(3) == 0 {
					k[i] = byte(rnd.IntN(256))
				} else {
					k[i] = keyBytes[rnd.IntN(len(keyBytes))]
				}
			}
			splits[string(k)] = true
		}
		var keys [][]byte
		for k := range splits {
			keys = append(keys, []byte(k))
		}
		desc, err := hrpc.NewTableDescriptor(name, hrpc.WithFamily("f"))
		if err != nil {
			t.Fatal(err)
		}
		adminDropLater(t, a, name)
		if err := a.CreateTable(ctx, desc, hrpc.SplitKeys(keys...)); err != nil {
			t.Fatalf("CreateTable %q split at %q: %v", name, keys, err)
		}
		tablesMade = append(tablesMade, name)
	}
	scan, err := hrpc.NewScan(engine.MetaTableName, hrpc.Families(wire.MetaInfoFamily), hrpc.NumberOfRows(5))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]byte
	for res, err := range c.Scan(ctx, scan) {
		if err != nil {
			t.Fatalf("scan of hbase:meta after %d rows: %v", len(rows), err)
		}
		if tb, _, ok := wire.ParseRegionName(res.Cells[0].Row); ok && slices.Contains(tablesMade, tb) {
			rows = append(rows, res.Cells[0].Row)
		}
	}
	if len(rows) != 3*7 {
		t.Fatalf("%d regions of the random tables in hbase:meta, want 21: %q", len(rows), rows)
	}
	shuffled := slices.Clone(rows)
	rnd.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	slices.SortFunc(shuffled, metarow.Compare)
	if !slices.EqualFunc(shuffled, rows, bytes.Equal) {
		t.Fatalf("the server's order of hbase:meta rows:\n%q\nthe comparator's:\n%q", rows, shuffled)
	}
}
