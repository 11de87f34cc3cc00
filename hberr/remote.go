// Package hberr is the one home of go-hbase's error taxonomy: the sentinels every layer wraps,
// the server's exceptions (*RemoteError) classified by their Java class, the error a call of
// the client returns (*OpError), and the predicates users decide with (IsRetryable,
// IsNotFound, IsTimeout). It imports nothing of the module, so that hrpc (which decodes
// per-action exceptions), region (which decodes per-call exceptions) and the root package
// (which retries and reports) all share it. It is the only public home of these names: the
// root package does not re-export them, so users test the errors of package hbase with
// errors.Is(err, hberr.ErrTableNotFound), errors.As into *hberr.OpError, or hberr.IsNotFound.
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan, kerberos,
// hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet and fakehbase. Before v1.0.0 a minor
// version (v0.X.0) may change the API of the stable packages; CHANGELOG.md lists every change with
// what to use instead; a patch version (v0.X.Y) never changes it. The lower layers (region, zk,
// sasl, cipher) may change in any minor version. internal/... is not API.
package hberr

import (
	"errors"
	"net"
	"strconv"
	"strings"
	"time"
)

// Sentinels. A *RemoteError, a connection error or an *OpError wraps one or more of them, so
// callers decide with errors.Is (or with the predicates below).
var (
	// ErrClosed: the Client was closed; calls in progress and later calls get it.
	ErrClosed = errors.New("client closed")
	// ErrConnection: a connection to a server broke (I/O error, malformed frame, fatal
	// connection exception); every outstanding call on it gets an error wrapping it and the
	// cause. The client retries such calls on its own: it surfaces only inside a context
	// error's cause or a batch result that ran out of time.
	ErrConnection = errors.New("connection failed")
	// ErrRegionUnavailable: the region is not served where the client sent the call
	// (NotServingRegion, RegionMoved, RegionOpening, WrongRegion, RegionOffline): the client
	// looks the region up again.
	ErrRegionUnavailable = errors.New("region unavailable")
	// ErrServerStopping: the server is stopping, aborted or not running yet.
	ErrServerStopping = errors.New("server stopping or not running")
	// ErrOverloaded: the server refused the call because it is overloaded: its call queue is
	// full (CallQueueTooBigException), it dropped the call from its queue
	// (CallDroppedException), or it flagged the exception with
	// ExceptionResponse.server_overloaded (HBase's HBaseServerException.isServerOverloaded).
	// Also ErrRetryable: the client retries after its longer overload pause
	// (hbase.WithOverloadPause); IsOverloaded tests for it.
	ErrOverloaded = errors.New("server overloaded")
	// ErrRetryable: a transient condition (CallQueueTooBig, CallDropped, RetryImmediately,
	// MultiActionResultTooLarge, RegionTooBusy, RpcThrottling, overloaded server, unknown
	// IOExceptions): retried on the same server after a backoff.
	ErrRetryable = errors.New("retryable server error")
	// ErrDoNotRetry: the server rejected the request for good (the DoNotRetryIOException
	// family, or ExceptionResponse.do_not_retry).
	ErrDoNotRetry = errors.New("do not retry")
	// ErrTableNotFound: the table does not exist, found by the client in hbase:meta or thrown
	// by the server (also ErrDoNotRetry when the server says so).
	ErrTableNotFound = errors.New("table not found")
	// ErrNoSuchFamily: a column family named by the request does not exist (also
	// ErrDoNotRetry).
	ErrNoSuchFamily = errors.New("no such column family")
	// ErrTableDisabled: the table is disabled (also ErrDoNotRetry). Calls on a table disabled
	// after the client cached its regions end with it at once too (the client reads the table
	// state when a region's server no longer serves it).
	ErrTableDisabled = errors.New("table disabled")
	// ErrScannerExpired: UnknownScannerException, ScannerResetException,
	// OutOfOrderScannerNextException or LeaseException: the scanner must be reopened from the
	// last row it returned (the client's Scanner does so). Deliberately not ErrDoNotRetry,
	// although the server flags these as do-not-retry: a new scanner is the right reaction.
	ErrScannerExpired = errors.New("scanner expired")
	// ErrNamespaceNotFound: NamespaceNotFoundException (also ErrDoNotRetry).
	ErrNamespaceNotFound = errors.New("namespace not found")
	// ErrCorruptResponse: a response framed correctly but its message did not decode, or it
	// failed its request's integrity checks (cells of another row, a cell count that
	// disagrees with the header, a cellblock that does not parse). The connection was reset:
	// a stream that produced one bad frame cannot be trusted. Whether the request took effect
	// is unknown, so only reads (and idempotent Puts and Deletes) are sent again. It is never
	// returned as data: the response is logged at error level with its bytes and dropped.
	ErrCorruptResponse = errors.New("corrupt response")
	// ErrConfiguration: the error comes from the client's configuration rather than from the
	// cluster's state, such as a parent znode (hbase.WithZNodeParent) under which ZooKeeper has
	// nothing, or a value of a site file (*SiteConfigError): retrying cannot help, so calls
	// fail at once with it. The error also wraps what was found wrong (for the parent znode,
	// an error naming the znode).
	ErrConfiguration = errors.New("configuration error")
	// ErrIndeterminate: a write that must not be applied twice (Append, Increment,
	// CheckAndMutate, MutateRow) got a corrupt response, or (CheckAndMutate, MutateRow: they
	// carry no nonce the server could recognise a resend by) lost its connection after it was
	// sent: the server may or may not have applied it. The error also wraps
	// ErrCorruptResponse or ErrConnection. Read the row to find out. (Appends and Increments
	// carry a nonce, so the server recognises their resend after a lost connection and they
	// are retried.) A bufwriter.Writer reports it too for any of its mutations, Puts and
	// Deletes included, that failed in the end after a try reached a server without a definite
	// answer (docs/writer.md).
	ErrIndeterminate = errors.New("outcome unknown: the write may or may not have been applied")
	// ErrAttemptsExhausted: the call was sent as many times as its maximum number of attempts
	// allowed (hbase.WithMaxAttempts, hbase.WithNoRetries, hrpc.MaxAttempts) and failed each
	// time. It comes in an *AttemptsError with the count, which also wraps the last failure.
	ErrAttemptsExhausted = errors.New("attempts exhausted")
)

