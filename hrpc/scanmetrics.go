package hrpc

// TrackScanMetrics asks the servers for their scan metrics (ScanRequest.track_scan_metrics):
// each ScanResponse then carries the rows the server scanned and filtered and the bytes it
// read for that RPC, which the client's Scanner adds up (hbase.Scanner.Metrics).
func TrackScanMetrics() ScanOption {
	return scanOnly(func(o *options) error {
		o.scan().trackMetrics = true
		return nil
	})
}
