package engine

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
// is moved four times, split three times and a region server is killed. For each fault it
// reports how long the fault command took, the longest gap between two successful calls to
// the affected region after the fault began, the p99.9 and maximum call latency within 2 s
// either side of the fault, and for moves and splits the servers' own reopen time (the
// launcher watches the region stop serving on its old server and open on its new one,
// hbasetest.Reopen) against the client's (from the close to the end of the first successful
// call that began after it), with p50 and maximum per kind. It fails only when a region never
// comes back or a reopen goes unmeasured; the figures are for docs and issue 14's target
// (the client at most 50 ms behind the servers), which TestReopenedRegionFoundSoon's
// pacing serves.
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
		// run makes the fault and returns how the affected region reopened as the servers
		// saw it (zero for a killed server).
		run func(context.Context) (hbasetest.Reopen, error)
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
	move := func(ctx context.Context) (hbasetest.Reopen, error) {
		r := regionOf("4")
		st, err := cl.Status(ctx)
		if err != nil {
			return hbasetest.Reopen{}, err
		}
		for i := 1; i < len(st.RegionServers); i++ {
			if to := (r.Server + i) % len(st.RegionServers); st.RegionServers[to].Live {
				return cl.MoveTimed(ctx, r.EncodedName, to)
			}
		}
		return hbasetest.Reopen{}, fmt.Errorf("no server to move to")
	}
	// split splits the region of "8row" at key and returns the daughter that holds it.
	split := func(key string) func(context.Context) (hbasetest.Reopen, error) {
		return func(ctx context.Context) (hbasetest.Reopen, error) {
			left, right, err := cl.SplitTimed(ctx, table, []byte(key))
			if rows[2] < key {
				return left, err
			}
			return right, err
		}
	}
	killed := -1
	// Each round moves a region four times and splits another three times (at keys that keep
	// "8row" in a region that can be split again; eight splits at most), then the last round
	// kills a server.
	splitKeys := []string{"a", "9", "8r", "8s", "8rp", "8ro", "8rox", "8row"}
	var faults []fault
	for range reliabilityRounds(t) {
		for i := range 7 {
			if i%2 == 1 && len(splitKeys) > 0 {
				faults = append(faults, fault{"split", 2, split(splitKeys[0])})
				splitKeys = splitKeys[1:]
				continue
			}
			faults = append(faults, fault{"move", 1, move})
		}
	}
	faults = append(faults, []fault{
		{"kill-rs", 3, func(ctx context.Context) (hbasetest.Reopen, error) {
			r := regionOf("c")
			meta, err := cl.Regions(ctx, "hbase:meta")
			if err != nil {
				return hbasetest.Reopen{}, err
			}
			if len(meta) != 1 {
				return hbasetest.Reopen{}, fmt.Errorf("hbase:meta regions: %+v", meta)
			}
			if meta[0].Server == r.Server {
				// Not the server of hbase:meta: move the region away first.
				st, err := cl.Status(ctx)
				if err != nil {
					return hbasetest.Reopen{}, err
				}
				for i := 1; i < len(st.RegionServers); i++ {
					if to := (r.Server + i) % len(st.RegionServers); st.RegionServers[to].Live {
						if err := cl.Move(ctx, r.EncodedName, to); err != nil {
							return hbasetest.Reopen{}, err
						}
						break
					}
				}
				time.Sleep(2 * time.Second)
				if r = regionOf("c"); r.Server == meta[0].Server {
					return hbasetest.Reopen{}, fmt.Errorf("region c still with hbase:meta on server %d", r.Server)
				}
			}
			killed = r.Server
			return hbasetest.Reopen{}, cl.KillRS(ctx, r.Server)
		}},
	}...)
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
		reopen hbasetest.Reopen
		err    error
	}
	var windows []window
	for _, f := range faults {
		at := time.Now()
		reopen, err := f.run(ctx)
		windows = append(windows, window{fault: f, at: at, ranFor: time.Since(at), reopen: reopen, err: err})
		// Wait for the region to serve again (or 90 s), then a calm 2 s.
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
		time.Sleep(2 * time.Second)
	}
	close(stop)
	wg.Wait()

	// Per fault kind: the server's reopen time (Closed → Opened), the client's (Closed → the
	// end of the first successful call to the region that began after Closed) and the
	// difference, the target of issue 14 being at most 50 ms.
	type reopenFigures struct{ server, client, over, meta []time.Duration }
	byKind := map[string]*reopenFigures{}
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
		var firstOK time.Time
		for _, cl := range calls {
			if cl.end.After(w.at.Add(-2*time.Second)) && cl.start.Before(w.at.Add(w.ranFor+2*time.Second)) {
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
				if !w.reopen.Closed.IsZero() && !cl.start.Before(w.reopen.Closed) && (firstOK.IsZero() || cl.end.Before(firstOK)) {
					firstOK = cl.end
				}
			}
		}
		slices.Sort(lat)
		if len(lat) == 0 {
			t.Errorf("%s: no call around the fault", w.fault.name)
			continue
		}
		p999 := lat[min(len(lat)-1, len(lat)*999/1000)]
		reopenText := ""
		if r := w.reopen; !r.Closed.IsZero() && !r.Opened.IsZero() && !firstOK.IsZero() {
			f := byKind[w.fault.name]
			if f == nil {
				f = &reopenFigures{}
				byKind[w.fault.name] = f
			}
			f.server = append(f.server, r.Took())
			f.client = append(f.client, firstOK.Sub(r.Closed))
			f.over = append(f.over, firstOK.Sub(r.Opened))
			if !r.InMeta.IsZero() {
				f.meta = append(f.meta, r.InMeta.Sub(r.Opened))
			}
			reopenText = fmt.Sprintf("; servers: closed → open %v (hbase:meta %v later); client: closed → first success %v (%v after the open)",
				r.Took().Round(time.Millisecond), r.InMeta.Sub(r.Opened).Round(time.Millisecond),
				firstOK.Sub(r.Closed).Round(time.Millisecond), firstOK.Sub(r.Opened).Round(time.Millisecond))
		} else if w.fault.name != "kill-rs" {
			t.Errorf("%s: no reopen times (servers %+v, first success %v)", w.fault.name, w.reopen, firstOK)
		}
		t.Logf("%-8s command %6v; affected region's longest wait for a success %6v; calls within ±2 s: %d, p99.9 %v, max %v%s",
			w.fault.name, w.ranFor.Round(time.Millisecond), worstGap.Round(time.Millisecond), len(lat),
			p999.Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond), reopenText)
		if !back {
			t.Errorf("%s: the affected region did not serve again after the fault", w.fault.name)
		}
	}
	for _, kind := range []string{"move", "split"} {
		f := byKind[kind]
		if f == nil {
			t.Errorf("%s: no reopen measured", kind)
			continue
		}
		t.Logf("%-8s ×%d: server's reopen p50 %v max %v; client's first success p50 %v max %v; client past the reopen p50 %v max %v (target ≤ 50ms); hbase:meta after the open p50 %v max %v",
			kind, len(f.server), p50(f.server), slices.Max(f.server).Round(time.Millisecond), p50(f.client),
			slices.Max(f.client).Round(time.Millisecond), p50(f.over), slices.Max(f.over).Round(time.Millisecond),
			p50(f.meta), maxOr0(f.meta))
	}
}

// p50 is the median of d, rounded to the millisecond.
func p50(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2].Round(time.Millisecond)
}

func maxOr0(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return slices.Max(d).Round(time.Millisecond)
}
