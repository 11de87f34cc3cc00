package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hrpc"
)

// The server starts, seeds, prints where it is, serves a client and stops when its context
// ends.
func TestServesSeededTablesUntilInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	var stderr strings.Builder
	env := filepath.Join(t.TempDir(), "env")
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"-regionservers", "2", "-env", env,
			"-table", "users info,prefs m", "-table", "app:events e",
			"-put", "users alice info:email alice@example.com", "-put", "users zed prefs:lang fr FR",
			"-put", "app:events 1 e:kind login"}, w, &stderr)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no line on stdout: %v (stderr: %s)", err, stderr.String())
	}
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "HBASE_BOOTSTRAP=")
	if !ok || !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Fatalf("stdout %q; want HBASE_BOOTSTRAP=127.0.0.1:PORT", line)
	}
	if b, err := os.ReadFile(env); err != nil || string(b) != line {
		t.Fatalf("-env file = %q, %v; want %q", b, err, line)
	}
	go io.Copy(io.Discard, out)

	c, err := hbase.NewClient("", hbase.WithBootstrapServers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
	defer rcancel()
	for _, tc := range []struct{ table, row, want string }{
		{"users", "alice", "alice@example.com"}, {"users", "zed", "fr FR"}, {"app:events", "1", "login"},
	} {
		g, _ := hrpc.NewGet(tc.table, []byte(tc.row))
		res, err := c.Get(rctx, g)
		if err != nil || len(res.Cells) != 1 || string(res.Cells[0].Value) != tc.want {
			t.Fatalf("get %s/%s = %v, %v; want %q", tc.table, tc.row, res, err, tc.want)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit code %d; want 0 (stderr: %s)", code, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still serving 5 s after the interrupt")
	}
}

func TestBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"extra"}, {"-table", "users"}, {"-table", "a b c d"}, {"-put", "users alice info"},
		{"-put", "users alice info value"}, {"-regionservers", "x"},
	} {
		var stderr strings.Builder
		if code := run(context.Background(), args, io.Discard, &stderr); code != 2 {
			t.Errorf("run(%q) = %d; want 2 (stderr: %s)", args, code, stderr.String())
		}
	}
	// Well-formed, but the server refuses them. Were one accepted, the server would serve
	// until the context ends: a short one.
	for _, args := range [][]string{
		{"-put", "nope r f:q v"}, {"-table", "users info", "-put", "users r other:q v"}, {"-regionservers", "17"},
		{"-table", "bad!name f"}, {"-table", "users f", "-table", "users g"},
	} {
		var stderr strings.Builder
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		code := run(ctx, args, io.Discard, &stderr)
		cancel()
		if code != 1 || !strings.Contains(stderr.String(), "fakehbase:") {
			t.Errorf("run(%q) = %d, %q; want 1 and the reason", args, code, stderr.String())
		}
	}
}