// RemoteError is an exception thrown by the server (ResponseHeader.exception, or a per-action
// exception in a MultiResponse). errors.Is maps it to the sentinels above by its Java class.
type RemoteError struct {
	Class string // Java exception class name, e.g. org.apache.hadoop.hbase.NotServingRegionException
	// Message is the first line of the stack trace without the class name prefix, and without
	// a table descriptor the server dumped into it (a NoSuchColumnFamilyException names the
	// family, region and table, then lists every attribute of the table and its families).
	Message string
	// StackTrace is the full text the server sent (it may be long), descriptor included.
	StackTrace string
	// Host and Port are set by the server for RegionMovedException: the region's new server.
	Host string
	Port int
	// DoNotRetry and ServerOverloaded are the server's flags (ExceptionResponse).
	DoNotRetry       bool
	ServerOverloaded bool

	kinds []error
	fatal bool
}

// NewRemoteError builds a RemoteError from a Java class name and its stack trace (or message),
// as found in ResponseHeader.exception or in a MultiResponse's per-action NameBytesPair
// (name = class, value = stack trace).
func NewRemoteError(class, message string, doNotRetry bool) *RemoteError {
	e := &RemoteError{Class: class, StackTrace: message, DoNotRetry: doNotRetry}
	e.Message = trimMessage(firstLine(message, class))
	e.classify()
	return e
}

