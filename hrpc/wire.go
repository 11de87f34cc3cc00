package hrpc

import (
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// The wire side of this package's types is not part of its API. The client reaches it through
// one value registered at initialization in internal/wire: wireAPI, whose methods are the
// entry points to the unexported code. Package internal/hrpcwire asserts it to its interface
// hrpcwire.API and gives the client typed functions; the mechanism is described in
// internal/wire's documentation.
func init() { wire.RegisterHrpc(wireAPI{}) }

// wireAPI is registered in internal/wire (see init). Its methods are those of hrpcwire.API.
type wireAPI struct{}

// The wire side of each request type.
var (
	_ wire.RequestRecycler = (*getCall)(nil)
	_ wire.Batchable       = (*getCall)(nil)
	_ wire.Batchable       = (*mutationCall)(nil)
	_ wire.AtomicBatchable = (*checkAndMutateCall)(nil)
	_ wire.AtomicBatchable = (*rowMutationsCall)(nil)
	_ wire.Scan            = (*scanCall)(nil)
)

// Get is g's wire side; it is also a wire.RequestRecycler and a wire.Batchable.
func (wireAPI) Get(g *Get) wire.Call { return (*getCall)(g) }

// Mutation is m's wire side; it is also a wire.Batchable.
func (wireAPI) Mutation(m Mutation) wire.Call { return (*mutationCall)(m.base()) }

// CheckAndMutate is c's wire side.
func (wireAPI) CheckAndMutate(c *CheckAndMutate) wire.Call { return (*checkAndMutateCall)(c) }

// RowMutations is r's wire side.
func (wireAPI) RowMutations(r *RowMutations) wire.Call { return (*rowMutationsCall)(r) }

// Batchable is b's wire side.
func (wireAPI) Batchable(b Batchable) wire.Batchable { return b.batchable() }

// Scan is s's wire side.
func (wireAPI) Scan(s *Scan) wire.Scan { return (*scanCall)(s) }

// DecodeGet turns the response to g into its Result.
func (wireAPI) DecodeGet(g *Get, resp proto.Message, cells []byte) (*Result, error) {
	return g.decode(resp, cells)
}

// DecodeMutation turns the response to m into its Result.
func (wireAPI) DecodeMutation(m Mutation, resp proto.Message, cells []byte) (*Result, error) {
	return m.base().decode(resp, cells)
}

// DecodeCheckAndMutate reports whether c's condition held and its mutation was applied, with
// the result of an Append or Increment.
func (wireAPI) DecodeCheckAndMutate(c *CheckAndMutate, resp proto.Message, cells []byte) (bool, *Result, error) {
	return c.decode(resp, cells)
}

// DecodeRowMutations checks the response to r.
func (wireAPI) DecodeRowMutations(r *RowMutations, resp proto.Message, cells []byte) error {
	return r.decode(resp, cells)
}

// ParseResult turns one protobuf Result into a Result, its cells read from rd.
func (wireAPI) ParseResult(r *pb.Result, rd *wire.CellReader) (*Result, error) {
	return parseResult(r, rd)
}

// ParseResultInto fills res, a zero Result, from one protobuf Result, its cells read from rd.
func (wireAPI) ParseResultInto(res *Result, r *pb.Result, rd *wire.CellReader) error {
	return parseResultInto(res, r, rd)
}

// AppendScanResults appends the results of a ScanResponse to dst.
func (wireAPI) AppendScanResults(dst []*Result, resp *pb.ScanResponse, cells []byte) ([]*Result, error) {
	return appendScanResults(dst, resp, cells)
}

// TableSchema checks t and returns it as the master takes it.
func (wireAPI) TableSchema(t *TableDescriptor) (*pb.TableSchema, error) { return t.proto() }

// FamilySchema checks f and returns it as the master takes it.
func (wireAPI) FamilySchema(f *FamilyDescriptor) (*pb.ColumnFamilySchema, error) {
	if f == nil {
		return nil, invalid("nil FamilyDescriptor")
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	return f.proto(), nil
}

// NamespaceProto checks ns and returns it as the master takes it.
func (wireAPI) NamespaceProto(ns *NamespaceDescriptor) (*pb.NamespaceDescriptor, error) {
	return ns.proto()
}

// Table reads a TableSchema the master returned.
func (wireAPI) Table(s *pb.TableSchema) *TableDescriptor { return tableFromProto(s) }

// Namespace reads a NamespaceDescriptor the master returned.
func (wireAPI) Namespace(p *pb.NamespaceDescriptor) *NamespaceDescriptor {
	return namespaceFromProto(p)
}

// SplitKeys applies CreateTableOptions: the keys to pre-split a new table at.
func (wireAPI) SplitKeys(opts []CreateTableOption) ([][]byte, error) { return splitKeys(opts) }

// ListTablesRequest builds the request for the names of the tables opts select.
func (wireAPI) ListTablesRequest(opts []ListTablesOption) (*pb.GetTableNamesRequest, error) {
	return listTablesRequest(opts)
}

// MetaRow reads a row of hbase:meta into a Region; nil for a row that is no usable region.
func (wireAPI) MetaRow(cells []Cell) (*Region, error) { return parseMetaRow(cells) }

// RegionInfo is the RegionInfo r was read from (nil for a Region not read from hbase:meta).
func (wireAPI) RegionInfo(r *Region) *pb.RegionInfo { return r.info }
