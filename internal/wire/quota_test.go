package wire

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

func TestSetThrottleRequest(t *testing.T) {
	req, err := SetThrottleRequest(QuotaSubject{User: "bob", Namespace: "ns"}, pb.ThrottleType_READ_SIZE, 4096, time.Minute, true)
	if err != nil {
		t.Fatal(err)
	}
	if req.GetUserName() != "bob" || req.GetNamespace() != "ns" || req.TableName != nil || req.RegionServer != nil {
		t.Fatalf("subject = %v; want user bob on namespace ns", req)
	}
	tq := req.GetThrottle().GetTimedQuota()
	if req.GetThrottle().GetType() != pb.ThrottleType_READ_SIZE || tq.GetSoftLimit() != 4096 ||
		tq.GetTimeUnit() != pb.TimeUnit_MINUTES || tq.GetScope() != pb.QuotaScope_CLUSTER {
		t.Fatalf("throttle = %v; want READ_SIZE 4096/min cluster", req.GetThrottle())
	}
	rm, err := RemoveThrottleRequest(QuotaSubject{Table: "ns:t"}, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if rm.GetThrottle() == nil || rm.GetThrottle().Type != nil || rm.GetThrottle().TimedQuota != nil {
		t.Fatalf("remove all = %v; want an empty ThrottleRequest (no type: every type)", rm.GetThrottle())
	}
	if string(rm.GetTableName().GetNamespace()) != "ns" || string(rm.GetTableName().GetQualifier()) != "t" {
		t.Fatalf("table = %v; want ns:t", rm.GetTableName())
	}
}

func TestQuotaRequestsRefuseBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func() error
		want string
	}{
		{"no subject", func() error {
			_, err := SetThrottleRequest(QuotaSubject{}, pb.ThrottleType_REQUEST_NUMBER, 1, time.Second, false)
			return err
		}, "names no user"},
		{"table and namespace", func() error {
			_, err := SetThrottleRequest(QuotaSubject{Table: "t", Namespace: "ns"}, pb.ThrottleType_REQUEST_NUMBER, 1, time.Second, false)
			return err
		}, `not for table "t" on namespace "ns"`},
		{"user and region server", func() error {
			_, err := RemoveThrottleRequest(QuotaSubject{User: "u", RegionServer: "all"}, 0, true)
			return err
		}, "not for user"},
		{"zero limit", func() error {
			_, err := SetThrottleRequest(QuotaSubject{Table: "t"}, pb.ThrottleType_REQUEST_NUMBER, 0, time.Second, false)
			return err
		}, "a limit of 0"},
		{"odd unit", func() error {
			_, err := SetThrottleRequest(QuotaSubject{Table: "t"}, pb.ThrottleType_REQUEST_NUMBER, 5, 2*time.Second, false)
			return err
		}, "per 2s"},
		{"unknown type", func() error {
			_, err := SetThrottleRequest(QuotaSubject{Table: "t"}, 42, 5, time.Second, false)
			return err
		}, "unknown throttle type 42"},
		{"bad table", func() error {
			_, err := SetThrottleRequest(QuotaSubject{Table: "a,b"}, pb.ThrottleType_REQUEST_NUMBER, 5, time.Second, false)
			return err
		}, "illegal character"},
		{"control user", func() error { _, err := BypassGlobalsRequest("bo\nb", true); return err }, "control character"},
		{"cluster region server", func() error {
			_, err := SetThrottleRequest(QuotaSubject{RegionServer: "all"}, pb.ThrottleType_REQUEST_NUMBER, 5, time.Second, true)
			return err
		}, "per machine"},
		{"space on a user", func() error {
			_, err := SpaceQuotaRequest(QuotaSubject{User: "u"}, 1, pb.SpaceViolationPolicy_NO_WRITES)
			return err
		}, "space quota is for a table or a namespace"},
		{"space policy", func() error { _, err := SpaceQuotaRequest(QuotaSubject{Table: "t"}, 1, 9); return err }, "unknown violation policy 9"},
	} {
		err := tc.make()
		if !errors.Is(err, hberr.ErrBadRequest) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v; want ErrBadRequest saying %q", tc.name, err, tc.want)
		}
	}
}

func quotaValue(t *testing.T, q *pb.Quotas) []byte {
	t.Helper()
	b, err := proto.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte("PBUF"), b...)
}

func TestParseQuotaCell(t *testing.T) {
	v := quotaValue(t, &pb.Quotas{BypassGlobals: proto.Bool(true)})
	for _, tc := range []struct {
		row, qual string
		want      QuotaSubject
		ok        bool
	}{
		{"u.bob", "s", QuotaSubject{User: "bob"}, true},
		{"u.bob", "s.ns:t,1", QuotaSubject{User: "bob", Table: "ns:t,1"}, true},
		{"u.bob", "s.ns:", QuotaSubject{User: "bob", Namespace: "ns"}, true},
		{"u.b\x00\xff,o", "s.t", QuotaSubject{User: "b\x00\xff,o", Table: "t"}, true},
		{"t.ns:t", "s", QuotaSubject{Table: "ns:t"}, true},
		{"n.ns", "s", QuotaSubject{Namespace: "ns"}, true},
		{"r.all", "s", QuotaSubject{RegionServer: "all"}, true},
		{"t.ns:t", "x", QuotaSubject{}, false},
		{"u.bob", "s.", QuotaSubject{}, false},
		{"exceedThrottleQuota", "s", QuotaSubject{}, false},
		{"", "s", QuotaSubject{}, false},
	} {
		got, ok, err := ParseQuotaCell([]byte(tc.row), []byte(tc.qual), v)
		if err != nil || ok != tc.ok || ok && (got.Subject != tc.want || !got.Quotas.GetBypassGlobals()) {
			t.Errorf("ParseQuotaCell(%q, %q) = %+v, %v, %v; want %+v, %v", tc.row, tc.qual, got, ok, err, tc.want, tc.ok)
		}
	}
	for _, bad := range [][]byte{nil, []byte("PBU"), []byte("JSON{}"), append([]byte("PBUF"), 0xff, 0xff)} {
		if _, _, err := ParseQuotaCell([]byte("t.x"), []byte("s"), bad); err == nil {
			t.Errorf("ParseQuotaCell of value %q: no error; want one naming the cell", bad)
		}
	}
}
