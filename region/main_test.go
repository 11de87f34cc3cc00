package region

import (
	"context"
	"net"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// startFake starts a fake server with h and closes it at the end of the test.
func startFake(t testing.TB, h fakeserver.Handler) *fakeserver.Server {
	t.Helper()
	srv, err := fakeserver.Start(fakeserver.Options{Handler: h})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// dialT dials addr and closes the client at the end of the test.
// The service is ClientService unless opts say otherwise.
func dialT(t testing.TB, addr string, opts ...Option) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Dial(ctx, addr, append([]Option{WithService("ClientService")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func getRequest(row string) *pb.GetRequest {
	return &pb.GetRequest{
		Region: &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: []byte("t,,1.abc.")},
		Get:    &pb.Get{Row: []byte(row)},
	}
}

// echoGet answers a GetRequest with one cell whose row and value are the requested row, and
// echoes the request cellblock back.
func echoGet(r *fakeserver.Request) fakeserver.Response {
	var get pb.GetRequest
	if err := r.Unmarshal(&get); err != nil {
		return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", err.Error())}
	}
	row := get.GetGet().GetRow()
	return fakeserver.Response{
		Msg:   &pb.GetResponse{Result: &pb.Result{Cell: []*pb.Cell{{Row: row, Value: row}}}},
		Cells: r.Cells,
	}
}

func doGet(ctx context.Context, c *Client, row string) (*pb.GetResponse, []byte, error) {
	var resp pb.GetResponse
	cells, err := c.Call(ctx, "Get", getRequest(row), nil, &resp)
	return &resp, cells, err
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// slowConn delays every write, so that concurrent calls pile up behind the writer.
type slowConn struct {
	net.Conn
	delay time.Duration
}

func (s *slowConn) Write(p []byte) (int, error) {
	time.Sleep(s.delay)
	return s.Conn.Write(p)
}

type slowDialer struct {
	delay time.Duration
	conn  *slowConn
}

func (d *slowDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	var nd net.Dialer
	c, err := nd.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	d.conn = &slowConn{Conn: c, delay: d.delay}
	return d.conn, nil
}
