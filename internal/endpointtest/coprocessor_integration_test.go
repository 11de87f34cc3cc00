package endpointtest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/coprocessor"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/testkit"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// whoAmI is TokenProvider's AuthenticationService.WhoAmI: an empty request, and a response
// whose field 1 is the user the server sees, which wrapperspb.StringValue reads (its field 1
// is a string too): a user's own message types, the server's answer by effect.
var whoAmI = coprocessor.Method{Service: "AuthenticationService", Name: "WhoAmI"}

func TestCallWhoAmI(t *testing.T) {
	c := newClient(t, hbase.WithUser("alice"))
	table := endpointTable(t, c, []string{"f"}, nil, tokenProvider)
	var resp wrapperspb.StringValue
	if err := coprocessor.Call(testkit.Context(t, time.Minute), c, table, []byte("any"), whoAmI, &emptypb.Empty{}, &resp); err != nil {
		t.Fatalf("Call: %v", err)
	}
	if resp.GetValue() != "alice" {
		t.Fatalf("WhoAmI = %q; want the client's user, alice", resp.GetValue())
	}
}

func TestCallRegionsWhoAmI(t *testing.T) {
	c := newClient(t, hbase.WithUser("bob"))
	table := endpointTable(t, c, []string{"f"}, []string{"g", "p"}, tokenProvider)
	ctx := testkit.Context(t, time.Minute)
	regions, err := admin.New(c).Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	results, err := coprocessor.CallRegions[*wrapperspb.StringValue](ctx, c, table, nil, nil, whoAmI, &emptypb.Empty{})
	if err != nil {
		t.Fatalf("CallRegions: %v", err)
	}
	if len(results) != len(regions) {
		t.Fatalf("%d results; want one per region, %d", len(results), len(regions))
	}
	for i, r := range results {
		if string(r.Region) != string(regions[i].Name) || string(r.Start) != string(regions[i].Start) || string(r.End) != string(regions[i].End) {
			t.Fatalf("result %d of region %q [%q, %q); want %q [%q, %q)", i, r.Region, r.Start, r.End, regions[i].Name, regions[i].Start, regions[i].End)
		}
		if r.Err != nil || r.Response.GetValue() != "bob" {
			t.Fatalf("result %d = %v, %v; want bob", i, r.Response, r.Err)
		}
	}
	// A range from inside the first region to inside the second: those two.
	results, err = coprocessor.CallRegions[*wrapperspb.StringValue](ctx, c, table, []byte("c"), []byte("h"), whoAmI, &emptypb.Empty{})
	if err != nil || len(results) != 2 || string(results[1].Start) != "g" {
		t.Fatalf("CallRegions [c, h) = %d results, %v; want regions \"\" and \"g\"", len(results), err)
	}
	// A range ending where a region starts leaves that region out.
	results, err = coprocessor.CallRegions[*wrapperspb.StringValue](ctx, c, table, []byte("g"), []byte("p"), whoAmI, &emptypb.Empty{})
	if err != nil || len(results) != 1 || string(results[0].Start) != "g" {
		t.Fatalf("CallRegions [g, p) = %d results, %v; want region \"g\" alone", len(results), err)
	}
}

// TestCallRegionsOneRegionFails: a closed region fails alone; the others answer.
func TestCallRegionsOneRegionFails(t *testing.T) {
	c := newClient(t, hbase.WithMaxAttempts(3))
	table := endpointTable(t, c, []string{"f"}, []string{"g", "p"}, tokenProvider)
	ctx := testkit.Context(t, 2*time.Minute)
	adm := admin.New(c)
	regions, err := adm.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if err := adm.UnassignRegion(ctx, regions[1].Name); err != nil {
		t.Fatalf("UnassignRegion: %v", err)
	}
	t.Cleanup(func() { _ = adm.AssignRegion(testkit.Context(t, time.Minute), regions[1].Name) })
	// The closed region is looked for again until the call's context ends (NotServingRegion is
	// what a moving region answers too): 15 s, not the test's 2 minutes.
	callCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	results, err := coprocessor.CallRegions[*wrapperspb.StringValue](callCtx, c, table, nil, nil, whoAmI, &emptypb.Empty{})
	re, ok := errors.AsType[*hberr.RegionsError](err)
	if !ok || len(re.Errs) != 1 || re.Regions != 3 {
		t.Fatalf("CallRegions error = %v; want an *hberr.RegionsError of 1 region in 3", err)
	}
	if len(results) != 3 || results[0].Err != nil || results[2].Err != nil || results[1].Err == nil {
		t.Fatalf("results = %+v; want the middle region's failure between two answers", results)
	}
	if string(results[1].Region) != string(regions[1].Name) || string(results[1].Start) != "g" {
		t.Fatalf("failed result names region %q at %q; want %q at \"g\"", results[1].Region, results[1].Start, regions[1].Name)
	}
	t.Logf("the closed region's error: %v", results[1].Err)
}

