package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/go-hbase/hbase/admin"
)

// The tools group's logs: the region servers' slow and large request logs and the master's
// balancer decisions and rejections, printed as the shell prints them (a line, then each
// entry as pretty JSON with the Java records' field names).

func requestLogVerbs() []*shellVerb {
	return []*shellVerb{
		{name: "get_slowlog_responses", group: "tools", prepare: prepareRequestLog(false), usage: `get_slowlog_responses '*'
get_slowlog_responses '*', {'LIMIT' => 50}
get_slowlog_responses ['host1,16020,1289493121758', 'host2:16020']
get_slowlog_responses '*', {'TABLE_NAME' => 't1'}
get_slowlog_responses '*', {'REGION_NAME' => 'hbase:meta,,1', 'TABLE_NAME' => 't1'}
get_slowlog_responses '*', {'USER' => 'bob', 'CLIENT_IP' => '192.168.1.40:60225', 'FILTER_BY_OP' => 'AND'}

Lists the calls each region server ('*': every one) logged as slow (longer than
hbase.ipc.warn.response.time), newest first, up to LIMIT (default 10) a server: those of a
region, table, user or client address, matching any of the filters given (all of them with
FILTER_BY_OP => 'AND'). The servers keep them with hbase.regionserver.slowlog.buffer.enabled.`},
		{name: "get_largelog_responses", group: "tools", prepare: prepareRequestLog(true), usage: `get_largelog_responses '*'
get_largelog_responses '*', {'LIMIT' => 50}
get_largelog_responses ['host1,16020,1289493121758'], {'TABLE_NAME' => 't1'}

Lists the calls each region server logged as large (an answer over hbase.ipc.warn.response.size
bytes); the servers, filters and LIMIT are those of get_slowlog_responses.`},
		{name: "clear_slowlog_responses", group: "tools", prepare: prepareClearSlowLog, usage: `clear_slowlog_responses
clear_slowlog_responses ['host1,16020,1289493121758', 'host2:16020']

Empties the slow and large request logs of every region server, or of those named.`},
		{name: "get_balancer_decisions", group: "tools", prepare: prepareBalancerLog(false), usage: `get_balancer_decisions
get_balancer_decisions {'LIMIT' => 10}

Lists the balancer's last decisions (up to LIMIT, default 250): costs before and after, steps
and the region moves planned. The master keeps them with
hbase.master.balancer.decision.buffer.enabled.`},
		{name: "get_balancer_rejections", group: "tools", prepare: prepareBalancerLog(true), usage: `get_balancer_rejections
get_balancer_rejections {'LIMIT' => 10}

Lists the balancer's last refusals to run (up to LIMIT, default 250), with the reason and the
costs it weighed.`},
	}
}

// logRecordsOut is a log listing: the shell's line, then each entry as pretty JSON.
type logRecordsOut struct {
	header  string
	Records []any `json:"records"`
}

func (r *logRecordsOut) shellText(w io.Writer) (int64, error) {
	fmt.Fprintln(w, r.header)
	for _, rec := range r.Records {
		b, err := json.MarshalIndent(rec, "", "  ")
		if err != nil {
			return -1, err
		}
		if _, err := fmt.Fprintln(w, string(b)); err != nil {
			return -1, err
		}
	}
	return -1, nil
}

// slowLogOut is one entry of a request log, with OnlineLogRecord's field names; the server
// that logged it comes first (the shell's listing does not say it).
type slowLogOut struct {
	Server               string            `json:"server"`
	StartTime            int64             `json:"startTime"`
	ProcessingTime       int64             `json:"processingTime"`
	QueueTime            int64             `json:"queueTime"`
	ResponseSize         int64             `json:"responseSize"`
	BlockBytesScanned    int64             `json:"blockBytesScanned"`
	FSReadTime           int64             `json:"fsReadTime"`
	ClientAddress        string            `json:"clientAddress,omitempty"`
	ServerClass          string            `json:"serverClass,omitempty"`
	MethodName           string            `json:"methodName,omitempty"`
	CallDetails          string            `json:"callDetails,omitempty"`
	Param                string            `json:"param,omitempty"`
	UserName             string            `json:"userName,omitempty"`
	MultiGetsCount       int               `json:"multiGetsCount,omitempty"`
	MultiMutationsCount  int               `json:"multiMutationsCount,omitempty"`
	MultiServiceCalls    int               `json:"multiServiceCalls,omitempty"`
	RequestAttributes    map[string]string `json:"requestAttributes,omitempty"`
	ConnectionAttributes map[string]string `json:"connectionAttributes,omitempty"`
}

