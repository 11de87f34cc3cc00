package region

import (
	"bytes"
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

// The request attributes and priority a caller gives go into the RequestHeader as HBase's
// RPC.proto defines them (priority = 6, attribute = 8), decoded here by the generated code;
// the connection attributes into the ConnectionHeader (attribute = 7).
func TestCallExtras(t *testing.T) {
	var got atomic.Pointer[pb.RequestHeader]
	srv := startFake(t, func(r *fakeserver.Request) fakeserver.Response {
		got.Store(r.Header)
		return echoGet(r)
	})
	connAttrs := []*pb.NameBytesPair{
		{Name: proto.String("app"), Value: []byte("ingest")},
		{Name: proto.String("bin,\x00"), Value: []byte{0, 0xff, ','}},
		{Name: proto.String("empty")},
	}
	c := dialT(t, srv.Addr(), WithConnectionAttributes(connAttrs))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	attrs := []*pb.NameBytesPair{
		{Name: proto.String("tenant"), Value: []byte("a")},
		{Name: proto.String("k\x00"), Value: []byte{0, 1}},
	}
	if _, err := c.CallExtras(ctx, Extras{Priority: 7, Attributes: attrs}, "Get", getRequest("r"), nil, &pb.GetResponse{}, nil); err != nil {
		t.Fatal(err)
	}
	h := got.Load()
	if h.GetPriority() != 7 || len(h.GetAttribute()) != 2 {
		t.Fatalf("request header %v; want priority 7 and 2 attributes", h)
	}
	for i, a := range h.GetAttribute() {
		if a.GetName() != attrs[i].GetName() || !bytes.Equal(a.GetValue(), attrs[i].GetValue()) {
			t.Fatalf("attribute %d = %q=%q; want %q=%q", i, a.GetName(), a.GetValue(), attrs[i].GetName(), attrs[i].GetValue())
		}
	}
	hdrs := srv.ConnectionHeaders()
	if len(hdrs) != 1 || len(hdrs[0].GetAttribute()) != 3 {
		t.Fatalf("connection headers %v; want one with 3 attributes", hdrs)
	}
	for i, a := range hdrs[0].GetAttribute() {
		if a.GetName() != connAttrs[i].GetName() || !bytes.Equal(a.GetValue(), connAttrs[i].GetValue()) || (a.Value == nil) != (connAttrs[i].Value == nil) {
			t.Fatalf("connection attribute %d = %q=%q; want %q=%q", i, a.GetName(), a.GetValue(), connAttrs[i].GetName(), connAttrs[i].GetValue())
		}
	}

	// Without extras the header has neither field.
	if _, err := c.Call(ctx, "Get", getRequest("r"), nil, &pb.GetResponse{}); err != nil {
		t.Fatal(err)
	}
	if h := got.Load(); h.Priority != nil || len(h.Attribute) != 0 {
		t.Fatalf("request header %v; want no priority and no attributes", h)
	}

	_, err := c.CallExtras(ctx, Extras{Attributes: []*pb.NameBytesPair{{Value: []byte("v")}}}, "Get", getRequest("r"), nil, &pb.GetResponse{}, nil)
	if !errors.Is(err, hberr.ErrBadRequest) {
		t.Fatalf("attribute without a name: err = %v; want ErrBadRequest", err)
	}
	if err := CheckOptions(WithConnectionAttributes([]*pb.NameBytesPair{{Value: []byte("v")}})); err == nil {
		t.Fatal("connection attribute without a name accepted")
	}
}
