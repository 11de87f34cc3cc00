package admin

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// LogQuery selects the entries of the region servers' slow or large request logs. The
// filters that are set (Region, Table, User, Client) are combined with OR, or with AND when
// MatchAll is set; without filters every entry passes.
type LogQuery struct {
	// Servers are the region servers asked ("host:port" or "host,port,startcode"); empty
	// means every live region server, in address order.
	Servers []string
	// Region is a full region name ("table,start,id.encoded."); Table matches the entries of
	// its regions (their names start with it); User is the caller's user name; Client is
	// "host:port" as the server saw the caller.
	Region, Table, User, Client string
	MatchAll                    bool
	// Limit is the most entries each server returns (newest first); 0 means HBase's
	// default, 10.
	Limit int
}

// SlowLogRecord is one entry of a region server's slow or large request log (the Java
// OnlineLogRecord).
type SlowLogRecord struct {
	Server            string    // the region server that logged it, "host:port"
	Start             time.Time // when the call started (millisecond precision)
	Processing        time.Duration
	Queue             time.Duration // time in the call queue
	ResponseSize      int64
	BlockBytesScanned int64
	FSReadTime        time.Duration
	Client            string // the caller's "host:port"
	ServerClass       string // the server's class that ran the call (HRegionServer)
	Method            string // the RPC method (Get, Multi, Scan...)
	CallDetails       string // the call as the server printed it
	Param             string // its parameters, when the server printed them
	User              string
	Region            string // the full region name, for a call on one region
	MultiGets         int
	MultiMutations    int
	MultiServiceCalls int
	// ConnectionAttributes and RequestAttributes are what the caller sent
	// (hbase.WithConnectionAttribute, hrpc.RequestAttribute).
	ConnectionAttributes map[string][]byte
	RequestAttributes    map[string][]byte
}

// SlowLogs returns the entries of the region servers' slow request logs that q selects: calls
// that took longer than hbase.ipc.warn.response.time (10 s by default), newest first on each
// server, the servers one after the other. The servers keep them only with
// hbase.regionserver.slowlog.buffer.enabled set (else there are none). The Java Admin's
// getLogEntries(..., "SLOW_LOG", ...).
func (a *Admin) SlowLogs(ctx context.Context, q LogQuery) ([]SlowLogRecord, error) {
	ctx, call := a.begin(ctx, "SlowLogs", "", q.Table)
	recs, err := a.requestLogs(ctx, q, false)
	return recs, call.end(ctx, err)
}

// LargeLogs is SlowLogs of the large request logs: calls whose answers were larger than
// hbase.ipc.warn.response.size (100 MB by default).
func (a *Admin) LargeLogs(ctx context.Context, q LogQuery) ([]SlowLogRecord, error) {
	ctx, call := a.begin(ctx, "LargeLogs", "", q.Table)
	recs, err := a.requestLogs(ctx, q, true)
	return recs, call.end(ctx, err)
}

func (a *Admin) requestLogs(ctx context.Context, q LogQuery, large bool) ([]SlowLogRecord, error) {
	req, err := wire.SlowLogRequest(wire.SlowLogFilter{
		Large: large, Region: q.Region, Table: q.Table, Client: q.Client, User: q.User,
		MatchAll: q.MatchAll, Limit: q.Limit,
	})
	if err != nil {
		return nil, err
	}
	servers, err := a.regionServers(ctx, q.Servers)
	if err != nil {
		return nil, err
	}
	var out []SlowLogRecord
	for _, addr := range servers {
		resp := &pb.LogEntry{}
		if err := a.onServer(ctx, addr, wire.MethodGetLogEntries, req, resp); err != nil {
			return nil, fmt.Errorf("region server %s: %w", addr, err)
		}
		entries, err := wire.ParseSlowLog(resp)
		if err != nil {
			return nil, fmt.Errorf("region server %s: %w", addr, err)
		}
		for _, e := range entries {
			out = append(out, slowLogRecord(addr, e))
		}
	}
	return out, nil
}

// ClearSlowLogs empties the slow and large request logs of the region servers named ("host:port"
// or "host,port,startcode"), or of every live region server when none is named. A server
// that keeps no logs (hbase.regionserver.slowlog.buffer.enabled off) gives
// hberr.ErrNotSupported, after the others were cleared.
func (a *Admin) ClearSlowLogs(ctx context.Context, servers ...string) error {
	ctx, call := a.begin(ctx, "ClearSlowLogs", "", "")
	return call.end(ctx, a.clearSlowLogs(ctx, servers))
}

func (a *Admin) clearSlowLogs(ctx context.Context, servers []string) error {
	addrs, err := a.regionServers(ctx, servers)
	if err != nil {
		return err
	}
	var off []string
	for _, addr := range addrs {
		resp := &pb.ClearSlowLogResponses{}
		if err := a.onServer(ctx, addr, wire.MethodClearSlowLogs, &pb.ClearSlowLogResponseRequest{}, resp); err != nil {
			return fmt.Errorf("region server %s: %w", addr, err)
		}
		if !resp.GetIsCleaned() {
			off = append(off, addr)
		}
	}
	if len(off) > 0 {
		return fmt.Errorf("%w: region servers %v keep no slow logs (set hbase.regionserver.slowlog.buffer.enabled to true)", hberr.ErrNotSupported, off)
	}
	return nil
}

