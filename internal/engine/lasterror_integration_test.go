package engine

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest/faultnet"
)

// A call that ends at its deadline names in its error the server that failed it last. Here
// hbase:meta moves away from the server the client found it on, then the server of a cached
// region is cut off: every Get of that region that ends at its deadline must name the cut-off
// server as its last failure; hbase:meta's old server (which answered, and is up) may come
// after it, as what holds the region's relocation up, never instead of it.
func TestLastErrorNamesServerAfterMetaMove(t *testing.T) {
	cl := testCluster(t)
	fn := faultnet.New()
	c := newTestClient(t, WithDialer(fn.DialContext))
	value := bytes.Repeat([]byte("v"), 100)
	table, addr, affected, _ := faultTarget(t, cl, c, value)
	ctx := testContext(t, 2*time.Minute)
	metaOld := c.MetaLocation()
	metas, err := cl.Regions(ctx, "hbase:meta")
	if err != nil || len(metas) != 1 {
		t.Fatalf("hbase:meta's regions: %v %v", metas, err)
	}
	st, err := cl.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	to := -1
	for i, rs := range st.RegionServers {
		if rs.Live && rs.Addr != metaOld && rs.Addr != addr && !strings.HasSuffix(metaOld, rs.Addr) {
			to = i
		}
	}
	if to < 0 {
		t.Skipf("no third live server to move hbase:meta to (meta on %s, region on %s): %+v", metaOld, addr, st.RegionServers)
	}
	if err := cl.Move(ctx, metas[0].EncodedName, to); err != nil {
		t.Fatalf("moving hbase:meta to server %d: %v", to, err)
	}
	fn.BlackHole(addr)
	defer fn.Heal(addr)
	end := time.Now().Add(7 * time.Second)
	var failed, wrong int
	seen := map[string]bool{}
	for time.Now().Before(end) {
		gctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := c.Get(gctx, mustGetT(t, table, affected))
		cancel()
		if err == nil || !errors.Is(err, context.DeadlineExceeded) {
			continue
		}
		failed++
		msg := err.Error()
		if !seen[msg] {
			seen[msg] = true
			t.Logf("%v", msg)
		}
		last := msg[strings.LastIndex(msg, "(last: ")+1:]
		at, atMeta := strings.Index(last, addr), strings.Index(last, metaOld)
		if !strings.Contains(msg, "(last: ") || at < 0 || (atMeta >= 0 && atMeta < at) {
			wrong++
			t.Errorf("error %q; want its last failure to name the cut-off server %s (hbase:meta moved from %s)", msg, addr, metaOld)
		}
	}
	t.Logf("%d Gets ended at their deadline, %d naming another server than %s", failed, wrong, addr)
	if failed == 0 {
		t.Fatalf("no Get of a row on the cut-off server %s ended at its deadline", addr)
	}
}
