package wire

import (
	"fmt"
	"math"
	"strings"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// The log requests: a region server's slow and large request logs (AdminService) and the
// master's balancer logs (MasterService), all through the generic GetLogEntries call, whose
// request and answer carry a message and the name of its Java class.

// Methods of the log calls.
const (
	MethodGetLogEntries  = "GetLogEntries"          // AdminService and MasterService
	MethodClearSlowLogs  = "ClearSlowLogsResponses" // AdminService
	shadedProtosPackage  = "org.apache.hadoop.hbase.shaded.protobuf.generated."
	slowLogRequestClass  = shadedProtosPackage + "AdminProtos$SlowLogResponseRequest"
	decisionsClass       = shadedProtosPackage + "MasterProtos$BalancerDecisionsRequest"
	rejectionsClass      = shadedProtosPackage + "MasterProtos$BalancerRejectionsRequest"
	defaultLogLimit      = 10 // HBase's default (SlowLogResponseRequest.limit)
	slowLogAnswerClass   = "SlowLogResponses"
	decisionsAnswerClass = "BalancerDecisionsResponse"
	rejectionsAnswer     = "BalancerRejectionsResponse"
)

// SlowLogFilter is what a slow or large log request asks one region server for.
type SlowLogFilter struct {
	Large                       bool // the large request log, else the slow one
	Region, Table, Client, User string
	MatchAll                    bool // every filter set must match (AND), else one (OR)
	Limit                       int  // the most entries; 0 means HBase's default, 10
}

func checkLogLimit(limit int) (uint32, error) {
	switch {
	case limit < 0 || limit > math.MaxInt32:
		return 0, fmt.Errorf("%w: log limit %d (want 0 for the default of %d, or 1 to %d)", hberr.ErrBadRequest, limit, defaultLogLimit, math.MaxInt32)
	case limit == 0:
		return defaultLogLimit, nil
	}
	return uint32(limit), nil
}

// SlowLogRequest builds the GetLogEntries request of a slow or large log.
func SlowLogRequest(f SlowLogFilter) (*pb.LogRequest, error) {
	limit, err := checkLogLimit(f.Limit)
	if err != nil {
		return nil, err
	}
	for _, x := range []struct{ what, v string }{{"region", f.Region}, {"table", f.Table}, {"client", f.Client}, {"user", f.User}} {
		if strings.ContainsAny(x.v, "\x00\n") {
			return nil, fmt.Errorf("%w: slow log filter of %s %q: a NUL or newline matches no entry", hberr.ErrBadRequest, x.what, x.v)
		}
	}
	if f.Table != "" {
		if err := CheckTableName(f.Table); err != nil {
			return nil, err
		}
	}
	req := &pb.SlowLogResponseRequest{Limit: &limit}
	if f.Region != "" {
		req.RegionName = &f.Region
	}
	if f.Table != "" {
		req.TableName = &f.Table
	}
	if f.Client != "" {
		req.ClientAddress = &f.Client
	}
	if f.User != "" {
		req.UserName = &f.User
	}
	op := pb.SlowLogResponseRequest_OR
	if f.MatchAll {
		op = pb.SlowLogResponseRequest_AND
	}
	req.FilterByOperator = &op
	typ := pb.SlowLogResponseRequest_SLOW_LOG
	if f.Large {
		typ = pb.SlowLogResponseRequest_LARGE_LOG
	}
	req.LogType = &typ
	return logRequest(slowLogRequestClass, req)
}

func logRequest(class string, m proto.Message) (*pb.LogRequest, error) {
	b, err := proto.Marshal(m)
	if err != nil {
		return nil, err
	}
	return &pb.LogRequest{LogClassName: &class, LogMessage: b}, nil
}

// parseLogEntry reads the message of a GetLogEntries answer into m, after checking that the
// answer says it is the class wanted (its simple name).
func parseLogEntry(e *pb.LogEntry, want string, m proto.Message) error {
	class := e.GetLogClassName()
	if class[strings.LastIndexAny(class, ".$")+1:] != want {
		return fmt.Errorf("the server answered a log of class %q, not %s", class, want)
	}
	if err := proto.Unmarshal(e.GetLogMessage(), m); err != nil {
		return fmt.Errorf("the server answered a log of class %q that does not decode: %w", class, err)
	}
	return nil
}

// ParseSlowLog reads the entries of a slow or large log answer.
func ParseSlowLog(e *pb.LogEntry) ([]*pb.SlowLogPayload, error) {
	var r pb.SlowLogResponses
	if err := parseLogEntry(e, slowLogAnswerClass, &r); err != nil {
		return nil, err
	}
	return r.GetSlowLogPayloads(), nil
}

// BalancerDecisionsRequest builds the master's GetLogEntries request of the balancer's
// decisions.
func BalancerDecisionsRequest(limit int) (*pb.LogRequest, error) {
	n, err := checkLogLimit(limit)
	if err != nil {
		return nil, err
	}
	return logRequest(decisionsClass, &pb.BalancerDecisionsRequest{Limit: &n})
}

// ParseBalancerDecisions reads the answer of BalancerDecisionsRequest.
func ParseBalancerDecisions(e *pb.LogEntry) ([]*pb.BalancerDecision, error) {
	var r pb.BalancerDecisionsResponse
	if err := parseLogEntry(e, decisionsAnswerClass, &r); err != nil {
		return nil, err
	}
	return r.GetBalancerDecision(), nil
}

// BalancerRejectionsRequest builds the master's GetLogEntries request of the balancer's
// refusals to run.
func BalancerRejectionsRequest(limit int) (*pb.LogRequest, error) {
	n, err := checkLogLimit(limit)
	if err != nil {
		return nil, err
	}
	return logRequest(rejectionsClass, &pb.BalancerRejectionsRequest{Limit: &n})
}

// ParseBalancerRejections reads the answer of BalancerRejectionsRequest.
func ParseBalancerRejections(e *pb.LogEntry) ([]*pb.BalancerRejection, error) {
	var r pb.BalancerRejectionsResponse
	if err := parseLogEntry(e, rejectionsAnswer, &r); err != nil {
		return nil, err
	}
	return r.GetBalancerRejection(), nil
}
