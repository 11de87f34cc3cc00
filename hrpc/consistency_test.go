package hrpc

import (
	"errors"
	"testing"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

func TestConsistencyOnTheWire(t *testing.T) {
	g, err := NewGet("t", []byte("r"), Consistency(Timeline))
	if err != nil {
		t.Fatal(err)
	}
	if g.Consistency() != Timeline || g.proto().GetConsistency() != pb.Consistency_TIMELINE || g.proto().Consistency == nil {
		t.Fatalf("Get: %v, wire %v", g.Consistency(), g.proto().Consistency)
	}
	req, _, _ := (*getCall)(g).Marshal([]byte("region"), nil)
	if got := req.(*getRequestAlloc).GetGet().GetConsistency(); got != pb.Consistency_TIMELINE {
		t.Fatalf("GetRequest consistency %v", got)
	}
	strong, _ := NewGet("t", []byte("r"))
	if strong.Consistency() != Strong || strong.proto().Consistency != nil {
		t.Fatalf("default Get: %v, wire %v (want the field unset)", strong.Consistency(), strong.proto().Consistency)
	}
	s, err := NewScan("t", Consistency(Timeline))
	if err != nil {
		t.Fatal(err)
	}
	if s.Consistency() != Timeline || s.proto().GetConsistency() != pb.Consistency_TIMELINE {
		t.Fatalf("Scan: %v, wire %v", s.Consistency(), s.proto().Consistency)
	}
	if s, _ := NewScan("t"); s.proto().Consistency != nil {
		t.Fatal("default Scan sends a consistency")
	}
	if _, err := NewGet("t", []byte("r"), Consistency(7)); !errors.Is(err, hberr.ErrBadRequest) {
		t.Fatalf("unknown consistency: %v", err)
	}
	if Timeline.String() != "TIMELINE" || Strong.String() != "STRONG" || ConsistencyLevel(9).String() != "ConsistencyLevel(9)" {
		t.Fatal("String")
	}
}

func TestRegionReplication(t *testing.T) {
	d, err := NewTableDescriptor("t", WithFamily("f"), RegionReplication(3))
	if err != nil {
		t.Fatal(err)
	}
	if d.RegionReplication != 3 || d.attributes()["REGION_REPLICATION"] != "3" {
		t.Fatalf("RegionReplication %d, attributes %v; want 3", d.RegionReplication, d.attributes())
	}
	for _, n := range []int{0, -1, 1 << 16} {
		if _, err := NewTableDescriptor("t", WithFamily("f"), RegionReplication(n)); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("RegionReplication(%d): %v", n, err)
		}
	}
}
