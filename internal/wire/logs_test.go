package wire

import (
	"errors"
	"testing"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

func TestSlowLogRequest(t *testing.T) {
	lr, err := SlowLogRequest(SlowLogFilter{Large: true, Table: "ns:t", User: "bob", MatchAll: true})
	if err != nil {
		t.Fatal(err)
	}
	if lr.GetLogClassName() != "org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos$SlowLogResponseRequest" {
		t.Fatalf("class = %q", lr.GetLogClassName())
	}
	var req pb.SlowLogResponseRequest
	if err := proto.Unmarshal(lr.GetLogMessage(), &req); err != nil {
		t.Fatal(err)
	}
	if req.GetLogType() != pb.SlowLogResponseRequest_LARGE_LOG || req.GetTableName() != "ns:t" || req.GetUserName() != "bob" ||
		req.RegionName != nil || req.ClientAddress != nil || req.GetFilterByOperator() != pb.SlowLogResponseRequest_AND || req.GetLimit() != 10 {
		t.Fatalf("request = %v; want the large log of ns:t and bob, AND, limit 10", &req)
	}
	for _, f := range []SlowLogFilter{{Limit: -1}, {Table: "a b"}, {User: "x\n"}} {
		if _, err := SlowLogRequest(f); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("SlowLogRequest(%+v) = %v; want ErrBadRequest", f, err)
		}
	}
}

func TestParseSlowLogChecksTheClass(t *testing.T) {
	b, _ := proto.Marshal(&pb.SlowLogResponses{SlowLogPayloads: []*pb.SlowLogPayload{{
		StartTime: proto.Int64(1), ProcessingTime: proto.Int32(2), QueueTime: proto.Int32(3), ResponseSize: proto.Int64(4),
		ClientAddress: proto.String("c:1"), ServerClass: proto.String("HRegionServer"), MethodName: proto.String("Get"),
		CallDetails: proto.String("d"), UserName: proto.String("u"), Type: pb.SlowLogPayload_SLOW_LOG.Enum(),
	}}})
	ok := &pb.LogEntry{LogClassName: proto.String("org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos$SlowLogResponses"), LogMessage: b}
	es, err := ParseSlowLog(ok)
	if err != nil || len(es) != 1 || es[0].GetMethodName() != "Get" {
		t.Fatalf("ParseSlowLog = %v, %v; want one Get", es, err)
	}
	for _, e := range []*pb.LogEntry{
		{LogClassName: proto.String("x.MasterProtos$BalancerDecisionsResponse"), LogMessage: b},
		{LogClassName: proto.String(""), LogMessage: b},
		{LogClassName: proto.String("SlowLogResponses"), LogMessage: []byte{0xff}},
	} {
		if _, err := ParseSlowLog(e); err == nil {
			t.Errorf("ParseSlowLog(%v): no error", e)
		}
	}
}
