package coprocessor_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/coprocessor"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/known/emptypb"
)

var getSum = coprocessor.Method{Service: "AggregateService", Name: "GetSum"}

func fakeContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestCallOnFakeIsNotSupported(t *testing.T) {
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("t", []string{"f"}); err != nil {
		t.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	err = coprocessor.Call(fakeContext(t), client, "t", []byte("r"), getSum, &pb.AggregateRequest{
		InterpreterClassName: proto.String("x"), Scan: &pb.Scan{}}, &pb.AggregateResponse{})
	if !errors.Is(err, hberr.ErrNotSupported) {
		t.Fatalf("Call error = %v; want hberr.ErrNotSupported", err)
	}
	if !strings.Contains(err.Error(), "AggregateService.GetSum") {
		t.Fatalf("Call error = %q; want it to name the service and method", err)
	}
	oe, ok := errors.AsType[*hberr.OpError](err)
	if !ok || oe.Op != "AggregateService.GetSum" || oe.Table != "t" || string(oe.Row) != "r" {
		t.Fatalf("Call error = %#v; want an *hberr.OpError of AggregateService.GetSum on t/r", err)
	}
	if n := srv.Calls(fakehbase.Match{}); n < 0 {
		t.Fatalf("Calls = %d", n)
	}
}

func TestCallRegionsOnFakeFailsPerRegion(t *testing.T) {
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("t", []string{"f"}, []byte("b"), []byte("d")); err != nil {
		t.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	results, err := coprocessor.CallRegions[*pb.AggregateResponse](fakeContext(t), client, "t", nil, nil, getSum,
		&pb.AggregateRequest{InterpreterClassName: proto.String("x"), Scan: &pb.Scan{}})
	re, ok := errors.AsType[*hberr.RegionsError](err)
	if !ok || re.Regions != 3 || len(re.Errs) != 3 || !errors.Is(err, hberr.ErrNotSupported) {
		t.Fatalf("CallRegions error = %v; want an *hberr.RegionsError of 3 regions, all not supported", err)
	}
	if len(results) != 3 {
		t.Fatalf("%d results; want 3", len(results))
	}
	for i, start := range []string{"", "b", "d"} {
		r := results[i]
		if string(r.Start) != start || !strings.HasPrefix(string(r.Region), "t,"+start+",") || !errors.Is(r.Err, hberr.ErrNotSupported) || r.Response != nil {
			t.Fatalf("result %d = {Region %q Start %q Err %v Response %v}; want region t,%s,... failed, not supported", i, r.Region, r.Start, r.Err, r.Response, start)
		}
	}
	// A range inside the middle region calls it alone.
	results, _ = coprocessor.CallRegions[*pb.AggregateResponse](fakeContext(t), client, "t", []byte("b1"), []byte("c"), getSum,
		&pb.AggregateRequest{InterpreterClassName: proto.String("x"), Scan: &pb.Scan{}})
	if len(results) != 1 || !strings.HasPrefix(string(results[0].Region), "t,b,") {
		t.Fatalf("results of [b1, c) = %v; want region b's alone", results)
	}
	// An empty range calls none.
	results, err = coprocessor.CallRegions[*pb.AggregateResponse](fakeContext(t), client, "t", []byte("c"), []byte("c"), getSum,
		&pb.AggregateRequest{InterpreterClassName: proto.String("x"), Scan: &pb.Scan{}})
	if len(results) != 0 || err != nil {
		t.Fatalf("CallRegions of [c, c) = %v, %v; want no region, no error", results, err)
	}
}

func TestCallBadInput(t *testing.T) {
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("t", []string{"f"}); err != nil {
		t.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ctx := fakeContext(t)
	req, resp := &pb.GetAuthsRequest{User: []byte("u")}, &pb.GetAuthsResponse{}
	cases := []struct {
		name string
		err  error
	}{
		{"nil client", coprocessor.Call(ctx, nil, "t", nil, getSum, req, resp)},
		{"bad table", coprocessor.Call(ctx, client, "a b", nil, getSum, req, resp)},
		{"no method", coprocessor.Call(ctx, client, "t", nil, coprocessor.Method{Service: "S"}, req, resp)},
		{"nil request", coprocessor.Call(ctx, client, "t", nil, getSum, nil, resp)},
		{"nil response", coprocessor.Call(ctx, client, "t", nil, getSum, req, nil)},
		{"request missing a required field", coprocessor.Call(ctx, client, "t", nil, getSum, &pb.GetAuthsRequest{}, resp)},
		{"nil option", coprocessor.Call(ctx, client, "t", nil, getSum, req, resp, nil)},
		{"concurrency 0", func() error {
			_, err := coprocessor.CallRegions[*pb.GetAuthsResponse](ctx, client, "t", nil, nil, getSum, req, coprocessor.WithConcurrency(0))
			return err
		}()},
		{"start after stop", func() error {
			_, err := coprocessor.CallRegions[*pb.GetAuthsResponse](ctx, client, "t", []byte("b"), []byte("a"), getSum, req)
			return err
		}()},
		{"interface response type", func() error {
			_, err := coprocessor.CallRegions[proto.Message](ctx, client, "t", nil, nil, getSum, req)
			return err
		}()},
	}
	for _, c := range cases {
		if !errors.Is(c.err, hberr.ErrBadRequest) && !errors.Is(c.err, hberr.ErrInvalidName) {
			t.Errorf("%s: error = %v; want hberr.ErrBadRequest or ErrInvalidName", c.name, c.err)
		}
	}
	if n := srv.Calls(fakehbase.Match{Table: "t"}); n != 0 {
		t.Fatalf("%d calls reached the server; want none", n)
	}
}

func TestMethodOf(t *testing.T) {
	agg := pb.File_Aggregate_proto.Services().ByName("AggregateService").Methods().ByName("GetSum")
	if got, want := coprocessor.MethodOf(agg), getSum; got != want {
		t.Fatalf("MethodOf(hbase.pb.AggregateService.GetSum) = %v; want %v", got, want)
	}
	// A service of another package keeps its full name, even one whose package starts as
	// HBase's does.
	for _, pkg := range []string{"example", "hbase.pb.sub", "hbase.pbx"} {
		fd, err := protodesc.NewFile(&descriptorpb.FileDescriptorProto{
			Name:        proto.String("rowcount.proto"),
			Package:     proto.String(pkg),
			MessageType: []*descriptorpb.DescriptorProto{{Name: proto.String("Req")}},
			Service: []*descriptorpb.ServiceDescriptorProto{{
				Name: proto.String("RowCountService"),
				Method: []*descriptorpb.MethodDescriptorProto{{Name: proto.String("getRowCount"),
					InputType: proto.String("." + pkg + ".Req"), OutputType: proto.String("." + pkg + ".Req")}},
			}},
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := coprocessor.MethodOf(fd.Services().Get(0).Methods().Get(0))
		if want := (coprocessor.Method{Service: pkg + ".RowCountService", Name: "getRowCount"}); got != want {
			t.Fatalf("MethodOf(%s.RowCountService.getRowCount) = %v; want %v", pkg, got, want)
		}
	}
}

func TestCallRetriedLikeAGet(t *testing.T) {
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("t", []string{"f"}); err != nil {
		t.Fatal(err)
	}
	client, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	m := fakehbase.Match{Op: fakehbase.OpExecService, Table: "t"}
	if err := srv.InjectError(m, fakehbase.NotServingRegion, "moving", 1); err != nil {
		t.Fatal(err)
	}
	err = coprocessor.Call(fakeContext(t), client, "t", []byte("r"), getSum, &pb.AggregateRequest{
		InterpreterClassName: proto.String("x"), Scan: &pb.Scan{}}, &pb.AggregateResponse{})
	if !errors.Is(err, hberr.ErrNotSupported) {
		t.Fatalf("Call error = %v; want the endpoint's refusal after the retry, hberr.ErrNotSupported", err)
	}
	if n := srv.Calls(m); n != 2 {
		t.Fatalf("%d ExecService calls; want 2 (NotServingRegion, then the retry)", n)
	}
}

// TestServerEndpointsOnFake: the master's and a region server's endpoints are refused by
// fakehbase as not supported, the master's naming the endpoint; the region server's fails
// earlier, at the cluster status that names the live servers, which the fake lacks too.
func TestServerEndpointsOnFake(t *testing.T) {
	srv := fakehbase.NewServer(t)
	client, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	adm := admin.New(client)
	m := coprocessor.Method{Service: "example.InfoService", Name: "get"}
	err = adm.CoprocessorService(fakeContext(t), m, &emptypb.Empty{}, &emptypb.Empty{})
	if !errors.Is(err, hberr.ErrNotSupported) || !strings.Contains(err.Error(), "example.InfoService.get") {
		t.Fatalf("CoprocessorService error = %v; want hberr.ErrNotSupported naming example.InfoService.get", err)
	}
	err = adm.RegionServerCoprocessorService(fakeContext(t), srv.Addr(), m, &emptypb.Empty{}, &emptypb.Empty{})
	if !errors.Is(err, hberr.ErrNotSupported) {
		t.Fatalf("RegionServerCoprocessorService error = %v; want hberr.ErrNotSupported", err)
	}
}
