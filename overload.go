package hbase

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// defaultOverloadPause is the first pause after an overloaded server's refusal: the Java
// client's hbase.client.pause.server.overloaded defaults to its hbase.client.pause, 100 ms.
const defaultOverloadPause = 100 * time.Millisecond

// overloadPauseGrowth is how far the pause after refusals in a row grows: to 10 times the
// first pause (1 s by default), where the Java client's schedule (RETRY_BACKOFF: 1, 2, 3, 5,
// 10... times the pause) is at its fifth retry.
const overloadPauseGrowth = 10

// WithOverloadPause sets the first pause before a call refused by an overloaded server is
// sent again (hbase.client.pause.server.overloaded; the Java client's default, 100 ms, is
// ours). A server is overloaded when it refuses a call with a CallQueueTooBigException or a
// CallDroppedException or flags its exception so (hberr.IsOverloaded): its queue is full,
// and retrying as soon as after other transient errors (10 ms, see WithMaxBackoff) would only
// refill it. Each further refusal of the same call doubles the pause, up to 10 times d (or
// WithMaxBackoff if that is longer); each pause is drawn between half and all of that, so
// that clients refused together do not come back together. Refused attempts count toward
// WithMaxAttempts like any failed attempt, and the call's context bounds every pause. d must
// be at least 1 ms.
func WithOverloadPause(d time.Duration) Option {
	return func(o *options) error {
		if d < time.Millisecond {
			return fmt.Errorf("hbase: overload pause %v is below 1ms", d)
		}
		o.overloadPause = d
		return nil
	}
}

// WithConnectionAttribute sends the attribute name=value in the header of every connection
// the client opens (HBase 2.6+ connection attributes, ConnectionHeader.attribute; the Java
// client's ConnectionFactory.createConnection(conf, pool, user, connectionAttributes)):
// server-side code reads them from each call (RpcCall.getConnectionAttributes). Give it once
// per attribute; a later one with the same name replaces the value. Servers before 2.6
// ignore them. Per-request attributes are hrpc.RequestAttribute.
func WithConnectionAttribute(name string, value []byte) Option {
	return func(o *options) error {
		if name == "" {
			return errors.New("hbase: connection attribute name must not be empty")
		}
		for _, a := range o.connAttrs {
			if a.GetName() == name {
				a.Value = value
				return nil
			}
		}
		o.connAttrs = append(o.connAttrs, &pb.NameBytesPair{Name: proto.String(name), Value: value})
		return nil
	}
}

// overloadPause is the pause before the retry that follows the n-th overload refusal of a
// call (n ≥ 1): the first pause doubled n-1 times up to its cap, drawn in [half, all] of it.
func (b *backoff) overloadPause() time.Duration {
	b.overloads++
	ceiling := b.overloadMin << min(b.overloads-1, 30)
	limit := max(b.overloadMin*overloadPauseGrowth, b.max)
	if ceiling > limit || ceiling <= 0 {
		ceiling = limit
	}
	return ceiling/2 + rand.N(ceiling/2+1)
}

// sleepRetry pauses before the retry of a call that failed with err: the next backoff, or
// longer when the server asked for a wait (an RpcThrottlingException's) or refused the call
// as overloaded (the overload pause), or until ctx ends.
func (b *backoff) sleepRetry(ctx context.Context, err error) error {
	return b.sleepFor(ctx, serverWait(err), hberr.IsOverloaded(err))
}

// sleepFor pauses for the next backoff, or for d when that is longer, or for the overload
// pause when overloaded, or until ctx ends; an overload pause is counted in Stats and marked
// in the Backoff hook.
func (b *backoff) sleepFor(ctx context.Context, d time.Duration, overloaded bool) error {
	d = max(b.next(), d)
	overloaded = overloaded && b.overloadMin > 0
	if overloaded {
		d = max(d, b.overloadPause())
	}
	if b.hooks != nil && b.hooks.Backoff != nil {
		b.hooks.Backoff(ctx, hbasetrace.BackoffInfo{Pause: d, Count: b.attempt, Overloaded: overloaded})
	}
	if !overloaded || b.stats == nil {
		return sleepCtx(ctx, d)
	}
	start := time.Now()
	err := sleepCtx(ctx, d)
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

// extrasOf returns the RequestHeader fields a call (or scan) carries of its own: hrpc.Priority
// and hrpc.RequestAttribute.
func extrasOf(call any) region.Extras {
	if h, ok := call.(wire.HeaderFields); ok {
		p, attrs := h.Header()
		return region.Extras{Priority: p, Attributes: attrs}
	}
	return region.Extras{}
}

// batchExtras are the RequestHeader fields of one MultiRequest: the highest priority of its
// calls (as the Java client's batches have) and their request attributes, each name once
// with the first call's value.
func batchExtras(calls []hrpc.Batchable, sent [][]int) region.Extras {
	var x region.Extras
	for _, idx := range sent {
		for _, i := range idx {
			x = addExtras(x, wireOf(calls[i]))
		}
	}
	return x
}

func addExtras(x region.Extras, call wire.Batchable) region.Extras {
	if h, ok := call.(wire.HeaderFields); ok {
		p, attrs := h.Header()
		x.Priority = max(x.Priority, p)
		for _, a := range attrs {
			if !hasAttr(x.Attributes, a.GetName()) {
				x.Attributes = append(x.Attributes, a)
			}
		}
	}
	return x
}

func hasAttr(attrs []*pb.NameBytesPair, name string) bool {
	for _, a := range attrs {
		if a.GetName() == name {
			return true
		}
	}
	return false
}
