package hbase

import (
	"strconv"
	"strings"
	"time"
)

// javaBackoffMax is the Java client's hbase.client.exponential-backoff.max default (5 min),
// used when a site file turns backpressure on without it.
const javaBackoffMax = 5 * time.Minute

// overloadOptions returns the options of the overload and backpressure keys (see
// NewClientFromConfig).
func (c *SiteConfig) overloadOptions() ([]Option, error) {
	var opts []Option
	// hbase.client.pause.cqtbe is the key's deprecated name (HBase 2.5+ read it when the new
	// one is not set).
	for _, key := range []string{"hbase.client.pause.server.overloaded", "hbase.client.pause.cqtbe"} {
		d, ok, err := c.millis(key)
		if err != nil {
			return nil, err
		}
		if ok {
			opts = append(opts, c.checked(key, strconv.FormatInt(d.Milliseconds(), 10), WithOverloadPause(d)))
			break
		}
	}
	on, _, err := c.bool("hbase.client.backpressure.enabled")
	if err != nil || !on {
		return opts, err
	}
	// The Java client delays writes only with the exponential policy: its default policy
	// (NoBackoffPolicy) reads the statistics and never waits.
	policy, _, err := c.get("hbase.client.statistics.backoff-policy")
	if err != nil || !strings.HasSuffix(policy, "ExponentialClientBackoffPolicy") {
		return opts, err
	}
	const key = "hbase.client.exponential-backoff.max"
	d, ok, err := c.millis(key)
	if err != nil {
		return nil, err
	}
	if !ok {
		d = javaBackoffMax
	}
	return append(opts, c.checked(key, strconv.FormatInt(d.Milliseconds(), 10), WithBackpressure(d))), nil
}
