package fakehbase

import (
	"bytes"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// maxRowLen is the longest row HBase takes (Short.MAX_VALUE), in a scan's bounds too.
const maxRowLen = 32767

// scannerLease is hbase.client.scanner.timeout.period's default: a scanner nobody calls for
// this long is closed.
const scannerLease = 60 * time.Second

// scanner is a region scanner: a scan's progress through one region.
type scanner struct {
	id       uint64
	server   int
	region   *region
	sp       *readSpec
	reversed bool
	lo, hi   []byte // the region's bounds; nil: open
	pos      []byte // the scan goes on after this row (at it, when posIncl); nil: from the edge
	posIncl  bool
	stop     []byte
	stopIncl bool
	batch    int
	maxSize  uint64
	nextSeq  uint64
	expires  time.Time

	pending     []kv // the rest of a row cut in batches
	pendingMore bool

	// The server's scan metrics of the current RPC: rows read, and of those, rows not
	// returned (filtered out, or with nothing the scan selects).
	rowsScanned, rowsFiltered int64
}

func clientScan(c *call) (proto.Message, error) {
	var req pb.ScanRequest
	if err := c.unmarshal(&req); err != nil {
		return nil, err
	}
	if req.ScannerId == nil && req.Scan == nil {
		return nil, badRequest("Missing required input: scannerId or scan")
	}
	tableName, reg, row := c.scanTarget(&req)
	if err := c.inject("Scan", tableName, row, reg); err != nil {
		return nil, err
	}
	s := c.rs.s
	s.mu.Lock()
	defer s.mu.Unlock()
	resp := &pb.ScanResponse{}
	sc, done, err := c.scannerFor(&req, resp)
	if err != nil {
		return nil, err
	}
	if done {
		return resp, nil
	}
	if err := c.scanNext(sc, &req, resp); err != nil {
		return nil, err
	}
	return resp, nil
}

// scannerFor is the scanner a request goes on with, or the one it opens; done reports that
// the request needs no rows. Callers hold s.mu.
func (c *call) scannerFor(req *pb.ScanRequest, resp *pb.ScanResponse) (sc *scanner, done bool, err error) {
	if req.ScannerId != nil {
		return c.resumeScanner(req)
	}
	sc, err = c.openScan(req, resp)
	return sc, false, err
}

// scanTarget is what fault matchers see of a scan request: its table, its region, and the
// first row of a new scan.
func (c *call) scanTarget(req *pb.ScanRequest) (tableName string, reg *region, row []byte) {
	if req.ScannerId == nil {
		tableName, reg = c.target(req.GetRegion())
		return tableName, reg, req.GetScan().GetStartRow()
	}
	s := c.rs.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if sc := s.scanners[req.GetScannerId()]; sc != nil {
		return sc.region.t.name, sc.region, nil
	}
	return "", nil, nil
}

// resumeScanner finds the scanner a request goes on with, and checks that it may: its
// region still served here, its lease not expired, the call's sequence number the one
// expected. done reports that the request needs no rows: a scanner closed already at the
// end of its region, or a lease renewal. Callers hold s.mu.
func (c *call) resumeScanner(req *pb.ScanRequest) (sc *scanner, done bool, err error) {
	s := c.rs.s
	id := req.GetScannerId()
	sc = s.scanners[id]
	if sc == nil || sc.server != c.rs.idx {
		if s.closedScan[id] {
			return nil, true, nil // closed already, at the end of its region: nothing to do
		}
		return nil, false, jerr(UnknownScanner, "Unknown scanner '%d'. This can happen due to any of the following reasons: a) Scanner id given is wrong, b) Scanner lease expired because of long wait between consecutive client checkins, c) Server may be closing down, d) RegionServer restart during upgrade.", id)
	}
	if _, err := c.served(&pb.RegionSpecifier{Value: sc.region.name}); err != nil {
		s.closeScanner(sc)
		return nil, false, jerr(NotServingRegion, "Region has changed on the scanner %d: regionName=%s", id, sc.region.name)
	}
	if time.Now().After(sc.expires) {
		s.closeScanner(sc)
		delete(s.closedScan, id)
		return nil, false, jerr(UnknownScanner, "Unknown scanner '%d': its lease expired", id)
	}
	if req.NextCallSeq != nil {
		if req.GetNextCallSeq() != sc.nextSeq {
			return nil, false, jerr(OutOfOrderScannerNext, "Expected nextCallSeq: %d But the nextCallSeq got from client: %d; request=%v",
				sc.nextSeq, req.GetNextCallSeq(), req)
		}
		sc.nextSeq++
	}
	if req.GetRenew() {
		sc.expires = time.Now().Add(scannerLease)
		return sc, true, nil
	}
	return sc, false, nil
}

// openScan opens the scanner of a new scan and tells the client its id, lease and read
// point. Callers hold s.mu.
func (c *call) openScan(req *pb.ScanRequest, resp *pb.ScanResponse) (*scanner, error) {
	r, err := c.served(req.GetRegion())
	if err != nil {
		return nil, err
	}
	sc, err := c.rs.s.openScanner(c.rs.idx, r, req.GetScan())
	if err != nil {
		return nil, err
	}
	resp.ScannerId = proto.Uint64(sc.id)
	resp.Ttl = proto.Uint32(uint32(scannerLease / time.Millisecond))
	resp.MvccReadPoint = proto.Uint64(sc.sp.readPoint)
	return sc, nil
}

// scanNext reads the rows the request asks for into resp, with the flags and metrics of the
// response, then closes the scanner when it is done or asked to, or renews its lease.
// Callers hold s.mu.
func (c *call) scanNext(sc *scanner, req *pb.ScanRequest, resp *pb.ScanResponse) error {
	s := c.rs.s
	closeIt := req.GetCloseScanner()
	rows := 1
	if closeIt {
		rows = 0
	}
	if req.NumberOfRows != nil {
		rows = int(req.GetNumberOfRows())
	}
	moreInRegion, moreResults := true, true
	var results int
	sc.rowsScanned, sc.rowsFiltered = 0, 0
	if rows > 0 {
		var err error
		results, moreInRegion, moreResults, err = c.scanRows(sc, rows, int(req.GetLimitOfRows()), resp)
		if err != nil {
			s.closeScanner(sc)
			return err
		}
	}
	if f := sc.sp.filter; f != nil && f.allRemaining() && results == 0 {
		moreResults = false
	}
	resp.MoreResultsInRegion = proto.Bool(moreInRegion)
	resp.MoreResults = proto.Bool(moreResults)
	if req.GetTrackScanMetrics() {
		resp.ScanMetrics = &pb.ScanMetrics{Metrics: []*pb.NameInt64Pair{
			{Name: proto.String("ROWS_SCANNED"), Value: proto.Int64(sc.rowsScanned)},
			{Name: proto.String("ROWS_FILTERED"), Value: proto.Int64(sc.rowsFiltered)},
		}}
	}
	resp.Stale = proto.Bool(false)
	if !moreResults || !moreInRegion || closeIt {
		s.closeScanner(sc)
	} else {
		sc.expires = time.Now().Add(scannerLease)
	}
	return nil
}

// openScanner opens a scanner of scan in region r for region server idx. Callers hold s.mu.
func (s *Server) openScanner(idx int, r *region, scan *pb.Scan) (*scanner, error) {
	switch {
	case len(scan.GetCfTimeRange()) > 0:
		return nil, unsupported("a time range per column family")
	case scan.GetConsistency() == pb.Consistency_TIMELINE:
		// One replica per region: timeline reads read the primary.
	}
	if err := checkAttributes(scan.GetAttribute()); err != nil {
		return nil, err
	}
	for _, edge := range []struct {
		name string
		row  []byte
	}{{"startRow", scan.GetStartRow()}, {"stopRow", scan.GetStopRow()}} {
		if len(edge.row) > maxRowLen {
			return nil, jerr(IO, "%s's length must be less than or equal to %d to meet the criteria for a row key.", edge.name, maxRowLen)
		}
	}
	readPoint := s.seq
	if p := scan.GetMvccReadPoint(); p > 0 && p <= s.seq {
		readPoint = p
	}
	p := readParams{columns: scan.GetColumn(), timeRange: scan.GetTimeRange(), maxVersions: scan.GetMaxVersions(),
		storeLimit: scan.StoreLimit, storeOffset: scan.StoreOffset, filter: scan.GetFilter(), reversed: scan.GetReversed()}
	sp, err := newReadSpec(r.t, r.name, p, readPoint, s.now())
	if err != nil {
		return nil, err
	}
	s.lastScan++
	sc := &scanner{id: s.lastScan, server: idx, region: r, sp: sp, reversed: scan.GetReversed(),
		batch: int(scan.GetBatchSize()), maxSize: scan.GetMaxResultSize(), expires: time.Now().Add(scannerLease)}
	if len(r.start) > 0 {
		sc.lo = r.start
	}
	if len(r.end) > 0 {
		sc.hi = r.end
	}
	if start := scan.GetStartRow(); len(start) > 0 {
		sc.pos, sc.posIncl = start, scan.GetIncludeStartRow()
	}
	if stop := scan.GetStopRow(); len(stop) > 0 {
		sc.stop, sc.stopIncl = stop, scan.GetIncludeStopRow()
		// Without the flag (clients before HBase 2.0 never send it), a scan whose start and
		// stop rows are equal is a Get of that row: HBase's ProtobufUtil.toScan.
		if scan.IncludeStopRow == nil && bytes.Equal(stop, scan.GetStartRow()) {
			sc.stopIncl = true
		}
	}
	if sc.maxSize == 0 {
		sc.maxSize = 2 << 20
	}
	s.scanners[sc.id] = sc
	return sc, nil
}

func (s *Server) closeScanner(sc *scanner) {
	delete(s.scanners, sc.id)
	s.closedScan[sc.id] = true
	if len(s.closedScan) > 4096 {
		clear(s.closedScan)
	}
}

// scanRows is one RPC of a scanner, as RSRpcServices.scan runs it: rows (or batches of a
// row) until rows results, the size limit or the row limit of the whole scan, into resp.
// It returns the number of results and the two flags of the response.
func (c *call) scanRows(sc *scanner, rows, limit int, resp *pb.ScanResponse) (results int, moreInRegion, moreResults bool, err error) {
	s := c.rs.s
	moreResults = true
	complete := 0
	var size uint64
	var all [][]kv
	var partial []bool
	for results < rows {
		cells, part, more, err := sc.nextRaw()
		if err != nil {
			return 0, false, false, err
		}
		moreInRegion = more
		if len(cells) > 0 {
			all, partial = append(all, cells), append(partial, part)
			results++
			for i := range cells {
				size += uint64(len(cells[i].row) + len(cells[i].family) + len(cells[i].qualifier) + len(cells[i].value) + 20)
			}
			if sc.region.t == s.meta {
				s.metaRead(cells[0].row)
			}
			if !part && limit > 0 {
				complete++
				if complete >= limit {
					moreResults = false
					break
				}
			}
		} else if !more && len(partial) > 0 {
			partial[len(partial)-1] = false
		}
		if size >= sc.maxSize || !more {
			break
		}
	}
	for i, cells := range all {
		if c.codec {
			c.cells = appendCells(c.cells, cells)
			resp.CellsPerResult = append(resp.CellsPerResult, uint32(len(cells)))
			resp.PartialFlagPerResult = append(resp.PartialFlagPerResult, partial[i])
			continue
		}
		r := c.result(cells)
		r.Partial = proto.Bool(partial[i])
		resp.Results = append(resp.Results, r)
	}
	return results, moreInRegion, moreResults, nil
}

// openFams are the families whose stores are still open.
func (sc *scanner) openFams() []*famSel {
	if len(sc.sp.closed) == 0 {
		return sc.sp.fams
	}
	var out []*famSel
	for _, f := range sc.sp.fams {
		if !sc.sp.closed[f.fam.name] {
			out = append(out, f)
		}
	}
	return out
}

// following returns the first row after key (at it, when inclusive) that the scanner's stores
// hold, nil past its region or its stop row.
func (sc *scanner) following(key []byte, inclusive bool) *row {
	fams := sc.openFams()
	if len(fams) == 0 {
		return nil
	}
	d := sc.region.t.data
	r := d.next(key, inclusive, sc.reversed, sc.lo, sc.hi, fams)
	if r == nil || !sc.beforeStop(r.key) {
		return nil
	}
	return r
}

// beforeStop reports whether row key comes before the scan's stop row (or is it, included).
func (sc *scanner) beforeStop(key []byte) bool {
	if sc.stop == nil {
		return true
	}
	cmp := sc.region.t.data.cmp(key, sc.stop)
	if sc.reversed {
		cmp = -cmp
	}
	return cmp < 0 || (cmp == 0 && sc.stopIncl)
}

// followingIn reports whether family fs has a row after key within the scan's range.
func (sc *scanner) followingIn(key []byte, fs *famSel) bool {
	d := sc.region.t.data
	r := d.next(key, false, sc.reversed, sc.lo, sc.hi, []*famSel{fs})
	return r != nil && sc.beforeStop(r.key)
}

// nextRaw is RegionScanner.nextRaw: the cells of the next row the scan returns (or of the
// next batch of it), whether they are a part of their row, and whether the region may have
// more.
func (sc *scanner) nextRaw() (cells []kv, partial, more bool, err error) {
	if len(sc.pending) > 0 {
		return sc.cut(sc.pending, sc.pendingMore)
	}
	sp := sc.sp
	f := sp.filter
	for {
		if f != nil && f.allRemaining() {
			return nil, false, false, nil
		}
		r := sc.following(sc.pos, sc.posIncl)
		if r == nil {
			return nil, false, false, nil
		}
		sc.pos, sc.posIncl = r.key, false
		sc.rowsScanned++
		if f != nil && f.rowKey(r.key) {
			sc.rowsFiltered++
			f.reset()
			continue
		}
		sp.later = func(fs *famSel) bool { return sc.followingIn(r.key, fs) }
		cells := sp.readRow(r)
		if sp.ec.err != nil {
			return nil, false, false, sp.ec.err
		}
		more := sc.following(r.key, false) != nil
		cells = sp.finishRow(cells)
		if sp.ec.err != nil {
			return nil, false, false, sp.ec.err
		}
		if f != nil {
			f.reset()
			if f.allRemaining() {
				more = false
			}
		}
		if len(cells) == 0 {
			sc.rowsFiltered++
			if !more {
				return nil, false, false, nil
			}
			continue
		}
		if sc.batch > 0 && len(cells) > sc.batch && f != nil && f.hasRow() {
			return nil, false, false, jerr(incompatibleFilter, "Filter whose hasFilterRow() returns true is incompatible with scans that must stop mid-row because of a limit")
		}
		return sc.cut(cells, more)
	}
}

// cut returns the next batch of a row's cells, keeping the rest for the next call.
func (sc *scanner) cut(cells []kv, more bool) ([]kv, bool, bool, error) {
	if sc.batch <= 0 || len(cells) <= sc.batch {
		sc.pending = nil
		return cells, false, more, nil
	}
	sc.pending, sc.pendingMore = cells[sc.batch:], more
	return cells[:sc.batch], true, true, nil
}
