package wire

import (
	"bytes"
	"testing"

	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
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

// TestScanRequestsReused: requests built one after another in one ScanRequests are each what
// the functions build afresh, with nothing of the one before.
func TestScanRequestsReused(t *testing.T) {
	var b ScanRequests
	spec := &pb.Scan{StartRow: []byte("a")}
	steps := []struct {
		got, want func() *pb.ScanRequest
	}{
		{func() *pb.ScanRequest { return b.Open([]byte("r1"), spec, 10, 7) },
			func() *pb.ScanRequest { return ScanOpenRequest([]byte("r1"), spec, 10, 7) }},
		{func() *pb.ScanRequest { return WithScanMetrics(b.Next(42, 3, 5, 0)) },
			func() *pb.ScanRequest { return WithScanMetrics(ScanNextRequest(42, 3, 5, 0)) }},
		{func() *pb.ScanRequest { return b.Open([]byte("r2"), spec, 4, 0) },
			func() *pb.ScanRequest { return ScanOpenRequest([]byte("r2"), spec, 4, 0) }},
		{func() *pb.ScanRequest { return b.Next(43, 0, 4, 9) },
			func() *pb.ScanRequest { return ScanNextRequest(43, 0, 4, 9) }},
	}
	for i, st := range steps {
		if got, want := st.got(), st.want(); !proto.Equal(got, want) {
			t.Errorf("step %d: %v, want %v", i, got, want)
		}
	}
	if a := testing.AllocsPerRun(100, func() { b.Next(1, 2, 3, 4) }); a != 0 {
		t.Errorf("Next allocates %.0f times, want 0", a)
	}
}
