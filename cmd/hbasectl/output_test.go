package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/hrpc"
)

func TestCellsAsTable(t *testing.T) {
	out := &cellsResult{Table: "t", Cells: []cellOut{}}
	out.add(&hrpc.Result{Cells: []hrpc.Cell{
		{Row: []byte("r1"), Family: []byte("f"), Qualifier: []byte("a"), Timestamp: 1764000000123, Value: []byte("v1")},
		{Row: []byte("r1"), Family: []byte("f"), Qualifier: []byte("long-qualifier"), Timestamp: 1764000000123, Value: []byte{0, 'x'}},
	}})
	out.add(&hrpc.Result{Cells: []hrpc.Cell{{Row: []byte("row-22"), Family: []byte("f"), Qualifier: []byte("a"), Timestamp: 1, Value: []byte("")}}})
	out.More, out.Limit = true, 2
	var sb strings.Builder
	if err := out.writeText(&sb); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"ROW     COLUMN            TIMESTAMP                 VALUE\n" +
		"r1      f:a               2025-11-24T16:00:00.123Z  v1\n" +
		"r1      f:long-qualifier  2025-11-24T16:00:00.123Z  \\x00x\n" +
		"row-22  f:a               1970-01-01T00:00:00.001Z  \n" +
		"2 rows (stopped at -limit 2; there are more)\n"
	if got := sb.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}

	sb.Reset()
	(&cellsResult{Table: "t"}).writeText(&sb)
	if got := sb.String(); got != "0 rows\n" {
		t.Errorf("no rows: got %q", got)
	}
}

func TestCellsAsJSON(t *testing.T) {
	c := &cli{json: true}
	var sb strings.Builder
	c.stdout = &sb
	out := &cellsResult{Table: "t", Cells: []cellOut{}}
	out.add(&hrpc.Result{Cells: []hrpc.Cell{{Row: []byte("r\x01"), Family: []byte("f"), Qualifier: []byte("q"), Timestamp: 7, Value: []byte("v")}}})
	if err := c.emit(out); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Table string
		Rows  int
		More  *bool
		Cells []map[string]any
	}
	if err := json.Unmarshal([]byte(sb.String()), &got); err != nil {
		t.Fatalf("%v in %s", err, sb.String())
	}
	if got.Table != "t" || got.Rows != 1 || got.More != nil || len(got.Cells) != 1 {
		t.Fatalf("got %+v from %s", got, sb.String())
	}
	cell := got.Cells[0]
	if cell["row"] != `r\x01` || cell["family"] != "f" || cell["qualifier"] != "q" || cell["timestamp"] != float64(7) || cell["value"] != "v" {
		t.Errorf("cell %v", cell)
	}
}

func TestSmallTables(t *testing.T) {
	var sb strings.Builder
	(&countResult{Table: "users", Rows: 12345}).writeText(&sb)
	(&putResult{Table: "users", Row: "alice", Cells: 2}).writeText(&sb)
	want := "TABLE  ROWS\nusers  12345\nTABLE  ROW    CELLS\nusers  alice  2\n"
	if got := sb.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
