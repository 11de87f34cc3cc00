package hrpcwire

import (
	"testing"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// What hrpc registered has every method of API (the package's initialization asserts it; this
// says so by name when it does not).
func TestRegistered(t *testing.T) {
	if _, ok := wire.Hrpc().(API); !ok {
		t.Fatalf("wire.Hrpc() = %T does not implement hrpcwire.API", wire.Hrpc())
	}
}

// The views hand out hrpc's requests as the client drives them.
func TestViews(t *testing.T) {
	get, err := hrpc.NewGet("t", []byte("r"), hrpc.MaxAttempts(3))
	if err != nil {
		t.Fatal(err)
	}
	g := Get(get)
	if string(g.Table()) != "t" || string(g.Key()) != "r" || g.Op() != "Get" || g.Method() != "Get" || g.MaxAttempts() != 3 {
		t.Fatalf("Get view: %s %s %s %s %d", g.Table(), g.Key(), g.Op(), g.Method(), g.MaxAttempts())
	}
	if _, ok := g.(wire.RequestRecycler); !ok {
		t.Error("a Get's view is not a wire.RequestRecycler")
	}
	if Batchable(get) != g.(wire.Batchable) {
		t.Error("a Get's batch view is not its call view")
	}
	inc, err := hrpc.NewIncrement("t", []byte("r"), hrpc.Amount([]byte("f"), []byte("q"), 1))
	if err != nil {
		t.Fatal(err)
	}
	if m := Mutation(inc); m.Op() != "Increment" || m.Method() != "Mutate" || m.(interface{ Nonce() uint64 }).Nonce() == 0 {
		t.Errorf("Increment view: %s %s", m.Op(), m.Method())
	}
	rm, err := hrpc.NewRowMutations([]hrpc.Mutation{inc})
	if err != nil {
		t.Fatal(err)
	}
	if c := RowMutations(rm); c.Op() != "MutateRow" || c.Method() != "Multi" {
		t.Errorf("RowMutations view: %s %s", c.Op(), c.Method())
	}
	cam, err := hrpc.NewCheckAndMutateRow(hrpc.IfNotExists([]byte("f"), []byte("q")), rm)
	if err != nil {
		t.Fatal(err)
	}
	if c := CheckAndMutate(cam); c.Op() != "CheckAndMutate" || c.Method() != "Multi" {
		t.Errorf("CheckAndMutate view: %s %s", c.Op(), c.Method())
	}
	scan, err := hrpc.NewScan("t", hrpc.StartRow([]byte("a")), hrpc.Limit(5), hrpc.Reversed())
	if err != nil {
		t.Fatal(err)
	}
	s := Scan(scan)
	var b wire.ScanProtoBuffer
	if string(s.StartRow()) != "a" || s.Limit() != 5 || !s.Reversed() || !s.ProtoInto(&b).GetReversed() {
		t.Errorf("Scan view: %q %d %v", s.StartRow(), s.Limit(), s.Reversed())
	}
}

func TestServerNameRoundTrip(t *testing.T) {
	sn := hrpc.ServerName{Host: "rs1", Port: 16020, StartCode: 42}
	p := ServerNameProto(sn)
	if !proto.Equal(p, &pb.ServerName{HostName: proto.String("rs1"), Port: proto.Uint32(16020), StartCode: proto.Uint64(42)}) {
		t.Fatalf("ServerNameProto = %v", p)
	}
	if got := ServerName(p); got != sn {
		t.Fatalf("ServerName = %+v; want %+v", got, sn)
	}
}
