package engine

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest/faultnet"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// A CheckAndMutate whose deadline passes while it is on the wire may have been applied: its
// error is indeterminate (hberr.ErrIndeterminate, class "indeterminate"), in a batch and as a
// single call, not a plain deadline error that reads as "not applied". The server's answers
// are delayed past the calls' deadlines; read back afterwards, each was applied.
func TestCheckAndMutateOnTheWireIsIndeterminate(t *testing.T) {
	cl := testCluster(t)
	fn := faultnet.New()
	c := newTestClient(t, WithDialer(fn.DialContext))
	value := bytes.Repeat([]byte("v"), 10)
	table, addr, affected, _ := faultTarget(t, cl, c, value)
	fam, q := []byte("f"), []byte("q")
	cam := func(from, to string) *hrpc.CheckAndMutate {
		t.Helper()
		p, err := hrpc.NewPut(table, []byte(affected), hrpc.Value(fam, q, []byte(to)))
		if err != nil {
			t.Fatal(err)
		}
		cm, err := hrpc.NewCheckAndMutate(hrpc.IfValue(fam, q, hrpc.Equal, []byte(from)), p)
		if err != nil {
			t.Fatal(err)
		}
		return cm
	}
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, hberr.ErrIndeterminate) || !errors.Is(err, context.DeadlineExceeded) ||
			hberr.Class(err) != hberr.ClassIndeterminate || !strings.Contains(err.Error(), "(last: no answer from "+addr+")") {
			t.Errorf("%s: err = %v (class %s); want hberr.ErrIndeterminate and the deadline, no answer from the server as its last failure, class %s",
				what, err, hberr.Class(err), hberr.ClassIndeterminate)
		}
	}
	readBack := func(want string) {
		t.Helper()
		fn.Heal(addr)
		res, err := c.Get(testContext(t, 30*time.Second), mustGetT(t, table, affected))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Cells) != 1 || string(res.Cells[0].Value) != want {
			t.Errorf("read back %v; want %q: the call was applied, so its outcome could not be 'not applied'", res.Cells, want)
		}
	}

	fn.Latency(addr, 1500*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	res := c.SendBatch(ctx, []hrpc.Batchable{cam(string(value), "batch")})
	cancel()
	check("batch", res[0].Err)
	time.Sleep(time.Second) // the delayed answer comes and goes
	readBack("batch")

	fn.Latency(addr, 1500*time.Millisecond)
	ctx, cancel = context.WithTimeout(context.Background(), 700*time.Millisecond)
	_, err := c.CheckAndMutate(ctx, cam("batch", "single"))
	cancel()
	check("single", err)
	time.Sleep(time.Second)
	readBack("single")
}
