package fakehbase

import (
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// The fake loads no coprocessor: a call of an endpoint, on a region (ClientService's
// ExecService), the master or a region server, is answered with an
// UnsupportedOperationException naming the endpoint's service and method, after the checks
// HBase makes first (the request must be readable, the region served here) and, on a region,
// the faults of OpExecService.

func clientExec(c *call) (proto.Message, error) {
	var req pb.CoprocessorServiceRequest
	if err := c.unmarshal(&req); err != nil {
		return nil, err
	}
	r, unlock, err := c.enter(OpExecService, req.GetRegion(), req.GetCall().GetRow())
	if err != nil {
		return nil, err
	}
	table := r.t.name
	unlock()
	return nil, unsupportedEndpoint(req.GetCall(), "regions of "+table)
}

// serverExec answers a coprocessor call on the master or a region server (where).
func serverExec(where string) handler {
	return func(c *call) (proto.Message, error) {
		var req pb.CoprocessorServiceRequest
		if err := c.unmarshal(&req); err != nil {
			return nil, err
		}
		return nil, unsupportedEndpoint(req.GetCall(), where)
	}
}

func unsupportedEndpoint(call *pb.CoprocessorServiceCall, where string) *javaError {
	return unsupported("coprocessor endpoint %s.%s (on the %s)", call.GetServiceName(), call.GetMethodName(), where)
}
