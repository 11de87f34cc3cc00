package fakehbase

import (
	"errors"
	"fmt"
	"strings"
)

// Exception is a Java exception class the server answers with, by its fully qualified name
// as HBase 2.6 names it. The client decides what to do by that name (package hberr), so the
// names are the contract. InjectError takes the constants below and refuses any other value:
// a misspelt class, "" or an exception HBase does not send (java.lang.NullPointerException)
// would be retried by the client as an unknown IOException, and a test would pass for the
// wrong reason. Each constant is the class's simple name without "Exception".
type Exception string

// The exceptions InjectError can raise, by what the client does with them (package hberr).
const (
	// Retried after a new lookup of the region (hberr.ErrRegionUnavailable).
	NotServingRegion Exception = "org.apache.hadoop.hbase.NotServingRegionException"
	RegionOpening    Exception = "org.apache.hadoop.hbase.exceptions.RegionOpeningException"
	RegionOffline    Exception = "org.apache.hadoop.hbase.client.RegionOfflineException"
	WrongRegion      Exception = "org.apache.hadoop.hbase.regionserver.WrongRegionException"

	// Retried after a pause: the server is stopping or starting (hberr.ErrServerStopping).
	RegionServerStopped Exception = "org.apache.hadoop.hbase.regionserver.RegionServerStoppedException"
	RegionServerAborted Exception = "org.apache.hadoop.hbase.regionserver.RegionServerAbortedException"
	ServerNotRunningYet Exception = "org.apache.hadoop.hbase.ipc.ServerNotRunningYetException"
	PleaseHold          Exception = "org.apache.hadoop.hbase.PleaseHoldException"
	MasterNotRunning    Exception = "org.apache.hadoop.hbase.MasterNotRunningException"

	// Retried after a pause (hberr.ErrRetryable); the first two are also hberr.ErrOverloaded,
	// CallTimeout is also a timeout (hberr.IsTimeout).
	CallQueueTooBig           Exception = "org.apache.hadoop.hbase.CallQueueTooBigException"
	CallDropped               Exception = "org.apache.hadoop.hbase.CallDroppedException"
	RetryImmediately          Exception = "org.apache.hadoop.hbase.RetryImmediatelyException"
	MultiActionResultTooLarge Exception = "org.apache.hadoop.hbase.MultiActionResultTooLarge"
	RegionTooBusy             Exception = "org.apache.hadoop.hbase.RegionTooBusyException"
	RpcThrottling             Exception = "org.apache.hadoop.hbase.quotas.RpcThrottlingException"
	ServerTooBusy             Exception = "org.apache.hadoop.hbase.ipc.ServerTooBusyException"
	CallTimeout               Exception = "org.apache.hadoop.hbase.ipc.CallTimeoutException"
	// IO is a plain java.io.IOException: the client retries what it does not know.
	IO Exception = "java.io.IOException"

	// The scanner must be reopened (hberr.ErrScannerExpired; the client's Scanner does so).
	UnknownScanner        Exception = "org.apache.hadoop.hbase.UnknownScannerException"
	ScannerReset          Exception = "org.apache.hadoop.hbase.exceptions.ScannerResetException"
	OutOfOrderScannerNext Exception = "org.apache.hadoop.hbase.exceptions.OutOfOrderScannerNextException"
	Lease                 Exception = "org.apache.hadoop.hbase.regionserver.LeaseException"

	// Final: the call ends with the error (hberr.ErrDoNotRetry, and the sentinel named).
	DoNotRetry             Exception = "org.apache.hadoop.hbase.DoNotRetryIOException"
	TableNotFound          Exception = "org.apache.hadoop.hbase.TableNotFoundException"                   // hberr.ErrTableNotFound
	NoSuchColumnFamily     Exception = "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException" // hberr.ErrNoSuchFamily
	TableNotEnabled        Exception = "org.apache.hadoop.hbase.TableNotEnabledException"                 // hberr.ErrTableDisabled
	TableNotDisabled       Exception = "org.apache.hadoop.hbase.TableNotDisabledException"                // hberr.ErrTableNotDisabled
	TableExists            Exception = "org.apache.hadoop.hbase.TableExistsException"                     // hberr.ErrTableExists
	NamespaceNotFound      Exception = "org.apache.hadoop.hbase.NamespaceNotFoundException"               // hberr.ErrNamespaceNotFound
	NamespaceExist         Exception = "org.apache.hadoop.hbase.NamespaceExistException"                  // hberr.ErrNamespaceExists
	UnknownRegion          Exception = "org.apache.hadoop.hbase.UnknownRegionException"                   // hberr.ErrRegionNotFound
	AccessDenied           Exception = "org.apache.hadoop.hbase.security.AccessDeniedException"
	Constraint             Exception = "org.apache.hadoop.hbase.constraint.ConstraintException"
	FailedSanityCheck      Exception = "org.apache.hadoop.hbase.exceptions.FailedSanityCheckException"
	InvalidFamilyOperation Exception = "org.apache.hadoop.hbase.InvalidFamilyOperationException"
	QuotaExceeded          Exception = "org.apache.hadoop.hbase.quotas.QuotaExceededException"
	RequestTooBig          Exception = "org.apache.hadoop.hbase.exceptions.RequestTooBigException"
	// IllegalArgument is what the master throws for a bad argument (hberr.ErrInvalidName
	// when its message speaks of an illegal name).
	IllegalArgument Exception = "java.lang.IllegalArgumentException"
)

