package wire

import (
	"bytes"

	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// ExecCall is one call of a coprocessor endpoint's method on the region holding a row
// (ClientService's ExecService): the service and method by the names the server registered,
// and the request message already encoded. It is a Call the engine routes and retries like a
// Get; one ExecCall serves one call at a time (Marshal records the region it was built for,
// which CheckResponse compares with the region that answered).
type ExecCall struct {
	table      string
	row        []byte
	service    string
	method     string
	op         string
	request    []byte
	idempotent bool
	region     []byte // the region of the latest Marshal
}

// NewExecCall returns the call of service.method with request (the encoded request message)
// on the region of table holding row. idempotent: the method only reads (or doing it twice
// does no harm), so the engine may send it again after a lost connection or a corrupt response.
func NewExecCall(table string, row []byte, service, method string, request []byte, idempotent bool) *ExecCall {
	if row == nil {
		row = []byte{} // a required field: present even when empty
	}
	if request == nil {
		request = []byte{}
	}
	return &ExecCall{table: table, row: row, service: service, method: method,
		op: service + "." + method, request: request, idempotent: idempotent}
}

// TableName implements Call.
func (c *ExecCall) TableName() string { return c.table }

// Table implements Call.
func (c *ExecCall) Table() []byte { return TableBytes(c.table) }

// Key implements Call: the row whose region answers.
func (c *ExecCall) Key() []byte { return c.row }

// Method implements Call.
func (c *ExecCall) Method() string { return "ExecService" }

// Op implements Call: the service and method, "AggregateService.GetSum", as errors and hooks
// name the call.
func (c *ExecCall) Op() string { return c.op }

// MaxAttempts implements Call: the client's setting.
func (c *ExecCall) MaxAttempts() int { return 0 }

// Idempotent reports whether the call may be sent again after its answer was lost.
func (c *ExecCall) Idempotent() bool { return c.idempotent }

// Marshal implements Call.
func (c *ExecCall) Marshal(regionName, cellblock []byte) (proto.Message, []byte, error) {
	c.region = regionName
	return &pb.CoprocessorServiceRequest{
		Region: RegionSpecifier(regionName),
		Call:   c.serviceCall(),
	}, cellblock, nil
}

func (c *ExecCall) serviceCall() *pb.CoprocessorServiceCall {
	return &pb.CoprocessorServiceCall{Row: c.row, ServiceName: proto.String(c.service),
		MethodName: proto.String(c.method), Request: c.request}
}

// NewResponse implements Call.
func (c *ExecCall) NewResponse() proto.Message { return new(pb.CoprocessorServiceResponse) }

// CheckResponse implements Call: the answer is of the region asked, holds the method's
// response, and comes without cells.
func (c *ExecCall) CheckResponse(resp proto.Message, cells []byte) error {
	r, ok := resp.(*pb.CoprocessorServiceResponse)
	if !ok {
		return BadResponse("%T for a CoprocessorServiceRequest", resp)
	}
	if len(cells) > 0 {
		return BadResponse("%d cellblock bytes with a coprocessor response", len(cells))
	}
	if got := r.GetRegion().GetValue(); !bytes.Equal(got, c.region) {
		return BadResponse("coprocessor response of region %s, the request is for %s", quoted(got), quoted(c.region))
	}
	if r.GetValue() == nil {
		return BadResponse("coprocessor response without a value")
	}
	return nil
}

// ExecServerRequest is the request of service.method on a server rather than a region (the
// master's ExecMasterService, a region server's ExecRegionServerService): no region, no row,
// as the Java client sends it.
func ExecServerRequest(service, method string, request []byte) *pb.CoprocessorServiceRequest {
	c := NewExecCall("", nil, service, method, request, false)
	return &pb.CoprocessorServiceRequest{Region: RegionSpecifier([]byte{}), Call: c.serviceCall()}
}

// ExecValue returns the encoded response message of a checked CoprocessorServiceResponse.
func ExecValue(resp *pb.CoprocessorServiceResponse) []byte { return resp.GetValue().GetValue() }

// The methods that call a coprocessor endpoint of a server rather than of a region: the
// master's (MasterService's) and a region server's, which is ClientService's, not
// AdminService's (a region server's AdminService does not know the method).
const (
	MethodExecMasterService       = "ExecMasterService"
	MethodExecRegionServerService = "ExecRegionServerService"
	RegionServerEndpointService   = "ClientService"
)
