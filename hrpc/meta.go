package hrpc

import (
	"bytes"

	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// MetaInfoFamily is the hbase:meta family that holds regions (info:regioninfo) and their
// servers (info:server).
var MetaInfoFamily = []byte("info")

// MetaLookupRequest is the reversed, closing scan of hbase:meta (region metaRegion) that finds
// the region of table holding row, or, when before is set, the region holding the rows just
// below row (an empty row then means the table's last region). It reads up to rows rows: the
// region wanted plus a few before it, in case the first are split parents being cleaned up.
func MetaLookupRequest(metaRegion, table, row []byte, before bool, rows uint32) *pb.ScanRequest {
	stop := make([]byte, 0, len(table)+2)
	stop = append(append(stop, table...), ',', ',')
	return &pb.ScanRequest{
		Region: regionSpecifier(metaRegion),
		Scan: &pb.Scan{
			Column:         []*pb.Column{{Family: MetaInfoFamily}},
			StartRow:       metaLookupKey(table, row, before),
			StopRow:        stop,
			IncludeStopRow: proto.Bool(true),
			Reversed:       proto.Bool(true),
			Caching:        proto.Uint32(rows),
			// Positional reads, as the Java client's meta lookups do: one short scan.
			ReadType: pb.Scan_PREAD.Enum(),
		},
		NumberOfRows: proto.Uint32(rows),
		LimitOfRows:  proto.Uint32(rows),
		CloseScanner: proto.Bool(true),
	}
}

// metaLookupKey returns the hbase:meta row a reversed scan for the region of row starts at.
// hbase:meta compares rows as (table, start key, region id) split at the first and last comma,
// so "table,row,99999999999999" sorts after every region of table starting at or before row,
// "table,row,00000000000000" before the region starting exactly at row, and "table\x00" after
// every region of table.
func metaLookupKey(table, row []byte, before bool) []byte {
	switch {
	case !before:
		return regionNameFor(table, row, "99999999999999")
	case len(row) == 0:
		return append(bytes.Clone(table), 0)
	default:
		return regionNameFor(table, row, "00000000000000")
	}
}

func regionNameFor(table, start []byte, id string) []byte {
	k := make([]byte, 0, len(table)+len(start)+len(id)+2)
	k = append(k, table...)
	k = append(k, ',')
	k = append(k, start...)
	k = append(k, ',')
	return append(k, id...)
}

// MetaRangeRequest is the forward, closing scan of hbase:meta (region metaRegion) that reads
// the rows from first to last, both region names of one table and both included (first
// excluded when afterFirst is set: the next page of a range), up to rows rows. The client uses
// it to relocate every cached region of a failed server with one RPC per table instead of
// one lookup per region.
func MetaRangeRequest(metaRegion, first, last []byte, afterFirst bool, rows uint32) *pb.ScanRequest {
	return &pb.ScanRequest{
		Region: regionSpecifier(metaRegion),
		Scan: &pb.Scan{
			Column:          []*pb.Column{{Family: MetaInfoFamily}},
			StartRow:        first,
			IncludeStartRow: proto.Bool(!afterFirst),
			StopRow:         last,
			IncludeStopRow:  proto.Bool(true),
			Caching:         proto.Uint32(rows),
			ReadType:        pb.Scan_PREAD.Enum(),
		},
		NumberOfRows: proto.Uint32(rows),
		LimitOfRows:  proto.Uint32(rows),
		CloseScanner: proto.Bool(true),
	}
}
