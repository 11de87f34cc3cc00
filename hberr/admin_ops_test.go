package hberr

import (
	"errors"
	"testing"
)

// The refusals HBase 2.6 says in a message, as its master sends them.
func TestAdminOpsClassified(t *testing.T) {
	for _, c := range []struct {
		class, msg string
		want       []error
		not        error
	}{
		{"org.apache.hadoop.hbase.InvalidFamilyOperationException", "Column family 'h' in table 't' already exists so cannot be added",
			[]error{ErrFamilyExists, ErrDoNotRetry}, ErrNoSuchFamily},
		{"org.apache.hadoop.hbase.InvalidFamilyOperationException", "Family 'x' does not exist, so it cannot be deleted",
			[]error{ErrNoSuchFamily, ErrDoNotRetry}, ErrFamilyExists},
		{"org.apache.hadoop.hbase.InvalidFamilyOperationException", "Family 'f' is the only column family in the table, so it cannot be deleted",
			[]error{ErrLastFamily, ErrDoNotRetry}, ErrNoSuchFamily},
		{"org.apache.hadoop.hbase.constraint.ConstraintException", "Reserved namespace default cannot be removed.",
			[]error{ErrNamespaceReserved, ErrDoNotRetry}, ErrNamespaceNotEmpty},
		{"org.apache.hadoop.hbase.constraint.ConstraintException", "Only empty namespaces can be removed. Namespace n has 1 tables",
			[]error{ErrNamespaceNotEmpty, ErrDoNotRetry}, ErrNamespaceReserved},
		{"org.apache.hadoop.hbase.exceptions.MergeRegionException", "Unable to merge non-adjacent or non-overlapping regions 'a', 'c' when force=false",
			[]error{ErrMergeRefused, ErrRegionsNotAdjacent, ErrDoNotRetry}, nil},
		{"org.apache.hadoop.hbase.exceptions.MergeRegionException", "Can't merge regions from different tables: a, b",
			[]error{ErrMergeRefused, ErrDoNotRetry}, ErrRegionsNotAdjacent},
		{"org.apache.hadoop.hbase.DoNotRetryIOException", "Split region t,,1.abc. failed due to split switch off",
			[]error{ErrSwitchedOff, ErrDoNotRetry}, nil},
		{"java.io.IOException", "Split region t,,1.abc. failed as region split is disabled for the table",
			[]error{ErrSwitchedOff, ErrDoNotRetry}, ErrRetryable},
		{"org.apache.hadoop.hbase.DoNotRetryIOException", "Merge of [a, b] failed because merge switch is off",
			[]error{ErrSwitchedOff, ErrDoNotRetry}, nil},
		{"org.apache.hadoop.hbase.procedure2.ProcedureAbortedException", "abort requested",
			[]error{ErrProcedureAborted, ErrDoNotRetry}, ErrRetryable},
		// As HBase 2.6.1's master gives an aborted EnableTable's result.
		{"org.apache.hadoop.hbase.DoNotRetryIOException", "org.apache.hadoop.hbase.procedure2.ProcedureAbortedException: abort requested",
			[]error{ErrProcedureAborted, ErrDoNotRetry}, ErrRetryable},
		{"org.apache.hadoop.hbase.DoNotRetryIOException", "abort requested by org.apache.hadoop.hbase.procedure2.ProcedureAbortedException",
			[]error{ErrDoNotRetry}, ErrProcedureAborted},
		// Not a switch: a message that merely mentions one.
		{"java.io.IOException", "the switch is off somewhere", []error{ErrRetryable}, ErrSwitchedOff},
	} {
		err := NewRemoteError(c.class, c.class+": "+c.msg+"\n\tat x.y(Z.java:1)", false)
		for _, w := range c.want {
			if !errors.Is(err, w) {
				t.Errorf("%s %q: not %v", c.class, c.msg, w)
			}
		}
		if c.not != nil && errors.Is(err, c.not) {
			t.Errorf("%s %q: is %v", c.class, c.msg, c.not)
		}
	}
}
