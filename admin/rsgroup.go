package admin

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// RSGroup is a region server group: the servers it holds ("host:port") and the tables whose
// regions only they serve, both sorted, and its configuration.
type RSGroup struct {
	Name    string
	Servers []string
	Tables  []string
	Config  map[string]string
}

// The region server group calls need HBase 2.x's hbase-rsgroup module in the master: its
// RSGroupAdminEndpoint coprocessor and RSGroupBasedLoadBalancer. Without them every call
// gives hberr.ErrNotSupported, saying so.

// AddRSGroup adds an empty group (hberr.ErrRSGroupExists when there is one of that name).
// A name is letters, digits and '_'.
func (a *Admin) AddRSGroup(ctx context.Context, name string) error {
	ctx, call := a.begin(ctx, "AddRSGroup", name, "")
	err := wire.CheckRSGroupName(name)
	if err == nil {
		err = a.rsgroupCall(ctx, wire.RSGroupMethodAdd, &pb.AddRSGroupRequest{RSGroupName: &name}, &pb.AddRSGroupResponse{})
	}
	return call.end(ctx, err)
}

// RemoveRSGroup removes a group that holds no server and no table (hberr.ErrRSGroupNotFound
// when there is none of that name).
func (a *Admin) RemoveRSGroup(ctx context.Context, name string) error {
	ctx, call := a.begin(ctx, "RemoveRSGroup", name, "")
	err := wire.CheckRSGroupName(name)
	if err == nil {
		err = a.rsgroupCall(ctx, wire.RSGroupMethodRemove, &pb.RemoveRSGroupRequest{RSGroupName: &name}, &pb.RemoveRSGroupResponse{})
	}
	return call.end(ctx, err)
}

// RenameRSGroup renames a group, keeping its servers and tables ("default" cannot be
// renamed).
func (a *Admin) RenameRSGroup(ctx context.Context, oldName, newName string) error {
	ctx, call := a.begin(ctx, "RenameRSGroup", oldName, "")
	err := wire.CheckRSGroupName(oldName)
	if err == nil {
		err = wire.CheckRSGroupName(newName)
	}
	if err == nil {
		err = a.rsgroupCall(ctx, wire.RSGroupMethodRename,
			&pb.RenameRSGroupRequest{OldRsgroupName: &oldName, NewRsgroupName: &newName}, &pb.RenameRSGroupResponse{})
	}
	return call.end(ctx, err)
}

// RSGroups returns every group, "default" included, by name.
func (a *Admin) RSGroups(ctx context.Context) ([]RSGroup, error) {
	ctx, call := a.begin(ctx, "RSGroups", "", "")
	resp := &pb.ListRSGroupInfosResponse{}
	if err := a.rsgroupCall(ctx, wire.RSGroupMethodList, &pb.ListRSGroupInfosRequest{}, resp); err != nil {
		return nil, call.end(ctx, err)
	}
	out := make([]RSGroup, 0, len(resp.GetRSGroupInfo()))
	for _, g := range resp.GetRSGroupInfo() {
		out = append(out, rsgroupOf(g))
	}
	slices.SortFunc(out, func(x, y RSGroup) int { return strings.Compare(x.Name, y.Name) })
	return out, call.end(ctx, nil)
}

// RSGroup returns the group of that name (hberr.ErrRSGroupNotFound when there is none).
func (a *Admin) RSGroup(ctx context.Context, name string) (*RSGroup, error) {
	ctx, call := a.begin(ctx, "RSGroup", name, "")
	err := wire.CheckRSGroupName(name)
	resp := &pb.GetRSGroupInfoResponse{}
	if err == nil {
		err = a.rsgroupCall(ctx, wire.RSGroupMethodGetInfo, &pb.GetRSGroupInfoRequest{RSGroupName: &name}, resp)
	}
	if err == nil && resp.GetRSGroupInfo() == nil {
		err = fmt.Errorf("%w: %q", hberr.ErrRSGroupNotFound, name)
	}
	if err != nil {
		return nil, call.end(ctx, err)
	}
	g := rsgroupOf(resp.GetRSGroupInfo())
	return &g, call.end(ctx, nil)
}

// RSGroupOfServer returns the group of the region server at server ("host:port").
func (a *Admin) RSGroupOfServer(ctx context.Context, server string) (*RSGroup, error) {
	ctx, call := a.begin(ctx, "RSGroupOfServer", server, "")
	sn, err := wire.ServerAddressProto(server)
	resp := &pb.GetRSGroupInfoOfServerResponse{}
	if err == nil {
		err = a.rsgroupCall(ctx, wire.RSGroupMethodGetInfoOfServer, &pb.GetRSGroupInfoOfServerRequest{Server: sn}, resp)
	}
	if err == nil && resp.GetRSGroupInfo() == nil {
		err = fmt.Errorf("%w: no group holds server %s", hberr.ErrServerNotFound, server)
	}
	if err != nil {
		return nil, call.end(ctx, err)
	}
	g := rsgroupOf(resp.GetRSGroupInfo())
	return &g, call.end(ctx, nil)
}

