package fakeserver

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"net"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// rawClient speaks the wire protocol by hand, independently of package region.
func rawClient(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	hdr, _ := proto.Marshal(&pb.ConnectionHeader{ServiceName: proto.String("ClientService")})
	b := append([]byte("HBas\x00\x50"), binary.BigEndian.AppendUint32(nil, uint32(len(hdr)))...)
	if _, err := nc.Write(append(b, hdr...)); err != nil {
		t.Fatal(err)
	}
	return nc, bufio.NewReader(nc)
}

func writeRequest(t *testing.T, nc net.Conn, id uint32, method string, param proto.Message, cells []byte) {
	t.Helper()
	h := &pb.RequestHeader{CallId: proto.Uint32(id), MethodName: proto.String(method), RequestParam: proto.Bool(true)}
	if len(cells) > 0 {
		h.CellBlockMeta = &pb.CellBlockMeta{Length: proto.Uint32(uint32(len(cells)))}
	}
	hb, _ := proto.Marshal(h)
	pbytes, _ := proto.Marshal(param)
	body := protowire.AppendBytes(protowire.AppendBytes(nil, hb), pbytes)
	body = append(body, cells...)
	if _, err := nc.Write(append(binary.BigEndian.AppendUint32(nil, uint32(len(body))), body...)); err != nil {
		t.Fatal(err)
	}
}

func readResponse(t *testing.T, br *bufio.Reader) (*pb.ResponseHeader, []byte, []byte) {
	t.Helper()
	b, err := readFrame(br)
	if err != nil {
		t.Fatal(err)
	}
	hb, n := protowire.ConsumeBytes(b)
	var h pb.ResponseHeader
	if n < 0 || proto.Unmarshal(hb, &h) != nil {
		t.Fatalf("bad response header")
	}
	b = b[n:]
	if h.Exception != nil {
		return &h, nil, nil
	}
	msg, n := protowire.ConsumeBytes(b)
	if n < 0 {
		t.Fatal("bad response message")
	}
	return &h, msg, b[n:]
}

func TestServerAnswersInAnyOrder(t *testing.T) {
	srv, err := Start(Options{Handler: func(r *Request) Response {
		var get pb.GetRequest
		if err := r.Unmarshal(&get); err != nil {
			return Response{Exception: Exception("org.apache.hadoop.hbase.DoNotRetryIOException", err.Error())}
		}
		resp := Response{Msg: &pb.GetResponse{Result: &pb.Result{Exists: proto.Bool(true)}}, Cells: r.Cells}
		if string(get.GetGet().GetRow()) == "slow" {
			resp.Delay = 50 * time.Millisecond
		}
		if string(get.GetGet().GetRow()) == "fail" {
			resp = Response{Exception: RegionMoved("rs9", 16020, 7)}
		}
		return resp
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	nc, br := rawClient(t, srv.Addr())
	get := func(row string) *pb.GetRequest {
		return &pb.GetRequest{Region: &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: []byte("r")}, Get: &pb.Get{Row: []byte(row)}}
	}
	writeRequest(t, nc, 1, "Get", get("slow"), nil)
	writeRequest(t, nc, 2, "Get", get("fast"), []byte("cells!"))
	writeRequest(t, nc, 3, "Get", get("fail"), nil)
	seen := map[uint32]bool{}
	var order []uint32
	for range 3 {
		h, msg, cells := readResponse(t, br)
		id := h.GetCallId()
		seen[id] = true
		order = append(order, id)
		switch id {
		case 2:
			var resp pb.GetResponse
			if proto.Unmarshal(msg, &resp) != nil || !resp.GetResult().GetExists() || !bytes.Equal(cells, []byte("cells!")) {
				t.Fatalf("call 2: %v %q", &resp, cells)
			}
		case 3:
			if e := h.GetException(); e.GetHostname() != "rs9" || e.GetPort() != 16020 || e.GetDoNotRetry() {
				t.Fatalf("call 3: %v", e)
			}
		}
	}
	if order[2] != 1 || len(seen) != 3 {
		t.Fatalf("answer order %v: the delayed call should come last", order)
	}
	if srv.Requests() != 3 || srv.Accepted() != 1 || srv.ConnectionHeaders()[0].GetServiceName() != "ClientService" {
		t.Fatalf("counters: %d requests %d conns", srv.Requests(), srv.Accepted())
	}
}

func TestCloseUnblocksHandlers(t *testing.T) {
	started := make(chan struct{})
	srv, err := Start(Options{Handler: func(r *Request) Response {
		close(started)
		<-r.Done()
		return Response{NoReply: true}
	}})
	if err != nil {
		t.Fatal(err)
	}
	nc, br := rawClient(t, srv.Addr())
	writeRequest(t, nc, 1, "Get", &pb.GetRequest{}, nil)
	<-started
	srv.Close() // must return: the handler sees Done
	if _, err := br.ReadByte(); err == nil {
		t.Fatal("connection still open after Close")
	}
}

func TestBadPreambleIsDropped(t *testing.T) {
	srv, err := Start(Options{Handler: func(*Request) Response { return Response{} }})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	nc, err := net.Dial("tcp", srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.Write([]byte("GET / HTTP/1.1\r\n\r\n"))
	nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := nc.Read(make([]byte, 1)); err == nil {
		t.Fatal("server answered a bad preamble")
	}
}

func TestMethods(t *testing.T) {
	srv, err := Start(Options{Handler: Methods(map[string]Handler{
		"IsMasterRunning": func(*Request) Response {
			return Response{Msg: &pb.IsMasterRunningResponse{IsMasterRunning: proto.Bool(true)}}
		},
	})})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	nc, br := rawClient(t, srv.Addr())
	writeRequest(t, nc, 7, "IsMasterRunning", &pb.IsMasterRunningRequest{}, nil)
	h, msg, _ := readResponse(t, br)
	var resp pb.IsMasterRunningResponse
	if h.GetCallId() != 7 || proto.Unmarshal(msg, &resp) != nil || !resp.GetIsMasterRunning() {
		t.Fatalf("IsMasterRunning: %v %v", h, &resp)
	}
	writeRequest(t, nc, 8, "Nope", &pb.IsMasterRunningRequest{}, nil)
	if h, _, _ := readResponse(t, br); h.GetCallId() != 8 || !h.GetException().GetDoNotRetry() {
		t.Fatalf("unknown method: %v", h)
	}
}
