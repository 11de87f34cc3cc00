package engine

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
)

// A batch is "Batch" everywhere: its call, each MultiRequest (Attempt, ServerLatency), and the
// retry of an action; the wire method "Multi" appears nowhere.
func TestBatchHasOneOperationName(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", end: "m", id: 1}, fakeRegion{table: "t", start: "m", id: 2})
	fc.regionFault = func(n int64, region []byte) string {
		if n == 1 && strings.HasPrefix(string(region), "t,m,") {
			return "org.apache.hadoop.hbase.RegionTooBusyException"
		}
		return ""
	}
	var log eventLog
	c := fc.client(t, WithHooks(log.hooks()), WithMaxBackoff(time.Millisecond))
	res := c.SendBatch(testContext(t, 10*time.Second), []hrpc.Batchable{mustGetT(t, "t", "a"), mustGetT(t, "t", "z")})
	for i, r := range res {
		if r.Err != nil {
			t.Fatalf("action %d: %v", i, r.Err)
		}
	}
	var calls []string
	for _, e := range log.list() {
		if strings.HasPrefix(e, "start") || strings.HasPrefix(e, "attempt") || strings.HasPrefix(e, "retry") || strings.HasPrefix(e, "done") {
			calls = append(calls, e)
		}
	}
	// One MultiRequest carries both regions (one server); the busy region's action is sent
	// again alone.
	want := []string{"start Batch /", "attempt Batch 1 ok", "retry Batch 1 retryable relocate=false",
		"attempt Batch 2 ok", "done Batch ok"}
	if !slices.Equal(calls, want) {
		t.Fatalf("events =\n%s\nwant\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	if d := log.done[0]; d.Attempts != 2 || d.Retries != 1 || d.RequestBytes == 0 || d.ResponseBytes == 0 {
		t.Errorf("CallDone = %+v; want 2 attempts, 1 retry, bytes both ways", d)
	}
	lat := c.ServerLatency()
	if len(lat) != 1 || lat[0].Op != "Batch" || lat[0].Count != 2 {
		t.Errorf("ServerLatency = %+v; want the 2 MultiRequests as Batch", lat)
	}
	if st := c.Stats(); st.Retries != 1 {
		t.Errorf("Stats.Retries = %d, want 1 (the Retry events count the same)", st.Retries)
	}
}
