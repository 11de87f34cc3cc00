package hrpc

import "github.com/go-hbase/hbase/internal/pb"

// ColumnPrefixFilter keeps cells whose qualifier starts with Prefix.
type ColumnPrefixFilter struct{ Prefix []byte }

// toProto implements Filter.
func (f ColumnPrefixFilter) toProto() (*pb.Filter, error) {
	p := f.Prefix
	if p == nil {
		p = []byte{} // required field
	}
	return marshalFilter("ColumnPrefixFilter", &pb.ColumnPrefixFilter{Prefix: p})
}

// MultipleColumnPrefixFilter keeps cells whose qualifier starts with any of Prefixes.
type MultipleColumnPrefixFilter struct{ Prefixes [][]byte }

// toProto implements Filter.
func (f MultipleColumnPrefixFilter) toProto() (*pb.Filter, error) {
	for _, p := range f.Prefixes {
		if p == nil {
			return nil, invalid("MultipleColumnPrefixFilter: nil prefix")
		}
	}
	return marshalFilter("MultipleColumnPrefixFilter", &pb.MultipleColumnPrefixFilter{SortedPrefixes: f.Prefixes})
}

// ColumnRangeFilter keeps cells whose qualifier lies between Min and Max. A nil bound is open.
type ColumnRangeFilter struct {
	Min, Max                   []byte
	MinInclusive, MaxInclusive bool
}

// toProto implements Filter.
func (f ColumnRangeFilter) toProto() (*pb.Filter, error) {
	return marshalFilter("ColumnRangeFilter", &pb.ColumnRangeFilter{
		MinColumn: f.Min, MinColumnInclusive: &f.MinInclusive,
		MaxColumn: f.Max, MaxColumnInclusive: &f.MaxInclusive,
	})
}

// ColumnPaginationFilter returns Limit columns of each row, starting at column number Offset,
// or, when ColumnOffset is set, at that qualifier.
type ColumnPaginationFilter struct {
	Limit        int32
	Offset       int32
	ColumnOffset []byte
}

// toProto implements Filter.
func (f ColumnPaginationFilter) toProto() (*pb.Filter, error) {
	if f.Limit < 0 || f.Offset < 0 {
		return nil, invalid("ColumnPaginationFilter: negative limit %d or offset %d", f.Limit, f.Offset)
	}
	p := &pb.ColumnPaginationFilter{Limit: &f.Limit, ColumnOffset: f.ColumnOffset}
	if f.ColumnOffset == nil {
		p.Offset = &f.Offset
	}
	return marshalFilter("ColumnPaginationFilter", p)
}

// ColumnCountGetFilter returns the first Limit columns of a row (for Gets).
type ColumnCountGetFilter struct{ Limit int32 }

// toProto implements Filter.
func (f ColumnCountGetFilter) toProto() (*pb.Filter, error) {
	if f.Limit < 0 {
		return nil, invalid("ColumnCountGetFilter: negative limit %d", f.Limit)
	}
	return marshalFilter("ColumnCountGetFilter", &pb.ColumnCountGetFilter{Limit: &f.Limit})
}
