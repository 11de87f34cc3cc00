package engine

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/region"
)

// A connection the client closed itself (region.ErrClosed) under a call that then ran out of
// time surfaces as hberr.ErrConnection, whichever operation reports it; region's error stays
// in the chain and the message is the same.
func TestRegionErrClosedSurfacesAsErrConnection(t *testing.T) {
	srv, err := fakeserver.Start(fakeserver.Options{Handler: func(*fakeserver.Request) fakeserver.Response {
		return fakeserver.Response{}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := region.Dial(ctx, srv.Addr(), region.WithService("ClientService"))
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	get, err := hrpc.NewGet("t", []byte("r"))
	if err != nil {
		t.Fatal(err)
	}
	call := hrpcwire.Get(get)
	req, _, _ := call.Marshal([]byte("t,,1.x."), nil)
	_, closedErr := conn.Call(ctx, "Get", req, nil, call.NewResponse())
	if !errors.Is(closedErr, region.ErrClosed) || errors.Is(closedErr, hberr.ErrConnection) {
		t.Fatalf("a call on a closed connection: %v; want region.ErrClosed only (the case under test)", closedErr)
	}
	late := &hberr.RetryError{Err: context.DeadlineExceeded, Last: closedErr}
	for name, err := range map[string]error{
		"Get":   OpError(call, late),
		"admin": &hberr.AdminError{Op: "FlushRegion", Name: "t,,1.x.", Err: UserError(closedErr)},
	} {
		if !errors.Is(err, hberr.ErrConnection) || !errors.Is(err, region.ErrClosed) {
			t.Errorf("%s: %v; want hberr.ErrConnection, region.ErrClosed kept", name, err)
		}
		if name == "Get" && !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v; want the deadline kept", name, err)
		}
	}
	if got, want := OpError(call, late).Error(), (&hberr.OpError{Op: "Get", Table: "t", Row: []byte("r"), Err: late}).Error(); got != want {
		t.Errorf("message = %q; want %q", got, want)
	}
	if err := OpError(call, hberr.ErrTableNotFound); errors.Is(err, hberr.ErrConnection) {
		t.Errorf("a missing table became a connection error: %v", err)
	}
}
