// Package quotatest holds the integration tests of package admin's quota, request log and
// region server group calls: they need a cluster with quotas, the slow and large request logs
// and region server groups switched on, which package admin's own cluster has not. The tests
// run one after another on one cluster (the quotas and groups they set are the cluster's).
package quotatest

import (
	"context"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/internal/testkit"
)

// slowCall is the servers' slow log threshold (hbase.ipc.warn.response.time); largeCall their
// large log threshold (hbase.ipc.warn.response.size), in bytes.
const (
	slowCall  = 300 * time.Millisecond
	largeCall = 16 << 10
)

var env = testkit.New(hbasetest.Options{
	RegionServers: 2,
	Quotas:        true,
	RSGroups:      true,
	Conf: map[string]string{
		"hbase.regionserver.slowlog.buffer.enabled":     "true",
		"hbase.ipc.warn.response.time":                  "300",
		"hbase.ipc.warn.response.size":                  "16384",
		"hbase.master.balancer.decision.buffer.enabled": "true",
		// Space quotas within seconds rather than minutes: the region servers report their
		// regions' sizes, the master computes the quotas' states and the region servers
		// enforce them, each every second.
		"hbase.regionserver.quotas.fs.utilization.chore.delay":         "1000",
		"hbase.regionserver.quotas.fs.utilization.chore.period":        "1000",
		"hbase.regionserver.quotas.policy.refresher.chore.delay":       "1000",
		"hbase.regionserver.quotas.policy.refresher.chore.period":      "1000",
		"hbase.regionserver.quotas.region.size.reporting.chore.delay":  "1000",
		"hbase.regionserver.quotas.region.size.reporting.chore.period": "1000",
		"hbase.master.quotas.observer.chore.delay":                     "1000",
		"hbase.master.quotas.observer.chore.period":                    "1000",
	},
})

func TestMain(m *testing.M) { os.Exit(env.Run(m)) }

// newAdmin returns a client of the cluster and its Admin, closed when the test ends.
func newAdmin(t *testing.T, opts ...hbase.Option) (*hbasetest.Cluster, *hbase.Client, *admin.Admin) {
	t.Helper()
	cl := env.Cluster(t)
	c, err := hbase.NewClient(cl.ZKQuorum, append([]hbase.Option{hbase.WithZNodeParent(cl.ZNodeParent)}, opts...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return cl, c, admin.New(c)
}

func stepContext(t *testing.T, d time.Duration) context.Context { return testkit.Context(t, d) }

// javaWords sends a launcher command and returns the words of its answer that start with
// kind+"=", without the prefix.
func javaWords(t *testing.T, cl *hbasetest.Cluster, line, kind string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ans, err := cl.Command(ctx, line)
	if err != nil {
		t.Fatalf("launcher %q: %v", line, err)
	}
	var out []string
	for _, w := range strings.Fields(ans) {
		if rest, ok := strings.CutPrefix(w, kind+"="); ok {
			out = append(out, rest)
		}
	}
	return out
}

// word is the launcher's hex form of s ("-" when empty).
func word(s string) string {
	if s == "" {
		return "-"
	}
	return hex.EncodeToString([]byte(s))
}

// eventually calls f until it returns true or d passes (then fails the test with what).
func eventually(t *testing.T, d time.Duration, what string, f func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !f() {
		if time.Since(start) > d {
			t.Fatalf("%s: not within %v", what, d)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return time.Since(start)
}
