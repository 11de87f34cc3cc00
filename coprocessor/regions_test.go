package coprocessor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// regionsOf makes the regions of a table split at keys, named "t,<start>,1.".
func regionsOf(keys ...string) []*hrpc.Region {
	bounds := append(append([]string{""}, keys...), "")
	var out []*hrpc.Region
	for i := 0; i+1 < len(bounds); i++ {
		out = append(out, &hrpc.Region{Name: []byte("t," + bounds[i] + ",1."), Start: []byte(bounds[i]), End: []byte(bounds[i+1])})
	}
	return out
}

func pieceString(ps []piece) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "[%q,%q)@%q ", p.start, p.end, p.region)
	}
	return b.String()
}

func TestCut(t *testing.T) {
	// Hostile keys: binary bytes, the ',' of region names, a key that is a prefix of another.
	regions := regionsOf("a,b", "a,b\x00", "\xff\x00")
	cases := []struct {
		name        string
		regions     []*hrpc.Region
		start, stop string
		want        string
	}{
		{"whole table", regions, "", "",
			`["",""a,b"")@"t,,1." ["a,b","a,b\x00")@"t,a,b,1." ["a,b\x00","\xff\x00")@"t,a,b\x00,1." ["\xff\x00","")@"t,\xff\x00,1." `},
		{"inside one region", regions, "a,b\x00\x01", "a,b\x00\x02",
			`["a,b\x00\x01","a,b\x00\x02")@"t,a,b\x00,1." `},
		{"across a boundary", regions, "a", "a,b\x00\x01",
			`["a","a,b")@"t,,1." ["a,b","a,b\x00")@"t,a,b,1." ["a,b\x00","a,b\x00\x01")@"t,a,b\x00,1." `},
		{"stop at a boundary", regions, "", "a,b",
			`["",""a,b"")@"t,,1." `},
		{"start at a boundary", regions, "\xff\x00", "",
			`["\xff\x00","")@"t,\xff\x00,1." `},
		{"a hole in hbase:meta", []*hrpc.Region{regions[0], regions[2]}, "", "",
			`["","a,b")@"t,,1." ["a,b","\xff\x00")@"" ["\xff\x00","")@"" `},
		{"no region listed after the first", regions[:1], "", "z",
			`["","a,b")@"t,,1." ["a,b","z")@"" `},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stop []byte
			if c.stop != "" {
				stop = []byte(c.stop)
			}
			got := pieceString(cut(c.regions, []byte(c.start), stop))
			want := strings.ReplaceAll(c.want, `""a,b""`, `"a,b"`)
			if got != want {
				t.Fatalf("cut(%q, %q) = %s; want %s", c.start, c.stop, got, want)
			}
		})
	}
}

// scripted answers a rangeCall's calls from a table of regions, as the engine's SendLocated
// would after the table changed: the call for a key goes to the region holding it now.
type scripted struct {
	mu      sync.Mutex
	regions []*hrpc.Region  // the table now
	fail    map[string]bool // regions (by start key) that answer with an error
	calls   []string        // the keys called, in order
}

func (s *scripted) send(_ context.Context, call wire.Call) (proto.Message, []byte, engine.RegionSpan, error) {
	s.mu.Lock()
	s.calls = append(s.calls, string(call.Key()))
	s.mu.Unlock()
	for _, r := range s.regions {
		if !r.Contains(call.Key()) {
			continue
		}
		if s.fail[string(r.Start)] {
			return nil, nil, engine.RegionSpan{}, hberr.NewRemoteError("java.io.IOException", "boom in "+string(r.Name), false)
		}
		value, err := proto.Marshal(&pb.GetAuthsResponse{User: r.Name})
		if err != nil {
			return nil, nil, engine.RegionSpan{}, err
		}
		resp := &pb.CoprocessorServiceResponse{Region: wire.RegionSpecifier(r.Name),
			Value: &pb.NameBytesPair{Name: proto.String("GetAuthsResponse"), Value: value}}
		return resp, nil, engine.RegionSpan{Name: r.Name, Start: r.Start, End: r.End}, nil
	}
	return nil, nil, engine.RegionSpan{}, errors.New("no region")
}

func runScripted(t *testing.T, listed []*hrpc.Region, s *scripted, start, stop string) []Result[*pb.GetAuthsResponse] {
	t.Helper()
	var stopKey []byte
	if stop != "" {
		stopKey = []byte(stop)
	}
	rc := &rangeCall[*pb.GetAuthsResponse]{send: s.send, table: "t", m: Method{"S", "m"},
		o: options{concurrency: 2}, queue: cut(listed, []byte(start), stopKey)}
	rc.run(context.Background())
	slices.SortFunc(rc.results, func(a, b Result[*pb.GetAuthsResponse]) int { return strings.Compare(string(a.Start), string(b.Start)) })
	return rc.results
}

