package hberr

import (
	"errors"
	"testing"
)

func TestAdminClassification(t *testing.T) {
	for _, tc := range []struct {
		class, msg string
		want       []error
		not        []error
	}{
		{"org.apache.hadoop.hbase.TableExistsException", "t", []error{ErrTableExists, ErrDoNotRetry}, nil},
		{"org.apache.hadoop.hbase.TableNotDisabledException", "t", []error{ErrTableNotDisabled, ErrDoNotRetry}, nil},
		{"org.apache.hadoop.hbase.NamespaceExistException", "ns", []error{ErrNamespaceExists, ErrDoNotRetry}, nil},
		{"org.apache.hadoop.hbase.constraint.ConstraintException",
			"Only empty namespaces can be removed. Namespace ns has 1 tables", []error{ErrNamespaceNotEmpty, ErrDoNotRetry}, nil},
		{"org.apache.hadoop.hbase.constraint.ConstraintException", "Reserved namespace default cannot be removed.",
			[]error{ErrDoNotRetry}, []error{ErrNamespaceNotEmpty}},
		{"java.lang.IllegalArgumentException", "Illegal character code:32, < > at 1", []error{ErrInvalidName, ErrDoNotRetry}, nil},
		{"org.apache.hadoop.hbase.snapshot.SnapshotDoesNotExistException", "s", []error{ErrSnapshotNotFound}, nil},
		{"org.apache.hadoop.hbase.snapshot.SnapshotExistsException", "s", []error{ErrSnapshotExists}, nil},
		{"org.apache.hadoop.hbase.UnknownRegionException", "r", []error{ErrRegionNotFound, ErrDoNotRetry}, nil},
	} {
		err := NewRemoteError(tc.class, tc.class+": "+tc.msg, false)
		for _, w := range tc.want {
			if !errors.Is(err, w) {
				t.Errorf("%s %q: not %v", tc.class, tc.msg, w)
			}
		}
		for _, n := range tc.not {
			if errors.Is(err, n) {
				t.Errorf("%s %q: is %v", tc.class, tc.msg, n)
			}
		}
	}
	if !IsNotFound(NewRemoteError("org.apache.hadoop.hbase.snapshot.SnapshotDoesNotExistException", "", false)) {
		t.Error("IsNotFound(SnapshotDoesNotExistException) = false")
	}
	e := &AdminError{Op: "CreateTable", Name: "ns:t", Err: ErrTableExists}
	if e.Error() != `hbase: CreateTable "ns:t": table already exists` || !errors.Is(e, ErrTableExists) {
		t.Errorf("AdminError = %q", e.Error())
	}
	if e := (&AdminError{Op: "ClusterStatus", Err: ErrClosed}); e.Error() != "hbase: ClusterStatus: client closed" {
		t.Errorf("AdminError without name = %q", e.Error())
	}
}
