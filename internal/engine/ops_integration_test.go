package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/region"
	"github.com/go-hbase/hbase/zk"
)

// These tests prove that every operation of package hrpc round-trips through the real
// cluster, and that what this client writes the Java client (the launcher's get/scan) reads
// identically, and the reverse.

// createVersionedTable creates a table whose families keep up to versions versions: the
// launcher's create uses the one-version default, so this goes to the master directly
// (MasterService.CreateTable) and waits until the table is enabled.
func createVersionedTable(t *testing.T, versions int, families ...string) string {
	t.Helper()
	cl := testCluster(t)
	ctx := testContext(t, 2*time.Minute)
	name := fmt.Sprintf("v%d_%s", tables.Add(1), sanitize(t.Name()))
	zc, err := zk.New(cl.ZKQuorum, zk.WithZNodeParent(cl.ZNodeParent))
	if err != nil {
		t.Fatal(err)
	}
	defer zc.Close()
	addr, err := zc.LocateMaster(ctx)
	if err != nil {
		t.Fatalf("locating the master: %v", err)
	}
	master, err := region.Dial(ctx, addr, region.WithService("MasterService"), region.WithUser("go-hbase"))
	if err != nil {
		t.Fatalf("dialling the master: %v", err)
	}
	defer master.Close()
	tn := &pb.TableName{Namespace: []byte("default"), Qualifier: []byte(name)}
	schema := &pb.TableSchema{TableName: tn}
	for _, f := range families {
		schema.ColumnFamilies = append(schema.ColumnFamilies, &pb.ColumnFamilySchema{
			Name:       []byte(f),
			Attributes: []*pb.BytesBytesPair{{First: []byte("VERSIONS"), Second: []byte(strconv.Itoa(versions))}},
		})
	}
	if _, err := master.Call(ctx, "CreateTable", &pb.CreateTableRequest{TableSchema: schema}, nil, new(pb.CreateTableResponse)); err != nil {
		t.Fatalf("CreateTable %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = cl.DisableTable(ctx, name)
		_ = cl.DropTable(ctx, name)
	})
	for {
		resp := new(pb.GetTableStateResponse)
		_, err := master.Call(ctx, "GetTableState", &pb.GetTableStateRequest{TableName: tn}, nil, resp)
		if err == nil && resp.GetTableState().GetState() == pb.TableState_ENABLED {
			return name
		}
		select {
		case <-ctx.Done():
			t.Fatalf("table %s not enabled: %v (last error %v)", name, ctx.Err(), err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func opsMust[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// cellsEqualJava compares our cells with the launcher's, bytes and timestamps.
func cellsEqualJava(t *testing.T, what string, ours []hrpc.Cell, java []hbasetest.Cell) {
	t.Helper()
	if len(ours) != len(java) {
		t.Fatalf("%s: %d cells here, %d through the Java client", what, len(ours), len(java))
	}
	for i := range ours {
		o, j := ours[i], java[i]
		if !bytes.Equal(o.Row, j.Row) || !bytes.Equal(o.Family, j.Family) || !bytes.Equal(o.Qualifier, j.Qualifier) ||
			!bytes.Equal(o.Value, j.Value) || int64(o.Timestamp) != j.Timestamp {
			t.Fatalf("%s: cell %d differs:\n ours %q/%q:%q@%d = %d bytes\n java %q/%q:%q@%d = %d bytes", what, i,
				o.Row, o.Family, o.Qualifier, o.Timestamp, len(o.Value), j.Row, j.Family, j.Qualifier, j.Timestamp, len(j.Value))
		}
	}
}

func opsScanAll(t *testing.T, c *Client, ctx context.Context, table string, opts ...hrpc.ScanOption) []*hrpc.Result {
	t.Helper()
	s := opsMust[*hrpc.Scan](t)(hrpc.NewScan(table, opts...))
	var out []*hrpc.Result
	for r, err := range c.Scan(ctx, s) {
		if err != nil {
			t.Fatalf("scan: %v", err)
		}
		out = append(out, r)
	}
	return out
}

func opsCells(rs []*hrpc.Result) []hrpc.Cell {
	var out []hrpc.Cell
	for _, r := range rs {
		out = append(out, r.Cells...)
	}
	return out
}

func TestIntegrationOpsBinaryKeysAndEmptyValues(t *testing.T) {
	table := createTable(t, []string{"f"}, [][]byte{{0x40}, {0xc0}})
	c := newTestClient(t)
	ctx := testContext(t, 2*time.Minute)
	f := []byte("f")
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	// One row per byte value, one row holding every byte value, with binary qualifiers and
	// values; an empty qualifier and an empty value on each.
	var batch []hrpc.Batchable
	rows := [][]byte{all}
	for b := range 256 {
		rows = append(rows, []byte{byte(b)})
	}
	for i, row := range rows {
		batch = append(batch, opsMust[*hrpc.Put](t)(hrpc.NewPut(table, row,
			hrpc.Value(f, all[:i%256+1], row),
			hrpc.Value(f, []byte{}, []byte{}),
			hrpc.Value(f, []byte{0xff, 0x00}, all[i%256:]))))
	}
	for i, r := range c.SendBatch(ctx, batch) {
		if r.Err != nil {
			t.Fatalf("put %d: %v", i, r.Err)
		}
	}
	for i, row := range rows {
		res, err := c.Get(ctx, opsMust[*hrpc.Get](t)(hrpc.NewGet(table, row)))
		if err != nil {
			t.Fatalf("get %x: %v", row, err)
		}
		if len(res.Cells) != 3 {
			t.Fatalf("row %x: %d cells", row, len(res.Cells))
		}
		// HBase order: qualifiers sorted as unsigned bytes, so the empty one first.
		if len(res.Cells[0].Qualifier) != 0 || res.Cells[0].Value == nil || len(res.Cells[0].Value) != 0 {
			t.Fatalf("row %x: empty cell came back as %+v", row, res.Cells[0])
		}
		for _, cell := range res.Cells[1:] {
			switch {
			case bytes.Equal(cell.Qualifier, all[:i%256+1]):
				if !bytes.Equal(cell.Value, row) {
					t.Fatalf("row %x: value %x", row, cell.Value)
				}
			case bytes.Equal(cell.Qualifier, []byte{0xff, 0x00}):
				if !bytes.Equal(cell.Value, all[i%256:]) {
					t.Fatalf("row %x: value %x", row, cell.Value)
				}
			default:
				t.Fatalf("row %x: unexpected qualifier %x", row, cell.Qualifier)
			}
		}
	}
	// The Java client scans exactly what we scan, across the three regions.
	ours := opsCells(opsScanAll(t, c, ctx, table))
	java, err := testCluster(t).Scan(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if len(ours) != 3*len(rows) {
		t.Fatalf("scanned %d cells, want %d", len(ours), 3*len(rows))
	}
	cellsEqualJava(t, "scan", ours, java)

	// The reverse: the Java client writes binary bytes and an empty value, we read them.
	jrow := append([]byte{0, 0xff, '\n', ' '}, all[250:]...)
	if err := testCluster(t).Put(ctx, table, jrow, f, []byte{0x00, '\r', 0xfe}, all); err != nil {
		t.Fatal(err)
	}
	if err := testCluster(t).Put(ctx, table, jrow, f, []byte("empty"), nil); err != nil {
		t.Fatal(err)
	}
	res, err := c.Get(ctx, opsMust[*hrpc.Get](t)(hrpc.NewGet(table, jrow)))
	if err != nil {
		t.Fatal(err)
	}
	jcells, err := testCluster(t).Get(ctx, table, jrow)
	if err != nil {
		t.Fatal(err)
	}
	cellsEqualJava(t, "java put", res.Cells, jcells)
	if len(res.Cells) != 2 || !bytes.Equal(res.Cells[0].Value, all) || len(res.Cells[1].Value) != 0 {
		t.Fatalf("java-written row read back as %+v", res.Cells)
	}
}

func TestIntegrationOpsTenMegabyteValue(t *testing.T) {
	table := createTable(t, []string{"f"}, nil)
	c := newTestClient(t)
	ctx := testContext(t, 3*time.Minute)
	f := []byte("f")
	// hbase.server.keyvalue.maxsize defaults to 10 MiB for the whole cell: 10 MB fits.
	big := make([]byte, 10_000_000)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < len(big); i += 8 {
		binary.LittleEndian.PutUint64(big[i:], rng.Uint64())
	}
	if _, err := c.Put(ctx, opsMust[*hrpc.Put](t)(hrpc.NewPut(table, []byte("big"), hrpc.Value(f, []byte("q"), big)))); err != nil {
		t.Fatalf("put 10 MB: %v", err)
	}
	res, err := c.Get(ctx, opsMust[*hrpc.Get](t)(hrpc.NewGet(table, []byte("big"))))
	if err != nil {
		t.Fatalf("get 10 MB: %v", err)
	}
	if len(res.Cells) != 1 || !bytes.Equal(res.Cells[0].Value, big) {
		t.Fatalf("10 MB value came back with %d cells", len(res.Cells))
	}
	java, err := testCluster(t).Get(ctx, table, []byte("big"))
	if err != nil {
		t.Fatal(err)
	}
	cellsEqualJava(t, "10 MB", res.Cells, java)

	// Written by Java, read by us.
	big2 := append([]byte(nil), big[:9_000_000]...)
	big2[0] ^= 0xff
	if err := testCluster(t).Put(ctx, table, []byte("big2"), f, []byte("q"), big2); err != nil {
		t.Fatal(err)
	}
	res, err = c.Get(ctx, opsMust[*hrpc.Get](t)(hrpc.NewGet(table, []byte("big2"))))
	if err != nil || len(res.Cells) != 1 || !bytes.Equal(res.Cells[0].Value, big2) {
		t.Fatalf("java-written 9 MB value: %v", err)
	}
}

func versionsOf(t *testing.T, c *Client, ctx context.Context, table string, row, fam, qual []byte, opts ...hrpc.GetOption) []uint64 {
	t.Helper()
	opts = append([]hrpc.GetOption{hrpc.Columns(fam, qual), hrpc.MaxVersions(100)}, opts...)
	res, err := c.Get(ctx, opsMust[*hrpc.Get](t)(hrpc.NewGet(table, row, opts...)))
	if err != nil {
		t.Fatalf("get versions: %v", err)
	}
	var ts []uint64
	for _, cell := range res.Cells {
		if string(cell.Value) != fmt.Sprintf("v%d", cell.Timestamp) {
			t.Fatalf("version %d holds %q", cell.Timestamp, cell.Value)
		}
		ts = append(ts, cell.Timestamp)
	}
	return ts
}

func TestIntegrationOpsVersionsAndDeletes(t *testing.T) {
	table := createVersionedTable(t, 100, "f", "g")
	c := newTestClient(t)
	ctx := testContext(t, 2*time.Minute)
	tb, row, f, g := table, []byte("row"), []byte("f"), []byte("g")
	q, q2 := []byte("q"), []byte("q2")
	put := func(opts ...hrpc.PutOption) {
		t.Helper()
		if _, err := c.Put(ctx, opsMust[*hrpc.Put](t)(hrpc.NewPut(tb, row, opts...))); err != nil {
			t.Fatalf("put: %v", err)
		}
	}
	del := func(opts ...hrpc.DeleteOption) {
		t.Helper()
		if _, err := c.Delete(ctx, opsMust[*hrpc.Delete](t)(hrpc.NewDelete(tb, row, opts...))); err != nil {
			t.Fatalf("delete: %v", err)
		}
	}
	var opts []hrpc.PutOption
	for ts := uint64(1); ts <= 30; ts++ {
		v := []byte(fmt.Sprintf("v%d", ts))
		opts = append(opts, hrpc.ValueAt(f, q, ts, v), hrpc.ValueAt(f, q2, ts, v), hrpc.ValueAt(g, q, ts, v))
	}
	put(opts...)
	want := func(what string, got []uint64, want ...uint64) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: versions %v, want %v", what, got, want)
		}
	}
	all := versionsOf(t, c, ctx, table, row, f, q)
	if len(all) != 30 || all[0] != 30 || all[29] != 1 {
		t.Fatalf("many versions: %v", all)
	}
	want("time range [3,6)", versionsOf(t, c, ctx, table, row, f, q, hrpc.TimeRange(3, 6)), 5, 4, 3)
	// The Java client sees the newest version.
	java, err := testCluster(t).Get(ctx, table, row)
	if err != nil || len(java) != 3 || java[0].Timestamp != 30 {
		t.Fatalf("java get: %+v %v", java, err)
	}

	// One exact version.
	del(hrpc.DeleteColumnVersion(f, q, 7))
	want("after deleting version 7", versionsOf(t, c, ctx, table, row, f, q, hrpc.TimeRange(5, 10)), 9, 8, 6, 5)
	// The newest version.
	del(hrpc.DeleteLatestVersion(f, q))
	if v := versionsOf(t, c, ctx, table, row, f, q); v[0] != 29 || len(v) != 28 {
		t.Fatalf("after deleting the latest version: %v", v)
	}
	// Every version up to a timestamp.
	del(hrpc.DeleteColumn(f, q), hrpc.Timestamp(20))
	want("after deleting up to 20", versionsOf(t, c, ctx, table, row, f, q), 29, 28, 27, 26, 25, 24, 23, 22, 21)
	// One version of every column of a family.
	del(hrpc.DeleteFamilyVersion(f, 25))
	want("f:q after family version 25", versionsOf(t, c, ctx, table, row, f, q), 29, 28, 27, 26, 24, 23, 22, 21)
	if v := versionsOf(t, c, ctx, table, row, f, q2); len(v) != 29 || v[5] != 24 {
		t.Fatalf("f:q2 after family version 25: %v", v)
	}
	// A whole column, then a whole family; the other family is untouched.
	del(hrpc.DeleteColumn(f, q2))
	want("f:q2 deleted", versionsOf(t, c, ctx, table, row, f, q2))
	del(hrpc.DeleteFamily(f))
	want("f:q after family delete", versionsOf(t, c, ctx, table, row, f, q))
	if v := versionsOf(t, c, ctx, table, row, g, q); len(v) != 30 {
		t.Fatalf("family g touched: %v", v)
	}
	java, err = testCluster(t).Get(ctx, table, row)
	if err != nil || len(java) != 1 || string(java[0].Family) != "g" {
		t.Fatalf("java get after deletes: %+v %v", java, err)
	}
	// The whole row.
	del()
	res, err := c.Get(ctx, opsMust[*hrpc.Get](t)(hrpc.NewGet(tb, row, hrpc.MaxVersions(100))))
	if err != nil || len(res.Cells) != 0 {
		t.Fatalf("after row delete: %+v %v", res, err)
	}
}

func TestIntegrationOpsCheckAndMutate(t *testing.T) {
	table := createTable(t, []string{"f"}, nil)
	c := newTestClient(t)
	ctx := testContext(t, time.Minute)
	tb, row, f, q := table, []byte("row"), []byte("f"), []byte("q")
	put := func(v string) *hrpc.Put {
		return opsMust[*hrpc.Put](t)(hrpc.NewPut(tb, row, hrpc.Value(f, q, []byte(v))))
	}
	cam := func(cond hrpc.Condition, m hrpc.Mutation) bool {
		t.Helper()
		ok, err := c.CheckAndMutate(ctx, opsMust[*hrpc.CheckAndMutate](t)(hrpc.NewCheckAndMutate(cond, m)))
		if err != nil {
			t.Fatalf("CheckAndMutate: %v", err)
		}
		return ok
	}
	value := func() string {
		t.Helper()
		res, err := c.Get(ctx, opsMust[*hrpc.Get](t)(hrpc.NewGet(tb, row)))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Cells) == 0 {
			return "<none>"
		}
		return string(res.Cells[0].Value)
	}
	if !cam(hrpc.IfNotExists(f, q), put("a")) || value() != "a" {
		t.Fatal("IfNotExists on a missing column did not apply")
	}
	if cam(hrpc.IfNotExists(f, q), put("b")) || value() != "a" {
		t.Fatal("IfNotExists on an existing column applied")
	}
	if cam(hrpc.IfValue(f, q, hrpc.Equal, []byte("x")), put("c")) || value() != "a" {
		t.Fatal("IfValue with a wrong value applied")
	}
	if !cam(hrpc.IfValue(f, q, hrpc.Equal, []byte("a")), put("d")) || value() != "d" {
		t.Fatal("IfValue with the right value did not apply")
	}
	// Operands in the Java order: Less holds when the given value < the current one.
	if !cam(hrpc.IfValue(f, q, hrpc.Less, []byte("c")), put("e")) || value() != "e" {
		t.Fatal("IfValue(Less, c) with current d did not apply")
	}
	if cam(hrpc.IfValue(f, q, hrpc.Greater, []byte("c")), put("f")) || value() != "e" {
		t.Fatal("IfValue(Greater, c) with current e applied")
	}
	// A time range that excludes the cell: the column looks missing.
	if !cam(hrpc.IfNotExists(f, q).InTimeRange(0, 1), put("g")) || value() != "g" {
		t.Fatal("IfNotExists in an empty time range did not apply")
	}
	// Filter conditions, with a Delete.
	del := opsMust[*hrpc.Delete](t)(hrpc.NewDelete(tb, row, hrpc.DeleteColumn(f, q)))
	vf := func(v string) hrpc.Filter {
		return hrpc.SingleColumnValueFilter{Family: f, Qualifier: q, Op: hrpc.Equal,
			Comparator: hrpc.BinaryComparator{Value: []byte(v)}, FilterIfMissing: true}
	}
	if cam(hrpc.IfFilter(vf("nope")), del) || value() != "g" {
		t.Fatal("filter condition that does not match applied")
	}
	if !cam(hrpc.IfFilter(vf("g")), del) || value() != "<none>" {
		t.Fatal("filter condition that matches did not apply")
	}
	// RowMutations under a condition: all or nothing, both outcomes.
	q2 := []byte("q2")
	rm := opsMust[*hrpc.RowMutations](t)(hrpc.NewRowMutations([]hrpc.Mutation{
		put("h"),
		opsMust[*hrpc.Put](t)(hrpc.NewPut(tb, row, hrpc.Value(f, q2, []byte("other")))),
	}))
	ok, err := c.CheckAndMutate(ctx, opsMust[*hrpc.CheckAndMutate](t)(hrpc.NewCheckAndMutateRow(hrpc.IfValue(f, q, hrpc.Equal, []byte("zzz")), rm)))
	if err != nil || ok || value() != "<none>" {
		t.Fatalf("conditional row mutations applied: %v %v", ok, err)
	}
	ok, err = c.CheckAndMutate(ctx, opsMust[*hrpc.CheckAndMutate](t)(hrpc.NewCheckAndMutateRow(hrpc.IfNotExists(f, q), rm)))
	if err != nil || !ok {
		t.Fatalf("conditional row mutations: %v %v", ok, err)
	}
	res, err := c.Get(ctx, opsMust[*hrpc.Get](t)(hrpc.NewGet(tb, row)))
	if err != nil || len(res.Cells) != 2 || string(res.Cells[0].Value) != "h" || string(res.Cells[1].Value) != "other" {
		t.Fatalf("after conditional row mutations: %+v %v", res, err)
	}
}

func TestIntegrationOpsAppendIncrement(t *testing.T) {
	table := createTable(t, []string{"f"}, nil)
	c := newTestClient(t)
	ctx := testContext(t, time.Minute)
	tb, row, f := table, []byte("row"), []byte("f")
	inc := func(q string, d int64) int64 {
		t.Helper()
		res, err := c.Increment(ctx, opsMust[*hrpc.Increment](t)(hrpc.NewIncrement(tb, row, hrpc.Amount(f, []byte(q), d))))
		if err != nil {
			t.Fatalf("increment: %v", err)
		}
		if len(res.Cells) != 1 || len(res.Cells[0].Value) != 8 {
			t.Fatalf("increment result %+v", res.Cells)
		}
		return int64(binary.BigEndian.Uint64(res.Cells[0].Value))
	}
	if v := inc("n", 5); v != 5 {
		t.Fatalf("first increment = %d", v)
	}
	if v := inc("n", -7); v != -2 {
		t.Fatalf("second increment = %d", v)
	}
	// The Java client increments the same counter and sees ours.
	jv, err := testCluster(t).Increment(ctx, table, row, f, []byte("n"), 10)
	if err != nil || jv != 8 {
		t.Fatalf("java increment = %d, %v", jv, err)
	}
	if v := inc("n", 0); v != 8 {
		t.Fatalf("increment after java = %d", v)
	}
	// Several counters in one Increment, results in order.
	res, err := c.Increment(ctx, opsMust[*hrpc.Increment](t)(hrpc.NewIncrement(tb, row,
		hrpc.Amount(f, []byte("b"), 2), hrpc.Amount(f, []byte("a"), 1))))
	if err != nil || len(res.Cells) != 2 {
		t.Fatalf("multi increment: %+v %v", res, err)
	}
	// Append creates, then extends; the result holds the new value.
	app := func(v string) string {
		t.Helper()
		res, err := c.Append(ctx, opsMust[*hrpc.Append](t)(hrpc.NewAppend(tb, row, hrpc.Value(f, []byte("s"), []byte(v)))))
		if err != nil || len(res.Cells) != 1 {
			t.Fatalf("append: %+v %v", res, err)
		}
		return string(res.Cells[0].Value)
	}
	if v := app("abc"); v != "abc" {
		t.Fatalf("first append = %q", v)
	}
	if v := app("\x00def"); v != "abc\x00def" {
		t.Fatalf("second append = %q", v)
	}
	java, err := testCluster(t).Get(ctx, table, row)
	if err != nil {
		t.Fatal(err)
	}
	for _, jc := range java {
		if string(jc.Qualifier) == "s" && string(jc.Value) != "abc\x00def" {
			t.Fatalf("java sees %q", jc.Value)
		}
	}
	// Sending one Increment value twice is a retry: the nonce makes the server apply it once.
	once := opsMust[*hrpc.Increment](t)(hrpc.NewIncrement(tb, row, hrpc.Amount(f, []byte("once"), 1)))
	for range 2 {
		if _, err := c.Increment(ctx, once); err != nil {
			t.Fatal(err)
		}
	}
	if v := inc("once", 0); v != 1 {
		t.Fatalf("a repeated Increment was applied %d times", v)
	}
}

func TestIntegrationOpsMutateRowAtomic(t *testing.T) {
	table := createTable(t, []string{"f"}, nil)
	c := newTestClient(t)
	ctx := testContext(t, time.Minute)
	tb, row, f := table, []byte("row"), []byte("f")
	if _, err := c.Put(ctx, opsMust[*hrpc.Put](t)(hrpc.NewPut(tb, row, hrpc.Value(f, []byte("old"), []byte("x"))))); err != nil {
		t.Fatal(err)
	}
	rm := opsMust[*hrpc.RowMutations](t)(hrpc.NewRowMutations([]hrpc.Mutation{
		opsMust[*hrpc.Put](t)(hrpc.NewPut(tb, row, hrpc.Value(f, []byte("a"), []byte("1")))),
		opsMust[*hrpc.Delete](t)(hrpc.NewDelete(tb, row, hrpc.DeleteColumn(f, []byte("old")))),
		opsMust[*hrpc.Increment](t)(hrpc.NewIncrement(tb, row, hrpc.Amount(f, []byte("n"), 3))),
	}))
	if err := c.MutateRow(ctx, rm); err != nil {
		t.Fatalf("MutateRow: %v", err)
	}
	res, err := c.Get(ctx, opsMust[*hrpc.Get](t)(hrpc.NewGet(tb, row)))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 2 || string(res.Cells[0].Qualifier) != "a" || string(res.Cells[1].Qualifier) != "n" ||
		binary.BigEndian.Uint64(res.Cells[1].Value) != 3 {
		t.Fatalf("after MutateRow: %+v", res.Cells)
	}
	// All or nothing: a mutation of a missing family fails the whole row mutation, so the
	// valid Put next to it is not applied either.
	bad := opsMust[*hrpc.RowMutations](t)(hrpc.NewRowMutations([]hrpc.Mutation{
		opsMust[*hrpc.Put](t)(hrpc.NewPut(tb, row, hrpc.Value(f, []byte("b"), []byte("2")))),
		opsMust[*hrpc.Put](t)(hrpc.NewPut(tb, row, hrpc.Value([]byte("nosuch"), []byte("c"), []byte("3")))),
	}))
	err = c.MutateRow(ctx, bad)
	if err == nil {
		t.Fatal("MutateRow with a missing family succeeded")
	}
	res, err2 := c.Get(ctx, opsMust[*hrpc.Get](t)(hrpc.NewGet(tb, row, hrpc.Columns(f, []byte("b")))))
	if err2 != nil || len(res.Cells) != 0 {
		t.Fatalf("failed MutateRow left %+v (%v); its error was %v", res, err2, err)
	}
	t.Logf("MutateRow with a missing family: %v", err)
}

func TestIntegrationOpsGetSelection(t *testing.T) {
	table := createTable(t, []string{"f", "g"}, nil)
	c := newTestClient(t)
	ctx := testContext(t, time.Minute)
	tb, row, f, g := table, []byte("row"), []byte("f"), []byte("g")
	if _, err := c.Put(ctx, opsMust[*hrpc.Put](t)(hrpc.NewPut(tb, row,
		hrpc.Value(f, []byte("a"), []byte("1")), hrpc.Value(f, []byte("b"), []byte("2")), hrpc.Value(g, []byte("c"), []byte("3"))))); err != nil {
		t.Fatal(err)
	}
	get := func(r []byte, opts ...hrpc.GetOption) *hrpc.Result {
		t.Helper()
		res, err := c.Get(ctx, opsMust[*hrpc.Get](t)(hrpc.NewGet(tb, r, opts...)))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if n := len(get(row).Cells); n != 3 {
		t.Fatalf("whole row: %d cells", n)
	}
	if r := get(row, hrpc.Families(g)); len(r.Cells) != 1 || string(r.Cells[0].Qualifier) != "c" {
		t.Fatalf("family g: %+v", r.Cells)
	}
	if r := get(row, hrpc.Columns(f, []byte("b")), hrpc.Families(g)); len(r.Cells) != 2 || string(r.Cells[0].Qualifier) != "b" {
		t.Fatalf("f:b and g: %+v", r.Cells)
	}
	if r := get(row, hrpc.ExistsOnly()); r.Exists == nil || !*r.Exists || len(r.Cells) != 0 {
		t.Fatalf("exists: %+v", r)
	}
	if r := get([]byte("missing"), hrpc.ExistsOnly()); r.Exists == nil || *r.Exists {
		t.Fatalf("exists of a missing row: %+v", r)
	}
	if r := get(row, hrpc.WithFilter(hrpc.KeyOnlyFilter{LenAsValue: true})); len(r.Cells) != 3 ||
		binary.BigEndian.Uint32(r.Cells[0].Value) != 1 {
		t.Fatalf("key only: %+v", r.Cells)
	}
}
