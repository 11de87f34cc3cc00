package hrpc

import (
	"github.com/go-hbase/hbase/pb"
	"google.golang.org/protobuf/proto"
)

// The ScanRequests of a scanner's life. The client's Scanner decides when to send which (it
// routes, resumes and retries); the messages themselves are built here, like every other
// request.

// ScanOpenRequest opens a scanner in regionName with spec (the Scan's ScanProto, its start row
// moved on by the scanner as rows are returned) and asks for the first rows per RPC. limit is
// how many rows the scan may still return (0: no limit).
func ScanOpenRequest(regionName []byte, spec *pb.Scan, rowsPerRPC, limit uint32) *pb.ScanRequest {
	a := &scanOpenAlloc{regionType: pb.RegionSpecifier_REGION_NAME, rows: rowsPerRPC, limit: limit, yes: true}
	a.region = pb.RegionSpecifier{Type: &a.regionType, Value: regionName}
	a.req = pb.ScanRequest{
		Region:                  &a.region,
		Scan:                    spec,
		NumberOfRows:            &a.rows,
		ClientHandlesPartials:   &a.yes,
		ClientHandlesHeartbeats: &a.yes,
	}
	if limit > 0 {
		a.req.LimitOfRows = &a.limit
	}
	return &a.req
}

// scanOpenAlloc is a ScanRequest that opens a scanner with every field it points to: one
// allocation.
type scanOpenAlloc struct {
	req         pb.ScanRequest
	region      pb.RegionSpecifier
	regionType  pb.RegionSpecifier_RegionSpecifierType
	rows, limit uint32
	yes         bool
}

// ScanNextRequest asks an open scanner for its next rows; seq is the call sequence number the
// server checks to detect a lost or repeated request.
func ScanNextRequest(scannerID, seq uint64, rowsPerRPC, limit uint32) *pb.ScanRequest {
	req := &pb.ScanRequest{
		ScannerId:               proto.Uint64(scannerID),
		NumberOfRows:            proto.Uint32(rowsPerRPC),
		NextCallSeq:             proto.Uint64(seq),
		ClientHandlesPartials:   proto.Bool(true),
		ClientHandlesHeartbeats: proto.Bool(true),
	}
	if limit > 0 {
		req.LimitOfRows = proto.Uint32(limit)
	}
	return req
}

// ScanCloseRequest closes a scanner on the server.
func ScanCloseRequest(scannerID uint64) *pb.ScanRequest {
	return &pb.ScanRequest{ScannerId: proto.Uint64(scannerID), CloseScanner: proto.Bool(true),
		NumberOfRows: proto.Uint32(0)}
}

// ScanRenewRequest renews an idle scanner's lease without reading rows.
func ScanRenewRequest(scannerID, seq uint64) *pb.ScanRequest {
	return &pb.ScanRequest{ScannerId: proto.Uint64(scannerID), Renew: proto.Bool(true),
		NextCallSeq: proto.Uint64(seq), NumberOfRows: proto.Uint32(0)}
}

// ProbeRequest is an existence-only Get of row in regionName that reads nothing: the client
// sends it to check that a server does serve a region. Unlike NewGet it accepts the empty row
// (the first region's start key).
func ProbeRequest(regionName, row []byte) *pb.GetRequest {
	return &pb.GetRequest{
		Region: regionSpecifier(regionName),
		Get:    &pb.Get{Row: row, ExistenceOnly: proto.Bool(true)},
	}
}