// TestCallRegionsAfterMoveAndSplit: the client's cached regions are stale (one moved to the
// other server, one split): every region still answers, the stale ones after a retry.
func TestCallRegionsAfterMoveAndSplit(t *testing.T) {
	c := newClient(t, hbase.WithUser("carol"))
	table := endpointTable(t, c, []string{"f"}, []string{"g", "p"}, tokenProvider)
	ctx := testkit.Context(t, 2*time.Minute)
	if _, err := coprocessor.CallRegions[*wrapperspb.StringValue](ctx, c, table, nil, nil, whoAmI, &emptypb.Empty{}); err != nil {
		t.Fatalf("first CallRegions: %v", err)
	}
	cl := env.Cluster(t)
	hr, err := cl.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	other := 1 - hr[0].Server
	if err := cl.Move(ctx, hr[0].EncodedName, other); err != nil {
		t.Fatalf("moving region %s to server %d: %v", hr[0].EncodedName, other, err)
	}
	if _, _, err := cl.Split(ctx, table, []byte("t")); err != nil {
		t.Fatalf("splitting at t: %v", err)
	}
	before := c.Stats().Retries
	results, err := coprocessor.CallRegions[*wrapperspb.StringValue](ctx, c, table, nil, nil, whoAmI, &emptypb.Empty{})
	if err != nil {
		t.Fatalf("CallRegions after the move and split: %v", err)
	}
	var starts []string
	for _, r := range results {
		if r.Response.GetValue() != "carol" {
			t.Fatalf("region %q answered %v", r.Region, r.Response)
		}
		starts = append(starts, string(r.Start))
	}
	if got, want := strings.Join(starts, ","), ",g,p,t"; got != want {
		t.Fatalf("regions answering start at %q; want %q", got, want)
	}
	if c.Stats().Retries == before {
		t.Fatal("no call was retried: the client's cache was not stale, the test proves nothing")
	}
}

func TestCallEndpointMissing(t *testing.T) {
	c := newClient(t)
	table := endpointTable(t, c, []string{"f"}, nil)
	err := coprocessor.Call(testkit.Context(t, time.Minute), c, table, []byte("r"), whoAmI, &emptypb.Empty{}, &wrapperspb.StringValue{})
	if !errors.Is(err, hberr.ErrNotSupported) || !strings.Contains(err.Error(), "No registered coprocessor service found for AuthenticationService") {
		t.Fatalf("Call error = %v; want hberr.ErrNotSupported with the server's message naming the service", err)
	}
	t.Logf("the error: %v", err)
}

func TestServerEndpoints(t *testing.T) {
	c := newClient(t)
	adm := admin.New(c)
	ctx := testkit.Context(t, time.Minute)
	nosuch := coprocessor.Method{Service: "example.NoSuchService", Name: "m"}
	err := adm.CoprocessorService(ctx, nosuch, &emptypb.Empty{}, &emptypb.Empty{})
	if !errors.Is(err, hberr.ErrNotSupported) || !strings.Contains(err.Error(), "example.NoSuchService") {
		t.Fatalf("master endpoint error = %v; want hberr.ErrNotSupported naming the service", err)
	}
	t.Logf("the master's error: %v", err)
	// The VisibilityController is a master coprocessor too: its service is found there.
	var labels wrapperspb.StringValue
	err = adm.CoprocessorService(ctx, listLabelsMethod, &emptypb.Empty{}, &labels)
	if errors.Is(err, hberr.ErrNotSupported) {
		t.Fatalf("the master's VisibilityLabelsService: %v; want it found", err)
	}
	t.Logf("the master's VisibilityLabelsService.listLabels: %v", err)

	st, err := env.Cluster(t).Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	server := st.RegionServers[0].Addr
	err = adm.RegionServerCoprocessorService(ctx, server, nosuch, &emptypb.Empty{}, &emptypb.Empty{})
	if !errors.Is(err, hberr.ErrNotSupported) || !strings.Contains(err.Error(), "example.NoSuchService") {
		t.Fatalf("region server endpoint error = %v; want hberr.ErrNotSupported naming the service", err)
	}
	t.Logf("the region server's error: %v", err)
	if err := adm.RegionServerCoprocessorService(ctx, "localhost:1", nosuch, &emptypb.Empty{}, &emptypb.Empty{}); !errors.Is(err, hberr.ErrServerNotFound) {
		t.Fatalf("an endpoint of no server: %v; want hberr.ErrServerNotFound", err)
	}
}

var listLabelsMethod = coprocessor.Method{Service: "VisibilityLabelsService", Name: "listLabels"}