// RSGroupOfTable returns the group of table (hberr.ErrTableNotFound when there is no such
// table).
func (a *Admin) RSGroupOfTable(ctx context.Context, table string) (*RSGroup, error) {
	ctx, call := a.begin(ctx, "RSGroupOfTable", table, table)
	tn, err := wire.TableNameProto(table)
	resp := &pb.GetRSGroupInfoOfTableResponse{}
	if err == nil {
		err = a.rsgroupCall(ctx, wire.RSGroupMethodGetInfoOfTable, &pb.GetRSGroupInfoOfTableRequest{TableName: tn}, resp)
	}
	if err == nil && resp.GetRSGroupInfo() == nil {
		// The master answers so for a table it does not know.
		exists, xerr := a.tableExists(ctx, table)
		switch {
		case xerr != nil:
			err = xerr
		case !exists:
			err = fmt.Errorf("%w: %q", hberr.ErrTableNotFound, table)
		default:
			err = fmt.Errorf("%w: table %q is in no group", hberr.ErrRSGroupNotFound, table)
		}
	}
	if err != nil {
		return nil, call.end(ctx, err)
	}
	g := rsgroupOf(resp.GetRSGroupInfo())
	return &g, call.end(ctx, nil)
}

// MoveServersToRSGroup moves region servers ("host:port") into group; the master first moves
// the regions they serve of tables outside the group to the servers of those tables' groups,
// and returns when that is done.
func (a *Admin) MoveServersToRSGroup(ctx context.Context, group string, servers ...string) error {
	ctx, call := a.begin(ctx, "MoveServersToRSGroup", group, "")
	req := &pb.MoveServersRequest{TargetGroup: &group}
	err := wire.CheckRSGroupName(group)
	if err == nil {
		req.Servers, err = movedProtos(servers, "server", wire.ServerAddressProto)
	}
	if err == nil {
		err = a.rsgroupCall(ctx, wire.RSGroupMethodMoveServers, req, &pb.MoveServersResponse{})
	}
	return call.end(ctx, err)
}

// MoveTablesToRSGroup moves tables into group: the master moves their regions to the group's
// servers, and returns when that is done. (HBase 3 names this setRSGroup.)
func (a *Admin) MoveTablesToRSGroup(ctx context.Context, group string, tables ...string) error {
	ctx, call := a.begin(ctx, "MoveTablesToRSGroup", group, "")
	req := &pb.MoveTablesRequest{TargetGroup: &group}
	err := wire.CheckRSGroupName(group)
	if err == nil {
		req.TableName, err = movedProtos(tables, "table", wire.TableNameProto)
	}
	if err == nil {
		err = a.rsgroupCall(ctx, wire.RSGroupMethodMoveTables, req, &pb.MoveTablesResponse{})
	}
	return call.end(ctx, err)
}

// MoveServersAndTablesToRSGroup moves region servers ("host:port") and tables into group in
// one step. The master checks the group as it will be: a table may move into a group whose
// only servers come in the same call, and servers may leave a group whose tables leave with
// them, which MoveServersToRSGroup and MoveTablesToRSGroup one after the other refuse.
func (a *Admin) MoveServersAndTablesToRSGroup(ctx context.Context, group string, servers, tables []string) error {
	ctx, call := a.begin(ctx, "MoveServersAndTablesToRSGroup", group, "")
	req := &pb.MoveServersAndTablesRequest{TargetGroup: &group}
	err := wire.CheckRSGroupName(group)
	if err == nil {
		req.Servers, err = movedProtos(servers, "server", wire.ServerAddressProto)
	}
	if err == nil {
		req.TableName, err = movedProtos(tables, "table", wire.TableNameProto)
	}
	if err == nil {
		err = a.rsgroupCall(ctx, wire.RSGroupMethodMoveBoth, req, &pb.MoveServersAndTablesResponse{})
	}
	return call.end(ctx, err)
}

// RemoveServersFromRSGroup forgets region servers ("host:port") that are dead or
// decommissioned; the master refuses live ones.
func (a *Admin) RemoveServersFromRSGroup(ctx context.Context, servers ...string) error {
	ctx, call := a.begin(ctx, "RemoveServersFromRSGroup", strings.Join(servers, ","), "")
	req := &pb.RemoveServersRequest{}
	var err error
	if len(servers) == 0 {
		err = fmt.Errorf("%w: no server to remove", hberr.ErrBadRequest)
	}
	for _, s := range servers {
		if err != nil {
			break
		}
		var sn *pb.ServerName
		if sn, err = wire.ServerAddressProto(s); err == nil {
			req.Servers = append(req.Servers, sn)
		}
	}
	if err == nil {
		err = a.rsgroupCall(ctx, wire.RSGroupMethodRemoveServers, req, &pb.RemoveServersResponse{})
	}
	return call.end(ctx, err)
}

