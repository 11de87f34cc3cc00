package wire

import (
	"errors"
	"testing"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

func TestRSGroupCall(t *testing.T) {
	name := "g_1"
	req, err := RSGroupCall(RSGroupMethodAdd, &pb.AddRSGroupRequest{RSGroupName: &name})
	if err != nil {
		t.Fatal(err)
	}
	c := req.GetCall()
	if c.GetServiceName() != "RSGroupAdminService" || c.GetMethodName() != "AddRSGroup" || req.GetRegion() == nil {
		t.Fatalf("call = %v", req)
	}
	var back pb.AddRSGroupRequest
	if err := proto.Unmarshal(c.GetRequest(), &back); err != nil || back.GetRSGroupName() != name {
		t.Fatalf("request = %v, %v", &back, err)
	}
	// Required fields set, so the master can parse it.
	if _, err := proto.Marshal(req); err != nil {
		t.Fatal(err)
	}
}

func TestRSGroupNamesAndServers(t *testing.T) {
	for _, bad := range []string{"", "a-b", "a b", "ns:g", "é"} {
		if err := CheckRSGroupName(bad); !errors.Is(err, hberr.ErrInvalidName) || !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("CheckRSGroupName(%q) = %v; want ErrInvalidName", bad, err)
		}
	}
	if err := CheckRSGroupName("Group_1"); err != nil {
		t.Errorf("CheckRSGroupName(Group_1) = %v", err)
	}
	for _, bad := range []string{"host", "host:", ":1", "h:0", "h:70000", "h,1,2"} {
		if _, err := ServerAddressProto(bad); !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("ServerAddressProto(%q) = %v; want ErrBadRequest", bad, err)
		}
	}
	sn, err := ServerAddressProto("[::1]:16020")
	if err != nil || sn.GetHostName() != "::1" || sn.GetPort() != 16020 {
		t.Errorf("ServerAddressProto([::1]:16020) = %v, %v", sn, err)
	}
}
