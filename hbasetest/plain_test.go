package hbasetest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func TestPlainOneRegionServer(t *testing.T) {
	needsJVM(t)
	c := StartT(t, Options{Logger: testLogger(t)})
	ctx := testContext(t)

	t.Run("status", func(t *testing.T) {
		st, err := c.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !st.Master.Live || st.Master.StartCode == 0 {
			t.Errorf("master not live: %+v", st.Master)
		}
		if len(st.RegionServers) != 1 || !st.RegionServers[0].Live || st.RegionServers[0].Addr == "" {
			t.Fatalf("region servers: %+v", st.RegionServers)
		}
		if c.ZKQuorum == "" || c.ZNodeParent != "/hbase" {
			t.Errorf("ZKQuorum %q ZNodeParent %q", c.ZKQuorum, c.ZNodeParent)
		}
	})

	t.Run("cpu time", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("CPUTime reads /proc")
		}
		before, err := c.CPUTime()
		if err != nil {
			t.Fatal(err)
		}
		for i := range 50 {
			if _, err := c.Status(ctx); err != nil {
				t.Fatal(i, err)
			}
		}
		after, err := c.CPUTime()
		if err != nil {
			t.Fatal(err)
		}
		// A started cluster has run for seconds; 50 commands cost the JVM some CPU.
		if before < 100*time.Millisecond || after <= before {
			t.Fatalf("JVM CPU time %v, then %v after 50 commands", before, after)
		}
	})

	t.Run("java client", func(t *testing.T) {
		if err := c.CreateTable(ctx, "jc", []string{"f"}, nil); err != nil {
			t.Fatal(err)
		}
		j, err := c.StartJavaClient(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		puts, err := j.Puts(ctx, "jc", 498, 5, 1, 10) // rows 498, 499, then 0, 1, 2
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range []string{"row00498", "row00499", "row00000", "row00002"} {
			cells, err := c.Get(ctx, "jc", []byte(row))
			if err != nil || len(cells) != 1 || string(cells[0].Value) != "vvvvvvvvvv" || string(cells[0].Qualifier) != "q" {
				t.Fatalf("%s after the Java client's Puts: %+v, %v", row, cells, err)
			}
		}
		gets, err := j.Gets(ctx, "jc", 0, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(puts) != 5 || len(gets) != 3 || puts[0] <= 0 || gets[2] <= 0 {
			t.Fatalf("latencies: puts %v gets %v", puts, gets)
		}
		// Four threads share 30 Puts (rows 100-129), every operation timed.
		par, err := j.Puts(ctx, "jc", 100, 30, 4, 3)
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range par {
			if d <= 0 {
				t.Fatalf("parallel Put %d has latency %v", i, d)
			}
		}
		for _, row := range []string{"row00100", "row00113", "row00129"} {
			if cells, err := c.Get(ctx, "jc", []byte(row)); err != nil || len(cells) != 1 || string(cells[0].Value) != "vvv" {
				t.Fatalf("%s after the parallel Puts: %+v, %v", row, cells, err)
			}
		}
		if cpu, err := j.CPUTime(); runtime.GOOS == "linux" && (err != nil || cpu < 100*time.Millisecond) {
			t.Fatalf("Java client CPU time %v, %v: a JVM that connected has used more", cpu, err)
		}
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := j.Gets(cancelled, "jc", 0, 1, 1); !errors.Is(err, context.Canceled) {
			t.Fatalf("Gets with a cancelled context: %v", err)
		}
		// Its answer is still coming: the client stays failed rather than mistake it for
		// the next answer.
		if _, err := j.Gets(ctx, "jc", 0, 2, 1); !errors.Is(err, context.Canceled) {
			t.Fatalf("Gets after a cancelled one: %v, want the first failure again", err)
		}
		other, err := c.StartJavaClient(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		if _, err := other.Gets(ctx, "no_such_table", 0, 1, 1); err == nil || !strings.Contains(err.Error(), "TableNotFound") {
			t.Fatalf("Gets on a missing table: %v, want the Java client's TableNotFoundException", err)
		}
	})

	t.Run("binary data", func(t *testing.T) {
		if err := c.CreateTable(ctx, "bin", []string{"f"}, nil); err != nil {
			t.Fatal(err)
		}
		row := make([]byte, 256)
		for i := range row {
			row[i] = byte(i)
		}
		big := bytes.Repeat([]byte{0, 0xff, '\n', ' ', ','}, 2<<20/5) // 2 MB of awkward bytes
		if err := c.Put(ctx, "bin", row, []byte("f"), []byte{0, '\n'}, big); err != nil {
			t.Fatal(err)
		}
		cells, err := c.Get(ctx, "bin", row)
		if err != nil {
			t.Fatal(err)
		}
		if len(cells) != 1 || !bytes.Equal(cells[0].Row, row) || !bytes.Equal(cells[0].Qualifier, []byte{0, '\n'}) ||
			!bytes.Equal(cells[0].Value, big) || cells[0].Timestamp == 0 {
			t.Fatalf("get returned %d cells, first differs", len(cells))
		}
		// An empty value round-trips as "-".
		if err := c.Put(ctx, "bin", []byte("e"), []byte("f"), []byte("q"), nil); err != nil {
			t.Fatal(err)
		}
		cells, err = c.Scan(ctx, "bin")
		if err != nil {
			t.Fatal(err)
		}
		if len(cells) != 2 || !bytes.Equal(cells[0].Row, row) || string(cells[1].Row) != "e" || len(cells[1].Value) != 0 {
			t.Fatalf("scan returned %d cells", len(cells))
		}
		for i := 0; i < 3; i++ {
			if _, err := c.Increment(ctx, "bin", []byte("n"), []byte("f"), []byte("c"), 7); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := c.Increment(ctx, "bin", []byte("n"), []byte("f"), []byte("c"), 0); err != nil || n != 21 {
			t.Fatalf("increment = %d, %v; want 21", n, err)
		}
		if err := c.Delete(ctx, "bin", row, nil, nil); err != nil {
			t.Fatal(err)
		}
		if cells, err := c.Get(ctx, "bin", row); err != nil || len(cells) != 0 {
			t.Fatalf("after delete: %d cells, %v", len(cells), err)
		}
	})

	t.Run("java client buffered and timeline work", func(t *testing.T) {
		if err := c.CreateTable(ctx, "pe", []string{PEFamily}, nil); err != nil {
			t.Fatal(err)
		}
		j, err := c.StartJavaClient(ctx, "hbase.client.primaryCallTimeout.get=20000")
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		const rows = 50
		// Sequential rows 40..49 then 0..29 of 50 from seed 40: 40 rows, two threads, a buffer
		// small enough (1 KiB) to flush several times.
		b, err := j.Work(ctx, Work{Workload: WorkloadBufferedSequentialWrite, Table: "pe", Rows: rows, Seed: 40, N: 40, Threads: 2, ValueLen: 100, WriteBuffer: 1 << 10})
		if err != nil {
			t.Fatal(err)
		}
		if b.Wall <= 0 || len(b.Latencies) != 40 {
			t.Fatalf("buffered block: wall %v, %d latencies", b.Wall, len(b.Latencies))
		}
		for i := range 40 {
			row := PEKey(nil, SequentialRow(40, i, rows))
			if cells, err := c.Get(ctx, "pe", row); err != nil || len(cells) != 1 || len(cells[0].Value) != 100 {
				t.Fatalf("row %s after the buffered block: %d cells, %v", row, len(cells), err)
			}
		}
		if cells, err := c.Get(ctx, "pe", PEKey(nil, 35)); err != nil || len(cells) != 0 {
			t.Fatalf("row 35 was not in the block: %d cells, %v", len(cells), err)
		}
		if _, err := j.Work(ctx, Work{Workload: WorkloadBufferedRandomWrite, Table: "pe", Rows: rows, Seed: 1, N: 20, Threads: 1, ValueLen: 10}); err != nil {
			t.Fatal(err)
		}
		// A table without replicas: a TIMELINE Get reads the primary, never stale.
		b, err = j.Work(ctx, Work{Workload: WorkloadTimelineRead, Table: "pe", Rows: 30, Seed: 3, N: 10, Threads: 1})
		if err != nil || b.Rows != 0 {
			t.Fatalf("timeline reads: %d stale, %v", b.Rows, err)
		}
		if _, err := c.StartJavaClient(ctx, "no-equals-sign"); err == nil {
			t.Fatal("a configuration without '=': no error")
		}
	})

	t.Run("slow reads", func(t *testing.T) {
		if err := c.CreateTable(ctx, "slow", []string{"f"}, nil); err != nil {
			t.Fatal(err)
		}
		if err := c.Put(ctx, "slow", []byte("r"), []byte("f"), []byte("q"), []byte("v")); err != nil {
			t.Fatal(err)
		}
		get := func() time.Duration {
			t0 := time.Now()
			if cells, err := c.Get(ctx, "slow", []byte("r")); err != nil || len(cells) != 1 {
				t.Fatalf("get: %d cells, %v", len(cells), err)
			}
			return time.Since(t0)
		}
		const delay = 300 * time.Millisecond
		if err := c.SlowReads(ctx, 0, delay, 1); err != nil {
			t.Fatal(err)
		}
		if d := get(); d < delay {
			t.Errorf("a Get on the slowed server took %v, want at least %v", d, delay)
		}
		if err := c.SlowReads(ctx, 0, 0, 0); err != nil {
			t.Fatal(err)
		}
		// Commands answer in milliseconds; a Get still delayed would take the whole delay.
		if d := get(); d >= delay {
			t.Errorf("a Get after slow reads ended took %v", d)
		}
		if err := c.SlowReads(ctx, 1, delay, 1); err == nil {
			t.Error("slow reads of region server 1 of a one-server cluster: no error")
		}
		if err := c.SlowReads(ctx, 0, delay, 1.5); err == nil {
			t.Error("a share of 1.5: no error")
		}
	})

	t.Run("thread dump", func(t *testing.T) {
		if err := c.CreateTable(ctx, "dumped", []string{"f"}, nil); err != nil {
			t.Fatal(err)
		}
		if err := c.Put(ctx, "dumped", []byte("r"), []byte("f"), []byte("q"), []byte("v")); err != nil {
			t.Fatal(err)
		}
		// A handler held in a slowed Get: the dump must show it there, full stack and all.
		if err := c.SlowReads(ctx, 0, 3*time.Second, 1); err != nil {
			t.Fatal(err)
		}
		got := make(chan error, 1)
		go func() {
			_, err := c.Get(ctx, "dumped", []byte("r"))
			got <- err
		}()
		path := filepath.Join(t.TempDir(), "threads.txt")
		var dump string
		for deadline := time.Now().Add(2 * time.Second); ; {
			n, err := c.ThreadDump(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			dump = string(b)
			if strings.Count(dump, "\n\"") < n-1 {
				t.Fatalf("ThreadDump counted %d threads; the file holds %d", n, strings.Count(dump, "\n\"")+1)
			}
			if strings.Contains(dump, "SlowReads.preGetOp") || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err := c.SlowReads(ctx, 0, 0, 0); err != nil {
			t.Fatal(err)
		}
		if err := <-got; err != nil {
			t.Fatal(err)
		}
		i := strings.Index(dump, "SlowReads.preGetOp")
		if i < 0 {
			t.Fatalf("no thread in SlowReads.preGetOp while a Get was held there:\n%.2000s", dump)
		}
		// The frame sits in a handler's stack, below its name and above the RPC server's frames.
		thread := dump[strings.LastIndex(dump[:i], "\n\"")+1:]
		thread = thread[:strings.Index(thread, "\n\n")]
		if !strings.Contains(thread, "RpcServer") || !strings.Contains(thread, "TIMED_WAITING") || strings.Count(thread, "\tat ") <= 8 {
			t.Errorf("the held handler's entry:\n%s", thread)
		}
		if _, err := c.ThreadDump(ctx, "threads.txt"); err == nil {
			t.Error("a relative path: no error")
		}
	})

	t.Run("bad input", func(t *testing.T) {
		var ce *CommandError
		_, err := c.Command(ctx, "frobnicate now")
		if !errors.As(err, &ce) || ce.Command != "frobnicate" || ce.Reason == "" {
			t.Errorf("unknown command: %v", err)
		}
		if _, err := c.Get(ctx, "no_such_table", []byte("r")); !errors.As(err, &ce) {
			t.Errorf("missing table: %v", err)
		}
		if _, err := c.Regions(ctx, "no_such_table"); !errors.As(err, &ce) {
			t.Errorf("regions of a missing table: %v", err)
		}
		if err := c.KillRS(ctx, 7); !errors.As(err, &ce) {
			t.Errorf("wrong server index: %v", err)
		}
		if _, err := c.Command(ctx, "put bin zz 66 71 76"); !errors.As(err, &ce) {
			t.Errorf("bad hex: %v", err)
		}
		if err := c.ThrottleTable(ctx, "bin", 5); !errors.As(err, &ce) {
			t.Errorf("a throttle on a cluster without quotas: %v", err)
		}
		if err := c.ThrottleTable(ctx, "bin", -1); err == nil || errors.As(err, &ce) {
			t.Errorf("a negative throttle: %v; want refused before it is sent", err)
		}
		if _, err := c.Command(ctx, "two\nlines"); err == nil {
			t.Error("a command with a newline was accepted")
		}
		// The cluster still serves.
		if _, err := c.Status(ctx); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("split and merge", func(t *testing.T) {
		if err := c.CreateTable(ctx, "sm", []string{"f", "g"}, [][]byte{[]byte("m")}); err != nil {
			t.Fatal(err)
		}
		regs := mustRegions(t, c, "sm", 2)
		if !bytes.Equal(regs[0].EndKey, []byte("m")) || !bytes.Equal(regs[1].StartKey, []byte("m")) {
			t.Fatalf("pre-split regions %q-%q, %q-%q", regs[0].StartKey, regs[0].EndKey, regs[1].StartKey, regs[1].EndKey)
		}
		began := time.Now()
		lr, rr, err := c.SplitTimed(ctx, "sm", []byte("t"))
		if err != nil {
			t.Fatal(err)
		}
		checkReopen(t, lr, began, time.Now())
		checkReopen(t, rr, began, time.Now())
		left, right := lr.EncodedName, rr.EncodedName
		regs = mustRegions(t, c, "sm", 3)
		if regs[1].EncodedName != left || regs[2].EncodedName != right || !bytes.Equal(regs[2].StartKey, []byte("t")) {
			t.Fatalf("after split: %+v (daughters %s %s)", regs, left, right)
		}
		merged, err := c.Merge(ctx, regs[0].EncodedName, regs[1].EncodedName)
		if err != nil {
			t.Fatal(err)
		}
		regs = mustRegions(t, c, "sm", 2)
		if regs[0].EncodedName != merged || len(regs[0].StartKey) != 0 || !bytes.Equal(regs[0].EndKey, []byte("t")) {
			t.Fatalf("after merge: %+v (merged %s)", regs, merged)
		}
		if _, _, err := c.Split(ctx, "sm", []byte("t")); err == nil {
			t.Error("split at an existing boundary succeeded")
		}
	})

	t.Run("flush and compactions", func(t *testing.T) {
		for i := 0; i < 3; i++ {
			if err := c.Put(ctx, "sm", []byte{'a', byte(i)}, []byte("f"), []byte("q"), []byte("v")); err != nil {
				t.Fatal(err)
			}
			if err := c.Flush(ctx, "sm"); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.Compact(ctx, "sm"); err != nil {
			t.Fatal(err)
		}
		if err := c.MajorCompact(ctx, "sm"); err != nil {
			t.Fatal(err)
		}
		if cells, err := c.Scan(ctx, "sm"); err != nil || len(cells) != 3 {
			t.Fatalf("after compaction: %d cells, %v", len(cells), err)
		}
	})

	t.Run("table lifecycle", func(t *testing.T) {
		if err := c.TruncateTable(ctx, "sm"); err != nil {
			t.Fatal(err)
		}
		if cells, err := c.Scan(ctx, "sm"); err != nil || len(cells) != 0 {
			t.Fatalf("after truncate: %d cells, %v", len(cells), err)
		}
		mustRegions(t, c, "sm", 2) // truncate keeps the boundaries
		if err := c.DisableTable(ctx, "sm"); err != nil {
			t.Fatal(err)
		}
		if err := c.Put(ctx, "sm", []byte("r"), []byte("f"), []byte("q"), []byte("v")); err == nil {
			t.Error("put into a disabled table succeeded")
		}
		if err := c.EnableTable(ctx, "sm"); err != nil {
			t.Fatal(err)
		}
		if err := c.Put(ctx, "sm", []byte("r"), []byte("f"), []byte("q"), []byte("v")); err != nil {
			t.Fatal(err)
		}
		if err := c.DropTable(ctx, "sm"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Regions(ctx, "sm"); err == nil {
			t.Error("dropped table still has regions")
		}
	})

	t.Run("restart region server", func(t *testing.T) {
		before := mustStatus(t, c).RegionServers[0]
		s, err := c.RestartRS(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		if s.Addr != before.Addr || s.StartCode == before.StartCode {
			t.Fatalf("restart: before %+v after %+v", before, s)
		}
		after := mustStatus(t, c).RegionServers[0]
		if !after.Live || after.StartCode != s.StartCode {
			t.Fatalf("status after restart: %+v", after)
		}
		for _, r := range mustRegions(t, c, "", -1) {
			if r.StartCode != s.StartCode {
				t.Errorf("region %s of %s on start code %d, want %d", r.EncodedName, r.Table, r.StartCode, s.StartCode)
			}
		}
		if cells, err := c.Scan(ctx, "bin"); err != nil || len(cells) != 2 {
			t.Fatalf("data after restart: %d cells, %v", len(cells), err)
		}
	})

	t.Run("kill and start the only region server", func(t *testing.T) {
		if err := c.KillRS(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if st := mustStatus(t, c); st.RegionServers[0].Live {
			t.Fatalf("region server 0 live after kill: %+v", st.RegionServers[0])
		}
		var ce *CommandError
		if err := c.KillRS(ctx, 0); !errors.As(err, &ce) {
			t.Errorf("killing a dead server: %v", err)
		}
		s, err := c.StartRS(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !mustStatus(t, c).RegionServers[0].Live || s.StartCode == 0 {
			t.Fatal("region server 0 not live after start")
		}
		if cells, err := c.Scan(ctx, "bin"); err != nil || len(cells) != 2 {
			t.Fatalf("data after kill and start (WAL replay): %d cells, %v", len(cells), err)
		}
	})

	t.Run("a killed server's abort timer leaves the cluster running", func(t *testing.T) {
		// The region server killed above armed HBase's abort timer (5 s in ClusterConf), whose
		// default task would halt the JVM.
		logFile := filepath.Join(c.Dir, "logs", "hbase.log")
		deadline := time.Now().Add(time.Minute)
		for {
			b, err := os.ReadFile(logFile)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(b, []byte("abort timed out; the mini cluster keeps running")) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the abort timer of the killed region server did not run within a minute")
			}
			time.Sleep(500 * time.Millisecond)
		}
		if cells, err := c.Scan(ctx, "bin"); err != nil || len(cells) != 2 {
			t.Fatalf("data after the abort timer ran: %d cells, %v", len(cells), err)
		}
	})

	t.Run("kill and start master", func(t *testing.T) {
		before := mustStatus(t, c).Master
		if err := c.KillMaster(ctx); err != nil {
			t.Fatal(err)
		}
		if mustStatus(t, c).Master.Live {
			t.Fatal("master live after kill")
		}
		m, err := c.StartMaster(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.StartCode == before.StartCode || m.Addr != before.Addr {
			t.Fatalf("master before %+v after %+v", before, m)
		}
		if err := c.CreateTable(ctx, "after_master", []string{"f"}, nil); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("java smoke", func(t *testing.T) {
		out, err := c.JavaSmoke(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Log(out)
	})
}

func mustStatus(t *testing.T, c *Cluster) *Status {
	t.Helper()
	st, err := c.Status(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// mustRegions lists the regions of table and checks their count (n < 0: any).
func mustRegions(t *testing.T, c *Cluster, table string, n int) []Region {
	t.Helper()
	regs, err := c.Regions(testContext(t), table)
	if err != nil {
		t.Fatal(err)
	}
	if n >= 0 && len(regs) != n {
		t.Fatalf("%s has %d regions, want %d: %+v", table, len(regs), n, regs)
	}
	for _, r := range regs {
		if r.Server < 0 || r.Addr == "" || r.StartCode == 0 {
			t.Errorf("region %s of %s is not assigned: %+v", r.EncodedName, r.Table, r)
		}
	}
	return regs
}
