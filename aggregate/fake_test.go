package aggregate_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/aggregate"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

func fakeClient(t *testing.T, splits ...[]byte) (*fakehbase.Server, *hbase.Client) {
	t.Helper()
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("t", []string{"f", "g"}, splits...); err != nil {
		t.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	return srv, client
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func mustScan(t *testing.T, opts ...hrpc.ScanOption) *hrpc.Scan {
	t.Helper()
	s, err := hrpc.NewScan("t", opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// every aggregate call of the package, by its method (RowCount's unless skipped).
func everyCall(ctx context.Context, c *hbase.Client, s *hrpc.Scan, skipRowCount bool) map[string]error {
	errs := make(map[string]error)
	if !skipRowCount {
		_, errs["GetRowNum"] = aggregate.RowCount(ctx, c, s)
	}
	_, _, errs["GetSum"] = aggregate.Sum(ctx, c, s, aggregate.Long())
	_, _, errs["GetMax"] = aggregate.Max(ctx, c, s, aggregate.Double())
	_, _, errs["GetMin"] = aggregate.Min(ctx, c, s, aggregate.Long())
	_, errs["GetAvg"] = aggregate.Avg(ctx, c, s, aggregate.Long())
	_, errs["GetStd"] = aggregate.Std(ctx, c, s, aggregate.Double())
	return errs
}

func TestOnFakeNotSupported(t *testing.T) {
	_, client := fakeClient(t, []byte("m"))
	s := mustScan(t, hrpc.Columns([]byte("f"), []byte("q")))
	for method, err := range everyCall(testContext(t), client, s, false) {
		re, ok := errors.AsType[*hberr.RegionsError](err)
		if !ok || !errors.Is(err, hberr.ErrNotSupported) || re.Regions != 2 || re.Op != "AggregateService."+method {
			t.Fatalf("%s error = %v; want an *hberr.RegionsError of AggregateService.%s on 2 regions, not supported", method, err, method)
		}
		if !strings.Contains(err.Error(), "AggregateService."+method) {
			t.Fatalf("%s error = %q; want it to name the endpoint", method, err)
		}
	}
}

func TestBadScans(t *testing.T) {
	srv, client := fakeClient(t)
	ctx := testContext(t)
	cases := map[string]*hrpc.Scan{
		"two families": mustScan(t, hrpc.Families([]byte("f"), []byte("g"))),
		"no family":    mustScan(t),
		"start = stop": mustScan(t, hrpc.StartRow([]byte("a")), hrpc.StopRow([]byte("a")), hrpc.Families([]byte("f"))),
		"reversed":     mustScan(t, hrpc.Reversed(), hrpc.Families([]byte("f"))),
		"nil scan":     nil,
	}
	for name, s := range cases {
		// RowCount takes any family.
		for method, err := range everyCall(ctx, client, s, name == "two families" || name == "no family") {
			oe, ok := errors.AsType[*hberr.OpError](err)
			if !errors.Is(err, hberr.ErrBadRequest) || !ok || oe.Op != "AggregateService."+method {
				t.Errorf("%s, %s: error = %v; want an *hberr.OpError of AggregateService.%s, hberr.ErrBadRequest", name, method, err, method)
			}
		}
	}
	if _, _, err := aggregate.Sum[int64](ctx, client, mustScan(t, hrpc.Families([]byte("f"))), nil); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("Sum with a nil Interpreter: error = %v; want hberr.ErrBadRequest", err)
	}
	if n := srv.Calls(fakehbase.Match{Op: fakehbase.OpExecService}); n != 0 {
		t.Fatalf("%d endpoint calls reached the server; want none", n)
	}
}
