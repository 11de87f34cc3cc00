package hberr

import (
	"errors"
	"strconv"
	"strings"
)

// Sentinels of the admin calls (package admin). Each server exception that means one of them
// also wraps ErrDoNotRetry: sending the same request again cannot succeed.
var (
	// ErrTableExists: a table of that name exists already (TableExistsException).
	ErrTableExists = errors.New("table already exists")
	// ErrTableNotDisabled: the operation needs the table disabled first (delete, truncate,
	// restore from a snapshot; TableNotDisabledException).
	ErrTableNotDisabled = errors.New("table not disabled")
	// ErrNamespaceExists: a namespace of that name exists already (NamespaceExistException).
	ErrNamespaceExists = errors.New("namespace already exists")
	// ErrNamespaceNotEmpty: a namespace that still holds tables cannot be deleted (HBase sends
	// a ConstraintException saying "Only empty namespaces can be removed").
	ErrNamespaceNotEmpty = errors.New("namespace not empty")
	// ErrInvalidName: a table, namespace, family or snapshot name breaks HBase's naming rules;
	// found by the client before anything is sent, or by the server (IllegalArgumentException).
	ErrInvalidName = errors.New("invalid name")
	// ErrSnapshotNotFound: no snapshot of that name (SnapshotDoesNotExistException).
	ErrSnapshotNotFound = errors.New("snapshot not found")
	// ErrSnapshotExists: a snapshot of that name exists already (SnapshotExistsException).
	ErrSnapshotExists = errors.New("snapshot already exists")
	// ErrRegionNotFound: no region of that name (UnknownRegionException, or not in hbase:meta).
	ErrRegionNotFound = errors.New("region not found")
	// ErrServerNotFound: no live region server of that name (MoveRegion's destination).
	ErrServerNotFound = errors.New("no live region server")
)

// adminKinds are the admin exceptions' meanings, merged into remoteKinds.
var adminKinds = map[string][]error{
	"TableExistsException":          {ErrTableExists, ErrDoNotRetry},
	"TableNotDisabledException":     {ErrTableNotDisabled, ErrDoNotRetry},
	"NamespaceExistException":       {ErrNamespaceExists, ErrDoNotRetry},
	"SnapshotDoesNotExistException": {ErrSnapshotNotFound, ErrDoNotRetry},
	"SnapshotExistsException":       {ErrSnapshotExists, ErrDoNotRetry},
	"UnknownRegionException":        {ErrRegionNotFound, ErrDoNotRetry},
	// The replication peer calls' (admin_replication.go).
	"ReplicationPeerNotFoundException": {ErrPeerNotFound, ErrDoNotRetry},
	// A bad argument the server refused; a bad name when the message says so (classifyAdmin).
	"IllegalArgumentException": {ErrDoNotRetry},
}

// classifyAdmin adds the meanings HBase puts in the message rather than in the class: the
// exception of deleting a namespace that holds tables is a plain ConstraintException, and a
// bad name is an IllegalArgumentException whose message speaks of illegal characters or names.
func (e *RemoteError) classifyAdmin(name string) {
	switch name {
	case "DoNotRetryIOException", "IOException":
		e.classifyReplication()
	case "ConstraintException":
		if strings.Contains(e.Message, "Only empty namespaces") {
			e.kinds = []error{ErrNamespaceNotEmpty, ErrDoNotRetry}
		}
	case "IllegalArgumentException":
		m := strings.ToLower(e.Message)
		if strings.Contains(m, "illegal") || strings.Contains(m, "name") {
			e.kinds = []error{ErrInvalidName, ErrDoNotRetry}
		}
	}
}

// AdminError is the error of every admin call (package admin): the operation, what it was
// about (a table, namespace, region, snapshot or server; empty for cluster-wide calls) and the
// cause. It prints as
//
//	hbase: CreateTable "ns:users": table already exists
//
// and unwraps to the cause, so errors.Is sees ErrTableExists, the *RemoteError and the
// context's error under it.
type AdminError struct {
	Op   string // CreateTable, DeleteTable, ..., ClusterStatus
	Name string // the table, namespace, region or snapshot named by the call
	Err  error
}

// Error implements error.
func (e *AdminError) Error() string {
	if e.Name == "" {
		return "hbase: " + e.Op + ": " + e.Err.Error()
	}
	return "hbase: " + e.Op + " " + strconv.Quote(e.Name) + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *AdminError) Unwrap() error { return e.Err }