func slowLogEntry(r admin.SlowLogRecord) slowLogOut {
	return slowLogOut{
		Server: r.Server, StartTime: r.Start.UnixMilli(), ProcessingTime: r.Processing.Milliseconds(),
		QueueTime: r.Queue.Milliseconds(), ResponseSize: r.ResponseSize, BlockBytesScanned: r.BlockBytesScanned,
		FSReadTime: r.FSReadTime.Milliseconds(), ClientAddress: r.Client, ServerClass: r.ServerClass,
		MethodName: r.Method, CallDetails: r.CallDetails, Param: r.Param, UserName: r.User,
		MultiGetsCount: r.MultiGets, MultiMutationsCount: r.MultiMutations, MultiServiceCalls: r.MultiServiceCalls,
		RequestAttributes: attributeText(r.RequestAttributes), ConnectionAttributes: attributeText(r.ConnectionAttributes),
	}
}

// attributeText is a call's attributes with their values as text, as the shell prints them.
func attributeText(m map[string][]byte) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = formatBinary(v)
	}
	return out
}

// logServers reads the servers argument: '*' (every live region server: nil), a server name
// or an array of them.
func logServers(v value) ([]string, error) {
	if v.kind == vString && v.s == "*" {
		return nil, nil
	}
	names, err := strList(v, "servers")
	if err != nil {
		return nil, fmt.Errorf("%v ('*' for every region server, or ['host,port,startcode', ...])", err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("servers: empty list ('*' for every region server)")
	}
	return names, nil
}

func prepareRequestLog(large bool) func(statement) (action, error) {
	return func(st statement) (action, error) {
		args, opts := splitOpts(st.args)
		if err := wantArgs(args, 1, 1, st.verb+" '*' or ['server', ...][, {'LIMIT' => n, 'TABLE_NAME' => 't' ...}]"); err != nil {
			return nil, err
		}
		servers, err := logServers(args[0])
		if err != nil {
			return nil, err
		}
		q, err := logQuery(opts)
		if err != nil {
			return nil, err
		}
		q.Servers = servers
		header := "Retrieved SlowLog Responses from RegionServers"
		if large {
			header = "Retrieved LargeLog Responses from RegionServers"
		}
		return quotaAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
			var recs []admin.SlowLogRecord
			if large {
				recs, err = a.LargeLogs(ctx, q)
			} else {
				recs, err = a.SlowLogs(ctx, q)
			}
			if err != nil {
				return nil, err
			}
			out := &logRecordsOut{header: header, Records: []any{}}
			for _, r := range recs {
				out.Records = append(out.Records, slowLogEntry(r))
			}
			return out, nil
		}), nil
	}
}

// logQuery reads the filters of get_slowlog_responses.
func logQuery(opts value) (admin.LogQuery, error) {
	var q admin.LogQuery
	for _, e := range opts.hash {
		dst := map[string]*string{"REGION_NAME": &q.Region, "TABLE_NAME": &q.Table, "CLIENT_IP": &q.Client, "USER": &q.User}[e.key]
		switch {
		case dst != nil:
			s, err := strVal(e.val, e.key)
			if err != nil {
				return q, err
			}
			*dst = s
		case e.key == "LIMIT":
			n, err := logLimit(e.val)
			if err != nil {
				return q, err
			}
			q.Limit = n
		case e.key == "FILTER_BY_OP":
			op, err := scalarText(e.val)
			if err != nil || op != "AND" && op != "OR" {
				return q, fmt.Errorf("FILTER_BY_OP: want 'AND' or 'OR', got %s", e.val.describe())
			}
			q.MatchAll = op == "AND"
		default:
			return q, fmt.Errorf("unknown filter %s: want REGION_NAME, TABLE_NAME, CLIENT_IP, USER, LIMIT or FILTER_BY_OP", e.key)
		}
	}
	return q, nil
}

