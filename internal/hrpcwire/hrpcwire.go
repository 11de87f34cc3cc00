// Package hrpcwire gives the client typed access to the wire side of package hrpc's types:
// the protobuf messages and results behind requests, descriptors and regions, which hrpc keeps
// unexported so that they are not part of its API.
//
// hrpc registers one value in package internal/wire during its initialization (internal/wire
// cannot name hrpc's types: hrpc imports it). This package imports hrpc, so hrpc's
// initialization has run before its own: it asserts that value once to API, an interface that
// names hrpc's types, and its functions call it. A method missing from hrpc's value fails the
// initialization of every program that links this package, and TestRegistered, at once.
//
// It also holds the conversions from protobuf that need only hrpc's exported fields (cluster
// status, snapshots, server names).
package hrpcwire

import (
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// API is what package hrpc registers in internal/wire: each method is documented by the
// function of this package that calls it.
type API interface {
	Get(g *hrpc.Get) wire.Call
	Mutation(m hrpc.Mutation) wire.Call
	CheckAndMutate(c *hrpc.CheckAndMutate) wire.Call
	RowMutations(r *hrpc.RowMutations) wire.Call
	Batchable(b hrpc.Batchable) wire.Batchable
	Scan(s *hrpc.Scan) wire.Scan

	DecodeGet(g *hrpc.Get, resp proto.Message, cells []byte) (*hrpc.Result, error)
	DecodeMutation(m hrpc.Mutation, resp proto.Message, cells []byte) (*hrpc.Result, error)
	DecodeCheckAndMutate(c *hrpc.CheckAndMutate, resp proto.Message, cells []byte) (bool, *hrpc.Result, error)
	DecodeRowMutations(r *hrpc.RowMutations, resp proto.Message, cells []byte) error
	ParseResult(r *pb.Result, rd *wire.CellReader) (*hrpc.Result, error)
	ParseResultInto(res *hrpc.Result, r *pb.Result, rd *wire.CellReader) error
	AppendScanResults(dst []*hrpc.Result, resp *pb.ScanResponse, cells []byte) ([]*hrpc.Result, error)

	TableSchema(t *hrpc.TableDescriptor) (*pb.TableSchema, error)
	FamilySchema(f *hrpc.FamilyDescriptor) (*pb.ColumnFamilySchema, error)
	NamespaceProto(ns *hrpc.NamespaceDescriptor) (*pb.NamespaceDescriptor, error)
	Table(s *pb.TableSchema) *hrpc.TableDescriptor
	Namespace(p *pb.NamespaceDescriptor) *hrpc.NamespaceDescriptor
	SplitKeys(opts []hrpc.CreateTableOption) ([][]byte, error)
	ListTablesRequest(opts []hrpc.ListTablesOption) (*pb.GetTableNamesRequest, error)
	MetaRow(cells []hrpc.Cell) (*hrpc.Region, error)
	RegionInfo(r *hrpc.Region) *pb.RegionInfo
}

// api is hrpc's registration, asserted once at initialization and never changed.
var api = wire.Hrpc().(API)

// Get is g's wire side: a wire.Call that is also a wire.RequestRecycler and a wire.Batchable.
func Get(g *hrpc.Get) wire.Call { return api.Get(g) }

// Mutation is the wire side of a Put, Delete, Append or Increment: a wire.Call that is also a
// wire.Batchable.
func Mutation(m hrpc.Mutation) wire.Call { return api.Mutation(m) }

// CheckAndMutate is c's wire side.
func CheckAndMutate(c *hrpc.CheckAndMutate) wire.Call { return api.CheckAndMutate(c) }

// RowMutations is r's wire side.
func RowMutations(r *hrpc.RowMutations) wire.Call { return api.RowMutations(r) }

// Batchable is the wire side of a request of a batch.
func Batchable(b hrpc.Batchable) wire.Batchable { return api.Batchable(b) }

// Scan is s's wire side, what the client's scanner reads of it.
func Scan(s *hrpc.Scan) wire.Scan { return api.Scan(s) }

// DecodeGet turns the response to g and its cellblock into a Result (cells aliasing the
// cellblock). A missing row gives a Result without cells (and, for ExistsOnly, Exists pointing
// to false). resp must not be used afterwards: a recycled response goes back to its free list.
func DecodeGet(g *hrpc.Get, resp proto.Message, cells []byte) (*hrpc.Result, error) {
	return api.DecodeGet(g, resp, cells)
}

// DecodeMutation turns the MutateResponse to m into a Result: empty for Put and Delete, the new
// values for Append and Increment.
func DecodeMutation(m hrpc.Mutation, resp proto.Message, cells []byte) (*hrpc.Result, error) {
	return api.DecodeMutation(m, resp, cells)
}

// DecodeCheckAndMutate reports whether c's condition held and its mutation was applied, with
// the result of an Append or Increment (an empty Result for other mutations).
func DecodeCheckAndMutate(c *hrpc.CheckAndMutate, resp proto.Message, cells []byte) (bool, *hrpc.Result, error) {
	return api.DecodeCheckAndMutate(c, resp, cells)
}

// DecodeRowMutations checks the MultiResponse to r. A failure of the region action (the whole
// row mutation was not applied) or of one action is returned as an *hberr.RemoteError.
func DecodeRowMutations(r *hrpc.RowMutations, resp proto.Message, cells []byte) error {
	return api.DecodeRowMutations(r, resp, cells)
}

// ParseResult turns a protobuf Result into a Result. The first associated_cell_count cells come
// from rd (the response's cellblock, which may be shared by several results and is advanced
// past them); cells carried in the protobuf itself follow. Cells alias their buffers.
func ParseResult(r *pb.Result, rd *wire.CellReader) (*hrpc.Result, error) {
	return api.ParseResult(r, rd)
}

// ParseResultInto is ParseResult into res, a zero Result (one of a block a batch's results
// share), which it fills with at most one allocation, for its cells.
func ParseResultInto(res *hrpc.Result, r *pb.Result, rd *wire.CellReader) error {
	return api.ParseResultInto(res, r, rd)
}

// AppendScanResults turns a ScanResponse and its cellblock into results, in order, appended to
// dst, which a scanner reuses from one response to the next. The results and their cells are
// allocated anew for every response (one block of results and cells when every result is of
// one cell), never taken from dst: the caller may keep them. On error it returns nil.
func AppendScanResults(dst []*hrpc.Result, resp *pb.ScanResponse, cells []byte) ([]*hrpc.Result, error) {
	return api.AppendScanResults(dst, resp, cells)
}

// TableSchema checks t, as a table built by hrpc.NewTableDescriptor is checked, and returns
// it as the master takes it.
func TableSchema(t *hrpc.TableDescriptor) (*pb.TableSchema, error) { return api.TableSchema(t) }

// FamilySchema checks f and returns it as the master takes it.
func FamilySchema(f *hrpc.FamilyDescriptor) (*pb.ColumnFamilySchema, error) {
	return api.FamilySchema(f)
}

// NamespaceProto checks ns and returns it as the master takes it.
func NamespaceProto(ns *hrpc.NamespaceDescriptor) (*pb.NamespaceDescriptor, error) {
	return api.NamespaceProto(ns)
}

// Table reads a TableSchema the master returned. Attributes without a field stay in
// Attributes, so a describe-edit-modify round trip keeps them.
func Table(s *pb.TableSchema) *hrpc.TableDescriptor { return api.Table(s) }

// Namespace reads a NamespaceDescriptor the master returned.
func Namespace(p *pb.NamespaceDescriptor) *hrpc.NamespaceDescriptor { return api.Namespace(p) }

// SplitKeys applies the CreateTableOptions of Admin.CreateTable: the keys to pre-split the new
// table at (none without options).
func SplitKeys(opts []hrpc.CreateTableOption) ([][]byte, error) { return api.SplitKeys(opts) }

// ListTablesRequest builds the request for the names of the tables opts select.
func ListTablesRequest(opts []hrpc.ListTablesOption) (*pb.GetTableNamesRequest, error) {
	return api.ListTablesRequest(opts)
}

// MetaRow reads a row of hbase:meta (the cells of family info). It returns nil for a row that
// is no usable region: no info:regioninfo (a table state row), or a split parent or offline
// region waiting to be cleaned up.
func MetaRow(cells []hrpc.Cell) (*hrpc.Region, error) { return api.MetaRow(cells) }

// RegionInfo is the RegionInfo r was read from, what the master's region calls take; nil for
// a Region not read from hbase:meta (the request builders refuse it).
func RegionInfo(r *hrpc.Region) *pb.RegionInfo { return api.RegionInfo(r) }