// regionServers resolves names of live region servers to addresses, or lists every live
// region server in address order when names is empty. An unknown name fails before any call.
func (a *Admin) regionServers(ctx context.Context, names []string) ([]string, error) {
	if len(names) > 0 {
		out := make([]string, 0, len(names))
		for _, n := range names {
			sn, err := a.liveServer(ctx, n)
			if err != nil {
				return nil, err
			}
			if !slices.Contains(out, sn.Addr()) {
				out = append(out, sn.Addr())
			}
		}
		return out, nil
	}
	st, err := a.clusterStatus(ctx)
	if err != nil {
		return nil, err
	}
	sns := make([]hrpc.ServerName, 0, len(st.LiveServers))
	for _, s := range st.LiveServers {
		sns = append(sns, s.Server)
	}
	slices.SortFunc(sns, func(x, y hrpc.ServerName) int {
		return cmp.Or(cmp.Compare(x.Host, y.Host), cmp.Compare(x.Port, y.Port))
	})
	out := make([]string, len(sns))
	for i, sn := range sns {
		out[i] = sn.Addr()
	}
	return out, nil
}

func slowLogRecord(server string, e *pb.SlowLogPayload) SlowLogRecord {
	return SlowLogRecord{
		Server:               server,
		Start:                time.UnixMilli(e.GetStartTime()),
		Processing:           time.Duration(e.GetProcessingTime()) * time.Millisecond,
		Queue:                time.Duration(e.GetQueueTime()) * time.Millisecond,
		ResponseSize:         e.GetResponseSize(),
		BlockBytesScanned:    e.GetBlockBytesScanned(),
		FSReadTime:           time.Duration(e.GetFsReadTime()) * time.Millisecond,
		Client:               e.GetClientAddress(),
		ServerClass:          e.GetServerClass(),
		Method:               e.GetMethodName(),
		CallDetails:          e.GetCallDetails(),
		Param:                e.GetParam(),
		User:                 e.GetUserName(),
		Region:               e.GetRegionName(),
		MultiGets:            int(e.GetMultiGets()),
		MultiMutations:       int(e.GetMultiMutations()),
		MultiServiceCalls:    int(e.GetMultiServiceCalls()),
		ConnectionAttributes: attributes(e.GetConnectionAttribute()),
		RequestAttributes:    attributes(e.GetRequestAttribute()),
	}
}

func attributes(ps []*pb.NameBytesPair) map[string][]byte {
	if len(ps) == 0 {
		return nil
	}
	m := make(map[string][]byte, len(ps))
	for _, p := range ps {
		m[p.GetName()] = p.GetValue()
	}
	return m
}

// BalancerDecision is one run of the master's stochastic balancer: the cost functions before
// and after, the total costs, the steps it computed and the region moves it planned.
type BalancerDecision struct {
	InitialFunctionCosts, FinalFunctionCosts string
	InitialTotalCost, ComputedTotalCost      float64
	ComputedSteps                            uint64
	RegionPlans                              []string
}

// BalancerRejection is a run of the balancer that decided not to balance, and why.
type BalancerRejection struct {
	Reason        string
	CostFunctions []string
}

// BalancerDecisions returns the master's last limit balancer decisions, newest first (0 means
// 10). The master keeps them only with hbase.master.balancer.decision.buffer.enabled set
// (else there are none).
func (a *Admin) BalancerDecisions(ctx context.Context, limit int) ([]BalancerDecision, error) {
	ctx, call := a.begin(ctx, "BalancerDecisions", "", "")
	req, err := wire.BalancerDecisionsRequest(limit)
	resp := &pb.LogEntry{}
	if err == nil {
		err = a.callMaster(ctx, wire.MethodGetLogEntries, req, resp)
	}
	var ds []*pb.BalancerDecision
	if err == nil {
		ds, err = wire.ParseBalancerDecisions(resp)
	}
	if err != nil {
		return nil, call.end(ctx, err)
	}
	out := make([]BalancerDecision, len(ds))
	for i, d := range ds {
		out[i] = BalancerDecision{
			InitialFunctionCosts: d.GetInitialFunctionCosts(), FinalFunctionCosts: d.GetFinalFunctionCosts(),
			InitialTotalCost: d.GetInitTotalCost(), ComputedTotalCost: d.GetComputedTotalCost(),
			ComputedSteps: d.GetComputedSteps(), RegionPlans: d.GetRegionPlans(),
		}
	}
	return out, call.end(ctx, nil)
}

// BalancerRejections returns the master's last limit refusals of the balancer to balance,
// newest first (0 means 10). The master keeps them only with
// hbase.master.balancer.rejection.buffer.enabled set (else there are none).
func (a *Admin) BalancerRejections(ctx context.Context, limit int) ([]BalancerRejection, error) {
	ctx, call := a.begin(ctx, "BalancerRejections", "", "")
	req, err := wire.BalancerRejectionsRequest(limit)
	resp := &pb.LogEntry{}
	if err == nil {
		err = a.callMaster(ctx, wire.MethodGetLogEntries, req, resp)
	}
	var rs []*pb.BalancerRejection
	if err == nil {
		rs, err = wire.ParseBalancerRejections(resp)
	}
	if err != nil {
		return nil, call.end(ctx, err)
	}
	out := make([]BalancerRejection, len(rs))
	for i, r := range rs {
		out[i] = BalancerRejection{Reason: r.GetReason(), CostFunctions: r.GetCostFuncInfo()}
	}
	return out, call.end(ctx, nil)
}