// NewExceptionResponse builds a RemoteError from the fields of an RPC's ExceptionResponse: the
// class, stack trace and flags, and the new server of a RegionMovedException. An overloaded
// server's exception is retryable unless the server also said not to retry.
func NewExceptionResponse(class, trace string, doNotRetry bool, host string, port int, overloaded bool) *RemoteError {
	e := NewRemoteError(class, trace, doNotRetry)
	e.Host, e.Port, e.ServerOverloaded = host, port, overloaded
	if overloaded && !doNotRetry {
		e.kinds = append(e.kinds[:len(e.kinds):len(e.kinds)], ErrRetryable, ErrOverloaded)
	}
	return e
}

func firstLine(trace, class string) string {
	line := trace
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimRight(line, "\r")
	if rest, ok := strings.CutPrefix(line, class); ok {
		if rest == "" {
			return ""
		}
		if rest, ok = strings.CutPrefix(rest, ": "); ok {
			return rest
		}
	}
	return line
}

// simpleName returns the class name without its package ("a.b.C$D" -> "C$D").
func simpleName(class string) string {
	if i := strings.LastIndexByte(class, '.'); i >= 0 {
		return class[i+1:]
	}
	return class
}

// remoteKinds maps Java simple class names to what they mean to a client. It is read only.
// The classes were taken from HBase 2.6.1: ClientExceptionsUtil.isSpecialException, the
// DoNotRetryIOException subclasses and the server's stopping/starting exceptions.
var remoteKinds = map[string][]error{
	"NotServingRegionException": {ErrRegionUnavailable},
	"RegionMovedException":      {ErrRegionUnavailable},
	"RegionOpeningException":    {ErrRegionUnavailable},
	"RegionOfflineException":    {ErrRegionUnavailable},
	"WrongRegionException":      {ErrRegionUnavailable},

	"RegionServerStoppedException": {ErrServerStopping},
	"RegionServerAbortedException": {ErrServerStopping},
	"ServerNotRunningYetException": {ErrServerStopping},
	"PleaseHoldException":          {ErrServerStopping},
	"MasterNotRunningException":    {ErrServerStopping},
	"MasterStoppedException":       {ErrServerStopping},
	"ConnectionClosingException":   {ErrServerStopping},

	// HBase 2.6 constructs both as overloaded (HBaseServerException(true)); a per-action
	// exception in a MultiResponse carries no flag, only the class.
	"CallQueueTooBigException":  {ErrRetryable, ErrOverloaded},
	"CallDroppedException":      {ErrRetryable, ErrOverloaded},
	"RetryImmediatelyException": {ErrRetryable},
	"MultiActionResultTooLarge": {ErrRetryable},
	"RegionTooBusyException":    {ErrRetryable},
	"RpcThrottlingException":    {ErrRetryable, ErrThrottled},
	"ServerTooBusyException":    {ErrRetryable},
	"CallTimeoutException":      {ErrRetryable},
	"LockTimeoutException":      {ErrRetryable},

	"TableNotFoundException":      {ErrTableNotFound, ErrDoNotRetry},
	"NoSuchColumnFamilyException": {ErrNoSuchFamily, ErrDoNotRetry},
	"TableNotEnabledException":    {ErrTableDisabled, ErrDoNotRetry},
	"NamespaceNotFoundException":  {ErrNamespaceNotFound, ErrDoNotRetry},

	"UnknownScannerException":        {ErrScannerExpired},
	"ScannerResetException":          {ErrScannerExpired},
	"OutOfOrderScannerNextException": {ErrScannerExpired},
	"LeaseException":                 {ErrScannerExpired},

	"DoNotRetryIOException":                {ErrDoNotRetry},
	"DoNotRetryRegionException":            {ErrDoNotRetry},
	"NoServerForRegionException":           {ErrDoNotRetry},
	"AccessDeniedException":                {ErrPermissionDenied, ErrDoNotRetry},
	"CoprocessorException":                 {ErrDoNotRetry},
	"CorruptHFileException":                {ErrDoNotRetry},
	"FailedSanityCheckException":           {ErrDoNotRetry},
	"ConstraintException":                  {ErrDoNotRetry},
	"InvalidFamilyOperationException":      {ErrDoNotRetry},
	"QuotaExceededException":               {ErrQuotaExceeded, ErrDoNotRetry},
	"SpaceLimitingException":               {ErrSpaceQuotaViolated, ErrQuotaExceeded, ErrDoNotRetry},
	"RequestTooBigException":               {ErrDoNotRetry},
	"OperationTimeoutExceededException":    {ErrDoNotRetry},
	"ConcurrentTableModificationException": {ErrDoNotRetry},
	"NotAllMetaRegionsOnlineException":     {ErrDoNotRetry},
	"StoppedRpcClientException":            {ErrDoNotRetry},
	"FatalConnectionException":             {ErrDoNotRetry},
	"BadAuthException":                     {ErrDoNotRetry},
	"UnsupportedCellCodecException":        {ErrDoNotRetry},
	"UnsupportedCompressionCodecException": {ErrDoNotRetry},
	"UnsupportedCryptoException":           {ErrDoNotRetry},
	"WrongVersionException":                {ErrDoNotRetry},

	// A method or service the server does not have: a coprocessor service that is not
	// loaded (UnknownProtocolException), a feature switched off, or a call fakehbase does not
	// implement (UnsupportedOperationException).
	"UnknownProtocolException":      {ErrNotSupported, ErrDoNotRetry},
	"UnsupportedOperationException": {ErrNotSupported, ErrDoNotRetry},
}