// BalanceRSGroup runs the balancer over the servers and tables of one group and reports
// whether it ran (it does not while the balancer is off or regions are in transition). With
// the balancer off, HBase 2.x answers false without looking for the group; on, a missing
// group is hberr.ErrRSGroupNotFound.
func (a *Admin) BalanceRSGroup(ctx context.Context, name string) (ran bool, err error) {
	ctx, call := a.begin(ctx, "BalanceRSGroup", name, "")
	err = wire.CheckRSGroupName(name)
	resp := &pb.BalanceRSGroupResponse{}
	if err == nil {
		err = a.rsgroupCall(ctx, wire.RSGroupMethodBalance, &pb.BalanceRSGroupRequest{RSGroupName: &name}, resp)
	}
	return resp.GetBalanceRan(), call.end(ctx, err)
}

// UpdateRSGroupConfig replaces the configuration of a group by config.
func (a *Admin) UpdateRSGroupConfig(ctx context.Context, name string, config map[string]string) error {
	ctx, call := a.begin(ctx, "UpdateRSGroupConfig", name, "")
	err := wire.CheckRSGroupName(name)
	req := &pb.UpdateRSGroupConfigRequest{GroupName: &name}
	for _, k := range slices.Sorted(maps.Keys(config)) {
		if k == "" {
			err = fmt.Errorf("%w: an rsgroup configuration key is empty", hberr.ErrBadRequest)
			break
		}
		req.Configuration = append(req.Configuration, &pb.NameStringPair{Name: proto.String(k), Value: proto.String(config[k])})
	}
	if err == nil {
		err = a.rsgroupCall(ctx, wire.RSGroupMethodUpdateConfig, req, &pb.UpdateRSGroupConfigResponse{})
	}
	return call.end(ctx, err)
}

// rsgroupCall runs one RSGroupAdminService method on the master.
func (a *Admin) rsgroupCall(ctx context.Context, method string, req, resp proto.Message) error {
	call, err := wire.RSGroupCall(method, req)
	if err != nil {
		return err
	}
	answer := &pb.CoprocessorServiceResponse{}
	if err := a.callMaster(ctx, wire.MethodExecMasterService, call, answer); err != nil {
		return rsgroupError(err)
	}
	return wire.ParseRSGroupAnswer(answer, resp)
}

// rsgroupsOff says how to switch region server groups on.
const rsgroupsOff = "RSGroups are off in this cluster (HBase 2.x: put the hbase-rsgroup jar on the master's class path, " +
	"add org.apache.hadoop.hbase.rsgroup.RSGroupAdminEndpoint to hbase.coprocessor.master.classes and set " +
	"hbase.master.loadbalancer.class to org.apache.hadoop.hbase.rsgroup.RSGroupBasedLoadBalancer)"

// rsgroupError types the refusals of the group calls, which the master makes with an
// UnknownProtocolException (no endpoint) or a ConstraintException or DoNotRetryIOException
// whose message says what (HBase 2.6's AddRSGroup of an existing name: DoNotRetryIOException
// "Group already exists: NAME"; every "does not exist" of these calls names a group, but for
// "Server HOST:PORT is either offline or it does not exist").
func rsgroupError(err error) error {
	re, ok := errors.AsType[*hberr.RemoteError](err)
	if !ok {
		return err
	}
	switch {
	case errors.Is(err, hberr.ErrNotSupported):
		return fmt.Errorf("%w: %s: %w", hberr.ErrNotSupported, rsgroupsOff, err)
	case !strings.HasSuffix(re.Class, ".ConstraintException") && re.Class != "org.apache.hadoop.hbase.DoNotRetryIOException":
		return err
	case strings.Contains(re.Message, "already exists"):
		return fmt.Errorf("%w: %w", hberr.ErrRSGroupExists, err)
	case strings.HasPrefix(re.Message, "Server ") && strings.Contains(re.Message, "does not exist"),
		strings.Contains(re.Message, "either offline or it does not exist"):
		return fmt.Errorf("%w: %w", hberr.ErrServerNotFound, err)
	case strings.Contains(re.Message, "does not exist"):
		return fmt.Errorf("%w: %w", hberr.ErrRSGroupNotFound, err)
	}
	return err
}

func rsgroupOf(g *pb.RSGroupInfo) RSGroup {
	out := RSGroup{Name: g.GetName()}
	for _, s := range g.GetServers() {
		out.Servers = append(out.Servers, net.JoinHostPort(s.GetHostName(), strconv.FormatUint(uint64(s.GetPort()), 10)))
	}
	for _, t := range g.GetTables() {
		out.Tables = append(out.Tables, wire.TableNameString(t))
	}
	for _, kv := range g.GetConfiguration() {
		if out.Config == nil {
			out.Config = make(map[string]string)
		}
		out.Config[kv.GetName()] = kv.GetValue()
	}
	slices.Sort(out.Servers)
	slices.Sort(out.Tables)
	return out
}

// movedProtos converts the names a move lists, refusing an empty list (a move of nothing is a
// caller's mistake, not a no-op to send).
func movedProtos[T any](names []string, what string, convert func(string) (T, error)) ([]T, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("%w: no %s to move", hberr.ErrBadRequest, what)
	}
	out := make([]T, 0, len(names))
	for _, n := range names {
		v, err := convert(n)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
