package hbasetest

import (
	"errors"
	"testing"
)

// A Shared stopped before first use never starts a JVM and says why it has no cluster.
func TestSharedAfterStopStartsNothing(t *testing.T) {
	s := NewShared(Options{})
	s.Stop()
	c, err := s.Start()
	if !errors.Is(err, errSharedStopped) || c != nil {
		t.Fatalf("Start after Stop = %v, %v; want no cluster and errSharedStopped", c, err)
	}
	s.Stop() // a second Stop is harmless
}

func TestSharedClusterSkipsWhenClustersAreSkipped(t *testing.T) {
	t.Setenv(SkipEnv, "1")
	s := NewShared(Options{})
	var skipped bool
	t.Run("uses-cluster", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		s.Cluster(t)
		t.Error("Cluster returned with " + SkipEnv + "=1")
	})
	if !skipped {
		t.Error("the subtest was not skipped")
	}
	if s.cluster != nil || s.err != nil {
		t.Errorf("a skipped test started a cluster: %v, %v", s.cluster, s.err)
	}
}
