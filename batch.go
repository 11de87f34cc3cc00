package hbase

import (
	"context"

	"github.com/go-hbase/hbase/hrpc"
)

// SendBatch sends calls (Gets and mutations, on any tables) and returns one result per call,
// in the same order. Calls are grouped by region and then by region server: each server gets
// one MultiRequest, and the servers are called in parallel. Actions that fail with a
// retryable error are retried on their own, after a re-lookup of their region or a backoff,
// until ctx ends or their maximum number of attempts is reached (WithMaxAttempts,
// hrpc.MaxAttempts: each failed try of an action counts); actions that fail for good get
// their own error. A CheckAndMutate or RowMutations is an atomic region action of its own in
// its server's MultiRequest (HBase 2.4 or later); as in a single call, it is not sent again
// once its connection broke after it was sent: its error then wraps hberr.ErrIndeterminate.
// Gets of consistency hrpc.Timeline are sent one by one as hedged Gets.
func (c *Client) SendBatch(ctx context.Context, calls []hrpc.Batchable) []hrpc.BatchResult {
	return c.e.SendBatch(ctx, calls)
}
