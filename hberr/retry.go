package hberr

import "strconv"

// RetryError is returned when a call's context ended while the call was being retried. It
// wraps the context's error and the last error the call got, so errors.Is works with both
// (context.DeadlineExceeded and, for example, ErrRegionUnavailable).
type RetryError struct {
	Err  error // context.Canceled, context.DeadlineExceeded or the context's cause
	Last error // the last error before the context ended
	// Attempts is how many times the call had failed before its context ended (0 when the
	// layer that gave up does not count them).
	Attempts int
}

func (e *RetryError) Error() string {
	if e.Attempts > 0 {
		return e.Err.Error() + " after " + attemptsText(e.Attempts) + " (last: " + e.Last.Error() + ")"
	}
	return e.Err.Error() + " (last: " + e.Last.Error() + ")"
}

// Unwrap returns the context's error and the last error.
func (e *RetryError) Unwrap() []error { return []error{e.Err, e.Last} }

// AttemptsError is returned when a call failed as many times as its maximum number of attempts
// allows (hbase.WithMaxAttempts, hbase.WithNoRetries, hrpc.MaxAttempts). It wraps
// ErrAttemptsExhausted and the last failure, so errors.Is and errors.As see both
// (ErrAttemptsExhausted and, for example, a *RemoteError of class RegionTooBusyException).
type AttemptsError struct {
	Attempts int   // how many times the call failed
	Last     error // the last failure
}

func (e *AttemptsError) Error() string {
	if e.Last == nil {
		return ErrAttemptsExhausted.Error() + " after " + attemptsText(e.Attempts)
	}
	return ErrAttemptsExhausted.Error() + " after " + attemptsText(e.Attempts) + ": " + e.Last.Error()
}

// Unwrap returns ErrAttemptsExhausted and the last failure.
func (e *AttemptsError) Unwrap() []error { return []error{ErrAttemptsExhausted, e.Last} }

func attemptsText(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return strconv.Itoa(n) + " attempts"
}
