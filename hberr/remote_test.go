package hberr

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestNewRemoteErrorMapping(t *testing.T) {
	all := []error{ErrRegionUnavailable, ErrServerStopping, ErrRetryable, ErrOverloaded, ErrDoNotRetry,
		ErrTableNotFound, ErrNoSuchFamily, ErrTableDisabled, ErrScannerExpired}
	tests := []struct {
		class      string
		doNotRetry bool
		want       []error
	}{
		{"org.apache.hadoop.hbase.NotServingRegionException", false, []error{ErrRegionUnavailable}},
		{"org.apache.hadoop.hbase.exceptions.RegionMovedException", false, []error{ErrRegionUnavailable}},
		{"org.apache.hadoop.hbase.exceptions.RegionOpeningException", false, []error{ErrRegionUnavailable}},
		{"org.apache.hadoop.hbase.regionserver.WrongRegionException", false, []error{ErrRegionUnavailable}},
		{"org.apache.hadoop.hbase.client.RegionOfflineException", false, []error{ErrRegionUnavailable}},
		{"org.apache.hadoop.hbase.RegionTooBusyException", false, []error{ErrRetryable}},
		{"org.apache.hadoop.hbase.CallQueueTooBigException", false, []error{ErrRetryable, ErrOverloaded}},
		{"org.apache.hadoop.hbase.CallDroppedException", false, []error{ErrRetryable, ErrOverloaded}},
		{"org.apache.hadoop.hbase.RetryImmediatelyException", false, []error{ErrRetryable}},
		{"org.apache.hadoop.hbase.MultiActionResultTooLarge", false, []error{ErrRetryable}},
		{"org.apache.hadoop.hbase.quotas.RpcThrottlingException", false, []error{ErrRetryable}},
		{"org.apache.hadoop.hbase.regionserver.RegionServerStoppedException", false, []error{ErrServerStopping}},
		{"org.apache.hadoop.hbase.regionserver.RegionServerAbortedException", false, []error{ErrServerStopping}},
		{"org.apache.hadoop.hbase.ipc.ServerNotRunningYetException", false, []error{ErrServerStopping}},
		{"org.apache.hadoop.hbase.PleaseHoldException", false, []error{ErrServerStopping}},
		{"org.apache.hadoop.hbase.DoNotRetryIOException", true, []error{ErrDoNotRetry}},
		{"org.apache.hadoop.hbase.TableNotFoundException", true, []error{ErrTableNotFound, ErrDoNotRetry}},
		{"org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException", true, []error{ErrNoSuchFamily, ErrDoNotRetry}},
		{"org.apache.hadoop.hbase.TableNotEnabledException", true, []error{ErrTableDisabled, ErrDoNotRetry}},
		{"org.apache.hadoop.hbase.UnknownScannerException", true, []error{ErrScannerExpired}},
		{"org.apache.hadoop.hbase.exceptions.ScannerResetException", true, []error{ErrScannerExpired}},
		{"org.apache.hadoop.hbase.exceptions.OutOfOrderScannerNextException", true, []error{ErrScannerExpired}},
		{"org.apache.hadoop.hbase.regionserver.LeaseException", true, []error{ErrScannerExpired}},
		{"org.apache.hadoop.hbase.exceptions.FailedSanityCheckException", false, []error{ErrDoNotRetry}},
		{"org.apache.hadoop.hbase.security.AccessDeniedException", false, []error{ErrDoNotRetry}},
		{"com.example.MyCoprocessorException", true, []error{ErrDoNotRetry}},
		{"com.example.MyDoNotRetryException", false, []error{ErrDoNotRetry}},
		{"java.io.IOException", false, []error{ErrRetryable}},
		{"", false, []error{ErrRetryable}},
	}
	for _, tc := range tests {
		err := error(NewRemoteError(tc.class, tc.class+": it failed\n\tat x.y(Z.java:1)", tc.doNotRetry))
		for _, s := range all {
			want := false
			for _, w := range tc.want {
				want = want || w == s
			}
			if got := errors.Is(err, s); got != want {
				t.Errorf("%s: errors.Is(%v) = %v, want %v", tc.class, s, got, want)
			}
		}
		// Wrapping keeps the mapping.
		if wrapped := fmt.Errorf("get: %w", err); !errors.Is(wrapped, tc.want[0]) {
			t.Errorf("%s: wrapped error lost its kind", tc.class)
		}
	}
}

func TestRemoteErrorMessage(t *testing.T) {
	tests := []struct{ class, trace, msg string }{
		{"a.B", "a.B: hello\n\tat x", "hello"},
		{"a.B", "a.B\n\tat x", ""},
		{"a.B", "something else\r\nmore", "something else"},
		{"a.B", "", ""},
	}
	for _, tc := range tests {
		e := NewRemoteError(tc.class, tc.trace, false)
		if e.Message != tc.msg || e.StackTrace != tc.trace {
			t.Errorf("NewRemoteError(%q, %q).Message = %q, want %q", tc.class, tc.trace, e.Message, tc.msg)
		}
	}
}

