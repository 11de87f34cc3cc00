package region

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
)

// Sentinel errors. A *RemoteError or a connection error wraps one or more of them, so callers
// decide what to do with errors.Is.
var (
	// ErrClosed: the client was closed by us (Close); outstanding and later calls get it.
	ErrClosed = errors.New("region: client closed")
	// ErrConnection: the connection broke (I/O error, malformed frame, fatal connection
	// exception); every outstanding call gets an error wrapping it and the cause.
	ErrConnection = errors.New("region: connection failed")
	// ErrRegionUnavailable: the region is not served here (NotServingRegion, RegionMoved,
	// RegionOpening, WrongRegion, RegionOffline): look the region up again.
	ErrRegionUnavailable = errors.New("region: region unavailable")
	// ErrServerStopping: the server is stopping, aborted or not running yet.
	ErrServerStopping = errors.New("region: server stopping or not running")
	// ErrRetryable: a transient condition (CallQueueTooBig, CallDropped, RetryImmediately,
	// MultiActionResultTooLarge, RegionTooBusy, RpcThrottling, overloaded server, unknown
	// IOExceptions): retry the same server after a backoff.
	ErrRetryable = errors.New("region: retryable server error")
	// ErrDoNotRetry: the DoNotRetryIOException family or ExceptionResponse.do_not_retry.
	ErrDoNotRetry = errors.New("region: do not retry")
	// ErrTableNotFound: TableNotFoundException (also ErrDoNotRetry).
	ErrTableNotFound = errors.New("region: table not found")
	// ErrNoSuchFamily: NoSuchColumnFamilyException (also ErrDoNotRetry).
	ErrNoSuchFamily = errors.New("region: no such column family")
	// ErrTableDisabled: TableNotEnabledException (also ErrDoNotRetry).
	ErrTableDisabled = errors.New("region: table disabled")
	// ErrScannerExpired: UnknownScannerException, ScannerResetException,
	// OutOfOrderScannerNextException or LeaseException: the scanner must be reopened from the
	// last row it returned. Deliberately not ErrDoNotRetry, although the server flags these as
	// do-not-retry: retrying with a new scanner is the right reaction.
	ErrScannerExpired = errors.New("region: scanner expired")
	// ErrFrameTooLarge: the server announced a frame larger than Config.MaxFrameSize.
	ErrFrameTooLarge = errors.New("region: frame too large")
	// ErrMalformedFrame: a response frame did not parse.
	ErrMalformedFrame = errors.New("region: malformed frame")
)

// RemoteError is an exception thrown by the server (ResponseHeader.exception, or a per-action
// exception in a MultiResponse). errors.Is maps it to the sentinels above by its Java class.
type RemoteError struct {
	Class   string // Java exception class name, e.g. org.apache.hadoop.hbase.NotServingRegionException
	Message string // first line of the stack trace without the class name prefix
	// StackTrace is the full text the server sent (it may be long).
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
	e.Message = firstLine(message, class)
	e.classify()
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

	"CallQueueTooBigException":  {ErrRetryable},
	"CallDroppedException":      {ErrRetryable},
	"RetryImmediatelyException": {ErrRetryable},
	"MultiActionResultTooLarge": {ErrRetryable},
	"RegionTooBusyException":    {ErrRetryable},
	"RpcThrottlingException":    {ErrRetryable},
	"ServerTooBusyException":    {ErrRetryable},
	"CallTimeoutException":      {ErrRetryable},
	"LockTimeoutException":      {ErrRetryable},

	"TableNotFoundException":      {ErrTableNotFound, ErrDoNotRetry},
	"NoSuchColumnFamilyException": {ErrNoSuchFamily, ErrDoNotRetry},
	"TableNotEnabledException":    {ErrTableDisabled, ErrDoNotRetry},

	"UnknownScannerException":        {ErrScannerExpired},
	"ScannerResetException":          {ErrScannerExpired},
	"OutOfOrderScannerNextException": {ErrScannerExpired},
	"LeaseException":                 {ErrScannerExpired},

	"DoNotRetryIOException":                {ErrDoNotRetry},
	"DoNotRetryRegionException":            {ErrDoNotRetry},
	"UnknownRegionException":               {ErrDoNotRetry},
	"NoServerForRegionException":           {ErrDoNotRetry},
	"TableNotDisabledException":            {ErrDoNotRetry},
	"TableExistsException":                 {ErrDoNotRetry},
	"AccessDeniedException":                {ErrDoNotRetry},
	"CoprocessorException":                 {ErrDoNotRetry},
	"CorruptHFileException":                {ErrDoNotRetry},
	"FailedSanityCheckException":           {ErrDoNotRetry},
	"ConstraintException":                  {ErrDoNotRetry},
	"InvalidFamilyOperationException":      {ErrDoNotRetry},
	"NamespaceNotFoundException":           {ErrDoNotRetry},
	"NamespaceExistException":              {ErrDoNotRetry},
	"QuotaExceededException":               {ErrDoNotRetry},
	"RequestTooBigException":               {ErrDoNotRetry},
	"UnknownProtocolException":             {ErrDoNotRetry},
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
	e.fatal = fatalClasses[name]
	if kinds, ok := remoteKinds[name]; ok {
		e.kinds = kinds
		return
	}
	switch {
	case e.DoNotRetry || strings.Contains(name, "DoNotRetry"):
		e.kinds = []error{ErrDoNotRetry}
	default:
		// The Java client retries IOExceptions it does not know; so do we.
		e.kinds = []error{ErrRetryable}
	}
}

// Error implements error.
func (e *RemoteError) Error() string {
	if e.Message == "" {
		return "region: remote exception " + e.Class
	}
	return "region: remote exception " + e.Class + ": " + e.Message
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
	if p, err := strconv.Atoi(port); err != nil || p <= 0 || p > 65535 {
		return ""
	}
	return net.JoinHostPort(host, port)
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

// ConnError is the error of every call on a connection that broke. It wraps ErrConnection
// (or ErrClosed when we closed it) and the cause.
type ConnError struct {
	Addr     string
	Cause    error
	sentinel error
}

func newConnError(addr string, sentinel, cause error) *ConnError {
	return &ConnError{Addr: addr, Cause: cause, sentinel: sentinel}
}

// Error implements error.
func (e *ConnError) Error() string {
	if e.Cause == nil {
		return fmt.Sprintf("%v (%s)", e.sentinel, e.Addr)
	}
	return fmt.Sprintf("%v (%s): %v", e.sentinel, e.Addr, e.Cause)
}

// Unwrap returns the sentinel and the cause.
func (e *ConnError) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.sentinel}
	}
	return []error{e.sentinel, e.Cause}
}
