package hbase

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
)

// recoveryCall is one Get of the recovery measurement.
type recoveryCall struct {
	region     int
	start, end time.Time
	ok         bool
}

// TestRecoveryTimesAgainstHBase measures, per fault kind, how long a region is unavailable to
// callers: callers Get one row of each of four regions in turn (1 s deadlines) while a region
// is moved, a region is split and a region server is killed; for each fault it reports how
// long the fault command took (the server's own reopen time, for a move), the longest gap
// between two successful calls to the affected region after the fault began, and the p99.9
// and maximum call latency within 5 s either side of the fault. It fails only when a region
// never comes back; the figures are for docs and issue 14's targets (after a move or split:
// the reopen time plus 50 ms).
func TestRecoveryTimesAgainstHBase(t *testing.T) {
	cl := testCluster(t)
	starts := []string{"", "4", "8", "c"}
	table := createTable(t, []string{"f"}, [][]byte{[]byte("4"), []byte("8"), []byte("c")})
	c := newTestClient(t)
	ctx := testContext(t, 5*time.Minute)
	value := []byte("value")
	rows := []string{"0row", "4row", "8row", "crow"} // one in each region
	for _, row := range rows {
		putRow(t, c, table, row, value)
	}

	var mu sync.Mutex
	var calls []recoveryCall
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := w; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				region := i % len(starts)
				callCtx, cancel := context.WithTimeout(ctx, time.Second)
				began := time.Now()
				res, err := c.Get(callCtx, mustGetT(t, table, rows[region]))
				cancel()
				ok := err == nil && len(res.Cells) == 1 && string(res.Cells[0].Value) == string(value)
				if err == nil && !ok {
					t.Errorf("region %d read back %v", region, res.Cells)
				}
				mu.Lock()
				calls = append(calls, recoveryCall{region, began, time.Now(), ok})
				mu.Unlock()
				if !ok {
					time.Sleep(5 * time.Millisecond)
				}
			}
		})
	}

	type fault struct {
		name   string
		region int
		run    func(context.Context) error
	}
	regionOf := func(start string) hbasetest.Region {
		regions, err := cl.Regions(ctx, table)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range regions {
			if string(r.StartKey) == start {
				return r
			}
		}
		t.Fatalf("no region of %s starts at %q", table, start)
		return hbasetest.Region{}
	}
	killed := -1
	faults := []fault{
		{"move", 1, func(ctx context.Context) error {
			r := regionOf("4")
			st, err := cl.Status(ctx)
			if err != nil {
				return err
			}
			for i := 1; i < len(st.RegionServers); i++ {
				if to := (r.Server + i) % len(st.RegionServers); st.RegionServers[to].Live {
					return cl.Move(ctx, r.EncodedName, to)
				}
			}
			return fmt.Errorf("no server to move to")
		}},
		{"split", 2, func(ctx context.Context) error { _, _, err := cl.Split(ctx, table, []byte("a")); return err }},
		{"kill-rs", 3, func(ctx context.Context) error {
			r := regionOf("c")
			meta, err := cl.Regions(ctx, "hbase:meta")
			if err != nil {
				return err
			}
			if len(meta) != 1 {
				return fmt.Errorf("hbase:meta regions: %+v", meta)
			}
			if meta[0].Server == r.Server {
				// Not the server of hbase:meta: move the region away first.
				st, err := cl.Status(ctx)
				if err != nil {
					return err
				}
				for i := 1; i < len(st.RegionServers); i++ {
					if to := (r.Server + i) % len(st.RegionServers); st.RegionServers[to].Live {
						if err := cl.Move(ctx, r.EncodedName, to); err != nil {
							return err
						}
						break
					}
				}
				time.Sleep(2 * time.Second)
				if r = regionOf("c"); r.Server == meta[0].Server {
					return fmt.Errorf("region c still with hbase:meta on server %d", r.Server)
				}
			}
			killed = r.Server
			return cl.KillRS(ctx, r.Server)
		}},
	}
	t.Cleanup(func() {
		if killed >= 0 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			if _, err := cl.StartRS(ctx, killed); err != nil {
				t.Errorf("start-rs %d: %v", killed, err)
			}
		}
	})
	time.Sleep(2 * time.Second)
	type window struct {
		fault  fault
		ranFor time.Duration
		at     time.Time
		err    error
	}
	var windows []window
	for _, f := range faults {
		at := time.Now()
		err := f.run(ctx)
		windows = append(windows, window{fault: f, at: at, ranFor: time.Since(at), err: err})
		// Wait for the region to serve again (or 90 s), then a calm 5 s.
		deadline := time.Now().Add(90 * time.Second)
		for time.Now().Before(deadline) {
			mu.Lock()
			back := false
			for i := len(calls) - 1; i >= 0 && calls[i].start.After(at); i-- {
				if calls[i].region == f.region && calls[i].ok && calls[i].start.After(at.Add(windows[len(windows)-1].ranFor)) {
					back = true
					break
				}
			}
			mu.Unlock()
			if back {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(5 * time.Second)
	}
	close(stop)
	wg.Wait()

	for _, w := range windows {
		if w.err != nil {
			t.Logf("%-8s fault failed: %v", w.fault.name, w.err)
			continue
		}
		// The longest wait of the affected region: from the fault (or the last success
		// before a failure) to the next success, over the calls that started after the fault.
		lastOK := w.at
		var worstGap time.Duration
		back := false
		var lat []time.Duration
		for _, cl := range calls {
			if cl.end.After(w.at.Add(-5*time.Second)) && cl.start.Before(w.at.Add(w.ranFor+5*time.Second)) {
				lat = append(lat, cl.end.Sub(cl.start))
			}
			if cl.region != w.fault.region || cl.start.Before(w.at) {
				continue
			}
			if cl.ok {
				if gap := cl.end.Sub(lastOK); gap > worstGap && !back {
					worstGap = gap
				}
				if cl.start.After(w.at.Add(w.ranFor)) {
					back = true
				}
				lastOK = cl.end
			}
		}
		slices.Sort(lat)
		if len(lat) == 0 {
			t.Errorf("%s: no call around the fault", w.fault.name)
			continue
		}
		p999 := lat[min(len(lat)-1, len(lat)*999/1000)]
		t.Logf("%-8s command %6v; affected region's longest wait for a success %6v; calls within ±5 s: %d, p99.9 %v, max %v",
			w.fault.name, w.ranFor.Round(time.Millisecond), worstGap.Round(time.Millisecond), len(lat),
			p999.Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
		if !back {
			t.Errorf("%s: the affected region did not serve again after the fault", w.fault.name)
		}
	}
}
