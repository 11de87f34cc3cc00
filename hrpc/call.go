// Package hrpc builds the requests the go-hbase client sends to region servers and decodes
// their results: Get, Put, Delete, Append, Increment, CheckAndMutate, MutateRow (RowMutations),
// Scan, filters and comparators, and KeyValueCodec cellblocks.
//
// Requests are immutable once built: every option is checked when the request is constructed,
// so bad input is reported before any RPC is sent.
package hrpc

import (
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// Call is any request sent to one region.
type Call interface {
	// Table is the table the request is for.
	Table() []byte
	// Key is the row that picks the region.
	Key() []byte
	// Method is the ClientService method: "Get", "Mutate", "Scan" or "Multi".
	Method() string
	// Marshal builds the request for regionName. Cells are appended to cellblock
	// (KeyValueCodec) and the grown cellblock is returned, so one buffer serves many calls.
	Marshal(regionName, cellblock []byte) (proto.Message, []byte, error)
	// NewResponse returns an empty response message of the type Marshal's request expects.
	NewResponse() proto.Message
	// CheckResponse checks a response against the request before it is decoded (see
	// check.go): cells of the requested row only, as many as announced. The region
	// connection resets itself when it fails (region.Checker).
	CheckResponse(resp proto.Message, cells []byte) error
}

// RequestRecycler is a Call whose request messages are recycled: the sender gives each
// request Marshal built back with Recycle once the request is encoded and nothing uses it.
type RequestRecycler interface {
	Call
	Recycle(req proto.Message)
}

// Batchable calls go into a MultiRequest (Get, Put, Delete, Append, Increment).
type Batchable interface {
	Call
	// Action builds the MultiRequest action with the given index. Cells are appended to
	// cellblock, which is returned grown.
	Action(index uint32, cellblock []byte) (*pb.Action, []byte, error)
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
}

// The request types the client sends as they are.
var (
	_ Batchable       = (*Get)(nil)
	_ RequestRecycler = (*Get)(nil)
	_ Mutation        = (*Put)(nil)
	_ Mutation        = (*Delete)(nil)
	_ Mutation        = (*Append)(nil)
	_ Mutation        = (*Increment)(nil)
	_ Call            = (*RowMutations)(nil)
	_ Call            = (*CheckAndMutate)(nil)
)
