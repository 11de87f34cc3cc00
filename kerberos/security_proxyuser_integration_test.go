package kerberos

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// secureProxyUser runs on a cluster whose rules let the client principal act for "alice"
// only (hbasetest.Options.ProxyUsers): acting for alice works end to end; acting for bob is
// refused by every server, and the call fails at once with the server's AccessDeniedException
// (a configuration error: no retry changes who the client is) instead of retrying until its
// deadline.
func secureProxyUser(t *testing.T, cl *hbasetest.Cluster) {
	newClient := func(t *testing.T, user string) *hbase.Client {
		c, err := hbase.NewClient(cl.ZKQuorum, hbase.WithZNodeParent(cl.ZNodeParent),
			WithKeytab(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf), WithProxyUser(user))
		if err != nil {
			t.Fatalf("NewClient: %v", err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	t.Run("allowed", func(t *testing.T) {
		secureDataOps(t, cl, newClient(t, "alice"), "sec_proxy_alice")
	})
	t.Run("refused", func(t *testing.T) {
		c := newClient(t, "bob")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		get, err := hrpc.NewGet("sec_proxy_alice", []byte("row0"))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err = c.Get(ctx, get)
		took := time.Since(start)
		if !cl.AtLeast(2, 6) {
			// HBase 2.5 sends its refusal in a frame that does not pass the AES layer: the
			// client sees a broken connection (never the data) and retries until its deadline.
			if err == nil || !strings.Contains(err.Error(), "MAC mismatch") {
				t.Fatalf("HBase %s: Get as bob: err = %v; want the refusal seen as a broken AES frame", cl.Version(), err)
			}
			t.Logf("HBase %s refused in %v as a broken connection: %v", cl.Version(), took.Round(time.Millisecond), err)
			return
		}
		if !errors.Is(err, hberr.ErrDoNotRetry) || !errors.Is(err, hberr.ErrConfiguration) {
			t.Fatalf("Get as bob: err = %v; want the server's refusal (hberr.ErrDoNotRetry, hberr.ErrConfiguration)", err)
		}
		var re *hberr.RemoteError
		if !errors.As(err, &re) || re.Class != "org.apache.hadoop.hbase.security.AccessDeniedException" {
			t.Fatalf("Get as bob: err = %v; want an AccessDeniedException from the server", err)
		}
		if took > 10*time.Second {
			t.Errorf("Get as bob took %v; a refusal must not be retried until the deadline", took)
		}
		t.Logf("refused in %v: %v", took.Round(time.Millisecond), err)
	})
}
