// Package testkit holds what the integration tests of the packages built on the client
// (admin, bufwriter, parallelscan, kerberos) share: one real mini cluster per test package,
// started on first use (hbasetest.Shared), tables with unique names dropped when the test ends,
// the knobs of the long runs. It does not import the client (the root package's own tests use
// it too): each package makes its clients.
package testkit

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
)

// Env is a test package's cluster: one var of it per package, whose TestMain calls Run.
type Env struct {
	shared *hbasetest.Shared
	tables atomic.Int64 // numbers the tables Table makes
}

// New returns the Env of a cluster started with opts on first use.
func New(opts hbasetest.Options) *Env { return &Env{shared: hbasetest.NewShared(opts)} }

// Run runs the package's tests and stops the cluster: os.Exit(env.Run(m)) in TestMain.
func (e *Env) Run(m *testing.M) int { return e.shared.Run(m) }

// Cluster returns the cluster, starting it on first use. It skips the test under -short or
// GOHBASE_SKIP_CLUSTER=1, and fails it if the cluster cannot start.
func (e *Env) Cluster(t testing.TB) *hbasetest.Cluster {
	t.Helper()
	return e.shared.Cluster(t)
}

// Name returns a fresh table name for t: prefix, a number and the test's name.
func (e *Env) Name(t testing.TB, prefix string) string {
	return fmt.Sprintf("%s%d_%s", prefix, e.tables.Add(1), Sanitize(t.Name()))
}

// Table creates a table with a unique name on the cluster and returns its name; it is dropped
// when the test ends.
func (e *Env) Table(t testing.TB, families []string, splits [][]byte) string {
	t.Helper()
	cl := e.Cluster(t)
	name := e.Name(t, "t")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := cl.CreateTable(ctx, name, families, splits); err != nil {
		t.Fatalf("creating table %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = cl.DisableTable(ctx, name)
		_ = cl.DropTable(ctx, name)
	})
	return name
}

// Sanitize makes s usable in a table name: letters, digits and '_' only, at most 60 bytes.
func Sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
		if b.Len() >= 60 {
			break
		}
	}
	return b.String()
}

// Context returns a context bounded for one integration step, cancelled when the test ends.
func Context(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// Rounds is how many times the fault sequences of the reliability tests run:
// GOHBASE_RELIABILITY_ROUNDS (make reliability), 1 by default (make test).
func Rounds(t testing.TB) int {
	v := os.Getenv("GOHBASE_RELIABILITY_ROUNDS")
	if v == "" {
		return 1
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("GOHBASE_RELIABILITY_ROUNDS=%q: want a positive number", v)
	}
	return n
}