func TestMovedTo(t *testing.T) {
	const class = "org.apache.hadoop.hbase.exceptions.RegionMovedException"
	tests := []struct {
		class, trace string
		host         string
		port         int
		want         string
	}{
		{class, class + ": Region moved to: hostname=rs1.example.com port=16020 startCode=17. As of locationSeqNum=5.\n\tat x", "", 0, "rs1.example.com:16020"},
		{class, "garbage", "rs2", 16021, "rs2:16021"},
		{class, class + ": Region moved to: hostname=rs1 port=notaport startCode=1.", "", 0, ""},
		{class, class + ": Region moved to: hostname=rs1", "", 0, ""},
		{"org.apache.hadoop.hbase.NotServingRegionException", "hostname=rs1 port=1 ", "", 0, ""},
	}
	for _, tc := range tests {
		e := NewRemoteError(tc.class, tc.trace, false)
		e.Host, e.Port = tc.host, tc.port
		if got := e.MovedTo(); got != tc.want {
			t.Errorf("MovedTo(%q) = %q, want %q", tc.trace, got, tc.want)
		}
	}
}

func TestThrottlingWait(t *testing.T) {
	const class = "org.apache.hadoop.hbase.quotas.RpcThrottlingException"
	tests := []struct {
		class, trace string
		want         time.Duration
	}{
		{class, class + ": number of requests exceeded - wait 1.50sec\n\tat x", 1500 * time.Millisecond},
		{class, class + ": read size limit exceeded - wait 0.05sec", 50 * time.Millisecond},
		{class, class + ": number of read requests exceeded - wait 2mins, 3.00sec", 2*time.Minute + 3*time.Second},
		{class, class + ": write size limit exceeded - wait 1hrs, 0mins, 5.00sec", time.Hour + 5*time.Second},
		// HBase 2.x (RpcThrottlingException.stringFromMillis).
		{class, class + ": number of requests exceeded - wait 250ms\n\tat x", 250 * time.Millisecond},
		{class, class + ": number of requests exceeded - wait 0ms", 0},
		{class, class + ": number of write requests exceeded - wait 1sec, 500ms", 1500 * time.Millisecond},
		{class, class + ": request size limit exceeded - wait 2mins, 3sec, 7ms", 2*time.Minute + 3*time.Second + 7*time.Millisecond},
		{class, class + ": number of requests exceeded - wait 1min, 0ms", time.Minute},
		{class, class + ": number of requests exceeded - wait 1hr, 1min, 1sec, 1ms", time.Hour + time.Minute + time.Second + time.Millisecond},
		{class, class + ": number of requests exceeded - wait 3hrs, 0ms", 3 * time.Hour},
		{class, class + ": number of requests exceeded - wait 999hrs, 999hrs, 0ms", 0},
		{class, class + ": number of requests exceeded - wait 250 ms", 250 * time.Millisecond},
		{class, class + ": number of requests exceeded - wait 250ms, soon", 0},
		{class, class + ": number of requests exceeded - wait 0x10ms", 0},
		{class, class + ": number of requests exceeded - wait NaNsec", 0},
		{class, class + ": number of requests exceeded - wait -1.00sec", 0},
		{class, class + ": number of requests exceeded - wait soon", 0},
		{class, class + ": no wait here", 0},
		{"org.apache.hadoop.hbase.CallQueueTooBigException", "CallQueueTooBigException: - wait 1.00sec", 0},
	}
	for _, tc := range tests {
		if got := NewRemoteError(tc.class, tc.trace, false).Wait(); got != tc.want {
			t.Errorf("Wait(%q) = %v; want %v", tc.trace, got, tc.want)
		}
	}
}

func TestMovedSeqNum(t *testing.T) {
	const class = "org.apache.hadoop.hbase.exceptions.RegionMovedException"
	e := NewRemoteError(class, class+": Region moved to: hostname=rs1 port=16020 startCode=17. As of locationSeqNum=1234.\n\tat x", false)
	if got := e.MovedSeqNum(); got != 1234 {
		t.Errorf("MovedSeqNum = %d; want 1234", got)
	}
	if got := NewRemoteError(class, "garbage", false).MovedSeqNum(); got != 0 {
		t.Errorf("MovedSeqNum of garbage = %d; want 0", got)
	}
}

// An exception the server flags as overloaded (ExceptionResponse.server_overloaded) is
// overloaded whatever its class, unless the server also said not to retry it; CallQueueTooBig
// and CallDropped are overloaded by class alone (per-action exceptions carry no flag).
func TestOverloaded(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{NewExceptionResponse("org.apache.hadoop.hbase.HBaseServerException", "x", false, "", 0, true), true},
		{NewExceptionResponse("org.apache.hadoop.hbase.HBaseServerException", "x", true, "", 0, true), false},
		{NewExceptionResponse("org.apache.hadoop.hbase.HBaseServerException", "x", false, "", 0, false), false},
		{NewRemoteError("org.apache.hadoop.hbase.CallQueueTooBigException", "Call queue is full", false), true},
		{NewRemoteError("org.apache.hadoop.hbase.CallDroppedException", "dropped", false), true},
		{NewRemoteError("org.apache.hadoop.hbase.RegionTooBusyException", "busy", false), false},
		{&AttemptsError{Attempts: 3, Last: NewRemoteError("org.apache.hadoop.hbase.CallQueueTooBigException", "", false)}, true},
		{nil, false},
	}
	for i, tc := range tests {
		if got := IsOverloaded(tc.err); got != tc.want {
			t.Errorf("%d: IsOverloaded(%v) = %v; want %v", i, tc.err, got, tc.want)
		}
		if tc.want && (!IsRetryable(tc.err) || Class(tc.err) != ClassOverloaded) {
			t.Errorf("%d: IsRetryable = %v, Class = %q; want true, %q", i, IsRetryable(tc.err), Class(tc.err), ClassOverloaded)
		}
	}
}
