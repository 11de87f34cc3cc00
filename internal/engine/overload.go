package engine

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pause"
)

// defaultOverloadPause is the first pause after an overloaded server's refusal: the Java
// client's hbase.client.pause.server.overloaded defaults to its hbase.client.pause, 100 ms.
const defaultOverloadPause = 100 * time.Millisecond

// overloadPauseGrowth is how far the pause after refusals in a row grows: to 10 times the
// first pause (1 s by default), where the Java client's schedule (RETRY_BACKOFF: 1, 2, 3, 5,
// 10... times the pause) is at its fifth retry.
const overloadPauseGrowth = 10

// overloadPause is the pause before the retry that follows the n-th overload refusal of a
// call (n ≥ 1): the first pause doubled n-1 times up to its cap, drawn in [half, all] of it.
func (b *Backoff) overloadPause() time.Duration {
	b.overloads++
	ceiling := b.overloadMin << min(b.overloads-1, 30)
	limit := max(b.overloadMin*overloadPauseGrowth, b.Max)
	if ceiling > limit || ceiling <= 0 {
		ceiling = limit
	}
	return ceiling/2 + rand.N(ceiling/2+1)
}

// sleepRetry pauses before the retry of a call that failed with err: the next backoff, or
// longer when the server asked for a wait (an RpcThrottlingException's) or refused the call
// as overloaded (the overload pause), or until ctx ends.
func (b *Backoff) sleepRetry(ctx context.Context, err error) error {
	return b.sleepFor(ctx, serverWait(err), hberr.IsOverloaded(err))
}

// sleepFor pauses for the next backoff, or for d when that is longer, or for the overload
// pause when overloaded, or until ctx ends; an overload pause is counted in Stats and marked
// in the Backoff hook.
func (b *Backoff) sleepFor(ctx context.Context, d time.Duration, overloaded bool) error {
	d = max(b.next(), d)
	overloaded = overloaded && b.overloadMin > 0
	if overloaded {
		d = max(d, b.overloadPause())
	}
	if b.hooks != nil && b.hooks.Backoff != nil {
		b.hooks.Backoff(ctx, hbasetrace.BackoffInfo{Pause: d, Count: b.attempt, Overloaded: overloaded})
	}
	if !overloaded || b.stats == nil {
		return pause.Sleep(ctx, d)
	}
	start := time.Now()
	err := pause.Sleep(ctx, d)
	b.stats.overloadPauses.Add(1)
	b.stats.overloadPauseNanos.Add(uint64(time.Since(start)))
	return err
}

// noteRPC counts an RPC refused by an overloaded server (Stats.OverloadErrors).
func (c *Client) noteRPC(err error) {
	if err != nil && hberr.IsOverloaded(err) {
		c.stats.overloadErrors.Add(1)
	}
}
