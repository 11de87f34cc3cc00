package hbasetest

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Arguments the launcher could not honour are refused before anything is sent (the zero
// Cluster has no launcher: reaching it would fail differently).
func TestKDCCommandArguments(t *testing.T) {
	ctx := context.Background()
	var c Cluster
	if _, err := c.Kinit(ctx, "/tmp/cc", KinitOptions{Lifetime: -time.Second}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("Kinit with a negative lifetime = %v", err)
	}
	if _, err := c.Kinit(ctx, "/tmp/cc", KinitOptions{RenewFor: -time.Second}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("Kinit with a negative renewal = %v", err)
	}
	if _, err := c.SetKDCClockSkew(ctx, 1500*time.Millisecond); err == nil || !strings.Contains(err.Error(), "whole seconds") {
		t.Errorf("SetKDCClockSkew(1.5s) = %v", err)
	}
}

func TestParseSeconds(t *testing.T) {
	if d, err := parseSeconds("x", []string{"-1"}); err != nil || d != -time.Second {
		t.Errorf("parseSeconds(-1) = %v, %v", d, err)
	}
	for _, w := range [][]string{nil, {"1", "2"}, {"soon"}} {
		if _, err := parseSeconds("x", w); err == nil {
			t.Errorf("parseSeconds(%q) did not fail", w)
		}
	}
}
