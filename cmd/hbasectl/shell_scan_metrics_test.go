package main

import (
	"testing"

	"github.com/go-hbase/hbase/hbasetrace"
)

// TestPickMetrics: the client's four metrics and the servers' by HBase's names, all of them
// sorted or those named in their order; an unknown name is refused.
func TestPickMetrics(t *testing.T) {
	m := hbasetrace.ScanMetrics{RPCs: 3, Regions: 2, Retries: 1, ResponseBytes: 100,
		Server: map[string]int64{"ROWS_SCANNED": 7, "ROWS_FILTERED": 4}}
	got, err := pickMetrics(m, []string{"ROWS_SCANNED", "RPC_CALLS"}, false)
	if err != nil || len(got) != 2 || got[0] != (metricOut{"ROWS_SCANNED", 7}) || got[1] != (metricOut{"RPC_CALLS", 3}) {
		t.Fatalf("pickMetrics(names) = %+v, %v; want ROWS_SCANNED 7, RPC_CALLS 3", got, err)
	}
	all, err := pickMetrics(m, nil, true)
	if err != nil || len(all) != 6 || all[0].Name != "BYTES_IN_RESULTS" || all[5].Name != "RPC_RETRIES" {
		t.Fatalf("pickMetrics(all) = %+v, %v; want the 6 metrics sorted by name", all, err)
	}
	if _, err := pickMetrics(m, []string{"NO_SUCH"}, false); err == nil {
		t.Fatal("pickMetrics of an unknown name: no error")
	}
}
