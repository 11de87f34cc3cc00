package region

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/fakeserver"
)

// TestStressCancellationAndDeath mixes random server delays, random caller deadlines and a
// connection drop in the middle: every call must return either its own row, a context error
// or a connection error, and nothing may leak (goleak in TestMain).
func TestStressCancellationAndDeath(t *testing.T) {
	srv := startFake(t, func(r *fakeserver.Request) fakeserver.Response {
		resp := echoGet(r)
		resp.Delay = time.Duration(rand.IntN(3000)) * time.Microsecond
		return resp
	})
	c := dialT(t, srv.Addr())
	var wg sync.WaitGroup
	var mu sync.Mutex
	counts := map[string]int{}
	for g := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				ctx, cancel := context.WithTimeout(context.Background(), time.Duration((1000+rand.IntN(50000)))*time.Microsecond)
				row := fmt.Sprintf("%d/%d", g, i)
				resp, _, err := doGet(ctx, c, row)
				cancel()
				kind := "ok"
				switch {
				case err == nil:
					if got := string(resp.GetResult().GetCell()[0].GetRow()); got != row {
						t.Errorf("asked %s, got %s", row, got)
					}
				case errors.Is(err, context.DeadlineExceeded):
					kind = "deadline"
				case errors.Is(err, hberr.ErrConnection):
					kind = "connection"
				default:
					t.Errorf("unexpected error %v", err)
				}
				mu.Lock()
				counts[kind]++
				mu.Unlock()
			}
		}()
	}
	// Drop the connection once calls are known to succeed (under load that takes a while).
	for waited := time.Duration(0); waited < 10*time.Second; waited += time.Millisecond {
		mu.Lock()
		ok := counts["ok"]
		mu.Unlock()
		if ok >= 20 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	srv.DropConnections()
	wg.Wait()
	t.Logf("outcomes: %v", counts)
	if counts["ok"] == 0 || counts["connection"] == 0 {
		t.Fatalf("the test did not exercise both paths: %v", counts)
	}
}
