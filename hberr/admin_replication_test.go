package hberr

import (
	"errors"
	"testing"
)

// The master's refusals of replication peer calls, with HBase 2.6.1's messages, as the RPC or
// the failed procedure reports them.
func TestReplicationClassification(t *testing.T) {
	const dnr = "org.apache.hadoop.hbase.DoNotRetryIOException"
	for _, tc := range []struct {
		class, msg string
		want       error
	}{
		{"org.apache.hadoop.hbase.ReplicationPeerNotFoundException", "peer1", ErrPeerNotFound},
		{dnr, "Replication peer 1 already exists", ErrPeerExists},
		{dnr, "Replication peer 1 has already been enabled", ErrPeerStateUnchanged},
		{dnr, "Replication peer 1 has already been disabled", ErrPeerStateUnchanged},
		{dnr, "Found invalid peer name: a-b", ErrInvalidName},
		{"java.io.IOException", "Replication peer modification disabled", ErrPeerModificationDisabled},
		{dnr, "Invalid cluster key: nonsense", ErrInvalidPeerConfig},
		{dnr, "Invalid cluster key: 127.0.0.1:2181:/hbase, should not replicate to itself for HBaseInterClusterReplicationEndpoint", ErrInvalidPeerConfig},
		{dnr, "Can not instantiate configured replication endpoint class=org.example.Nope", ErrInvalidPeerConfig},
		{dnr, "Need clean namespaces or table-cfs config firstly when you want replicate all cluster", ErrInvalidPeerConfig},
		{dnr, "Table-cfs ns:t is conflict with namespaces ns in peer config", ErrInvalidPeerConfig},
		{dnr, "Changing the cluster key on an existing peer is not allowed. Existing key 'a' for peer 1 does not match new key 'b'", ErrInvalidPeerConfig},
	} {
		err := NewRemoteError(tc.class, tc.class+": "+tc.msg, true)
		if !errors.Is(err, tc.want) || !errors.Is(err, ErrDoNotRetry) {
			t.Errorf("%s %q: got kinds of %v; want %v and ErrDoNotRetry", tc.class, tc.msg, err, tc.want)
		}
	}
	// A DoNotRetryIOException about something else stays only that.
	err := NewRemoteError(dnr, dnr+": Table 't' already exists", true)
	for _, s := range []error{ErrPeerExists, ErrPeerNotFound, ErrInvalidPeerConfig, ErrPeerStateUnchanged} {
		if errors.Is(err, s) {
			t.Errorf("%q is %v", err, s)
		}
	}
	if !errors.Is(err, ErrDoNotRetry) {
		t.Errorf("%q is not ErrDoNotRetry", err)
	}
	// A plain IOException about something else is retried, as before.
	err = NewRemoteError("java.io.IOException", "java.io.IOException: Connection reset", false)
	if !errors.Is(err, ErrRetryable) || errors.Is(err, ErrDoNotRetry) || errors.Is(err, ErrPeerModificationDisabled) {
		t.Errorf("%q: want ErrRetryable only", err)
	}
}