// Exceptions the server raises by itself and a test cannot inject: a RegionMovedException
// names the region's new server (MoveRegion makes one), the others answer requests the
// server cannot read.
const (
	regionMoved        Exception = "org.apache.hadoop.hbase.exceptions.RegionMovedException"
	unknownService     Exception = "org.apache.hadoop.hbase.ipc.UnknownServiceException"
	incompatibleFilter Exception = "org.apache.hadoop.hbase.filter.IncompatibleFilterException"
	// notSupported answers what the fake does not implement (hberr.ErrNotSupported).
	notSupported Exception = "java.lang.UnsupportedOperationException"
)

// exceptionInfo is what the server knows of an exception class.
type exceptionInfo struct {
	// doNotRetry is the flag HBase sets on the DoNotRetryIOException family's answers.
	doNotRetry bool
	// internal: raised by the server itself only, refused by InjectError.
	internal bool
}

// exceptions are the classes the server sends; InjectError takes those not internal. It is
// read only.
var exceptions = map[Exception]exceptionInfo{
	NotServingRegion: {}, RegionOpening: {}, RegionOffline: {}, WrongRegion: {},
	RegionServerStopped: {}, RegionServerAborted: {}, ServerNotRunningYet: {}, PleaseHold: {},
	MasterNotRunning: {},
	CallQueueTooBig:  {}, CallDropped: {}, RetryImmediately: {}, MultiActionResultTooLarge: {},
	RegionTooBusy: {}, RpcThrottling: {}, ServerTooBusy: {}, CallTimeout: {}, IO: {},
	UnknownScanner: {doNotRetry: true}, ScannerReset: {doNotRetry: true},
	OutOfOrderScannerNext: {doNotRetry: true}, Lease: {doNotRetry: true},
	DoNotRetry: {doNotRetry: true}, TableNotFound: {doNotRetry: true},
	NoSuchColumnFamily: {doNotRetry: true}, TableNotEnabled: {doNotRetry: true},
	TableNotDisabled: {doNotRetry: true}, TableExists: {doNotRetry: true},
	NamespaceNotFound: {doNotRetry: true}, NamespaceExist: {doNotRetry: true},
	UnknownRegion: {doNotRetry: true}, AccessDenied: {doNotRetry: true},
	Constraint: {doNotRetry: true}, FailedSanityCheck: {doNotRetry: true},
	InvalidFamilyOperation: {doNotRetry: true}, QuotaExceeded: {doNotRetry: true},
	RequestTooBig: {doNotRetry: true},
	// Not an IOException: HBase sends it without the flag (the client knows the class).
	IllegalArgument: {},

	regionMoved:        {internal: true},
	unknownService:     {internal: true, doNotRetry: true},
	incompatibleFilter: {internal: true, doNotRetry: true},
}

// check refuses an exception InjectError cannot raise; the error names the constant meant
// when the class's simple name is close to one (a different case or package, a typo at its
// end).
func (e Exception) check() error {
	info, ok := exceptions[e]
	switch {
	case ok && !info.internal:
		return nil
	case ok:
		return fmt.Errorf("exception %q is raised by the server itself (MoveRegion, a request it cannot read), not injected", string(e))
	case e == "":
		return errors.New("no exception: give one of fakehbase's Exception constants (fakehbase.RegionTooBusy, fakehbase.DoNotRetry...)")
	}
	if near := e.nearest(); near != "" {
		return fmt.Errorf("exception %q is not one fakehbase raises: did you mean fakehbase.%s (%s)?", string(e), near.constName(), string(near))
	}
	return fmt.Errorf("exception %q is not one fakehbase raises: give one of its Exception constants (fakehbase.RegionTooBusy, fakehbase.DoNotRetry...)", string(e))
}

// nearest is the injectable exception whose name e's simple name starts with, ignoring case
// (the longest such), or "".
func (e Exception) nearest() Exception {
	simple := strings.ToLower(e.simpleName())
	var best Exception
	for known, info := range exceptions {
		name := strings.ToLower(known.constName())
		if !info.internal && strings.HasPrefix(simple, name) && len(name) > len(best.constName()) {
			best = known
		}
	}
	return best
}

// constName is the name of e's constant: its simple name without "Exception".
func (e Exception) constName() string { return strings.TrimSuffix(e.simpleName(), "Exception") }

// simpleName is the class without its package.
func (e Exception) simpleName() string {
	s := string(e)
	return s[strings.LastIndexByte(s, '.')+1:]
}
