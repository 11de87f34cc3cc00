package engine

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
)

// fakeMetaReplicas lists servers as hbase:meta's replicas 1, 2...
type fakeMetaReplicas []string

func (f fakeMetaReplicas) LocateMetaReplicas(context.Context) ([]string, error) { return f, nil }

// failingMetaReplicas is a registry that cannot say where the replicas are.
type failingMetaReplicas struct{}

func (failingMetaReplicas) LocateMetaReplicas(context.Context) ([]string, error) {
	return nil, errors.New("no bootstrap server answered")
}

// knownReplicas is what c knows of hbase:meta's replicas.
func knownReplicas(c *Client) []metaReplica {
	c.metaReps.mu.Lock()
	defer c.metaReps.mu.Unlock()
	return slices.Clone(c.metaReps.reps)
}

// waitReplicas waits until c knows n replicas of hbase:meta (read in the background at the
// first lookup).
func waitReplicas(t *testing.T, c *Client, n int, wait time.Duration) []metaReplica {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		reps := knownReplicas(c)
		if len(reps) == n {
			return reps
		}
		if time.Now().After(deadline) {
			t.Fatalf("the client knows %d hbase:meta replicas (%v); want %d", len(reps), reps, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
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
		g, _ := hrpc.NewGet("t", []byte(row))
		if _, err := c.Get(ctx, g); err != nil {
			t.Fatalf("Get %q: %v", row, err)
		}
	}
	// The replicas' locations are read in the background at the first lookup.
	get("a0")
	waitReplicas(t, c, 1, 5*time.Second)
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

// A registry that fails to list the replicas leaves the known ones in use and is asked again
// a second later, not 30 s.
func TestMetaReplicasKeptAfterFailedRead(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1})
	c := fc.client(t)
	known := []metaReplica{{id: 1, addr: "rs1:16020"}}
	c.metaReps = &metaReplicas{loc: failingMetaReplicas{}, reps: known}
	c.metaReps.reading = true
	c.readMetaReplicas()
	m := c.metaReps
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.Equal(m.reps, known) || m.reading {
		t.Errorf("replicas %v (reading %v) after a failed read; want %v kept", m.reps, m.reading, known)
	}
	if due := time.Until(m.fetched.Add(metaReplicaRefresh)); due > time.Second || due < 0 {
		t.Errorf("next read in %v; want within a second", due)
	}
}

// WithMetaReplicaLookups needs a registry that lists the replicas: ZooKeeper or bootstrap
// servers, not a test's bare lookup function.
func TestMetaReplicaLookupsNeedRegistry(t *testing.T) {
	_, err := NewClient("", withMetaLocator(func(context.Context) (string, error) { return "127.0.0.1:1", nil }), WithMetaReplicaLookups())
	if !errors.Is(err, errNoMetaReplicas) {
		t.Fatalf("err = %v", err)
	}
	c, err := NewClient("", WithBootstrapServers("127.0.0.1:1"), WithMetaReplicaLookups())
	if err != nil {
		t.Fatalf("with bootstrap servers: %v", err)
	}
	defer c.Close()
	if _, ok := c.metaReps.loc.(*bootstrapRegistry); !ok {
		t.Fatalf("replicas located by %T; want the bootstrap registry", c.metaReps.loc)
	}
}
