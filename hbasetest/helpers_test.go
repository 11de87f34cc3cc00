package hbasetest

import (
	"log/slog"
	"testing"
)

// testLogger sends the package's progress messages to the test log.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

type tWriter struct{ t testing.TB }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(string(p))
	return len(p), nil
}

// needsJVM skips a test that starts a cluster (or the launcher) under -short or
// GOHBASE_SKIP_CLUSTER=1, as Shared.Cluster does.
func needsJVM(t testing.TB) {
	t.Helper()
	if Skipped() {
		t.Skip("starts an HBase mini cluster (skipped under -short or " + SkipEnv + "=1)")
	}
}