func logLimit(v value) (int, error) {
	n, err := intVal(v, "LIMIT")
	if err != nil {
		return 0, err
	}
	if n <= 0 || n > 1<<31-1 {
		return 0, fmt.Errorf("LIMIT: want 1 or more, got %d", n)
	}
	return int(n), nil
}

func prepareClearSlowLog(st statement) (action, error) {
	if err := wantArgs(st.args, 0, 1, "clear_slowlog_responses or clear_slowlog_responses ['server', ...]"); err != nil {
		return nil, err
	}
	var servers []string
	if len(st.args) == 1 && st.args[0].kind != vNil {
		var err error
		if servers, err = logServers(st.args[0]); err != nil {
			return nil, err
		}
	}
	return quotaAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		n := len(servers)
		if n == 0 {
			cs, err := a.ClusterStatus(ctx)
			if err != nil {
				return nil, err
			}
			n = len(cs.LiveServers)
		}
		if err := a.ClearSlowLogs(ctx, servers...); err != nil {
			return nil, err
		}
		return done("Cleared Slowlog responses from %d/%d RegionServers", n, n), nil
	}), nil
}

// balancerDecisionOut and balancerRejectionOut are the balancer's log entries with the Java
// records' field names.
type balancerDecisionOut struct {
	InitialFunctionCosts string   `json:"initialFunctionCosts"`
	FinalFunctionCosts   string   `json:"finalFunctionCosts"`
	InitTotalCost        float64  `json:"initTotalCost"`
	ComputedTotalCost    float64  `json:"computedTotalCost"`
	ComputedSteps        uint64   `json:"computedSteps"`
	RegionPlans          []string `json:"regionPlans"`
}

type balancerRejectionOut struct {
	Reason           string   `json:"reason"`
	CostFuncInfoList []string `json:"costFuncInfoList"`
}

func prepareBalancerLog(rejections bool) func(statement) (action, error) {
	return func(st statement) (action, error) {
		args, opts := splitOpts(st.args)
		if len(args) > 0 {
			return nil, fmt.Errorf("want %s or %s {'LIMIT' => n}", st.verb, st.verb)
		}
		limit := 250
		for _, e := range opts.hash {
			if e.key != "LIMIT" {
				return nil, fmt.Errorf("unknown option %s: want LIMIT", e.key)
			}
			n, err := logLimit(e.val)
			if err != nil {
				return nil, err
			}
			limit = n
		}
		return quotaAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
			if rejections {
				rs, err := a.BalancerRejections(ctx, limit)
				if err != nil {
					return nil, err
				}
				out := &logRecordsOut{header: "Retrieved BalancerRejection Responses", Records: []any{}}
				for _, r := range rs {
					out.Records = append(out.Records, balancerRejectionOut{r.Reason, nonNil(r.CostFunctions)})
				}
				return out, nil
			}
			ds, err := a.BalancerDecisions(ctx, limit)
			if err != nil {
				return nil, err
			}
			out := &logRecordsOut{header: "Retrieved BalancerDecision Responses", Records: []any{}}
			for _, d := range ds {
				out.Records = append(out.Records, balancerDecisionOut{d.InitialFunctionCosts, d.FinalFunctionCosts,
					d.InitialTotalCost, d.ComputedTotalCost, d.ComputedSteps, nonNil(d.RegionPlans)})
			}
			return out, nil
		}), nil
	}
}
