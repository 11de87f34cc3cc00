package fakehbase_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// The fake has no cell-level security: every option of it is refused with
// hberr.ErrNotSupported, naming the attribute, and nothing is written. A fake that ignored
// them would let a test pass that a cluster with the coprocessors would fail.
func TestCellSecurityNotSupported(t *testing.T) {
	srv, c := setup(t)
	ctx := ctxT(t, 10*time.Second)
	f, q := []byte("f"), []byte("q")
	mustPut := func(opt hrpc.PutOption) *hrpc.Put {
		p, err := hrpc.NewPut("t", []byte("r"), hrpc.Value(f, q, []byte("v")), opt)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	check := func(name string, err error, attr string) {
		t.Helper()
		if !errors.Is(err, hberr.ErrNotSupported) || !strings.Contains(err.Error(), attr) {
			t.Errorf("%s: %v; want hberr.ErrNotSupported naming %s", name, err, attr)
		}
	}
	for _, tc := range []struct {
		name, attr string
		opt        hrpc.PutOption
	}{
		{"CellTTL", "_ttl", hrpc.CellTTL(time.Hour)},
		{"CellACL", "acl", hrpc.CellACL("guest", hrpc.CellRead)},
		{"CellVisibility", "VISIBILITY", hrpc.CellVisibility("secret")},
	} {
		p := mustPut(tc.opt)
		_, err := c.Put(ctx, p)
		check(tc.name+" Put", err, tc.attr)
		res := c.SendBatch(ctx, []hrpc.Batchable{p})
		check(tc.name+" in a batch", res[0].Err, tc.attr)
	}
	inc, err := hrpc.NewIncrement("t", []byte("r"), hrpc.Amount(f, q, 1), hrpc.CellACL("@ops", hrpc.CellWrite))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Increment(ctx, inc)
	check("CellACL Increment", err, "acl")
	del, err := hrpc.NewDelete("t", []byte("r"), hrpc.CellVisibility("secret"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Delete(ctx, del)
	check("CellVisibility Delete", err, "VISIBILITY")
	if _, ok, err := srv.Get("t", "r", "f", "q"); ok || err != nil {
		t.Errorf("a refused mutation wrote: %v, %v", ok, err)
	}

	g, err := hrpc.NewGet("t", []byte("r"), hrpc.Authorizations("secret"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Get(ctx, g)
	check("Authorizations Get", err, "VISIBILITY")
	s, err := hrpc.NewScan("t", hrpc.Authorizations("secret"))
	if err != nil {
		t.Fatal(err)
	}
	var scanErr error
	for _, err := range c.Scan(ctx, s) {
		if err != nil {
			scanErr = err
			break
		}
	}
	check("Authorizations Scan", scanErr, "VISIBILITY")
}
