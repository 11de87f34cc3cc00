package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/region"
)

// Backoff computes pauses between retries: exponential from min up to max, with full jitter
// (a uniform pause in [0, cap]) so clients that failed together do not retry together.
type Backoff struct {
	Min, Max time.Duration
	attempt  int
	hooks    *hbasetrace.Hooks // the client's, for the Backoff hook; nil: none
	// overloadMin is the first overload pause (WithOverloadPause; 0: overload refusals
	// are paused like other errors) and overloads the refusals paused for so far
	// (overload.go); stats counts the overload pauses (nil: not counted).
	overloadMin time.Duration
	overloads   int
	stats       *counters
}

func (b *Backoff) next() time.Duration {
	ceiling := b.Min << min(b.attempt, 30)
	if ceiling > b.Max || ceiling <= 0 {
		ceiling = b.Max
	}
	b.attempt++
	return rand.N(ceiling) + 1
}

// Sleep pauses for the next backoff or until ctx ends, whichever is first.
func (b *Backoff) Sleep(ctx context.Context) error {
	return b.sleepAtLeast(ctx, 0)
}

// sleepAtLeast pauses for the next backoff, or for d when that is longer (a wait the server
// asked for), or until ctx ends, whichever is first.
func (b *Backoff) sleepAtLeast(ctx context.Context, d time.Duration) error {
	return b.sleepFor(ctx, d, false)
}

// RetryAction is what a call does after an error.
type RetryAction int

const (
	// GiveUp returns the error to the caller.
	GiveUp RetryAction = iota
	// Relocate marks the region unavailable and retries at once; the re-lookup paces it.
	Relocate
	// Pause retries the same region after a backoff.
	Pause
	// PauseAndRelocate backs off and looks the region up again (lookup failures, servers
	// starting or stopping).
	PauseAndRelocate
)

// Classify decides how to react to err from a call. Context errors and closed clients are
// final; the server's do-not-retry errors too; moved regions and broken connections are
// re-looked up; everything the server calls transient is retried after a pause.
func Classify(err error) RetryAction {
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return GiveUp
	case errors.Is(err, hberr.ErrClosed), errors.Is(err, hberr.ErrConfiguration):
		return GiveUp
	case errors.Is(err, errUnreached):
		// The registry or a server could not be reached (findMeta): pause, then look again.
		return PauseAndRelocate
	case errors.Is(err, errLookupTimeout):
		// Before the server's errors: a timed-out lookup keeps what it waited for in its
		// chain (lookupTimeoutError), but is retried like any failed lookup.
		return PauseAndRelocate
	case errors.Is(err, hberr.ErrDoNotRetry), errors.Is(err, hberr.ErrScannerExpired):
		return GiveUp
	case errors.Is(err, hberr.ErrRegionUnavailable), errors.Is(err, hberr.ErrConnection),
		errors.Is(err, region.ErrClosed),         // a connection closed under us: the client checks its own state first
		errors.Is(err, hberr.ErrCorruptResponse): // the connection was reset; writes unsafe to resend never get here (safeToResend)
		return Relocate
	case errors.Is(err, hberr.ErrServerStopping), errors.Is(err, errRegionNotAssigned),
		errors.Is(err, errRegionHole):
		return PauseAndRelocate
	case errors.Is(err, hberr.ErrRetryable):
		return Pause
	}
	var re *hberr.RemoteError
	if errors.As(err, &re) {
		return Pause
	}
	return GiveUp
}

// opening reports whether err says the region is being opened on the server that answered
// (RegionOpeningException): it will serve soon.
func opening(err error) bool {
	re, ok := errors.AsType[*hberr.RemoteError](err)
	return ok && re.Class == "org.apache.hadoop.hbase.exceptions.RegionOpeningException"
}

// serverWait is how long err asks the client to wait before sending again (an
// RpcThrottlingException's wait), or 0.
func serverWait(err error) time.Duration {
	if re, ok := errors.AsType[*hberr.RemoteError](err); ok {
		return re.Wait()
	}
	return 0
}

// waitPastDeadline returns the error of a call whose server asked it to wait d before
// sending again (an RpcThrottlingException's wait) when ctx ends before d is over, and nil
// otherwise. Waiting would only hold the caller until its deadline and fail it then; the Java
// client stops at this point too. The error is what the deadline would have given
// (context.DeadlineExceeded, and last), early.
func waitPastDeadline(ctx context.Context, d time.Duration, last error) error {
	if d <= 0 {
		return nil
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		return nil
	}
	left := time.Until(deadline)
	if left >= d {
		return nil
	}
	return &hberr.RetryError{
		Err: fmt.Errorf("%w (the server asked for a wait of %v, more than the %v left)",
			context.DeadlineExceeded, d, max(left, 0).Round(time.Millisecond)),
		Last: last,
	}
}

// CtxErr returns the error a call reports when ctx ended while it was waiting for something;
// last, when set, is what it was retrying and goes into the message.
func CtxErr(ctx context.Context, last error) error {
	err := context.Cause(ctx)
	if re, ok := errors.AsType[*hberr.RetryError](last); ok {
		// An inner wait (a region lookup with its own deadline) already gave up: what it
		// was waiting for is the useful part.
		last = re.Last
	}
	if last == nil || errors.Is(last, err) {
		return err
	}
	return &hberr.RetryError{Err: err, Last: last}
}

// attemptCap is the maximum number of attempts for call: its own MaxAttempts option, else the
// client's; 0 means no cap but the context.
func (c *Client) attemptCap(call any) int {
	if m, ok := call.(interface{ MaxAttempts() int }); ok {
		if n := m.MaxAttempts(); n > 0 {
			return n
		}
	}
	return c.opts.MaxAttempts
}

// attempts counts the failed attempts of one call against its cap.
type attempts struct {
	n, max int
}

// failed counts one failed attempt and returns the error to end the call with when the cap
// is reached, or nil to retry.
func (a *attempts) failed(err error) error {
	a.n++
	if a.max > 0 && a.n >= a.max {
		return &hberr.AttemptsError{Attempts: a.n, Last: err}
	}
	return nil
}

// withCount records the number of failed attempts in a hberr.RetryError the call ends with.
func (a *attempts) withCount(err error) error {
	if re, ok := err.(*hberr.RetryError); ok && re.Attempts == 0 && a.n > 0 {
		re.Attempts = a.n
	}
	return err
}
