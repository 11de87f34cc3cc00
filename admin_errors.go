package hbase

import "github.com/go-hbase/hbase/hberr"

// Errors of the admin calls (Client.Admin), from package hberr. Every admin call returns an
// *AdminError naming the call and what it was about; test the cause with errors.Is.
var (
	// ErrTableExists: CreateTable or CloneSnapshot of a table that exists.
	ErrTableExists = hberr.ErrTableExists
	// ErrTableNotDisabled: DeleteTable, TruncateTable or RestoreSnapshot of an enabled table.
	ErrTableNotDisabled = hberr.ErrTableNotDisabled
	// ErrNamespaceExists: CreateNamespace of a namespace that exists.
	ErrNamespaceExists = hberr.ErrNamespaceExists
	// ErrNamespaceNotEmpty: DeleteNamespace of a namespace that holds tables.
	ErrNamespaceNotEmpty = hberr.ErrNamespaceNotEmpty
	// ErrInvalidName: a table, namespace, family or snapshot name HBase does not allow,
	// refused before anything is sent.
	ErrInvalidName = hberr.ErrInvalidName
	// ErrSnapshotNotFound: no snapshot of that name.
	ErrSnapshotNotFound = hberr.ErrSnapshotNotFound
	// ErrSnapshotExists: Snapshot with a name already taken.
	ErrSnapshotExists = hberr.ErrSnapshotExists
	// ErrRegionNotFound: no region of that name (full or encoded) is known.
	ErrRegionNotFound = hberr.ErrRegionNotFound
	// ErrServerNotFound: MoveRegion to a server that is not live.
	ErrServerNotFound = hberr.ErrServerNotFound
)

// AdminError is the error of every admin call: the call, what it named, and the cause.
type AdminError = hberr.AdminError
