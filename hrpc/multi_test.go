package hrpc

import (
	"testing"

	"github.com/go-hbase/hbase/internal/wire"
)

func TestMulti(t *testing.T) {
	put := mustPut(t, []byte("t"), []byte("r"))
	get, _ := NewGet([]byte("t"), []byte("s"))
	var m wire.Multi
	if err := m.Add(get.batchable(), 0); err == nil {
		t.Error("Add before Region succeeded")
	}
	m.Region([]byte("empty"), 3)
	m.Region([]byte("one"), 0)
	if err := m.Add(put.batchable(), 3); err != nil {
		t.Fatal(err)
	}
	if err := m.Add(get.batchable(), 5); err != nil {
		t.Fatal(err)
	}
	req, cells := m.Request()
	if len(req.RegionAction) != 1 || string(req.RegionAction[0].GetRegion().GetValue()) != "one" {
		t.Fatalf("region actions = %v (the empty one must be left out)", req.RegionAction)
	}
	ra := req.RegionAction[0]
	if len(ra.Action) != 2 || ra.Action[0].GetIndex() != 3 || ra.Action[1].GetIndex() != 5 || ra.Action[1].Get == nil {
		t.Fatalf("actions = %v", ra.Action)
	}
	if len(decodeAll(t, cells)) != 1 {
		t.Fatalf("cellblock holds %d cells, want the Put's one", len(decodeAll(t, cells)))
	}
}
