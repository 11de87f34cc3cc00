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
		// A write that may have been applied is indeterminate whatever ended it: a deadline
		// while it was on the wire is not a plain timeout.
		{fmt.Errorf("%w: %w", ErrIndeterminate, context.DeadlineExceeded), ClassIndeterminate},
		{&OpError{Op: "CheckAndMutate", Err: fmt.Errorf("%w: %w", ErrIndeterminate, context.Canceled)}, ClassIndeterminate},
		// The caller's mistake, refused before anything was sent.
		{&OpError{Op: "Get", Err: fmt.Errorf("%w: nil Get", ErrBadRequest)}, ClassBadRequest},
		{fmt.Errorf("hrpc: %w: %w: bad name", ErrBadRequest, ErrInvalidName), ClassBadRequest},
		{errors.New("boom"), ClassOther},
	} {
		if got := Class(tc.err); got != tc.want {
			t.Errorf("Class(%v) = %q; want %q", tc.err, got, tc.want)
		}
	}
}
