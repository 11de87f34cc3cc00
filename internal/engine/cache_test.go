package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

func reg(table, start, end string) *regionInfo {
	return &regionInfo{table: []byte(table), start: []byte(start), end: []byte(end),
		name: []byte(table + "," + start + ",1.")}
}

func TestCacheGetFindsContainingRegion(t *testing.T) {
	rc := newRegionCache()
	for _, r := range []*regionInfo{reg("t", "", "c"), reg("t", "c", "f"), reg("t", "f", ""), reg("u", "", "")} {
		rc.insert(r)
	}
	cases := []struct{ table, row, wantStart string }{
		{"t", "", ""}, {"t", "a", ""}, {"t", "c", "c"}, {"t", "ez", "c"}, {"t", "f", "f"}, {"t", "zzz", "f"},
		{"u", "x", ""},
	}
	for _, tc := range cases {
		r := rc.get([]byte(tc.table), []byte(tc.row))
		if r == nil || string(r.table) != tc.table || string(r.start) != tc.wantStart {
			t.Errorf("get(%q, %q) = %v, want region starting at %q", tc.table, tc.row, r, tc.wantStart)
		}
	}
	if r := rc.get([]byte("s"), []byte("a")); r != nil {
		t.Errorf("get of an uncached table = %v, want nil", r)
	}
}

func TestCacheGetBefore(t *testing.T) {
	rc := newRegionCache()
	for _, r := range []*regionInfo{reg("t", "", "c"), reg("t", "c", "f"), reg("t", "f", ""), reg("u", "", "")} {
		rc.insert(r)
	}
	cases := []struct{ row, wantStart string }{{"", "f"}, {"f", "c"}, {"c", ""}, {"d", "c"}, {"z", "f"}}
	for _, tc := range cases {
		r := rc.getBefore([]byte("t"), []byte(tc.row))
		if r == nil || string(r.start) != tc.wantStart {
			t.Errorf("getBefore(%q) = %v, want region starting at %q", tc.row, r, tc.wantStart)
		}
	}
	if r := rc.getBefore([]byte("t"), []byte("")); r == nil || string(r.table) != "t" {
		t.Errorf("getBefore of the table end = %v, want t's last region", r)
	}
}

func TestCacheInsertReplacesOverlappingRegions(t *testing.T) {
	rc := newRegionCache()
	a, b, c, d := reg("t", "", "c"), reg("t", "c", "f"), reg("t", "f", "k"), reg("t", "k", "")
	other := reg("s", "", "")
	for _, r := range []*regionInfo{a, b, c, d, other} {
		rc.insert(r)
	}
	// A waiter on b must be woken when b is replaced.
	if !b.markUnavailable(nil) {
		t.Fatal("markUnavailable of an available region returned false")
	}
	_, wait, _ := b.state()
	merged := reg("t", "b", "g") // overlaps a, b and c
	removed := rc.insert(merged)
	if len(removed) != 3 {
		t.Fatalf("insert removed %d regions, want 3 (a, b, c): %v", len(removed), removed)
	}
	select {
	case <-wait:
	default:
		t.Fatal("waiter on a replaced region was not woken")
	}
	for _, r := range []*regionInfo{a, b, c} {
		if _, _, gone := r.state(); !gone {
			t.Errorf("%v not retired", r)
		}
	}
	got := rc.all()
	var names []string
	for _, r := range got {
		names = append(names, string(r.table)+"["+string(r.start)+","+string(r.end)+")")
	}
	want := []string{"s[,)", "t[b,g)", "t[k,)"}
	if len(names) != len(want) {
		t.Fatalf("cache = %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("cache = %v, want %v", names, want)
		}
	}
	if r := rc.get([]byte("t"), []byte("a")); r != nil {
		t.Errorf("row a is in no region now, got %v", r)
	}
	// Re-inserting a split daughter replaces the parent.
	rc.insert(reg("t", "b", "d"))
	if r := rc.get([]byte("t"), []byte("e")); r != nil {
		t.Errorf("row e belonged to the replaced parent only, got %v", r)
	}
}

func TestConcurrentLookupsCollapseIntoOne(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "", id: 1})
	release := make(chan struct{})
	fc.beforeMeta = func(r *fakeserver.Request) {
		select {
		case <-release:
		case <-r.Done():
		}
	}
	c := fc.client(t)
	get, err := hrpc.NewGet("t", []byte("row"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, 10*time.Second)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.Get(ctx, get)
			errs <- err
		}()
	}
	time.Sleep(100 * time.Millisecond) // let every caller miss the cache and join the lookup
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := fc.metaScans.Load(); n != 1 {
		t.Errorf("50 concurrent cold Gets of one row made %d hbase:meta scans, want 1", n)
	}
	if n := fc.gets.Load(); n != 50 {
		t.Errorf("server saw %d Gets, want 50", n)
	}
}

func TestWaitingForRegionHonoursContext(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", start: "", end: "", id: 1})
	block := make(chan struct{})
	defer close(block)
	fc.beforeMeta = func(r *fakeserver.Request) {
		select {
		case <-block:
		case <-r.Done():
		}
	}
	c := fc.client(t)
	get, _ := hrpc.NewGet("t", []byte("row"))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Get(ctx, get)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Get while the lookup hangs = %v, want DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 300*time.Millisecond { // generous: the test machine is shared
		t.Errorf("Get returned %v after its deadline of 50ms, want within a few ms", d-50*time.Millisecond)
	}
}

func BenchmarkCacheGet(b *testing.B) {
	rc := newRegionCache()
	for i := range 1000 {
		rc.insert(reg("t", fmt.Sprintf("k%04d", i), fmt.Sprintf("k%04d", i+1)))
	}
	row := []byte("k0500x")
	table := []byte("t")
	b.ReportAllocs()
	for b.Loop() {
		if rc.get(table, row) == nil {
			b.Fatal("miss")
		}
	}
}

func BenchmarkClientGetFake(b *testing.B) {
	fc := &fakeCluster{regions: []fakeRegion{{table: "t", start: "", end: "", id: 1}}}
	srv, err := fakeserver.Start(fakeserver.Options{Handler: fc.handle})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	fc.srv = srv
	fc.onGet = func(_ int64, req *pb.GetRequest) fakeserver.Response { return cellResult(req) }
	c, err := NewClient("", withMetaLocator(func(context.Context) (string, error) { return srv.Addr(), nil }))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	get, _ := hrpc.NewGet("t", []byte("row"))
	ctx := context.Background()
	if _, err := c.Get(ctx, get); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := c.Get(ctx, get); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
