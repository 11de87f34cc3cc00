// Package hrpc holds the requests of the go-hbase client (package hbase): Get, Put, Delete,
// Append, Increment, CheckAndMutate, MutateRow (RowMutations) and Scan with their typed
// options, the server-side filters and comparators, the cells and results the calls return,
// and the descriptors of the admin calls (TableDescriptor, FamilyDescriptor,
// NamespaceDescriptor, Region, ClusterStatus, Snapshot).
//
// Requests are immutable once built: every option is checked when the request is constructed,
// so bad input is reported before any RPC is sent, as an error wrapping hberr.ErrBadRequest.
//
// How requests become protobuf messages and cellblocks, and how responses become Results, is
// not part of this package's API (it lives in the module's internal packages), so that the
// client's wire code can change without breaking users.
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan, kerberos,
// hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet and fakehbase. Before v1.0.0 a minor
// version (v0.X.0) may change the API of the stable packages; CHANGELOG.md lists every change with
// what to use instead; a patch version (v0.X.Y) never changes it. The lower layers (region, zk,
// sasl, cipher) may change in any minor version. internal/... is not API.
package hrpc

import "github.com/go-hbase/hbase/internal/wire"

// Batchable is a request that can go into a batch (hbase.Client.SendBatch): *Get, *Put,
// *Delete, *Append, *Increment, and *CheckAndMutate and *RowMutations (each sent as an atomic
// region action of its own, as HBase 2.4+ takes them). Only the types of this package
// implement it.
type Batchable interface {
	batchable() wire.Batchable
}

// CellType is the KeyValue type byte of a cell.
type CellType uint8

// Cell types as HBase encodes them in KeyValue.Type.
const (
	CellTypeMinimum             CellType = 0
	CellTypePut                 CellType = 4
	CellTypeDelete              CellType = 8  // one version of one column
	CellTypeDeleteFamilyVersion CellType = 10 // one version of every column of a family
	CellTypeDeleteColumn        CellType = 12 // all versions of one column
	CellTypeDeleteFamily        CellType = 14 // all versions of every column of a family
	CellTypeMaximum             CellType = 255
)

// Cell is one HBase cell. In decoded results the byte slices alias the response buffer: they
// are valid as long as the Result is, and callers must copy them before modifying them.
type Cell struct {
	Row, Family, Qualifier []byte
	Timestamp              uint64
	Type                   CellType
	Value                  []byte
}

// Result is the outcome of a Get, a mutation that returns results, or one row of a Scan.
type Result struct {
	Cells   []Cell // in HBase order (family, qualifier, newest timestamp first)
	Exists  *bool  // set for exists-only Gets
	Stale   bool   // the result came from a secondary replica and may be stale
	Partial bool   // part of a row that may have more cells to come (BatchSize, AllowPartialResults)
	// Hedged is set on the results of a read of consistency Timeline that was sent to the
	// region's secondary replicas too (its primary did not answer within the hedge delay, was
	// out of service or failed), whichever replica answered; for a scan, when the request
	// that opened the scan in the row's region was. Never set for Strong reads.
	Hedged bool
	// ReplicaID is the replica of the row's region that answered a read of consistency
	// Timeline: 0 for the primary, 1 and up for the secondaries (HBase's replica ids, 0 to
	// 65535, as in Hedge events and hbase:meta's info:server_000N columns). A result with
	// ReplicaID > 0 has Stale set. Always 0 for Strong reads.
	ReplicaID uint16
	// Cursor, when not nil, makes this a cursor result of a Scan with CursorResults: no
	// cells, only the row the server's scan has reached while finding nothing to return.
	Cursor []byte
}

// The request types a batch takes.
var (
	_ Batchable = (*Get)(nil)
	_ Mutation  = (*Put)(nil)
	_ Mutation  = (*Delete)(nil)
	_ Mutation  = (*Append)(nil)
	_ Mutation  = (*Increment)(nil)
	_ Batchable = (*CheckAndMutate)(nil)
	_ Batchable = (*RowMutations)(nil)
)
