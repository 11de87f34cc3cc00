package hberr

import (
	"net"
	"strconv"
	"testing"
	"time"
)

// FuzzRemoteErrorHints feeds exception classes and messages as a server might send them to
// what the client reads in them: the RegionMoved server and sequence number and the
// throttling wait. Never a panic; a server address is a valid host:port; a wait is never
// negative nor absurd.
func FuzzRemoteErrorHints(f *testing.F) {
	const moved = "org.apache.hadoop.hbase.exceptions.RegionMovedException"
	const throttled = "org.apache.hadoop.hbase.quotas.RpcThrottlingException"
	f.Add(moved, moved+": Region moved to: hostname=rs1.example.com port=16020 startCode=1700000000000. As of locationSeqNum=12.\n\tat x", "", 0)
	f.Add(moved, "Region moved to: hostname= port=-1 startCode=. As of locationSeqNum=.", "h", 16020)
	f.Add(throttled, throttled+": number of requests exceeded - wait 1.50sec\n\tat x", "", 0)
	f.Add(throttled, throttled+": read size limit exceeded - wait 1hrs, 2mins, 3.05sec", "", 0)
	f.Add(throttled, throttled+": - wait 99999999999999999999hrs, 0mins, 1e308sec", "", 0)
	f.Add(throttled, throttled+": number of requests exceeded - wait 1sec, 250ms\n\tat x", "", 0)
	f.Add(throttled, throttled+": - wait 1000hrs, 1000hrs, 3600000000ms", "", 0)
	f.Add("org.apache.hadoop.hbase.CallQueueTooBigException", "Call queue is full", "", 0)
	f.Fuzz(func(t *testing.T, class, trace, host string, port int) {
		e := NewRemoteError(class, trace, false)
		e.Host, e.Port = host, port
		if addr := e.MovedTo(); addr != "" {
			h, p, err := net.SplitHostPort(addr)
			if err != nil || h == "" {
				t.Fatalf("MovedTo = %q: not host:port", addr)
			}
			if n, err := strconv.Atoi(p); err != nil || n <= 0 {
				t.Fatalf("MovedTo = %q: bad port", addr)
			}
		}
		_ = e.MovedSeqNum()
		if w := e.Wait(); w < 0 || w > 1001*time.Hour {
			t.Fatalf("Wait = %v", w)
		}
		if e.Error() == "" {
			t.Fatal("empty error text")
		}
	})
}
