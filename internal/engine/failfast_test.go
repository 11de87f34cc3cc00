package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/zk"
)

// TestMissingParentZNodeFailsFast: a parent znode ZooKeeper does not have is a configuration
// error: Get, Scan and a batch fail at once with an error naming the znode, instead of
// retrying until their deadline. Each call looks again (one ZooKeeper lookup per call), so a
// client recovers once the parent exists.
func TestMissingParentZNodeFailsFast(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	var lookups atomic.Int64
	var fixed atomic.Bool
	c := fc.client(t, withMetaLocator(func(context.Context) (string, error) {
		lookups.Add(1)
		if fixed.Load() {
			return fc.srv.Addr(), nil
		}
		return "", &zk.NoParentError{Path: "/wrong/meta-region-server", Parent: "/wrong"}
	}))
	ctx := testContext(t, 15*time.Second)
	check := func(what string, err error, took time.Duration) {
		t.Helper()
		if !errors.Is(err, hberr.ErrConfiguration) || !errors.Is(err, zk.ErrNoParent) || !errors.Is(err, zk.ErrNoNode) {
			t.Errorf("%s: %v; want hberr.ErrConfiguration wrapping zk.ErrNoParent and zk.ErrNoNode", what, err)
		}
		if err != nil && !strings.Contains(err.Error(), "/wrong/meta-region-server") {
			t.Errorf("%s: %q does not name the znode", what, err)
		}
		if took > time.Second {
			t.Errorf("%s took %v; want it to fail at once", what, took)
		}
	}
	for i := range 3 {
		start := time.Now()
		_, err := c.Get(ctx, mustGetT(t, "t", fmt.Sprint("row", i)))
		check("Get", err, time.Since(start))
	}
	if n := lookups.Load(); n < 3 || n > 6 {
		t.Errorf("%d ZooKeeper lookups for 3 Gets; want one or two each, no retry loop", n)
	}

	start := time.Now()
	err := scanErr(c.NewScanner(ctx, mustScan(t)))
	check("Scan", err, time.Since(start))

	start = time.Now()
	res := c.SendBatch(ctx, []hrpc.Batchable{mustGetT(t, "t", "a"), mustGetT(t, "t", "b")})
	for i, r := range res {
		check(fmt.Sprint("Batch result ", i), r.Err, time.Since(start))
	}

	fixed.Store(true)
	if _, err := c.Get(ctx, mustGetT(t, "t", "row")); err != nil {
		t.Fatalf("Get once the parent exists: %v", err)
	}
}

// TestMetaZNodeNotWrittenYetIsRetried: right after a cluster starts, the parent exists but
// meta-region-server is not written yet: that plain ErrNoNode is retried, not reported.
func TestMetaZNodeNotWrittenYetIsRetried(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	var lookups atomic.Int64
	c := fc.client(t, withMetaLocator(func(context.Context) (string, error) {
		if lookups.Add(1) <= 3 {
			return "", fmt.Errorf("zk: get /hbase/meta-region-server: %w", zk.ErrNoNode)
		}
		return fc.srv.Addr(), nil
	}), WithMaxBackoff(10*time.Millisecond))
	if _, err := c.Get(testContext(t, 10*time.Second), mustGetT(t, "t", "row")); err != nil {
		t.Fatalf("Get while meta-region-server appears: %v", err)
	}
	if n := lookups.Load(); n < 4 {
		t.Fatalf("%d lookups; want the missing znode looked up again until it exists", n)
	}
}

// scanErr asks sc for its first row and returns the error that ended the scan, if any.
func scanErr(sc *Scanner) error {
	defer sc.Close()
	sc.Next()
	return sc.Err()
}
