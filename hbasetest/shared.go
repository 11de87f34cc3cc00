package hbasetest

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"
)

// SkipEnv is the environment variable that, set to "1", makes Shared.Cluster skip its test as
// -short does: for runs of unit tests where Java or Maven is missing.
const SkipEnv = "GOHBASE_SKIP_CLUSTER"

// Shared is one cluster shared by the tests of a test binary, started by the first test that
// asks for it, so that a run of unit tests only starts no JVM. A test package declares one
// and stops it from TestMain:
//
//	var cluster = hbasetest.NewShared(hbasetest.Options{RegionServers: 3})
//
//	func TestMain(m *testing.M) { os.Exit(cluster.Run(m)) }
//
//	func TestSomething(t *testing.T) {
//		c := cluster.Cluster(t) // skipped under -short
//		...
//	}
//
// The methods are safe for concurrent use.
type Shared struct {
	opts Options

	once    sync.Once
	mu      sync.Mutex // guards cluster and stopped against Stop racing a start
	cluster *Cluster
	err     error
	stopped bool
}

var errSharedStopped = errors.New("hbasetest: shared cluster used after Stop")

// NewShared returns a Shared that starts a cluster with opts on first use.
func NewShared(opts Options) *Shared { return &Shared{opts: opts} }

// Cluster returns the shared cluster, starting it on first use. It skips the test under -short
// or when GOHBASE_SKIP_CLUSTER=1, and fails the test (every test that asks, not only the
// first) when the cluster cannot start.
func (s *Shared) Cluster(t testing.TB) *Cluster {
	t.Helper()
	if Skipped() {
		t.Skip("integration test: needs an HBase mini cluster (skipped under -short or " + SkipEnv + "=1)")
	}
	c, err := s.Start()
	if err != nil {
		t.Fatalf("starting the shared mini cluster: %v", err)
	}
	return c
}

// Start returns the shared cluster, starting it on first use, for callers without a
// testing.TB. A failed start is not retried: every later call returns the same error.
func (s *Shared) Start() (*Cluster, error) {
	s.once.Do(func() {
		s.mu.Lock()
		stopped := s.stopped
		s.mu.Unlock()
		if stopped {
			s.err = errSharedStopped
			return
		}
		c, err := Start(context.Background(), s.opts)
		s.mu.Lock()
		defer s.mu.Unlock()
		if err == nil && s.stopped { // Stop ran while the cluster started
			c.Stop()
			c, err = nil, errSharedStopped
		}
		s.cluster, s.err = c, err
	})
	return s.cluster, s.err
}

// Stop stops the cluster if one was started. A Shared cannot be used after Stop.
func (s *Shared) Stop() {
	s.mu.Lock()
	s.stopped = true
	c := s.cluster
	s.mu.Unlock()
	if c != nil {
		c.Stop()
	}
}

// Run runs the tests of m and then stops the cluster; it returns m.Run's exit code, for
// os.Exit in TestMain.
func (s *Shared) Run(m *testing.M) int {
	defer s.Stop()
	return m.Run()
}

// Skipped reports whether tests that need a cluster are skipped in this run: under -short, or
// when GOHBASE_SKIP_CLUSTER=1. It must be called after flag.Parse (in a test or TestMain).
func Skipped() bool {
	return testing.Short() || os.Getenv(SkipEnv) == "1"
}
