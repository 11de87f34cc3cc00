package region

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

// ownedValue is the value the server sends for row "g/i/size": the row repeated to size bytes.
func ownedValue(row string) []byte {
	size, _ := strconv.Atoi(row[strings.LastIndexByte(row, '/')+1:])
	return bytes.Repeat([]byte(row), size/len(row)+1)[:size]
}

// TestResponseBuffersStayWithTheirCaller checks who owns a response's bytes (issue 9's list:
// pooled calls and their buffers, cellblocks that alias response bodies, call ids): many
// callers, responses from tiny to larger than the read buffer, random server delays and random
// deadlines that abandon calls mid-flight; each caller keeps the cellblocks it got and checks,
// after each later call, that none of them changed. A buffer handed out and then reused for
// another response, or a response given to the wrong call, fails it. make test runs it
// without -race too, on the raw socket I/O.
func TestResponseBuffersStayWithTheirCaller(t *testing.T) {
	srv := startFake(t, func(r *fakeserver.Request) fakeserver.Response {
		var req pb.GetRequest
		if err := r.Unmarshal(&req); err != nil {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", err.Error())}
		}
		row := string(req.GetGet().GetRow())
		return fakeserver.Response{
			Msg:   &pb.GetResponse{Result: &pb.Result{AssociatedCellCount: proto.Int32(1)}},
			Cells: keyValue([]byte(row), []byte("f"), []byte("q"), ownedValue(row), 1),
			Delay: time.Duration(rand.IntN(800)) * time.Microsecond,
		}
	})
	c := dialT(t, srv.Addr(), WithReadBufferSize(4096))
	var wg sync.WaitGroup
	var mu sync.Mutex
	outcomes := map[string]int{}
	for g := range 32 {
		wg.Go(func() {
			type kept struct {
				row   string
				cells []byte
			}
			var keep []kept
			for i := range 150 {
				size := 1 + rand.IntN(200)
				if rand.IntN(10) == 0 {
					size = 8<<10 + rand.IntN(100<<10) // larger than the read buffer
				}
				row := fmt.Sprintf("%d/%d/%d", g, i, size)
				d := 5 * time.Second
				if rand.IntN(4) == 0 {
					d = time.Duration(100+rand.IntN(1500)) * time.Microsecond
				}
				ctx, cancel := context.WithTimeout(context.Background(), d)
				cells, err := c.Call(ctx, "Get", getRequest(row), nil, &pb.GetResponse{})
				cancel()
				kind := "ok"
				switch {
				case err == nil:
					want := keyValue([]byte(row), []byte("f"), []byte("q"), ownedValue(row), 1)
					if !bytes.Equal(cells, want) {
						t.Errorf("call for %s got %d bytes of cells that are not its own", row, len(cells))
					}
					keep = append(keep, kept{row, cells})
					if len(keep) > 8 {
						keep = keep[1:]
					}
				case errors.Is(err, context.DeadlineExceeded):
					kind = "abandoned"
				default:
					t.Errorf("unexpected error %v", err)
				}
				for _, k := range keep {
					if !bytes.Equal(k.cells, keyValue([]byte(k.row), []byte("f"), []byte("q"), ownedValue(k.row), 1)) {
						t.Errorf("the cells of %s changed after the call returned them", k.row)
					}
				}
				mu.Lock()
				outcomes[kind]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	t.Logf("outcomes: %v", outcomes)
	if outcomes["ok"] == 0 || outcomes["abandoned"] == 0 {
		t.Fatalf("the test did not exercise both paths: %v", outcomes)
	}
}