// fatalClasses are the FatalConnectionException family: the server closes the connection
// after sending one, so the client fails the whole connection (as the Java client does).
var fatalClasses = map[string]bool{
	"FatalConnectionException":             true,
	"BadAuthException":                     true,
	"UnsupportedCellCodecException":        true,
	"UnsupportedCompressionCodecException": true,
	"UnsupportedCryptoException":           true,
	"WrongVersionException":                true,
}

func (e *RemoteError) classify() {
	name := simpleName(e.Class)
	defer e.classifyAdminOps(name)
	e.fatal = fatalClasses[name]
	if kinds, ok := remoteKinds[name]; ok {
		e.kinds = kinds
		e.classifyAdmin(name)
		e.classifySecurity(name)
		return
	}
	if kinds, ok := adminKinds[name]; ok {
		e.kinds = kinds
		e.classifyAdmin(name)
		return
	}
	switch {
	case e.DoNotRetry || strings.Contains(name, "DoNotRetry"):
		e.kinds = []error{ErrDoNotRetry}
	default:
		// The Java client retries IOExceptions it does not know; so do we.
		e.kinds = []error{ErrRetryable}
	}
	e.classifyAdmin(name) // a plain IOException that says what it means
}

// Error implements error.
func (e *RemoteError) Error() string {
	class := e.Class
	if class == "" {
		class = "server exception without a class name"
	}
	if e.Message == "" {
		return class
	}
	return class + ": " + e.Message
}

// Unwrap returns the sentinels the exception maps to, for errors.Is.
func (e *RemoteError) Unwrap() []error { return e.kinds }

// Fatal reports whether the exception means the server dropped the connection
// (the FatalConnectionException family).
func (e *RemoteError) Fatal() bool { return e.fatal }

// MovedTo returns "host:port" of the server a RegionMovedException names, from the exception's
// host and port fields or else from its message ("Region moved to: hostname=h port=p
// startCode=s. As of locationSeqNum=n."). It returns "" when there is none.
func (e *RemoteError) MovedTo() string {
	if e.Host != "" && e.Port > 0 {
		if !validHost(e.Host) || e.Port > 65535 {
			return ""
		}
		return net.JoinHostPort(e.Host, strconv.Itoa(e.Port))
	}
	if simpleName(e.Class) != "RegionMovedException" {
		return ""
	}
	host := fieldValue(e.StackTrace, "hostname=")
	port := fieldValue(e.StackTrace, "port=")
	if host == "" || port == "" {
		return ""
	}
	if p, err := strconv.Atoi(port); err != nil || p <= 0 || p > 65535 || !validHost(host) {
		return ""
	}
	return net.JoinHostPort(host, port)
}

