package hrpc

import (
	"bytes"
	"fmt"
	"math"
	"slices"

	"github.com/go-hbase/hbase/internal/metarow"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// metaTable is hbase:meta, whose rows are compared in an order of their own (internal/metarow).
const metaTable = "hbase:meta"

// Scan defaults, as in the Java client.
const (
	// DefaultMaxResultSize is how many bytes of cells the server returns per RPC at most
	// (hbase.client.scanner.max.result.size).
	DefaultMaxResultSize = 2 << 20
	// DefaultNumberOfRows is how many rows the server returns per RPC at most when
	// NumberOfRows is not given: unlimited, so DefaultMaxResultSize decides.
	DefaultNumberOfRows = math.MaxInt32
)

// Scan reads a range of rows. Build it with NewScan; the client's scanner runs it.
type Scan struct {
	table                           string
	startRow, stopRow               []byte
	includeStartRow, includeStopRow bool
	reversed                        bool
	limit                           uint32
	numberOfRows                    uint32
	maxResultSize                   uint64
	allowPartials                   bool
	batchSize                       uint32
	trackMetrics                    bool
	cursorResults                   bool

	columns     []*pb.Column
	filter      *pb.Filter
	timeRange   *pb.TimeRange
	maxVersions uint32
	noCache     bool
	storeLimit  uint32
	storeOffset uint32
	attributes  []*pb.NameBytesPair
	maxAttempts int
	hdr         *callHeader // Priority, RequestAttribute; nil: none
	consistency ConsistencyLevel
}

// NewScan builds a Scan of table. Options: StartRow, StopRow, Prefix, Reversed, Limit,
// NumberOfRows, MaxResultSize, AllowPartialResults, BatchSize, TrackScanMetrics,
// CursorResults, and the read options Families, Columns, TimeRange, MaxVersions, WithFilter,
// NoBlockCache, MaxResultsPerColumnFamily, ResultOffsetPerColumnFamily, Consistency,
// Attribute, MaxAttempts.
func NewScan(table string, opts ...ScanOption) (*Scan, error) {
	if err := checkTable(table); err != nil {
		return nil, err
	}
	o := newScanBuild()
	if err := applyOptions(o, opts); err != nil {
		return nil, err
	}
	r := o.rd
	sc := r.sc
	s := &Scan{
		table:           table,
		startRow:        sc.startRow,
		stopRow:         sc.stopRow,
		includeStartRow: true,
		reversed:        sc.reversed,
		limit:           sc.limit,
		numberOfRows:    sc.numberOfRows,
		maxResultSize:   sc.maxResultSize,
		allowPartials:   sc.allowPartials,
		batchSize:       sc.batchSize,
		trackMetrics:    sc.trackMetrics,
		cursorResults:   sc.cursorResults,
		columns:         r.columns,
		filter:          r.filter,
		timeRange:       o.timeRange,
		maxVersions:     r.maxVersions,
		noCache:         r.noCache,
		storeLimit:      r.storeLimit,
		storeOffset:     r.storeOffset,
		attributes:      o.attributes,
		maxAttempts:     o.maxAttempts,
		hdr:             o.hdr,
		consistency:     r.consistency,
	}
	meta := table == metaTable
	if sc.hasPrefix {
		if sc.startRow != nil || sc.stopRow != nil {
			return nil, invalid("Prefix together with StartRow or StopRow")
		}
		if meta && bytes.IndexByte(sc.prefix, ',') >= 0 {
			// hbase:meta's order is not byte order past the table name: the rows with such a
			// prefix are not the rows between it and the next prefix ("t," would miss t's first
			// region, "t,,id").
			return nil, invalid("Prefix %q on hbase:meta holds a ',': give StartRow and StopRow in hbase:meta's order (table, start key, region id) instead", sc.prefix)
		}
		next := nextPrefix(sc.prefix)
		if s.reversed {
			// Downwards from just below the first row after the prefix, down to and including
			// the prefix itself.
			s.startRow, s.includeStartRow = next, len(next) == 0
			s.stopRow, s.includeStopRow = sc.prefix, true
		} else {
			s.startRow, s.stopRow = sc.prefix, next
		}
	}
	if len(s.startRow) > 0 && len(s.stopRow) > 0 {
		cmp := bytes.Compare
		if meta {
			cmp = metarow.Compare // hbase:meta's own order: "t,," is before "t,\x00,"
		}
		if !s.reversed && cmp(s.startRow, s.stopRow) > 0 {
			return nil, invalid("start row %q after stop row %q", s.startRow, s.stopRow)
		}
		if s.reversed && cmp(s.startRow, s.stopRow) < 0 {
			return nil, invalid("reversed scan: start row %q before stop row %q", s.startRow, s.stopRow)
		}
	}
	if s.numberOfRows == 0 {
		s.numberOfRows = DefaultNumberOfRows
	}
	if s.maxResultSize == 0 {
		s.maxResultSize = DefaultMaxResultSize
	}
	return s, nil
}

// nextPrefix is the first row after every row starting with prefix, or nil when there is none
// (the prefix is empty or all 0xff).
func nextPrefix(prefix []byte) []byte {
	for i := len(prefix) - 1; i >= 0; i-- {
		if prefix[i] != 0xff {
			next := append([]byte(nil), prefix[:i+1]...)
			next[i]++
			return next
		}
	}
	return nil
}

func rowOption(name string, row []byte, set func(o *options, row []byte)) ScanOption {
	return scanOnly(func(o *options) error {
		if row == nil {
			return invalid("%s(nil): use []byte{} for the table's edge", name)
		}
		if err := checkRowLen(row); err != nil {
			return err
		}
		set(o, row)
		return nil
	})
}

// StartRow is the row a Scan starts at (inclusive); for a reversed scan, the highest row.
func StartRow(row []byte) ScanOption {
	return rowOption("StartRow", row, func(o *options, r []byte) { o.scan().startRow = r })
}

// StopRow is the row a Scan stops before (exclusive); for a reversed scan, the lowest bound.
func StopRow(row []byte) ScanOption {
	return rowOption("StopRow", row, func(o *options, r []byte) { o.scan().stopRow = r })
}

// Prefix restricts a Scan to the rows starting with prefix (it sets the start and stop rows).
func Prefix(prefix []byte) ScanOption {
	return rowOption("Prefix", prefix, func(o *options, p []byte) { sc := o.scan(); sc.prefix, sc.hasPrefix = p, true })
}

// Reversed scans from the start row downwards.
func Reversed() ScanOption {
	return scanOnly(func(o *options) error {
		o.scan().reversed = true
		return nil
	})
}

func countOption(name string, n int, set func(o *options, n uint32)) ScanOption {
	return scanOnly(func(o *options) error {
		if n < 1 || n > math.MaxInt32 {
			return invalid("%s(%d): must be at least 1", name, n)
		}
		set(o, uint32(n))
		return nil
	})
}

// Limit stops a Scan after n rows.
func Limit(n int) ScanOption {
	return countOption("Limit", n, func(o *options, n uint32) { o.scan().limit = n })
}

// NumberOfRows is how many rows the server returns per RPC at most (the Java client's
// caching).
func NumberOfRows(n int) ScanOption {
	return countOption("NumberOfRows", n, func(o *options, n uint32) { o.scan().numberOfRows = n })
}

// BatchSize caps the cells per result: a wide row comes back in several results of exactly n
// cells each, its last one smaller, as with the Java client's Scan.setBatch. The server may
// end a piece early (at its size or time limit); the scanner joins such pieces into full
// batches unless AllowPartialResults is set too.
func BatchSize(n int) ScanOption {
	return countOption("BatchSize", n, func(o *options, n uint32) { o.scan().batchSize = n })
}

// MaxResultSize is how many bytes of cells the server returns per RPC at most (default 2 MiB).
func MaxResultSize(n int64) ScanOption {
	return scanOnly(func(o *options) error {
		if n < 1 {
			return invalid("MaxResultSize(%d): must be at least 1", n)
		}
		o.scan().maxResultSize = uint64(n)
		return nil
	})
}

// AllowPartialResults lets a Scan return parts of a row as separate results (Result.Partial
// set on all but the last part) instead of reassembling them: less memory for huge rows.
func AllowPartialResults() ScanOption {
	return scanOnly(func(o *options) error {
		o.scan().allowPartials = true
		return nil
	})
}

// CursorResults asks the servers for cursor results, as the Java client's
// Scan.setNeedCursorResult: when a server has scanned for a while without finding a row to
// return (a filter that drops most rows), it answers with a heartbeat saying which row it has
// reached, and the scan returns that as a Result with no cells and Cursor set. A batch job
// can record the position to resume from, or report progress, while a sparse scan runs; rows
// are returned as without the option.
func CursorResults() ScanOption {
	return scanOnly(func(o *options) error {
		o.scan().cursorResults = true
		return nil
	})
}

// scanCall is a Scan's wire side (wire.Scan): what the client's scanner reads of it, on a type
// of its own so that it is not part of Scan's API.
type scanCall Scan

// TableName is the table scanned.
func (s *scanCall) TableName() string { return s.table }

// MaxAttempts is the request's MaxAttempts option, 0 when it has none: how many times in a row
// one step of the scan (open, next) is sent before the scan fails.
func (s *scanCall) MaxAttempts() int { return s.maxAttempts }

// Header is the scan's priority and request attributes, for each of its RPCs
// (wire.HeaderFields).
func (s *scanCall) Header() (uint32, []*pb.NameBytesPair) { return s.hdr.fields() }

// StartRow is the first row (highest for a reversed scan); empty means the table's start (end).
func (s *scanCall) StartRow() []byte { return s.startRow }

// Reversed reports whether the scan goes downwards.
func (s *scanCall) Reversed() bool { return s.reversed }

// Limit is the number of rows after which the scan stops; 0 means no limit.
func (s *scanCall) Limit() uint32 { return s.limit }

// NumberOfRows is the ScanRequest.number_of_rows to send: rows per RPC.
func (s *scanCall) NumberOfRows() uint32 { return s.numberOfRows }

// AllowPartialResults reports whether partial rows go to the caller as they are. When false
// the scanner must reassemble results with Partial set into whole rows.
func (s *scanCall) AllowPartialResults() bool { return s.allowPartials }

// BatchSize is the cap on cells per result; 0 means none. With a batch size the results are
// parts of rows by design: the scanner regroups the server's pieces into full batches.
func (s *scanCall) BatchSize() uint32 { return s.batchSize }

// TrackScanMetrics reports whether the scan asks the servers for scan metrics.
func (s *scanCall) TrackScanMetrics() bool { return s.trackMetrics }

// ProtoInto builds the protobuf Scan for the first ScanRequest to a region in b; the message
// replaces the one b held before. It points into s (rows, columns, filter) and into b: neither
// may change while it is in use. The client's scanner overrides start_row (and
// include_start_row) when it resumes in a later region.
func (s *scanCall) ProtoInto(b *wire.ScanProtoBuffer) *pb.Scan {
	p := &b.P
	p.Reset()
	b.MaxResultSize, b.Caching = s.maxResultSize, s.numberOfRows
	b.No, b.Yes = false, true
	p.Column = s.columns
	p.Attribute = s.attributes
	p.StartRow, p.StopRow = s.startRow, s.stopRow
	p.Filter, p.TimeRange = s.filter, s.timeRange
	p.MaxResultSize, p.Caching = &b.MaxResultSize, &b.Caching
	if len(p.StartRow) == 0 {
		p.StartRow = nil
	}
	if len(p.StopRow) == 0 {
		p.StopRow = nil
	}
	if s.maxVersions > 1 {
		b.MaxVersions = s.maxVersions
		p.MaxVersions = &b.MaxVersions
	}
	if s.noCache {
		p.CacheBlocks = &b.No
	}
	if s.batchSize > 0 {
		b.Batch = s.batchSize
		p.BatchSize = &b.Batch
	}
	if s.storeLimit > 0 {
		b.StoreLimit = s.storeLimit
		p.StoreLimit = &b.StoreLimit
	}
	if s.storeOffset > 0 {
		b.StoreOffset = s.storeOffset
		p.StoreOffset = &b.StoreOffset
	}
	if s.reversed {
		p.Reversed = &b.Yes
	}
	if s.consistency != Strong {
		b.Consistency = protoConsistency(s.consistency)
		p.Consistency = &b.Consistency
	}
	if s.allowPartials {
		p.AllowPartialResults = &b.Yes
	}
	if s.cursorResults {
		p.NeedCursorResult = &b.Yes
	}
	if !s.includeStartRow {
		p.IncludeStartRow = &b.No
	}
	if s.includeStopRow {
		p.IncludeStopRow = &b.Yes
	}
	return p
}

// proto builds the protobuf Scan in a buffer of its own (tests).
func (s *Scan) proto() *pb.Scan { return (*scanCall)(s).ProtoInto(new(wire.ScanProtoBuffer)) }

// appendScanResults turns a ScanResponse and its cellblock into results, in order, appended to
// dst, which a scanner reuses from one response to the next. With a cellblock (the normal case)
// the server sends cells_per_result and partial_flag_per_result; without, the results carry
// their cells. Cells alias cellblock. The results and their cells are allocated anew for every
// response, never taken from dst: the caller may keep them. Two allocations per response (the
// results and their cells, the slice of them), one when every result is of one cell, whatever
// the number of rows. On error it returns nil.
func appendScanResults(dst []*Result, resp *pb.ScanResponse, cellblock []byte) ([]*Result, error) {
	if resp == nil {
		return nil, badResponse("nil ScanResponse")
	}
	stale := resp.GetStale()
	var reader wire.CellReader
	reader.Reset(cellblock)
	if n := len(resp.CellsPerResult); n > 0 {
		if len(resp.PartialFlagPerResult) != 0 && len(resp.PartialFlagPerResult) != n {
			return nil, badResponse("%d partial flags for %d results", len(resp.PartialFlagPerResult), n)
		}
		total := 0
		for _, c := range resp.CellsPerResult {
			total += int(c)
		}
		// Each cell needs at least 24 bytes; refuse counts the block cannot hold before
		// allocating for them.
		if int64(total)*wire.MinCellLen > int64(len(cellblock)) {
			return nil, badResponse("%d cells claimed but the cellblock has %d bytes", total, len(cellblock))
		}
		dst = slices.Grow(dst, n)
		var results []Result
		var slab []Cell
		var ones []resultCell
		if total == n && !slices.Contains(resp.CellsPerResult, 0) {
			// One cell per result, the most common scan (a row of one column): results and
			// cells in one block.
			ones = make([]resultCell, n)
		} else {
			slab = make([]Cell, total)
			results = make([]Result, n)
		}
		off := 0
		for i, c := range resp.CellsPerResult {
			var r *Result
			if ones != nil {
				rc := &ones[i]
				rc.res.Cells = rc.cell[:]
				r = &rc.res
			} else {
				r = &results[i]
				if c > 0 {
					r.Cells = slab[off : off+int(c) : off+int(c)]
					off += int(c)
				}
			}
			r.Stale = stale
			if len(resp.PartialFlagPerResult) > 0 {
				r.Partial = resp.PartialFlagPerResult[i]
			}
			for j := range r.Cells {
				if err := readCell(&reader, &r.Cells[j]); err != nil {
					return nil, fmt.Errorf("%w: result %d: %w", wire.ErrBadResponse, i, err)
				}
			}
			if err := oneRow(r.Cells); err != nil {
				return nil, fmt.Errorf("%w: scan result %d: %w", wire.ErrBadResponse, i, err)
			}
			dst = append(dst, r)
		}
		if reader.Remaining() != 0 {
			return nil, badResponse("%d bytes of cellblock left after %d results", reader.Remaining(), n)
		}
		return dst, nil
	}
	dst = slices.Grow(dst, len(resp.Results))
	results := make([]Result, len(resp.Results))
	for i, pr := range resp.Results {
		if err := parseResultInto(&results[i], pr, &reader); err != nil {
			return nil, err
		}
		if err := oneRow(results[i].Cells); err != nil {
			return nil, fmt.Errorf("%w: scan result %d: %w", wire.ErrBadResponse, i, err)
		}
		results[i].Stale = results[i].Stale || stale
		dst = append(dst, &results[i])
	}
	return dst, nil
}

// oneRow checks that the cells of one scan result are all of one row.
func oneRow(cells []Cell) error {
	for j := 1; j < len(cells); j++ {
		if !bytes.Equal(cells[j].Row, cells[0].Row) {
			return wire.ForeignCell(cells[0].Row, cells[j].Row, j)
		}
	}
	return nil
}
