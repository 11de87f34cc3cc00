package wire

import (
	"fmt"
	"net"
	"strconv"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// The region server group calls of HBase 2.x: RSGroupAdminService, a master coprocessor
// endpoint (hbase-rsgroup's RSGroupAdminEndpoint), reached through
// MasterService.ExecMasterService.

// RSGroupService is the endpoint's service as the master registers it: HBase names the
// services of its own package (hbase.pb) by their simple name (CoprocessorRpcUtils.getServiceName).
const RSGroupService = "RSGroupAdminService"

// Methods of RSGroupAdminService.
const (
	RSGroupMethodGetInfo         = "GetRSGroupInfo"
	RSGroupMethodGetInfoOfTable  = "GetRSGroupInfoOfTable"
	RSGroupMethodGetInfoOfServer = "GetRSGroupInfoOfServer"
	RSGroupMethodMoveServers     = "MoveServers"
	RSGroupMethodMoveTables      = "MoveTables"
	RSGroupMethodMoveBoth        = "MoveServersAndTables"
	RSGroupMethodAdd             = "AddRSGroup"
	RSGroupMethodRemove          = "RemoveRSGroup"
	RSGroupMethodBalance         = "BalanceRSGroup"
	RSGroupMethodList            = "ListRSGroupInfos"
	RSGroupMethodRemoveServers   = "RemoveServers"
	RSGroupMethodRename          = "RenameRSGroup"
	RSGroupMethodUpdateConfig    = "UpdateRSGroupConfig"
)

// DefaultRSGroup is the group every server and table is in until moved.
const DefaultRSGroup = "default"

// RSGroupCall wraps the request of an RSGroupAdminService method in the master's
// ExecMasterService request.
func RSGroupCall(method string, req proto.Message) (*pb.CoprocessorServiceRequest, error) {
	b, err := proto.Marshal(req)
	if err != nil {
		return nil, err
	}
	return &pb.CoprocessorServiceRequest{
		Region: &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: []byte{}},
		Call: &pb.CoprocessorServiceCall{
			Row: []byte{}, ServiceName: proto.String(RSGroupService), MethodName: proto.String(method), Request: b,
		},
	}, nil
}

// ParseRSGroupAnswer reads the answer of an RSGroupAdminService method into resp.
func ParseRSGroupAnswer(answer *pb.CoprocessorServiceResponse, resp proto.Message) error {
	if err := proto.Unmarshal(answer.GetValue().GetValue(), resp); err != nil {
		return fmt.Errorf("the master answered an rsgroup call with %q that does not decode: %w", answer.GetValue().GetName(), err)
	}
	return nil
}

// CheckRSGroupName checks a group name as HBase does: letters, digits and '_'.
func CheckRSGroupName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: %w: empty rsgroup name", hberr.ErrBadRequest, hberr.ErrInvalidName)
	}
	if len(name) > maxNameLen {
		return fmt.Errorf("%w: %w: rsgroup name of %d bytes is longer than %d", hberr.ErrBadRequest, hberr.ErrInvalidName, len(name), maxNameLen)
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isAlnum(c) && c != '_' {
			return fmt.Errorf("%w: %w: rsgroup name %q: illegal character %q at %d (letters, digits and '_' only)", hberr.ErrBadRequest, hberr.ErrInvalidName, name, c, i)
		}
	}
	return nil
}

// ServerAddressProto is the ServerName of a group member: "host:port", no start code.
func ServerAddressProto(addr string) (*pb.ServerName, error) {
	host, port, err := net.SplitHostPort(addr)
	p, perr := strconv.Atoi(port)
	if err != nil || perr != nil || host == "" || p <= 0 || p > 65535 {
		return nil, fmt.Errorf("%w: server %q is not host:port", hberr.ErrBadRequest, addr)
	}
	return &pb.ServerName{HostName: &host, Port: proto.Uint32(uint32(p))}, nil
}
