package hrpc

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/wire"
)

// Every error of building a request from bad input is hberr.ErrBadRequest, whatever the
// request and whichever check refused it, and says what was wrong.
func TestBadInputIsErrBadRequest(t *testing.T) {
	table, row := "t", []byte("r")
	longRow := bytes.Repeat([]byte("x"), wire.MaxRowLen+1)
	f := []byte("f")
	cases := []struct {
		name string
		err  func() error
		msg  string // part of the message
	}{
		{"Get empty table", func() error { _, err := NewGet("", row); return err }, "empty table name"},
		{"Get empty row", func() error { _, err := NewGet(table, nil); return err }, "nil or empty row"},
		{"Get row over 32767 bytes", func() error { _, err := NewGet(table, longRow); return err }, "row of 32768 bytes"},
		{"Get bad option", func() error { _, err := NewGet(table, row, MaxVersions(0)); return err }, "MaxVersions(0)"},
		{"Get nil option", func() error { _, err := NewGet(table, row, nil); return err }, "nil option"},
		{"Get nil filter", func() error { _, err := NewGet(table, row, WithFilter(nil)); return err }, "nil filter"},
		{"Get bad filter", func() error { _, err := NewGet(table, row, WithFilter(PageFilter{PageSize: -1})); return err }, "negative page size"},
		{"Put empty row", func() error { _, err := NewPut(table, []byte{}, Value(f, f, f)); return err }, "nil or empty row"},
		{"Put row over 32767 bytes", func() error { _, err := NewPut(table, longRow, Value(f, f, f)); return err }, "row of 32768 bytes"},
		{"Put without cells", func() error { _, err := NewPut(table, row); return err }, "mutation without cells"},
		{"Put empty family", func() error { _, err := NewPut(table, row, Value(nil, f, f)); return err }, "empty column family"},
		{"Put over 256 MiB", func() error {
			half := make([]byte, 130<<20) // two cells of 130 MiB: each fine, together too much
			_, err := NewPut(table, row, Value(f, []byte("a"), half), Value(f, []byte("b"), half))
			return err
		}, "over the 268435456 bytes one request may carry"},
		{"Delete bad timestamp", func() error { _, err := NewDelete(table, row, Timestamp(LatestTimestamp+1)); return err }, "beyond the largest timestamp"},
		{"Increment empty table", func() error { _, err := NewIncrement("", row, Amount(f, f, 1)); return err }, "empty table name"},
		{"Scan bad limit", func() error { _, err := NewScan(table, Limit(-1)); return err }, "Limit(-1)"},
		{"Scan start row over 32767 bytes", func() error { _, err := NewScan(table, StartRow(longRow)); return err }, "row of 32768 bytes"},
		{"Scan start after stop", func() error { _, err := NewScan(table, StartRow([]byte("b")), StopRow([]byte("a"))); return err }, "after stop row"},
		{"RowMutations empty", func() error { _, err := NewRowMutations(nil); return err }, "mutation without cells"},
		{"CheckAndMutate nil mutation", func() error { _, err := NewCheckAndMutate(IfNotExists(f, f), nil); return err }, "without a mutation"},
		{"CheckAndMutate bad op", func() error {
			p, _ := NewPut(table, row, Value(f, f, f))
			_, err := NewCheckAndMutate(IfValue(f, f, CompareOp(42), nil), p)
			return err
		}, "compare op 42"},
		{"table descriptor bad name", func() error { _, err := NewTableDescriptor("bad name", WithFamily("f")); return err }, "illegal character"},
		{"family negative versions", func() error { _, err := NewFamily("f", Versions(-1)); return err }, "negative max versions"},
		{"namespace bad name", func() error { _, err := NewNamespace("a-b"); return err }, "illegal character"},
	}
	for _, c := range cases {
		err := c.err()
		if !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("%s: err = %v; want one wrapping hberr.ErrBadRequest", c.name, err)
			continue
		}
		if !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: err = %q; want it to say %q", c.name, err, c.msg)
		}
	}
}

// A bad name is both a bad request and hberr.ErrInvalidName, the sentinel the server's own
// refusal of a name maps to.
func TestBadNameIsInvalidName(t *testing.T) {
	_, err := NewTableDescriptor("ns:", WithFamily("f"))
	if !errors.Is(err, hberr.ErrBadRequest) || !errors.Is(err, hberr.ErrInvalidName) {
		t.Fatalf("err = %v; want hberr.ErrBadRequest and hberr.ErrInvalidName", err)
	}
}
