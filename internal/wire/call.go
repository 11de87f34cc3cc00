package wire

import (
	"unsafe"

	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// TableBytes returns the bytes of the table name s without copying them: a read-only view.
// hrpc's requests keep their table as the string they were given, and Call.Table returns this
// view of it, so that routing a call costs no copy. It is safe because nothing writes to it;
// its users (internal/engine) only read it: the region cache compares it (cache.get,
// getBefore; a cached region holds a copy of its own, made when hbase:meta's row is parsed or
// by CacheRegionList), a region lookup copies it before its goroutine starts (lookup), the
// hbase:meta keys built from it are new slices (MetaLookupRequest, metaLookupKey), and a
// batch compares it while grouping its calls. Errors and hooks take Call.TableName instead.
// Nothing in region or in this package's requests receives it (requests name their region).
// Its capacity is its length, so an append to it copies it instead of writing past it. Code
// that would change a table name's bytes must copy them first.
func TableBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// Call is a request sent to one region, as the client's routing and a region connection see
// it. hrpc's requests provide it through internal/hrpcwire (hrpcwire.Get, hrpcwire.Mutation,
// ...).
type Call interface {
	// TableName is the table the request is for.
	TableName() string
	// Table is TableName's bytes, a read-only view (TableBytes): it must not be changed.
	Table() []byte
	// Key is the row that picks the region.
	Key() []byte
	// Method is the ClientService method: "Get", "Mutate", "Scan" or "Multi".
	Method() string
	// Op is the operation as the client's errors and hooks name it: "Get", "Put", "Delete",
	// "Append", "Increment", "CheckAndMutate", "MutateRow".
	Op() string
	// MaxAttempts is the request's hrpc.MaxAttempts option, 0 when it has none.
	MaxAttempts() int
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

// AtomicBatchable calls go into a MultiRequest as a region action of their own, atomic, with
// the condition of a CheckAndMutate (HBase 2.4+): RowMutations and CheckAndMutate. Their
// Action method fails; the server answers their region action with one RegionActionResult,
// whose processed flag is the condition's verdict.
type AtomicBatchable interface {
	Batchable
	// RegionAction builds the call's region action for regionName, its actions indexed from
	// 0, and appends its cells to cellblock.
	RegionAction(regionName, cellblock []byte) (*pb.RegionAction, []byte, error)
}

// Scan is an hrpc.Scan as the client's scanner runs it.
type Scan interface {
	// TableName is the table scanned.
	TableName() string
	// StartRow is the first row (highest for a reversed scan); empty means the table's
	// start (end).
	StartRow() []byte
	// Reversed reports whether the scan goes downwards.
	Reversed() bool
	// Limit is the number of rows after which the scan stops; 0 means no limit.
	Limit() uint32
	// NumberOfRows is the ScanRequest.number_of_rows to send: rows per RPC.
	NumberOfRows() uint32
	// AllowPartialResults reports whether partial rows go to the caller as they are. When
	// false the scanner must reassemble results with Partial set into whole rows.
	AllowPartialResults() bool
	// BatchSize is the cap on cells per result; 0 means none. With a batch size the results
	// are parts of rows by design: the scanner regroups the server's pieces into full batches.
	BatchSize() uint32
	// TrackScanMetrics reports whether the scan asks the servers for scan metrics.
	TrackScanMetrics() bool
	// MaxAttempts is the request's MaxAttempts option, 0 when it has none: how many times in
	// a row one step of the scan (open, next) is sent before the scan fails.
	MaxAttempts() int
	// ProtoInto builds the protobuf Scan for the first ScanRequest to a region in b; the
	// message replaces the one b held before. It points into the Scan (rows, columns,
	// filter) and into b: neither may change while it is in use. The client's scanner
	// overrides start_row (and include_start_row) when it resumes in a later region.
	ProtoInto(b *ScanProtoBuffer) *pb.Scan
}

// ScanProtoBuffer holds a pb.Scan built by Scan.ProtoInto with the scalars it points to, so
// that a scanner reused for one scan after another builds each one's message without
// allocating. The zero value is ready for use.
type ScanProtoBuffer struct {
	P                                                    pb.Scan
	MaxResultSize                                        uint64
	Caching, MaxVersions, Batch, StoreLimit, StoreOffset uint32
	No, Yes                                              bool
	Consistency                                          pb.Consistency
}

// HeaderFields is a Call (or Scan) whose RPCs carry RequestHeader fields of their own: the
// hrpc.Priority and hrpc.RequestAttribute options. Header returns 0 and nil when it has none.
type HeaderFields interface {
	Header() (priority uint32, attrs []*pb.NameBytesPair)
}
