package hbase

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
)

// fakeMetaReplicas lists servers as hbase:meta's replicas 1, 2...
type fakeMetaReplicas []string

func (f fakeMetaReplicas) LocateMetaReplica(_ context.Context, id int) (string, error) {
	if id > len(f) {
		return "", errors.New("no node")
	}
	return f[id-1], nil
}

// Lookups alternate between hbase:meta's primary and its replica; a replica that fails a
// lookup is replaced by the primary at once, and lookups after a failed call go to the
// primary.
func TestMetaReplicaLookups(t *testing.T) {
	var regions []fakeRegion
	for i, start := range []string{"", "b", "c", "d", "e", "f", "g", "h"} {
		end := ""
		if i < 7 {
			end = string(rune('b' + i))
		}
		regions = append(regions, fakeRegion{table: "t", start: start, end: end, id: uint64(i + 1)})
	}
	primary := newFakeCluster(t, regions...)
	replica := newFakeCluster(t, regions...)
	// The regions are served by the primary's fake: the replica's rows name it.
	for i := range replica.regions {
		replica.regions[i].addr = primary.srv.Addr()
	}
	c := primary.client(t)
	c.metaReps = &metaReplicas{loc: fakeMetaReplicas{replica.srv.Addr()}}
	ctx := testContext(t, 10*time.Second)
	get := func(row string) {
		t.Helper()
		g, _ := hrpc.NewGet([]byte("t"), []byte(row))
		if _, err := c.Get(ctx, g); err != nil {
			t.Fatalf("Get %q: %v", row, err)
		}
	}
	// The replicas' locations are read in the background at the first lookup.
	get("a0")
	deadline := time.Now().Add(5 * time.Second)
	for {
		c.metaReps.mu.Lock()
		n := len(c.metaReps.addrs)
		c.metaReps.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the replicas' locations were never read")
		}
		time.Sleep(5 * time.Millisecond)
	}
	for _, row := range []string{"b0", "c0", "d0", "e0"} {
		get(row)
	}
	if replica.metaScans.Load() == 0 || c.metaReplicaRPCs.Load() == 0 {
		t.Fatalf("no lookup read the replica (%d scans there)", replica.metaScans.Load())
	}
	before := c.metaReplicaRPCs.Load()
	replica.afterMeta = func(int64, fakeserver.Response) fakeserver.Response {
		return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", "hbase:meta,,1_0001 closed")}
	}
	for _, row := range []string{"f0", "g0", "h0"} {
		get(row) // a failed replica lookup falls back to the primary within the lookup
	}
	if c.metaReplicaRPCs.Load() != before {
		t.Fatal("a failing replica answered")
	}
	t.Logf("hbase:meta scans: primary %d, replica %d", primary.metaScans.Load(), replica.metaScans.Load())
}

// WithMetaReplicaLookups needs a registry that lists the replicas.
func TestMetaReplicaLookupsNeedZooKeeper(t *testing.T) {
	_, err := NewClient("", WithBootstrapServers("127.0.0.1:1"), WithMetaReplicaLookups())
	if !errors.Is(err, errNoMetaReplicas) {
		t.Fatalf("err = %v", err)
	}
}
