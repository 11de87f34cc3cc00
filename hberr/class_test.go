package hberr

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestClass(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{nil, ClassOK},
		{fmt.Errorf("x: %w", context.DeadlineExceeded), ClassTimeout},
		{context.Canceled, ClassCanceled},
		{&OpError{Op: "Get", Err: ErrTableNotFound}, ClassNotFound},
		{NewRemoteError("org.apache.hadoop.hbase.NotServingRegionException", "", false), ClassRegionUnavailable},
		{NewRemoteError("org.apache.hadoop.hbase.RegionTooBusyException", "", false), ClassRetryable},
		{NewRemoteError("org.apache.hadoop.hbase.ipc.CallTimeoutException", "", false), ClassTimeout},
		{NewRemoteError("com.example.SomethingElse", "", false), ClassRetryable}, // unknown classes are retryable
		{NewRemoteError("com.example.SomethingElse", "", true), ClassDoNotRetry},
		{fmt.Errorf("%w: %w", ErrIndeterminate, ErrCorruptResponse), ClassIndeterminate},
		{ErrCorruptResponse, ClassCorrupt},
		{ErrClosed, ClassClosed},
		{errors.New("boom"), ClassOther},
	} {
		if got := Class(tc.err); got != tc.want {
			t.Errorf("Class(%v) = %q; want %q", tc.err, got, tc.want)
		}
	}
}
