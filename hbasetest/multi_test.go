package hbasetest

import (
	"testing"
	"time"
)

func TestPlainThreeRegionServers(t *testing.T) {
	needsJVM(t)
	c := StartT(t, Options{RegionServers: 3, Logger: testLogger(t)})
	ctx := testContext(t)

	st := mustStatus(t, c)
	if len(st.RegionServers) != 3 || st.LiveRegionServers() != 3 {
		t.Fatalf("status: %+v", st)
	}
	addrs := map[string]bool{}
	for _, rs := range st.RegionServers {
		addrs[rs.Addr] = true
	}
	if len(addrs) != 3 {
		t.Fatalf("region servers share addresses: %+v", st.RegionServers)
	}
	splits := [][]byte{[]byte("d"), []byte("h"), []byte("l"), []byte("p"), []byte("t")}
	if err := c.CreateTable(ctx, "multi", []string{"f"}, splits); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "e", "i", "m", "q", "u"} {
		if err := c.Put(ctx, "multi", []byte(k), []byte("f"), []byte("q"), []byte("v"+k)); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("move", func(t *testing.T) {
		regs := mustRegions(t, c, "multi", 6)
		r := regs[0]
		to := (r.Server + 1) % 3
		began := time.Now()
		reopen, err := c.MoveTimed(ctx, r.EncodedName, to)
		if err != nil {
			t.Fatal(err)
		}
		checkReopen(t, reopen, began, time.Now())
		if reopen.EncodedName != r.EncodedName {
			t.Errorf("MoveTimed reopened %s; want %s", reopen.EncodedName, r.EncodedName)
		}
		if got := regionByName(t, c, "multi", r.EncodedName); got.Server != to {
			t.Fatalf("region on server %d after move to %d", got.Server, to)
		}
		if err := c.Move(ctx, "0123456789abcdef0123456789abcdef", to); err == nil {
			t.Error("moving a region that does not exist succeeded")
		}
	})

	t.Run("move-all", func(t *testing.T) {
		if err := c.MoveAll(ctx, 0); err != nil {
			t.Fatal(err)
		}
		for _, r := range mustRegions(t, c, "", -1) {
			if r.Server == 0 {
				t.Errorf("region %s of %s still on server 0", r.EncodedName, r.Table)
			}
		}
	})

	t.Run("move-meta", func(t *testing.T) {
		if err := c.MoveMeta(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if m := regionByTable(t, c, "hbase:meta"); m.Server != 0 {
			t.Fatalf("meta on server %d after move to 0", m.Server)
		}
		if err := c.MoveMeta(ctx, -1); err != nil {
			t.Fatal(err)
		}
		if m := regionByTable(t, c, "hbase:meta"); m.Server == 0 {
			t.Fatal("meta still on server 0 after move-meta to any other server")
		}
	})

	t.Run("balance", func(t *testing.T) {
		// Server 0 is empty after move-all: the balancer must give it regions.
		if _, err := c.Balance(ctx); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range mustRegions(t, c, "", -1) {
			if r.Server == 0 {
				n++
			}
		}
		if n == 0 {
			t.Fatal("balance left server 0 empty")
		}
	})

	t.Run("kill-rs", func(t *testing.T) {
		victim := regionByTable(t, c, "hbase:meta").Server // the hardest case: meta's server
		before := mustRegions(t, c, "multi", 6)
		if err := c.KillRS(ctx, victim); err != nil {
			t.Fatal(err)
		}
		st := mustStatus(t, c)
		if st.RegionServers[victim].Live || st.LiveRegionServers() != 2 {
			t.Fatalf("after kill-rs %d: %+v", victim, st.RegionServers)
		}
		after := mustRegions(t, c, "", -1)
		for _, r := range after {
			if r.Server == victim {
				t.Errorf("region %s of %s still on killed server %d", r.EncodedName, r.Table, victim)
			}
		}
		if got := mustRegions(t, c, "multi", 6); len(got) != len(before) {
			t.Fatalf("region count changed: %d -> %d", len(before), len(got))
		}
		cells, err := c.Scan(ctx, "multi")
		if err != nil || len(cells) != 6 {
			t.Fatalf("scan after kill-rs: %d cells, %v", len(cells), err)
		}
		s, err := c.StartRS(ctx, victim)
		if err != nil {
			t.Fatal(err)
		}
		if s.StartCode == 0 || mustStatus(t, c).LiveRegionServers() != 3 {
			t.Fatalf("start-rs %d: %+v", victim, s)
		}
	})

	t.Run("stop-rs and restart-rs", func(t *testing.T) {
		if err := c.StopRS(ctx, 1); err != nil {
			t.Fatal(err)
		}
		for _, r := range mustRegions(t, c, "", -1) {
			if r.Server == 1 {
				t.Errorf("region %s on stopped server 1", r.EncodedName)
			}
		}
		if _, err := c.StartRS(ctx, 1); err != nil {
			t.Fatal(err)
		}
		before := mustStatus(t, c).RegionServers[2]
		s, err := c.RestartRS(ctx, 2)
		if err != nil {
			t.Fatal(err)
		}
		if s.Addr != before.Addr || s.StartCode == before.StartCode {
			t.Fatalf("restart-rs 2: before %+v after %+v", before, s)
		}
		if cells, err := c.Scan(ctx, "multi"); err != nil || len(cells) != 6 {
			t.Fatalf("scan after restarts: %d cells, %v", len(cells), err)
		}
	})
}

func regionByName(t *testing.T, c *Cluster, table, encoded string) Region {
	t.Helper()
	for _, r := range mustRegions(t, c, table, -1) {
		if r.EncodedName == encoded {
			return r
		}
	}
	t.Fatalf("no region %s in %s", encoded, table)
	return Region{}
}

func regionByTable(t *testing.T, c *Cluster, table string) Region {
	t.Helper()
	regs := mustRegions(t, c, table, 1)
	return regs[0]
}
