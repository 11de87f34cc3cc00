package hberr

import (
	"context"
	"errors"
	"testing"
)

func TestQuotaClassification(t *testing.T) {
	sentinels := []error{ErrThrottled, ErrQuotaExceeded, ErrSpaceQuotaViolated, ErrRetryable, ErrDoNotRetry}
	tests := []struct {
		class, msg string
		want       []error
	}{
		{"org.apache.hadoop.hbase.quotas.RpcThrottlingException", "number of requests exceeded - wait 250ms", []error{ErrThrottled, ErrRetryable}},
		{"org.apache.hadoop.hbase.quotas.QuotaExceededException", "The table ns:t cannot be created as it would exceed maximum number of tables allowed in the namespace.", []error{ErrQuotaExceeded, ErrDoNotRetry}},
		{"org.apache.hadoop.hbase.quotas.SpaceLimitingException", "NO_WRITES Puts are disallowed due to a space quota.", []error{ErrSpaceQuotaViolated, ErrQuotaExceeded, ErrDoNotRetry}},
		{"org.apache.hadoop.hbase.RegionTooBusyException", "busy", []error{ErrRetryable}},
	}
	for _, tc := range tests {
		err := error(NewRemoteError(tc.class, tc.class+": "+tc.msg, false))
		for _, s := range sentinels {
			want := false
			for _, w := range tc.want {
				want = want || w == s
			}
			if got := errors.Is(err, s); got != want {
				t.Errorf("%s: errors.Is(%v) = %v; want %v", tc.class, s, got, want)
			}
		}
	}
}

// A throttled call that ran out of time or attempts still says it was throttled.
func TestThrottledUnderRetryErrors(t *testing.T) {
	re := NewRemoteError("org.apache.hadoop.hbase.quotas.RpcThrottlingException",
		"org.apache.hadoop.hbase.quotas.RpcThrottlingException: number of requests exceeded - wait 1sec, 5ms", false)
	for _, err := range []error{
		&RetryError{Err: context.DeadlineExceeded, Last: re},
		&AttemptsError{Attempts: 1, Last: re},
		&OpError{Op: "Get", Table: "t", Err: &RetryError{Err: context.DeadlineExceeded, Last: re}},
	} {
		if !errors.Is(err, ErrThrottled) {
			t.Errorf("errors.Is(%v, ErrThrottled) = false; want true", err)
		}
		if errors.Is(err, ErrQuotaExceeded) {
			t.Errorf("errors.Is(%v, ErrQuotaExceeded) = true; want false (a throttle passes)", err)
		}
	}
}
