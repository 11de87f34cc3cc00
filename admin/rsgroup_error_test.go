package admin

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/hberr"
)

// TestRSGroupErrorTypes: the master's group refusals, as HBase 2.6.1's hbase-rsgroup words
// them, typed by what they mean; other refusals and hostile messages left as they are.
func TestRSGroupErrorTypes(t *testing.T) {
	const (
		constraint = "org.apache.hadoop.hbase.constraint.ConstraintException"
		doNotRetry = "org.apache.hadoop.hbase.DoNotRetryIOException"
	)
	for _, tc := range []struct {
		class, msg string
		want       error
	}{
		{doNotRetry, "Group already exists: grp_a", hberr.ErrRSGroupExists},
		{constraint, "Group already exists: default", hberr.ErrRSGroupExists},
		{doNotRetry, "RSGroup grp_a does not exist", hberr.ErrRSGroupNotFound},
		{doNotRetry, "Group grp_a does not exist or is a reserved group", hberr.ErrRSGroupNotFound},
		{constraint, "RSGroup does not exist: grp_a", hberr.ErrRSGroupNotFound},
		{constraint, "Target grp_a RSGroup does not exist.", hberr.ErrRSGroupNotFound},
		{constraint, "Server localhost:1 is either offline or it does not exist.", hberr.ErrServerNotFound},
		{constraint, "Target RSGroup must have at least one server.", nil},
		// Not the group calls' own: untyped by the message, whatever it says.
		{"java.io.IOException", "Group already exists: x", nil},
		{"org.apache.hadoop.hbase.NotConstraintException2", "RSGroup x does not exist", nil},
		{constraint, "does not exist,\x00\xff already exists", hberr.ErrRSGroupExists},
	} {
		in := hberr.NewRemoteError(tc.class, tc.msg, true)
		err := rsgroupError(in)
		if !errors.Is(err, in) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("rsgroupError(%s: %q) = %v; want it wrapping the server's error", tc.class, tc.msg, err)
		}
		for _, s := range []error{hberr.ErrRSGroupExists, hberr.ErrRSGroupNotFound, hberr.ErrServerNotFound} {
			if got := errors.Is(err, s); got != (s == tc.want) {
				t.Errorf("rsgroupError(%s: %q) is %v: %v; want %v", tc.class, tc.msg, s, got, s == tc.want)
			}
		}
	}
}
