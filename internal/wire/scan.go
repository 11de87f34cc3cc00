package wire

import (
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// The ScanRequests of a scanner's life. The client's Scanner decides when to send which (it
// routes, resumes and retries); the messages themselves are built here, like every other
// request.

// ScanOpenRequest opens a scanner in regionName with spec (a Scan's ProtoInto, its start row
// moved on by the scanner as rows are returned) and asks for the first rows per RPC. limit is
// how many rows the scan may still return (0: no limit). One allocation; a scanner that sends
// many requests builds them in a ScanRequests of its own instead.
func ScanOpenRequest(regionName []byte, spec *pb.Scan, rowsPerRPC, limit uint32) *pb.ScanRequest {
	return new(ScanRequests).Open(regionName, spec, rowsPerRPC, limit)
}

// ScanNextRequest asks an open scanner for its next rows; seq is the call sequence number the
// server checks to detect a lost or repeated request.
func ScanNextRequest(scannerID, seq uint64, rowsPerRPC, limit uint32) *pb.ScanRequest {
	return new(ScanRequests).Next(scannerID, seq, rowsPerRPC, limit)
}

// ScanRequests builds the open and next ScanRequests of a scanner in place, with every field
// they point to: a scanner sends its requests without allocating. Each request it returns is
// valid until the next call of Open or Next (the region client encodes a request before its
// Call returns and keeps no reference to it). The zero value is ready for use.
type ScanRequests struct {
	req            pb.ScanRequest
	region         pb.RegionSpecifier
	regionType     pb.RegionSpecifier_RegionSpecifierType
	scannerID, seq uint64
	rows, limit    uint32
	yes            bool
}

// Open is ScanOpenRequest, built in b.
func (b *ScanRequests) Open(regionName []byte, spec *pb.Scan, rowsPerRPC, limit uint32) *pb.ScanRequest {
	b.reset(rowsPerRPC, limit)
	b.regionType = pb.RegionSpecifier_REGION_NAME
	b.region.Reset()
	b.region.Type, b.region.Value = &b.regionType, regionName
	b.req.Region, b.req.Scan = &b.region, spec
	return &b.req
}

// Next is ScanNextRequest, built in b.
func (b *ScanRequests) Next(scannerID, seq uint64, rowsPerRPC, limit uint32) *pb.ScanRequest {
	b.reset(rowsPerRPC, limit)
	b.scannerID, b.seq = scannerID, seq
	b.req.ScannerId, b.req.NextCallSeq = &b.scannerID, &b.seq
	return &b.req
}

// reset empties the request and sets the fields every open and next request carries.
func (b *ScanRequests) reset(rowsPerRPC, limit uint32) {
	b.req.Reset()
	b.rows, b.limit, b.yes = rowsPerRPC, limit, true
	b.req.NumberOfRows = &b.rows
	b.req.ClientHandlesPartials, b.req.ClientHandlesHeartbeats = &b.yes, &b.yes
	if limit > 0 {
		b.req.LimitOfRows = &b.limit
	}
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

// WithScanMetrics sets track_scan_metrics on a ScanRequest built by ScanOpenRequest or
// ScanNextRequest and returns it.
func WithScanMetrics(req *pb.ScanRequest) *pb.ScanRequest {
	t := true
	req.TrackScanMetrics = &t
	return req
}

// AddScanMetrics adds the server's scan metrics of resp, by name ("ROWS_SCANNED",
// "ROWS_FILTERED", "BLOCK_BYTES_SCANNED"...), to dst. It reports whether resp had any.
func AddScanMetrics(dst map[string]int64, resp *pb.ScanResponse) bool {
	m := resp.GetScanMetrics()
	if m == nil {
		return false
	}
	for _, p := range m.GetMetrics() {
		if p.Name != nil {
			dst[p.GetName()] += p.GetValue()
		}
	}
	return true
}

// ProbeRequest is an existence-only Get of row in regionName that reads nothing: the client
// sends it to check that a server does serve a region. Unlike hrpc.NewGet it accepts the empty
// row (the first region's start key).
func ProbeRequest(regionName, row []byte) *pb.GetRequest {
	return &pb.GetRequest{
		Region: RegionSpecifier(regionName),
		Get:    &pb.Get{Row: row, ExistenceOnly: proto.Bool(true)},
	}
}

// RegionSpecifier names a region by its full name.
func RegionSpecifier(regionName []byte) *pb.RegionSpecifier {
	return &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: regionName}
}

// EncodedSpecifier names a region by its encoded name.
func EncodedSpecifier(encoded string) *pb.RegionSpecifier {
	return &pb.RegionSpecifier{Type: pb.RegionSpecifier_ENCODED_REGION_NAME.Enum(), Value: []byte(encoded)}
}

// ReplicaOpen builds the open requests of a Timeline scan's secondary replicas from the open
// request made for its primary. They share a copy of the scan spec without the primary's read
// point (a secondary numbers its reads its own way, so it opens without one and gives its
// own), and copies of the request's own fields: the scanner reuses its request once the open
// returns, while a losing replica's request may still be encoding.
type ReplicaOpen struct {
	spec                              *pb.Scan
	rows, limit                       *uint32
	partials, heartbeats, scanMetrics *bool
}

// NewReplicaOpen copies what the secondaries' open requests take from req.
func NewReplicaOpen(req *pb.ScanRequest) ReplicaOpen {
	spec := proto.Clone(req.GetScan()).(*pb.Scan)
	spec.MvccReadPoint = nil
	return ReplicaOpen{spec: spec, rows: copyOf(req.NumberOfRows), limit: copyOf(req.LimitOfRows),
		partials: copyOf(req.ClientHandlesPartials), heartbeats: copyOf(req.ClientHandlesHeartbeats),
		scanMetrics: copyOf(req.TrackScanMetrics)}
}

// Request is the open request for the secondary replica named region.
func (o ReplicaOpen) Request(region []byte) *pb.ScanRequest {
	return &pb.ScanRequest{Region: RegionSpecifier(region), Scan: o.spec, NumberOfRows: o.rows,
		LimitOfRows: o.limit, ClientHandlesPartials: o.partials, ClientHandlesHeartbeats: o.heartbeats,
		TrackScanMetrics: o.scanMetrics}
}

// copyOf returns a pointer to a copy of *p, or nil.
func copyOf[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
