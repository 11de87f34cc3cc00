package hbase

import (
	"errors"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/testkit"
)

// The overload and backpressure keys as the Java client reads them: the overload pause from
// hbase.client.pause.server.overloaded (or its deprecated name), backpressure only with the
// exponential policy, its maximum from hbase.client.exponential-backoff.max (5 min without).
func TestSiteConfigOverloadKeys(t *testing.T) {
	const exp = "org.apache.hadoop.hbase.client.backoff.ExponentialClientBackoffPolicy"
	tests := []struct {
		kv           []string
		pause, bpMax time.Duration
	}{
		{nil, engine.DefaultConfig().OverloadPause, 0},
		{[]string{"hbase.client.pause.server.overloaded", "250"}, 250 * time.Millisecond, 0},
		{[]string{"hbase.client.pause.cqtbe", "300"}, 300 * time.Millisecond, 0},
		{[]string{"hbase.client.pause.server.overloaded", "250", "hbase.client.pause.cqtbe", "300"}, 250 * time.Millisecond, 0},
		{[]string{"hbase.client.backpressure.enabled", "true"}, engine.DefaultConfig().OverloadPause, 0}, // NoBackoffPolicy
		{[]string{"hbase.client.backpressure.enabled", "true", "hbase.client.statistics.backoff-policy", exp}, engine.DefaultConfig().OverloadPause, 5 * time.Minute},
		{[]string{"hbase.client.backpressure.enabled", "true", "hbase.client.statistics.backoff-policy", exp,
			"hbase.client.exponential-backoff.max", "2000"}, engine.DefaultConfig().OverloadPause, 2 * time.Second},
		{[]string{"hbase.client.backpressure.enabled", "false", "hbase.client.statistics.backoff-policy", exp}, engine.DefaultConfig().OverloadPause, 0},
	}
	for i, tc := range tests {
		file := testkit.WriteSite(t, t.TempDir(), "hbase-site.xml", append([]string{"hbase.zookeeper.quorum", "zk1"}, tc.kv...)...)
		cfg, err := LoadSiteConfig(file)
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewClientFromConfig(cfg)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if engine.Of(c).Config().OverloadPause != tc.pause || engine.Of(c).Config().BackpressureMax != tc.bpMax {
			t.Errorf("%d: overload pause %v, backpressure max %v; want %v, %v", i, engine.Of(c).Config().OverloadPause, engine.Of(c).Config().BackpressureMax, tc.pause, tc.bpMax)
		}
		c.Close()
	}
	for _, key := range []string{"hbase.client.pause.server.overloaded", "hbase.client.backpressure.enabled"} {
		file := testkit.WriteSite(t, t.TempDir(), "hbase-site.xml", "hbase.zookeeper.quorum", "zk1", key, "soon")
		cfg, err := LoadSiteConfig(file)
		if err != nil {
			t.Fatal(err)
		}
		_, err = NewClientFromConfig(cfg)
		if se, ok := errors.AsType[*hberr.SiteConfigError](err); !ok || se.Key != key {
			t.Errorf("%s=soon: err = %v; want a SiteConfigError for it", key, err)
		}
	}
}
