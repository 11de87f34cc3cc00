package hrpc

import "github.com/go-hbase/hbase/internal/pb"

// TrackScanMetrics asks the servers for their scan metrics (ScanRequest.track_scan_metrics):
// each ScanResponse then carries the rows the server scanned and filtered and the bytes it
// read for that RPC, which the client's Scanner adds up (Scanner.Metrics).
func TrackScanMetrics() ScanOption {
	return scanOnly(func(o *options) error {
		o.trackMetrics = true
		return nil
	})
}

// TrackScanMetrics reports whether the scan asks the servers for scan metrics.
func (s *Scan) TrackScanMetrics() bool { return s.trackMetrics }

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
