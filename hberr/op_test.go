package hberr

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestOpErrorPrintsTheOperation(t *testing.T) {
	err := &OpError{Op: "Get", Table: "users", Row: []byte("alice"), Err: ErrTableNotFound}
	if got, want := err.Error(), `hbase: Get "users"/"alice": table not found`; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, ErrTableNotFound) {
		t.Fatal("OpError does not unwrap to its cause")
	}
}

func TestPredicates(t *testing.T) {
	remote := func(class string, dnr bool) error { return NewRemoteError(class, class+": x", dnr) }
	deadline := fmt.Errorf("%w (last error: %w)", context.DeadlineExceeded,
		remote("org.apache.hadoop.hbase.NotServingRegionException", false))
	tests := []struct {
		name                     string
		err                      error
		retryable, notFound, tmo bool
	}{
		{"nil", nil, false, false, false},
		{"moved", remote("org.apache.hadoop.hbase.NotServingRegionException", false), true, false, false},
		{"busy", remote("org.apache.hadoop.hbase.RegionTooBusyException", false), true, false, false},
		{"stopping", remote("org.apache.hadoop.hbase.ipc.ServerNotRunningYetException", false), true, false, false},
		{"scanner", remote("org.apache.hadoop.hbase.UnknownScannerException", true), true, false, false},
		{"connection", fmt.Errorf("x: %w", ErrConnection), true, false, false},
		{"table", remote("org.apache.hadoop.hbase.TableNotFoundException", true), false, true, false},
		{"family", remote("org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException", true), false, true, false},
		{"namespace", remote("org.apache.hadoop.hbase.NamespaceNotFoundException", true), false, true, false},
		{"denied", remote("org.apache.hadoop.hbase.security.AccessDeniedException", false), false, false, false},
		{"closed", ErrClosed, false, false, false},
		{"cancelled", context.Canceled, false, false, false},
		{"deadline while moving", deadline, true, false, true},
		{"bare deadline", context.DeadlineExceeded, false, false, true},
		{"call timeout", remote("org.apache.hadoop.hbase.ipc.CallTimeoutException", false), true, false, true},
		{"unknown", errors.New("?"), false, false, false},
		{"corrupt read", fmt.Errorf("x: %w", ErrCorruptResponse), true, false, false},
		{"configuration", fmt.Errorf("x: %w: %w", ErrConfiguration, ErrConnection), false, false, false},
		{"indeterminate", fmt.Errorf("%w: %w", ErrIndeterminate, ErrCorruptResponse), false, false, false},
	}
	for _, tc := range tests {
		err := tc.err
		if err != nil {
			err = &OpError{Op: "Get", Table: "t", Row: []byte("r"), Err: err}
		}
		if got := IsRetryable(err); got != tc.retryable {
			t.Errorf("%s: IsRetryable = %v, want %v", tc.name, got, tc.retryable)
		}
		if got := IsNotFound(err); got != tc.notFound {
			t.Errorf("%s: IsNotFound = %v, want %v", tc.name, got, tc.notFound)
		}
		if got := IsTimeout(err); got != tc.tmo {
			t.Errorf("%s: IsTimeout = %v, want %v", tc.name, got, tc.tmo)
		}
	}
	// A corrupt response to a write: its outcome is unknown.
	corruptPut := &OpError{Op: "Put", Table: "t", Row: []byte("r"), Err: ErrCorruptResponse}
	if IsRetryable(corruptPut) {
		t.Error("IsRetryable(corrupt response to a Put) = true")
	}
}

func TestOpErrorBoundsLongRows(t *testing.T) {
	row := append([]byte("abc"), make([]byte, 32764)...)
	err := &OpError{Op: "Put", Table: "t", Row: row, Err: ErrTableNotFound}
	want := `hbase: Put "t"/"abc\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"... (32767 bytes): table not found`
	if got := err.Error(); got != want {
		t.Errorf("Error() = %s\nwant %s", got, want)
	}
}
