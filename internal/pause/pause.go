// Package pause is the module's one sleep that ends with its context, so that every backoff,
// redial pause and retry wait reports the end of its context the same way.
package pause

import (
	"context"
	"time"
)

// Sleep pauses for d, or until ctx ends. It returns nil after a whole pause, and the cause of
// ctx (context.Cause) when ctx ended first or had ended already; d <= 0 does not pause.
//
// The cause and not ctx.Err(): it is ctx.Err() unless whoever made ctx gave a reason
// (context.WithCancelCause, WithTimeoutCause), and then the reason is what the caller must
// see. The client reports context.Cause wherever else a call ends with its context, so one
// pause reporting ctx.Err() would drop the reason at that one place.
func Sleep(ctx context.Context, d time.Duration) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
