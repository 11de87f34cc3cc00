package region

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

// A server that refuses the connection (here: the principal may not act for its proxy user)
// answers call id -1 with the exception, then closes. The calls in flight fail with that
// exception, so a caller can tell "access denied" (final) from a dropped connection (retried).
func TestConnectionLevelExceptionFailsCalls(t *testing.T) {
	frame, err := fakeserver.EncodeResponse(connectionCallID, nil, nil, fakeserver.Exception(
		"org.apache.hadoop.hbase.security.AccessDeniedException",
		"User: client@EXAMPLE.COM is not allowed to impersonate bob"))
	if err != nil {
		t.Fatal(err)
	}
	srv := startFake(t, func(r *fakeserver.Request) fakeserver.Response {
		return fakeserver.Response{Raw: frame, CloseConn: true}
	})
	c := dialT(t, srv.Addr())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = c.Call(ctx, "Get", getRequest("r"), nil, &pb.GetResponse{})
	if !errors.Is(err, hberr.ErrDoNotRetry) {
		t.Fatalf("err = %v; want the server's AccessDeniedException (ErrDoNotRetry)", err)
	}
	var re *hberr.RemoteError
	if !errors.As(err, &re) || re.Class != "org.apache.hadoop.hbase.security.AccessDeniedException" {
		t.Fatalf("err = %v; want a *RemoteError of AccessDeniedException", err)
	}
}