// validHost reports whether h can be a host name or IP address the server names: a server's
// hint is not trusted to dial anything else.
func validHost(h string) bool {
	if len(h) > 255 {
		return false
	}
	if net.ParseIP(h) != nil {
		return true
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// fieldValue returns the text after key up to the next space, or "".
func fieldValue(s, key string) string {
	i := strings.Index(s, key)
	if i < 0 {
		return ""
	}
	v := s[i+len(key):]
	if j := strings.IndexAny(v, " \n"); j >= 0 {
		v = v[:j]
	}
	return v
}

// Wait returns how long the server asked the client to wait before sending again: the wait an
// RpcThrottlingException names at the end of its message. HBase 2.x writes it as
// RpcThrottlingException.stringFromMillis does ("number of requests exceeded - wait 250ms",
// "... - wait 1sec, 500ms", "... - wait 2mins, 3sec, 0ms", "... - wait 1hr, 0ms"); the
// older form of Hadoop's StringUtils.formatTime ("- wait 1.50sec", "- wait 1hrs, 0mins,
// 5.00sec") is read too. It returns 0 for other exceptions and for a message it cannot read.
func (e *RemoteError) Wait() time.Duration {
	if simpleName(e.Class) != "RpcThrottlingException" {
		return 0
	}
	const marker = " - wait "
	msg := e.Message
	i := strings.LastIndex(msg, marker)
	if i < 0 {
		return 0
	}
	return parseWait(msg[i+len(marker):])
}

// waitUnits are the units of a throttling wait, longest first where one ends another ("mins"
// before "ms" would not matter, but "hrs" before "hr" does).
var waitUnits = [...]struct {
	suffix string
	scale  time.Duration
	max    float64 // the largest count read; more is not a wait but garbage
}{
	{"hrs", time.Hour, 1000},
	{"hr", time.Hour, 1000},
	{"mins", time.Minute, 60_000},
	{"min", time.Minute, 60_000},
	{"ms", time.Millisecond, 3_600_000_000},
	{"sec", time.Second, 3_600_000},
}

// maxWait bounds a wait read from a message: more is garbage, not a throttle.
const maxWait = 1000 * time.Hour

// parseWait reads a wait made of comma-separated parts, each a count and a unit (hr, hrs, min,
// mins, sec, ms), up to the end of the line. Any part it cannot read, or a sum over maxWait,
// makes it 0.
func parseWait(s string) time.Duration {
	if j := strings.IndexAny(s, "\r\n"); j >= 0 {
		s = s[:j]
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return 0
	}
	var d time.Duration
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		ok := false
		for _, u := range waitUnits {
			num, found := strings.CutSuffix(part, u.suffix)
			if !found {
				continue
			}
			num = strings.TrimSpace(num)
			n, err := strconv.ParseFloat(num, 64)
			if err != nil || !(n >= 0 && n <= u.max) || strings.ContainsAny(num, "eEx_pP") {
				return 0
			}
			d += time.Duration(n * float64(u.scale))
			if d > maxWait {
				return 0
			}
			ok = true
			break
		}
		if !ok {
			return 0
		}
	}
	return d
}

// MovedSeqNum returns the location sequence number a RegionMovedException carries ("As of
// locationSeqNum=n."), or 0.
func (e *RemoteError) MovedSeqNum() uint64 {
	if simpleName(e.Class) != "RegionMovedException" {
		return 0
	}
	v := strings.TrimSuffix(fieldValue(e.StackTrace, "locationSeqNum="), ".")
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0
	}
	return n
}
