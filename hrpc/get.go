package hrpc

import (
	"sync"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// Get reads one row. Build it with NewGet.
type Get struct {
	// options and readOptions are the Get's options, applied in place (see options): columns,
	// filter, timeRange, maxVersions, noCache, storeLimit, storeOffset, existsOnly,
	// attributes, maxAttempts, hdr, consistency. Their other fields are nil once built.
	options
	readOptions
	table string
	row   []byte
}

// NewGet builds a Get of row. Options: Families, Columns, TimeRange, MaxVersions, WithFilter,
// ExistsOnly, NoBlockCache, MaxResultsPerColumnFamily, ResultOffsetPerColumnFamily, Consistency, Attribute,
// MaxAttempts.
func NewGet(table string, row []byte, opts ...GetOption) (*Get, error) {
	if err := checkTable(table); err != nil {
		return nil, err
	}
	if err := checkRow(row); err != nil {
		return nil, err
	}
	g := new(Get)
	g.rd = &g.readOptions
	if err := applyOptions(&g.options, opts); err != nil {
		return nil, err
	}
	g.table, g.row, g.rd = table, row, nil
	// What options of other requests, converted to a Get's option type, left (only what is
	// set is written: a store into g, in the heap, may cost a write barrier).
	if g.sc != nil {
		g.sc = nil
	}
	if g.cells != nil {
		g.cells = nil
	}
	return g, nil
}

// ExistsOnly makes a Get return only whether the row (with the requested columns and filter)
// exists: Result.Exists is set and Result.Cells is empty.
func ExistsOnly() GetOption {
	return getOnly(func(o *options) error {
		o.read().existsOnly = true
		return nil
	})
}

// getCall is a Get's wire side (wire.Call, wire.RequestRecycler, wire.Batchable): the methods
// the client calls, on a type of their own so that they are not part of Get's API.
type getCall Get

func (g *Get) batchable() wire.Batchable { return (*getCall)(g) }

// TableName is the table the Get reads.
func (g *getCall) TableName() string { return g.table }

// Table is the table's bytes, a read-only view (wire.TableBytes).
func (g *getCall) Table() []byte { return wire.TableBytes(g.table) }

// Key is the row the Get reads.
func (g *getCall) Key() []byte { return g.row }

// MaxAttempts is the request's MaxAttempts option, 0 when it has none.
func (g *getCall) MaxAttempts() int { return g.maxAttempts }

// Header is the request's priority and request attributes (wire.HeaderFields).
func (g *getCall) Header() (uint32, []*pb.NameBytesPair) { return g.hdr.fields() }

// Method is "Get".
func (g *getCall) Method() string { return "Get" }

// Op is "Get".
func (g *getCall) Op() string { return "Get" }

// getAlloc holds a Get with every field it points to: one allocation per encoded Get.
type getAlloc struct {
	get         pb.Get
	maxVersions uint32
	storeLimit  uint32
	storeOffset uint32
	flag        bool // false for cache_blocks, true for existence_only: never both needed
	existsOnly  bool
	consistency pb.Consistency
}

func (g *Get) fill(a *getAlloc) {
	a.get.Row = g.row
	a.get.Column = g.columns
	a.get.Attribute = g.attributes
	a.get.Filter = g.filter
	a.get.TimeRange = g.timeRange
	if g.maxVersions > 1 {
		a.maxVersions = g.maxVersions
		a.get.MaxVersions = &a.maxVersions
	}
	if g.noCache {
		a.get.CacheBlocks = &a.flag // false
	}
	if g.storeLimit > 0 {
		a.storeLimit = g.storeLimit
		a.get.StoreLimit = &a.storeLimit
	}
	if g.storeOffset > 0 {
		a.storeOffset = g.storeOffset
		a.get.StoreOffset = &a.storeOffset
	}
	if g.existsOnly {
		a.existsOnly = true
		a.get.ExistenceOnly = &a.existsOnly
	}
	if g.consistency != Strong {
		a.consistency = protoConsistency(g.consistency)
		a.get.Consistency = &a.consistency
	}
}

// proto returns the Get as a protobuf message.
func (g *Get) proto() *pb.Get {
	a := new(getAlloc)
	g.fill(a)
	return &a.get
}

// getRequestAlloc is a GetRequest with every field it points to, recycled (Recycle). The
// embedded message is what protobuf sees.
type getRequestAlloc struct {
	pb.GetRequest
	region     pb.RegionSpecifier
	regionType pb.RegionSpecifier_RegionSpecifierType
	g          getAlloc
}

// getRequests is a free list, not state: nothing observable depends on what it holds.
var getRequests = sync.Pool{New: func() any { return new(getRequestAlloc) }}

// Marshal builds the GetRequest for regionName. A Get has no cells: cellblock is returned as is.
func (g *getCall) Marshal(regionName, cellblock []byte) (proto.Message, []byte, error) {
	a := getRequests.Get().(*getRequestAlloc)
	*a = getRequestAlloc{}
	a.regionType = pb.RegionSpecifier_REGION_NAME
	a.region.Type = &a.regionType
	a.region.Value = regionName
	a.Region = &a.region
	(*Get)(g).fill(&a.g)
	a.Get = &a.g.get
	return a, cellblock, nil
}

// Recycle gives back a request Marshal built, once it has been encoded and nothing uses it
// any more: a later Marshal may reuse it. Other messages are left alone.
func (g *getCall) Recycle(req proto.Message) {
	if a, ok := req.(*getRequestAlloc); ok {
		getRequests.Put(a)
	}
}

// NewResponse returns an empty GetResponse. It may be recycled by decode: do not use it after
// passing it to decode.
func (g *getCall) NewResponse() proto.Message {
	if g.existsOnly {
		return new(pb.GetResponse)
	}
	return newGetResponse()
}

type getActionAlloc struct {
	action pb.Action
	index  uint32
	g      getAlloc
}

// Action builds the Get as action index of a MultiRequest.
func (g *getCall) Action(index uint32, cellblock []byte) (*pb.Action, []byte, error) {
	a := new(getActionAlloc)
	a.index = index
	a.action.Index = &a.index
	(*Get)(g).fill(&a.g)
	a.action.Get = &a.g.get
	return &a.action, cellblock, nil
}

// decode turns a GetResponse and its cellblock into a Result. A missing row gives a Result
// without cells (and, for ExistsOnly, Exists pointing to false).
func (g *Get) decode(resp proto.Message, cellblock []byte) (*Result, error) {
	if rr, ok := resp.(*getResponse); ok {
		res, err := g.decodeResponse(&rr.GetResponse, cellblock)
		rr.recycle()
		return res, err
	}
	r, ok := resp.(*pb.GetResponse)
	if !ok {
		return nil, badResponse("%T for a Get", resp)
	}
	return g.decodeResponse(r, cellblock)
}

func (g *Get) decodeResponse(r *pb.GetResponse, cellblock []byte) (*Result, error) {
	if r.Result == nil {
		res := &Result{}
		if g.existsOnly {
			f := false
			res.Exists = &f
		}
		return res, nil
	}
	var rd wire.CellReader
	rd.Reset(cellblock)
	return parseResult(r.Result, &rd)
}
