package hberr

import "errors"

// Sentinels of HBase's quotas: the refusals a throttle or a space quota makes of a data call,
// and the quota calls' own (package admin).
var (
	// ErrThrottled: a throttle quota refused the call (RpcThrottlingException): the user,
	// table, namespace or region server made more requests, or moved more bytes, than its
	// throttle allows in the time unit. Also ErrRetryable: the client waits as long as the
	// server asked (RemoteError.Wait) and sends again, within the call's context; a caller
	// sees it under the context's error (or under ErrAttemptsExhausted) when the wait did not
	// fit in the deadline.
	ErrThrottled = errors.New("throttled by a quota")
	// ErrQuotaExceeded: a quota refused the request for good (QuotaExceededException and its
	// subclasses: more tables or regions in a namespace than its quota allows, a write over a
	// space quota). Also ErrDoNotRetry.
	ErrQuotaExceeded = errors.New("quota exceeded")
	// ErrSpaceQuotaViolated: the table or namespace uses more file system space than its space
	// quota allows, and the quota's violation policy refuses this write, compaction or bulk
	// load (SpaceLimitingException; a table disabled by the DISABLE policy gives
	// ErrTableDisabled instead). Also ErrQuotaExceeded and ErrDoNotRetry: writes succeed again
	// once enough data is deleted (and compacted away) or the quota is raised or removed.
	ErrSpaceQuotaViolated = errors.New("space quota violated")
)
