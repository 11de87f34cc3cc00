package hrpc

import (
	"bytes"
	"testing"

	"github.com/go-hbase/hbase/internal/pb"
)

func TestScanRequests(t *testing.T) {
	spec := &pb.Scan{StartRow: []byte("a")}
	open := ScanOpenRequest([]byte("t,,1.x."), spec, 10, 0)
	if open.Scan != spec || open.GetNumberOfRows() != 10 || open.LimitOfRows != nil ||
		!open.GetClientHandlesPartials() || !open.GetClientHandlesHeartbeats() ||
		string(open.GetRegion().GetValue()) != "t,,1.x." || open.GetRegion().GetType() != pb.RegionSpecifier_REGION_NAME {
		t.Errorf("open = %v", open)
	}
	if got := ScanOpenRequest([]byte("r"), spec, 10, 7).GetLimitOfRows(); got != 7 {
		t.Errorf("open limit = %d, want 7", got)
	}
	next := ScanNextRequest(42, 3, 5, 2)
	if next.GetScannerId() != 42 || next.GetNextCallSeq() != 3 || next.GetNumberOfRows() != 5 ||
		next.GetLimitOfRows() != 2 || next.Region != nil || next.Scan != nil {
		t.Errorf("next = %v", next)
	}
	if c := ScanCloseRequest(42); c.GetScannerId() != 42 || !c.GetCloseScanner() || c.NumberOfRows == nil || c.GetNumberOfRows() != 0 {
		t.Errorf("close = %v", c)
	}
	if r := ScanRenewRequest(42, 9); r.GetScannerId() != 42 || !r.GetRenew() || r.GetNextCallSeq() != 9 || r.GetNumberOfRows() != 0 {
		t.Errorf("renew = %v", r)
	}
	if p := ProbeRequest([]byte("r"), nil); !p.GetGet().GetExistenceOnly() || string(p.GetRegion().GetValue()) != "r" {
		t.Errorf("probe = %v", p)
	}
}

func TestMetaLookupRequest(t *testing.T) {
	cases := []struct {
		row    string
		before bool
		start  string
	}{
		{"r", false, "t,r,99999999999999"},
		{"r", true, "t,r,00000000000000"},
		{"", true, "t\x00"},
		{"", false, "t,,99999999999999"},
	}
	for _, c := range cases {
		req := MetaLookupRequest([]byte("hbase:meta,,1"), []byte("t"), []byte(c.row), c.before, 4)
		s := req.GetScan()
		if string(s.GetStartRow()) != c.start || string(s.GetStopRow()) != "t,," || !s.GetIncludeStopRow() ||
			!s.GetReversed() || req.GetLimitOfRows() != 4 || !req.GetCloseScanner() ||
			!bytes.Equal(s.GetColumn()[0].GetFamily(), MetaInfoFamily) {
			t.Errorf("row %q before %v: %v", c.row, c.before, req)
		}
	}
}

func TestMulti(t *testing.T) {
	put := mustPut(t, []byte("t"), []byte("r"))
	get, _ := NewGet([]byte("t"), []byte("s"))
	var m Multi
	if err := m.Add(get, 0); err == nil {
		t.Error("Add before Region succeeded")
	}
	m.Region([]byte("empty"))
	m.Region([]byte("one"))
	if err := m.Add(put, 3); err != nil {
		t.Fatal(err)
	}
	if err := m.Add(get, 5); err != nil {
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
