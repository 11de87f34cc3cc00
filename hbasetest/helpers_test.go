package hbasetest

import (
	"log/slog"
	"testing"
	"time"
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

// checkReopen checks the moments of a move or split the launcher saw: all seen, in order,
// within the command.
func checkReopen(t *testing.T, r Reopen, began, ended time.Time) {
	t.Helper()
	if r.Closed.IsZero() || r.Opened.IsZero() || r.InMeta.IsZero() {
		t.Fatalf("reopen of %s: a moment not seen: %+v", r.EncodedName, r)
	}
	const slack = 5 * time.Millisecond // the launcher's clock reads in microseconds
	if r.Closed.Before(began.Add(-slack)) || r.Opened.Before(r.Closed) || r.InMeta.Before(r.Closed) || r.Opened.After(ended.Add(slack)) {
		t.Errorf("reopen of %s out of order: command %v..%v, closed %v, open %v, in meta %v", r.EncodedName,
			began.Format(time.StampMicro), ended.Format(time.StampMicro), r.Closed.Format(time.StampMicro),
			r.Opened.Format(time.StampMicro), r.InMeta.Format(time.StampMicro))
	}
	t.Logf("reopen of %s: closed → open %v, in hbase:meta %v after the open", r.EncodedName, r.Took(), r.InMeta.Sub(r.Opened))
}
