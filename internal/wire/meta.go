package wire

import (
	"bytes"
	"fmt"

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
		Region: RegionSpecifier(metaRegion),
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
//
// A row too long for the key to be a row itself (MaxRowLen; the server refuses such a start
// row) is cut to fit, and the key then ends in nines for a lookup before it too: a region that
// starts after the cut but at or before row would start with the cut and be longer than it,
// and its name, a row of hbase:meta, longer than MaxRowLen. So the region found is the one of
// the cut, and of row.
func metaLookupKey(table, row []byte, before bool) []byte {
	if room := MaxRowLen - len(table) - len(",,99999999999999"); len(row) > room && room > 0 {
		return regionNameFor(table, row[:room], "99999999999999")
	}
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
		Region: RegionSpecifier(metaRegion),
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

var (
	// metaTableFamily and metaStateQualifier name the hbase:meta cell that holds a table's
	// state (ENABLED, DISABLED ...), in the row named after the table.
	metaTableFamily    = []byte("table")
	metaStateQualifier = []byte("state")
)

// MetaTableStateRequest is a Get of table's state cell in hbase:meta.
func MetaTableStateRequest(metaRegion, table []byte) *pb.GetRequest {
	return &pb.GetRequest{
		Region: RegionSpecifier(metaRegion),
		Get: &pb.Get{
			Row:    table,
			Column: []*pb.Column{{Family: metaTableFamily, Qualifier: [][]byte{metaStateQualifier}}},
		},
	}
}

// ParseMetaTableState reads the answer to MetaTableStateRequest, whose cell comes in the
// response or in its cellblock. ok is false when hbase:meta holds no state for the table (no
// such table). The cell's value is a bare TableState message, with no PBUF prefix.
// A cell of another row is ErrForeignCells.
func ParseMetaTableState(resp *pb.GetResponse, cellblock, table []byte) (state pb.TableState_State, ok bool, err error) {
	var row, value []byte
	switch res := resp.GetResult(); {
	case res.GetAssociatedCellCount() > 0:
		var c Cell
		if err := NewCellReader(cellblock).Next(&c); err != nil {
			return 0, false, fmt.Errorf("%w: table state cell: %v", ErrBadResponse, err)
		}
		row, value = c.Row, c.Value
	case len(res.GetCell()) > 0:
		row, value = res.GetCell()[0].GetRow(), res.GetCell()[0].GetValue()
	default:
		return 0, false, nil
	}
	if !bytes.Equal(row, table) {
		return 0, false, fmt.Errorf("%w: the state of table %q came in row %q", ErrForeignCells, table, row)
	}
	var st pb.TableState
	if err := proto.Unmarshal(value, &st); err != nil {
		return 0, false, fmt.Errorf("%w: table state in hbase:meta: %v", ErrBadResponse, err)
	}
	return st.GetState(), true, nil
}

// metaEncodedName is the encoded name of hbase:meta's region, whose name ("hbase:meta,,1")
// predates encoded suffixes.
const metaEncodedName = "1588230740"

// EncodedRegionName returns the encoded name of a region: the suffix of "table,start,id.encoded."
// (a name given already encoded is returned as it is).
func EncodedRegionName(name []byte) string {
	if bytes.HasSuffix(name, []byte(".")) {
		trimmed := name[:len(name)-1]
		if i := bytes.LastIndexByte(trimmed, '.'); i >= 0 && bytes.IndexByte(trimmed[i:], ',') < 0 {
			return string(trimmed[i+1:])
		}
	}
	if bytes.Equal(name, []byte("hbase:meta,,1")) {
		return metaEncodedName
	}
	return string(name)
}

// ParseRegionName splits a full region name "table,start,id[.encoded.]" into its table and
// start key; ok is false for anything else (an encoded name). Start keys may hold commas, the
// table and the id may not.
func ParseRegionName(name []byte) (table string, start []byte, ok bool) {
	first := bytes.IndexByte(name, ',')
	last := bytes.LastIndexByte(name, ',')
	if first <= 0 || last == first {
		return "", nil, false
	}
	return string(name[:first]), name[first+1 : last], true
}
