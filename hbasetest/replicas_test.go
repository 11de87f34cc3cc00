package hbasetest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A table of REGION_REPLICATION 3 on three region servers: every replica listed with its
// server, the replicas of a region on distinct servers, a secondary moved where asked.
func TestRegionReplicas(t *testing.T) {
	needsJVM(t)
	c := StartT(t, Options{RegionServers: 3, Logger: testLogger(t), Conf: map[string]string{
		"hbase.region.replica.replication.enabled": "true",
	}})
	ctx := testContext(t)
	st := mustStatus(t, c)
	splits := [][]byte{[]byte("h"), []byte("p")}
	if err := c.CreateTableWith(ctx, "rep", []string{"f"}, splits, TableOptions{RegionReplication: 3}); err != nil {
		t.Fatal(err)
	}

	t.Run("listed", func(t *testing.T) {
		reps := mustReplicas(t, c, "rep", 3, 3)
		primaries := mustRegions(t, c, "rep", 3)
		for i, r := range reps {
			region, id := i/3, i%3
			p := primaries[region]
			if r.ReplicaID != id || r.Table != "rep" || !bytes.Equal(r.StartKey, p.StartKey) || !bytes.Equal(r.EndKey, p.EndKey) {
				t.Errorf("replica %d: %+v; want replica %d of region %s", i, r, id, p.EncodedName)
			}
			if id == 0 && (r.EncodedName != p.EncodedName || !bytes.Equal(r.Name, p.Name) || r.Server != p.Server) {
				t.Errorf("primary %+v; Regions has %+v", r, p)
			}
			if wantSuffix := fmt.Sprintf("_%04X.%s.", id, r.EncodedName); id > 0 && !bytes.HasSuffix(r.Name, []byte(wantSuffix)) {
				t.Errorf("replica %d of %s is named %q; want the suffix %q", id, p.EncodedName, r.Name, wantSuffix)
			}
			if r.Addr != st.RegionServers[r.Server].Addr || r.StartCode != st.RegionServers[r.Server].StartCode {
				t.Errorf("replica %s on %s (%d); server %d is %+v", r.EncodedName, r.Addr, r.StartCode, r.Server, st.RegionServers[r.Server])
			}
		}
		for region := range 3 {
			checkDistinct(t, reps[3*region:3*region+3])
		}
		// One replica each: a table without replication, and hbase:meta without replicas.
		if err := c.CreateTable(ctx, "single", []string{"f"}, nil); err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"single", "hbase:meta"} {
			if one := mustReplicas(t, c, table, 1, 1); one[0].ReplicaID != 0 {
				t.Errorf("%s: %+v", table, one)
			}
		}
		var ce *CommandError
		if _, err := c.Replicas(ctx, "missing"); !errors.As(err, &ce) || ce.Command != "replicas" {
			t.Errorf("Replicas of a missing table: %v; want a *CommandError", err)
		}
	})

	t.Run("reads enabled after a flush", func(t *testing.T) {
		// A secondary serves reads once it has seen a flush of its primary.
		for _, row := range []string{"a", "i", "q"} {
			if err := c.Put(ctx, "rep", []byte(row), []byte("f"), []byte("q"), []byte("v")); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.Flush(ctx, "rep"); err != nil {
			t.Fatal(err)
		}
		waitReplicas(t, c, "rep", "every replica to serve reads", func(reps []Replica) bool {
			for _, r := range reps {
				if !r.ReadsEnabled {
					return false
				}
			}
			return true
		})
	})

	t.Run("move a secondary", func(t *testing.T) {
		reps := mustReplicas(t, c, "rep", 3, 3)
		sec := reps[1] // replica 1 of the first region
		// Every server holds one replica of the region: the move puts two on one server,
		// as a test placing replicas may want.
		to := reps[2].Server
		// Watched during the move: hbase:meta names the old server until the replica serves
		// on the new one, and the master's state and the servers tell the steps between.
		var seen []Replica
		stop := make(chan struct{})
		watched := make(chan error, 1)
		go func() {
			for {
				list, err := c.Replicas(ctx, "rep")
				if err != nil {
					watched <- err
					return
				}
				seen = append(seen, list[1])
				select {
				case <-stop:
					watched <- nil
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}()
		began := time.Now()
		reopen, err := c.MoveTimed(ctx, sec.EncodedName, to)
		close(stop)
		if werr := <-watched; werr != nil {
			t.Fatal(werr)
		}
		if err != nil {
			t.Fatal(err)
		}
		checkReopen(t, reopen, began, time.Now())
		var steps []string // the states seen, in order
		for _, r := range seen {
			step := fmt.Sprintf("meta %d, %s on %d, serving %d", r.Server, r.State, r.StateServer, r.Serving)
			if len(steps) == 0 || steps[len(steps)-1] != step {
				steps = append(steps, step)
			}
			if r.Server != sec.Server && r.Server != to {
				t.Errorf("during the move hbase:meta named server %d: %+v", r.Server, r)
			}
			if r.Server == to && r.Serving != to {
				t.Errorf("hbase:meta named the new server %d before the replica served there: %+v", to, r)
			}
		}
		t.Logf("replica 1 moved from server %d to %d; %d listings during the move saw: %s",
			sec.Server, to, len(seen), strings.Join(steps, "; "))
		moved := mustReplicas(t, c, "rep", 3, 3)
		if got := moved[1]; got.EncodedName != sec.EncodedName || got.Server != to || got.Serving != to ||
			got.State != "OPEN" || got.StateServer != to {
			t.Fatalf("replica 1 after its move to server %d: %+v", to, got)
		}
		for i, r := range moved {
			if i != 1 && (r.Server != reps[i].Server || r.Serving != reps[i].Serving) {
				t.Errorf("replica %d of region %d moved with replica 1: %+v, was %+v", r.ReplicaID, i/3, r, reps[i])
			}
		}
		// And back to the server it left.
		if err := c.Move(ctx, sec.EncodedName, sec.Server); err != nil {
			t.Fatal(err)
		}
		if back := mustReplicas(t, c, "rep", 3, 3)[1]; back.Server != sec.Server || back.Serving != sec.Server {
			t.Fatalf("replica 1 after its move back to server %d: %+v", sec.Server, back)
		}
	})
}

// mustReplicas lists the replicas of table, checks there are regions × replication of them,
// every one open where hbase:meta says, and returns them.
func mustReplicas(t *testing.T, c *Cluster, table string, regions, replication int) []Replica {
	t.Helper()
	reps, err := c.Replicas(testContext(t), table)
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != regions*replication {
		t.Fatalf("%s has %d replicas, want %d: %+v", table, len(reps), regions*replication, reps)
	}
	for _, r := range reps {
		if r.Server < 0 || r.Addr == "" || r.StartCode == 0 || r.State != "OPEN" || r.StateServer != r.Server || r.Serving != r.Server {
			t.Errorf("replica %d of %s is not open where hbase:meta says: %+v", r.ReplicaID, table, r)
		}
	}
	return reps
}

// checkDistinct fails unless the replicas (of one region) are on distinct servers.
func checkDistinct(t *testing.T, reps []Replica) {
	t.Helper()
	seen := map[int]int{}
	for _, r := range reps {
		if id, ok := seen[r.Server]; ok {
			t.Errorf("replicas %d and %d of %s share server %d", id, r.ReplicaID, r.StartKey, r.Server)
		}
		seen[r.Server] = r.ReplicaID
	}
}

// waitReplicas polls the replicas of table until ok holds, for up to 30 s.
func waitReplicas(t *testing.T, c *Cluster, table, what string, ok func([]Replica) bool) []Replica {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		reps, err := c.Replicas(testContext(t), table)
		if err != nil {
			t.Fatal(err)
		}
		if ok(reps) {
			return reps
		}
		if time.Now().After(deadline) {
			var b strings.Builder
			for _, r := range reps {
				fmt.Fprintf(&b, "\n%+v", r)
			}
			t.Fatalf("waited 30 s for %s:%s", what, b.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