func answeredBy(results []Result[*pb.GetAuthsResponse]) string {
	var out []string
	for _, r := range results {
		if r.Err != nil {
			out = append(out, fmt.Sprintf("error[%q,%q)", r.Start, r.End))
			continue
		}
		if string(r.Response.GetUser()) != string(r.Region) {
			return fmt.Sprintf("result of %q holds the response of %q", r.Region, r.Response.GetUser())
		}
		out = append(out, string(r.Region))
	}
	return strings.Join(out, " ")
}

func TestRangeCallSplitAfterListing(t *testing.T) {
	// hbase:meta listed two regions; the first split at "f" before its call reached it: the
	// call for "" goes to the daughter [,"f"), and the rest of the piece to the other one.
	s := &scripted{regions: regionsOf("f", "m")}
	results := runScripted(t, regionsOf("m"), s, "", "")
	if got, want := answeredBy(results), "t,,1. t,f,1. t,m,1."; got != want {
		t.Fatalf("answered by %q; want %q (calls %q)", got, want, s.calls)
	}
	if got, want := strings.Join(s.calls, " "), " f m"; len(s.calls) != 3 {
		t.Fatalf("calls %q; want 3 (%q in any order)", got, want)
	}
}

func TestRangeCallMergeAfterListing(t *testing.T) {
	// hbase:meta listed three regions, merged into one before the calls: it answers once.
	s := &scripted{regions: regionsOf()}
	results := runScripted(t, regionsOf("f", "m"), s, "", "")
	if got, want := answeredBy(results), "t,,1."; got != want {
		t.Fatalf("answered by %q; want %q (calls %q)", got, want, s.calls)
	}
}

func TestRangeCallRangeInsideSplitRegions(t *testing.T) {
	// The range ["c","p") of a table listed as [,"m") ["m",); it is now split at "f" and "n".
	s := &scripted{regions: regionsOf("f", "m", "n")}
	results := runScripted(t, regionsOf("m"), s, "c", "p")
	if got, want := answeredBy(results), "t,,1. t,f,1. t,m,1. t,n,1."; got != want {
		t.Fatalf("answered by %q; want %q (calls %q)", got, want, s.calls)
	}
	if got := string(results[0].Start); got != "" {
		t.Fatalf("first result's Start = %q; want the whole region's, \"\"", got)
	}
}

func TestRangeCallOneRegionFails(t *testing.T) {
	s := &scripted{regions: regionsOf("f", "m"), fail: map[string]bool{"f": true}}
	results := runScripted(t, regionsOf("f", "m"), s, "", "")
	if got, want := answeredBy(results), `t,,1. error["f","m") t,m,1.`; got != want {
		t.Fatalf("answered by %q; want %q", got, want)
	}
	bad := results[1]
	if string(bad.Region) != "t,f,1." {
		t.Fatalf("failed Region = %q; want the region hbase:meta listed, %q", bad.Region, "t,f,1.")
	}
	oe, ok := errors.AsType[*hberr.OpError](bad.Err)
	if !ok || oe.Op != "S.m" || string(oe.Row) != "f" || !strings.Contains(bad.Err.Error(), "boom in t,f,1.") {
		t.Fatalf("failed Err = %v; want an *hberr.OpError of S.m at row f with the server's message", bad.Err)
	}
}

func TestRangeCallContextEnded(t *testing.T) {
	s := &scripted{regions: regionsOf("f", "m")}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rc := &rangeCall[*pb.GetAuthsResponse]{
		send: func(ctx context.Context, call wire.Call) (proto.Message, []byte, engine.RegionSpan, error) {
			if err := ctx.Err(); err != nil {
				return nil, nil, engine.RegionSpan{}, err
			}
			return s.send(ctx, call)
		},
		table: "t", m: Method{"S", "m"}, o: options{concurrency: 1}, queue: cut(regionsOf("f", "m"), nil, nil)}
	rc.run(ctx)
	if len(rc.results) != 3 {
		t.Fatalf("%d results; want one per region, 3", len(rc.results))
	}
	for _, r := range rc.results {
		if !errors.Is(r.Err, context.Canceled) {
			t.Fatalf("result %q: Err = %v; want context.Canceled", r.Start, r.Err)
		}
	}
}

func TestNewMessage(t *testing.T) {
	m, err := newMessage[*pb.GetAuthsResponse]()
	if err != nil || m == nil {
		t.Fatalf("newMessage[*pb.GetAuthsResponse]() = %v, %v; want a new message", m, err)
	}
	if _, err := newMessage[proto.Message](); !errors.Is(err, hberr.ErrBadRequest) {
		t.Fatalf("newMessage[proto.Message]() error = %v; want hberr.ErrBadRequest", err)
	}
}
