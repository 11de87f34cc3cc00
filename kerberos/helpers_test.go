package kerberos

import (
	"bytes"
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/testkit"
	"github.com/go-hbase/hbase/region"
)

// Helpers of the root package's tests (siteconfig_integration_test.go,
// client_integration_test.go, main_test.go).

// siteRoundTrip puts one cell through c and reads it back.
func siteRoundTrip(t *testing.T, c *hbase.Client, table string) {
	t.Helper()
	ctx := testContext(t, time.Minute)
	put, err := hrpc.NewPut(table, []byte("row"), hrpc.Value([]byte("f"), []byte("q"), []byte("from the site file")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Put(ctx, put); err != nil {
		t.Fatalf("Put: %v", err)
	}
	get, err := hrpc.NewGet(table, []byte("row"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Get(ctx, get)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if len(res.Cells) != 1 || !bytes.Equal(res.Cells[0].Value, []byte("from the site file")) {
		t.Fatalf("Get = %v; want the cell just put", res.Cells)
	}
}

func mustGet(t testing.TB, table string, row []byte, opts ...hrpc.GetOption) *hrpc.Get {
	t.Helper()
	g, err := hrpc.NewGet(table, row, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func testContext(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	return testkit.Context(t, d)
}

// nopHandshaker is a handshaker of a test (withHandshaker).
type nopHandshaker struct{}

func (nopHandshaker) Handshake(context.Context, net.Conn, string, *pb.ConnectionHeader) (region.Layer, error) {
	return nil, nil
}

// withHandshaker sets a test's handshaker, as the root package's tests do.
func withHandshaker(h region.Handshaker) hbase.Option {
	return func(o *engine.Config) error {
		if _, ok := o.Handshaker.(engine.Builder); ok {
			return errors.New("hbase: a handshaker cannot be combined with the Kerberos security options")
		}
		o.Handshaker = h
		return nil
	}
}

// applyOpts runs opts over the default settings, as NewClient does before it checks them.
func applyOpts(opts ...hbase.Option) (engine.Config, error) {
	o := engine.DefaultConfig()
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return o, err
		}
	}
	return o, nil
}
