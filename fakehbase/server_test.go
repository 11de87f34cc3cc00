package fakehbase_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// setup starts a server with table t (family f, split at "m") and a client of it.
func setup(t *testing.T, opts ...fakehbase.Option) (*fakehbase.Server, *hbase.Client) {
	t.Helper()
	srv := fakehbase.NewServer(t, opts...)
	if err := srv.CreateTable("t", []string{"f"}, []byte("m")); err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return srv, c
}

func ctxT(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func put(t *testing.T, c *hbase.Client, row, value string) {
	t.Helper()
	p, err := hrpc.NewPut("t", []byte(row), hrpc.Value([]byte("f"), []byte("q"), []byte(value)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Put(ctxT(t, 5*time.Second), p); err != nil {
		t.Fatal(err)
	}
}

func get(ctx context.Context, c *hbase.Client, row string) (string, error) {
	g, err := hrpc.NewGet("t", []byte(row))
	if err != nil {
		return "", err
	}
	res, err := c.Get(ctx, g)
	if err != nil {
		return "", err
	}
	if len(res.Cells) == 0 {
		return "", nil
	}
	return string(res.Cells[0].Value), nil
}

func TestPutGetScanAcrossRegions(t *testing.T) {
	_, c := setup(t)
	for _, r := range []string{"a", "m", "z"} {
		put(t, c, r, "v"+r)
	}
	if v, err := get(ctxT(t, 5*time.Second), c, "m"); err != nil || v != "vm" {
		t.Fatalf("get m = %q, %v; want vm", v, err)
	}
	scan, _ := hrpc.NewScan("t", hrpc.Reversed())
	var rows []string
	for res, err := range c.Scan(ctxT(t, 5*time.Second), scan) {
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, string(res.Cells[0].Row))
	}
	if strings.Join(rows, ",") != "z,m,a" {
		t.Fatalf("reversed scan = %v; want z,m,a", rows)
	}
}

func TestInjectErrorRetried(t *testing.T) {
	srv, c := setup(t)
	put(t, c, "a", "v")
	srv.InjectError(fakehbase.Match{Op: fakehbase.OpGet, Table: "t"}, fakehbase.RegionTooBusy, "busy", 2)
	if v, err := get(ctxT(t, 5*time.Second), c, "a"); err != nil || v != "v" {
		t.Fatalf("get = %q, %v; want v after two retries", v, err)
	}
	if n := srv.Calls(fakehbase.Match{Op: fakehbase.OpGet, Table: "t"}); n != 3 {
		t.Fatalf("Calls(Get t) = %d; want 3 (two refused, one served)", n)
	}
}

func TestInjectErrorFinal(t *testing.T) {
	srv, c := setup(t)
	srv.InjectError(fakehbase.Match{Op: fakehbase.OpPut, Row: []byte("bad")}, fakehbase.DoNotRetry, "no", 0)
	p, _ := hrpc.NewPut("t", []byte("bad"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
	_, err := c.Put(ctxT(t, 5*time.Second), p)
	if !errors.Is(err, hberr.ErrDoNotRetry) {
		t.Fatalf("put = %v; want ErrDoNotRetry", err)
	}
	var re *hberr.RemoteError
	if !errors.As(err, &re) || re.Message != "no" {
		t.Fatalf("put = %v; want the injected exception", err)
	}
	put(t, c, "good", "v") // other rows are not affected
	srv.ClearFaults()
	put(t, c, "bad", "v")
}

func TestInjectErrorRelocates(t *testing.T) {
	srv, c := setup(t)
	put(t, c, "a", "v")
	lookups := srv.Calls(fakehbase.Match{Table: "hbase:meta", Op: fakehbase.OpScan})
	srv.InjectError(fakehbase.Match{Op: fakehbase.OpGet, Row: []byte("a")}, fakehbase.NotServingRegion, "closing", 1)
	if v, err := get(ctxT(t, 5*time.Second), c, "a"); err != nil || v != "v" {
		t.Fatalf("get = %q, %v; want v", v, err)
	}
	if n := srv.Calls(fakehbase.Match{Table: "hbase:meta", Op: fakehbase.OpScan}); n <= lookups {
		t.Fatalf("hbase:meta scans %d after NotServingRegion, %d before; want a new lookup", n, lookups)
	}
}

func TestInjectErrorInBatch(t *testing.T) {
	srv, c := setup(t)
	srv.InjectError(fakehbase.Match{Op: fakehbase.OpPut, Row: []byte("b")}, fakehbase.DoNotRetry, "refused", 1)
	var calls []hrpc.Batchable
	for _, r := range []string{"a", "b", "z"} {
		p, _ := hrpc.NewPut("t", []byte(r), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
		calls = append(calls, p)
	}
	res := c.SendBatch(ctxT(t, 5*time.Second), calls)
	if res[0].Err != nil || res[2].Err != nil || !errors.Is(res[1].Err, hberr.ErrDoNotRetry) {
		t.Fatalf("batch errors %v, %v, %v; want only the second", res[0].Err, res[1].Err, res[2].Err)
	}
}

func TestInjectDelay(t *testing.T) {
	srv, c := setup(t)
	put(t, c, "a", "v")
	srv.InjectDelay(fakehbase.Match{Op: fakehbase.OpGet}, 300*time.Millisecond, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := get(ctx, c, "a")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("get = %v; want the deadline", err)
	}
	began := time.Now()
	if v, err := get(ctxT(t, 5*time.Second), c, "a"); err != nil || v != "v" || time.Since(began) > 250*time.Millisecond {
		t.Fatalf("get = %q, %v after %v; want v at once (the delay was used up)", v, err, time.Since(began))
	}
}

func TestMoveRegionToAnotherServer(t *testing.T) {
	srv, c := setup(t, fakehbase.WithRegionServers(2))
	put(t, c, "a", "v")
	if err := srv.MoveRegion("t", []byte("a")); err != nil {
		t.Fatal(err)
	}
	before := srv.Calls(fakehbase.Match{Op: fakehbase.OpGet, Table: "t"})
	if v, err := get(ctxT(t, 5*time.Second), c, "a"); err != nil || v != "v" {
		t.Fatalf("get after the move = %q, %v; want v", v, err)
	}
	// One Get at the old server (RegionMovedException), one at the new.
	if n := srv.Calls(fakehbase.Match{Op: fakehbase.OpGet, Table: "t"}) - before; n != 2 {
		t.Fatalf("%d Gets after the move; want 2", n)
	}
	rec := &recorder{TB: t}
	other := fakehbase.NewServer(rec)
	if err := other.MoveRegion("nope", []byte("a")); err == nil || len(rec.failures()) != 1 {
		t.Fatalf("MoveRegion of a missing table = %v, failing the test %q; want an error, once", err, rec.failures())
	}
}

func TestMoveRegionOnOneServer(t *testing.T) {
	srv, c := setup(t)
	put(t, c, "z", "v")
	if err := srv.MoveRegion("t", []byte("z")); err != nil {
		t.Fatal(err)
	}
	lookups := srv.Calls(fakehbase.Match{Table: "hbase:meta", Op: fakehbase.OpScan})
	if v, err := get(ctxT(t, 5*time.Second), c, "z"); err != nil || v != "v" {
		t.Fatalf("get after the move = %q, %v; want v", v, err)
	}
	if n := srv.Calls(fakehbase.Match{Table: "hbase:meta", Op: fakehbase.OpScan}); n <= lookups {
		t.Fatal("the client did not look the region up again")
	}
}

func TestWithClock(t *testing.T) {
	at := time.UnixMilli(1_700_000_000_123)
	_, c := setup(t, fakehbase.WithClock(func() time.Time { return at }))
	put(t, c, "a", "v")
	g, _ := hrpc.NewGet("t", []byte("a"))
	res, err := c.Get(ctxT(t, 5*time.Second), g)
	if err != nil || len(res.Cells) != 1 || res.Cells[0].Timestamp != uint64(at.UnixMilli()) {
		t.Fatalf("get = %v, %v; want one cell at %d", res, err, at.UnixMilli())
	}
}

func TestCreateTableErrors(t *testing.T) {
	rec := &recorder{TB: t}
	srv := fakehbase.NewServer(rec)
	for _, tc := range []struct {
		name   string
		fams   []string
		splits [][]byte
	}{
		{"", []string{"f"}, nil},
		{"bad name", []string{"f"}, nil},
		{"nons:t", []string{"f"}, nil},
		{"nofamily", nil, nil},
		{"dupsplit", []string{"f"}, [][]byte{[]byte("a"), []byte("a")}},
		{"emptysplit", []string{"f"}, [][]byte{{}}},
	} {
		if err := srv.CreateTable(tc.name, tc.fams, tc.splits...); err == nil {
			t.Errorf("CreateTable(%q, %v, %q) succeeded", tc.name, tc.fams, tc.splits)
		}
	}
	if err := srv.CreateNamespace("ns"); err != nil {
		t.Fatal(err)
	}
	if err := srv.CreateTable("ns:t", []string{"f"}); err != nil {
		t.Fatal(err)
	}
	if err := srv.CreateTable("ns:t", []string{"f"}); err == nil {
		t.Fatal("CreateTable of an existing table succeeded")
	}
	if err := srv.CreateNamespace("ns"); err == nil {
		t.Fatal("CreateNamespace of an existing namespace succeeded")
	}
	if n := len(rec.failures()); n != 8 {
		t.Fatalf("the refused calls failed the test %d times; want 8", n)
	}
}

func TestUnsupportedIsNamed(t *testing.T) {
	_, c := setup(t)
	put(t, c, "a", "v")
	g, _ := hrpc.NewGet("t", []byte("a"), hrpc.WithFilter(hrpc.ValueFilter{Op: hrpc.Equal,
		Comparator: hrpc.BinaryComponentComparator{Value: []byte("v")}}))
	_, err := c.Get(ctxT(t, 5*time.Second), g)
	if !errors.Is(err, hberr.ErrDoNotRetry) || !errors.Is(err, hberr.ErrNotSupported) || !strings.Contains(err.Error(), "BinaryComponentComparator is not supported") {
		t.Fatalf("get = %v; want a DoNotRetryIOException naming the comparator", err)
	}
	desc, _ := hrpc.NewTableDescriptor("kdc", hrpc.WithFamily("f", hrpc.FamilyAttribute("KEEP_DELETED_CELLS", "TRUE")))
	err = admin.New(c).CreateTable(ctxT(t, 5*time.Second), desc)
	if !errors.Is(err, hberr.ErrDoNotRetry) || !strings.Contains(err.Error(), "KEEP_DELETED_CELLS") {
		t.Fatalf("CreateTable = %v; want KEEP_DELETED_CELLS refused", err)
	}
}

func TestCloseFailsClients(t *testing.T) {
	srv, err := fakehbase.Start()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.CreateTable("t", []string{"f"}); err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient(hbase.WithNoRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	put(t, c, "a", "v")
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatalf("second Close = %v", err)
	}
	if _, err := get(ctxT(t, 5*time.Second), c, "a"); err == nil {
		t.Fatal("get after Close succeeded")
	}
}

func TestStartOptions(t *testing.T) {
	for _, o := range []fakehbase.Option{fakehbase.WithRegionServers(0), fakehbase.WithRegionServers(17),
		fakehbase.WithLogger(nil), fakehbase.WithClock(nil), nil} {
		if srv, err := fakehbase.Start(o); err == nil {
			srv.Close()
			t.Errorf("Start with a bad option succeeded")
		}
	}
}
