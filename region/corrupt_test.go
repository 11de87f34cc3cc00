package region

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

// errorLog keeps the text of the records a client logs at error level.
type errorLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *errorLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *errorLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *errorLog) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelError}))
}

// rejectRow fails the check of a GetResponse holding a cell of the given row.
type rejectRow string

func (r rejectRow) CheckResponse(resp proto.Message, _ []byte) error {
	for _, c := range resp.(*pb.GetResponse).GetResult().GetCell() {
		if string(c.Row) == string(r) {
			return errors.New("cell of the wrong row")
		}
	}
	return nil
}

// TestCorruptResponseResetsTheConnection: a response its checker rejects gives
// hberr.ErrCorruptResponse, fails every other call in flight on the connection with hberr.ErrConnection
// (the stream is not trusted any more), and is logged once, at error level, with its bytes.
func TestCorruptResponseResetsTheConnection(t *testing.T) {
	release := make(chan struct{})
	srv := startFake(t, func(r *fakeserver.Request) fakeserver.Response {
		var req pb.GetRequest
		r.Unmarshal(&req) //nolint:errcheck // a bad request answers an empty row
		row := req.GetGet().GetRow()
		if string(row) == "slow" {
			<-release // still in flight when the corrupt response arrives
		}
		return fakeserver.Response{Msg: &pb.GetResponse{Result: &pb.Result{Cell: []*pb.Cell{{Row: row, Value: []byte("foreign bytes")}}}}}
	})
	defer close(release)
	var logs errorLog
	c := dialT(t, srv.Addr(), WithLogger(logs.logger()))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	slow := make(chan error, 1)
	go func() {
		_, err := c.CallChecked(ctx, NormalPriority, "Get", getRequest("slow"), nil, &pb.GetResponse{}, nil)
		slow <- err
	}()
	for srv.Requests() < 1 {
		time.Sleep(time.Millisecond)
	}
	_, err := c.CallChecked(ctx, NormalPriority, "Get", getRequest("bad"), nil, &pb.GetResponse{}, rejectRow("bad"))
	if !errors.Is(err, hberr.ErrCorruptResponse) || errors.Is(err, hberr.ErrConnection) {
		t.Fatalf("corrupt call: %v, want hberr.ErrCorruptResponse", err)
	}
	if err := <-slow; !errors.Is(err, hberr.ErrConnection) {
		t.Fatalf("call in flight: %v, want hberr.ErrConnection", err)
	}
	select {
	case <-c.Done():
	default:
		t.Fatal("the connection is still up")
	}
	out := logs.String()
	if strings.Count(out, "corrupt response") != 1 {
		t.Fatalf("log:\n%s", out)
	}
	for _, want := range []string{"level=ERROR", "call_id=2", "method=Get", "region=t,,1.abc.", "frame_len=",
		"header=", "body_head=", hex.EncodeToString([]byte("foreign bytes"))} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

// TestMalformedFrameIsLogged: a frame that does not parse kills the connection (as before) and
// is logged at error level with what was read of it.
func TestMalformedFrameIsLogged(t *testing.T) {
	srv := startFake(t, func(r *fakeserver.Request) fakeserver.Response {
		// A frame of 12 bytes whose header claims 200.
		return fakeserver.Response{Raw: []byte{0, 0, 0, 12, 200, 1, 8, 1, 0, 0, 0, 0, 0, 0, 0, 0}}
	})
	var logs errorLog
	c := dialT(t, srv.Addr(), WithLogger(logs.logger()))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.Call(ctx, "Get", getRequest("r"), nil, &pb.GetResponse{}); !errors.Is(err, hberr.ErrConnection) {
		t.Fatalf("err = %v", err)
	}
	if out := logs.String(); !strings.Contains(out, "malformed response frame") || !strings.Contains(out, "frame_len=12") {
		t.Fatalf("log:\n%s", out)
	}
}
