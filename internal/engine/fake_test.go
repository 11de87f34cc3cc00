package engine

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/metarow"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// fakeCluster is one fake region server that serves hbase:meta and the regions listed in it.
// Tests script the data path through onGet / onScanMeta.
type fakeCluster struct {
	srv       *fakeserver.Server
	mu        sync.Mutex
	regions   []fakeRegion // sorted by meta row
	metaScans atomic.Int64
	gets      atomic.Int64
	// onGet answers data Gets (not probes); nil answers an empty row.
	onGet func(n int64, req *pb.GetRequest) fakeserver.Response
	// onMutate answers Mutates; nil answers an empty result.
	onMutate func(n int64, req *pb.MutateRequest) fakeserver.Response
	mutates  atomic.Int64
	// onMulti, when set, answers Multi n instead of multi.
	onMulti func(n int64, req *pb.MultiRequest) fakeserver.Response
	// beforeMeta runs before a meta scan is answered (may block).
	beforeMeta func(r *fakeserver.Request)
	// afterMeta, when set, may replace the answer to meta scan n.
	afterMeta func(n int64, resp fakeserver.Response) fakeserver.Response
	// regionFault, when it returns a class name, fails a region action of Multi n with it.
	regionFault func(n int64, region []byte) string
	multis      atomic.Int64
	// onScan, when set, answers data scans (the fake otherwise serves only hbase:meta).
	onScan  func(n int64, req *pb.ScanRequest) fakeserver.Response
	scans   atomic.Int64
	actions atomic.Int64
	// metaScanners holds the rows still to return of meta scans answered in pages (a scan that
	// asked for fewer rows than it matches), by scanner id.
	metaScanners map[uint64][]fakeRegion
	metaIDs      uint64
	// onRequest, when set, sees every request first (its RequestHeader).
	onRequest func(r *fakeserver.Request)
}

type fakeRegion struct {
	table, start, end string
	id                uint64
	addr              string   // the server hbase:meta names; empty: the fake cluster's own
	replicas          []string // the servers of secondary replicas 1, 2... (info:server_000N)
	encoded           string   // when set, the name is in the new format, with this encoded part
}

func (r fakeRegion) name() []byte {
	if r.encoded != "" {
		return []byte(r.table + "," + r.start + "," + "1000" + string(rune('0'+r.id%10)) + "." + r.encoded + ".")
	}
	return []byte(r.table + "," + r.start + "," + "1000" + string(rune('0'+r.id%10)) + ".")
}

func newFakeCluster(t testing.TB, regions ...fakeRegion) *fakeCluster {
	t.Helper()
	fc := &fakeCluster{regions: regions}
	srv, err := fakeserver.Start(fakeserver.Options{Handler: fc.handle})
	if err != nil {
		t.Fatal(err)
	}
	fc.srv = srv
	t.Cleanup(func() { srv.Close() })
	return fc
}

func (fc *fakeCluster) client(t testing.TB, opts ...Option) *Client {
	t.Helper()
	opts = append([]Option{withMetaLocator(func(context.Context) (string, error) { return fc.srv.Addr(), nil })}, opts...)
	c, err := NewClient("", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func (fc *fakeCluster) handle(r *fakeserver.Request) fakeserver.Response {
	if fc.onRequest != nil {
		fc.onRequest(r)
	}
	switch r.Method {
	case "Scan":
		var req pb.ScanRequest
		if err := r.Unmarshal(&req); err != nil {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", err.Error())}
		}
		fc.mu.Lock()
		_, metaNext := fc.metaScanners[req.GetScannerId()]
		fc.mu.Unlock()
		meta := bytes.Equal(req.GetRegion().GetValue(), metaRegionName) || (req.Region == nil && metaNext) ||
			bytes.HasPrefix(req.GetRegion().GetValue(), []byte("hbase:meta,,1_")) // a replica of hbase:meta
		if !meta && fc.onScan != nil {
			return fc.onScan(fc.scans.Add(1), &req)
		}
		if !meta {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", "fake scans only hbase:meta")}
		}
		n := fc.metaScans.Add(1)
		if fc.beforeMeta != nil {
			fc.beforeMeta(r)
		}
		resp := fc.metaScan(&req)
		if fc.afterMeta != nil {
			resp = fc.afterMeta(n, resp)
		}
		return resp
	case "Get":
		var req pb.GetRequest
		if err := r.Unmarshal(&req); err != nil {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", err.Error())}
		}
		if req.GetGet().GetExistenceOnly() { // the client's region probe; test Gets never use it
			return fakeserver.Response{Msg: &pb.GetResponse{Result: &pb.Result{Exists: proto.Bool(false)}}}
		}
		n := fc.gets.Add(1)
		if fc.onGet != nil {
			return fc.onGet(n, &req)
		}
		return fakeserver.Response{Msg: &pb.GetResponse{Result: &pb.Result{}}}
	}
	if r.Method == "Multi" {
		var req pb.MultiRequest
		if err := r.Unmarshal(&req); err != nil {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", err.Error())}
		}
		n := fc.multis.Add(1)
		if fc.onMulti != nil {
			return fc.onMulti(n, &req)
		}
		return fc.multi(n, &req)
	}
	if r.Method == "Mutate" {
		var req pb.MutateRequest
		if err := r.Unmarshal(&req); err != nil {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", err.Error())}
		}
		n := fc.mutates.Add(1)
		if fc.onMutate != nil {
			return fc.onMutate(n, &req)
		}
		return fakeserver.Response{Msg: &pb.MutateResponse{}}
	}
	return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", "unsupported "+r.Method)}
}

// multi answers every Get action with one cell whose value is its row, every mutation with an
// empty result, and region actions chosen by regionFault with a region-level exception.
func (fc *fakeCluster) multi(n int64, req *pb.MultiRequest) fakeserver.Response {
	resp := &pb.MultiResponse{}
	var cells []byte
	for _, ra := range req.GetRegionAction() {
		rar := &pb.RegionActionResult{}
		resp.RegionActionResult = append(resp.RegionActionResult, rar)
		if fc.regionFault != nil {
			if class := fc.regionFault(n, ra.GetRegion().GetValue()); class != "" {
				rar.Exception = &pb.NameBytesPair{Name: proto.String(class), Value: []byte(class + ": injected")}
				continue
			}
		}
		for _, a := range ra.GetAction() {
			fc.actions.Add(1)
			roe := &pb.ResultOrException{Index: proto.Uint32(a.GetIndex())}
			if g := a.GetGet(); g != nil {
				cells = wire.AppendCell(cells, &wire.Cell{Row: g.GetRow(), Family: []byte("f"), Qualifier: []byte("q"),
					Type: wire.CellTypePut, Value: g.GetRow()})
				roe.Result = &pb.Result{AssociatedCellCount: proto.Int32(1)}
			} else {
				roe.Result = &pb.Result{}
			}
			rar.ResultOrException = append(rar.ResultOrException, roe)
		}
	}
	return fakeserver.Response{Msg: resp, Cells: cells}
}

// metaScan answers an hbase:meta scan: a reversed lookup (the regions whose meta row sorts at
// or before the start row, nearest first), a forward range (MetaRangeRequest) or a scan of the
// public Scanner, in pages of the rows it asks for (scanner ids, next and close).
func (fc *fakeCluster) metaScan(req *pb.ScanRequest) fakeserver.Response {
	if req.Scan == nil { // the next page of an open scanner, or its close
		fc.mu.Lock()
		rest, ok := fc.metaScanners[req.GetScannerId()]
		delete(fc.metaScanners, req.GetScannerId())
		fc.mu.Unlock()
		if req.GetCloseScanner() {
			return fakeserver.Response{Msg: &pb.ScanResponse{}}
		}
		if !ok {
			return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.UnknownScannerException", "no such scanner")}
		}
		return fc.metaPage(req, rest, req.GetScannerId())
	}
	s := req.GetScan()
	fc.mu.Lock()
	regions := append([]fakeRegion(nil), fc.regions...)
	fc.mu.Unlock()
	sort.Slice(regions, func(i, j int) bool { return metaCompare(regions[i].name(), regions[j].name()) < 0 })
	if !s.GetReversed() {
		var in []fakeRegion
		for _, r := range regions {
			c := metaCompare(r.name(), s.GetStartRow())
			stop := len(s.GetStopRow()) == 0 || metaCompare(r.name(), s.GetStopRow()) <= 0
			if (c > 0 || c == 0 && s.GetIncludeStartRow() || len(s.GetStartRow()) == 0) && stop {
				in = append(in, r)
			}
		}
		regions = in
	} else {
		var in []fakeRegion
		for i := len(regions) - 1; i >= 0; i-- {
			name := regions[i].name()
			if metaCompare(name, s.GetStartRow()) <= 0 && metaCompare(name, s.GetStopRow()) >= 0 {
				in = append(in, regions[i])
			}
		}
		regions = in
	}
	fc.mu.Lock()
	fc.metaIDs++
	id := fc.metaIDs
	fc.mu.Unlock()
	return fc.metaPage(req, regions, id)
}

// metaPage answers with the first rows of regions the request asks for, keeping the others
// for the next call of scanner id.
func (fc *fakeCluster) metaPage(req *pb.ScanRequest, regions []fakeRegion, id uint64) fakeserver.Response {
	n := len(regions)
	if c := req.GetScan().GetCaching(); c > 0 && int(c) < n {
		n = int(c)
	}
	if req.NumberOfRows != nil && int(req.GetNumberOfRows()) < n {
		n = int(req.GetNumberOfRows())
	}
	more := n < len(regions) && !req.GetCloseScanner()
	if more {
		fc.mu.Lock()
		if fc.metaScanners == nil {
			fc.metaScanners = map[uint64][]fakeRegion{}
		}
		fc.metaScanners[id] = regions[n:]
		fc.mu.Unlock()
	}
	regions = regions[:n]
	var cells []byte
	var counts []uint32
	for _, r := range regions {
		name := r.name()
		info, _ := proto.Marshal(&pb.RegionInfo{
			RegionId:  proto.Uint64(r.id),
			TableName: &pb.TableName{Namespace: []byte("default"), Qualifier: []byte(r.table)},
			StartKey:  []byte(r.start), EndKey: []byte(r.end),
		})
		addr := r.addr
		if addr == "" {
			addr = fc.srv.Addr()
		}
		cells = wire.AppendCell(cells, &wire.Cell{Row: name, Family: infoFamily, Qualifier: regionInfoCol,
			Type: wire.CellTypePut, Value: append([]byte("PBUF"), info...)})
		cells = wire.AppendCell(cells, &wire.Cell{Row: name, Family: infoFamily, Qualifier: serverCol,
			Type: wire.CellTypePut, Value: []byte(addr)})
		for i, rep := range r.replicas {
			cells = wire.AppendCell(cells, &wire.Cell{Row: name, Family: infoFamily,
				Qualifier: fmt.Appendf(nil, "server_%04X", i+1), Type: wire.CellTypePut, Value: []byte(rep)})
		}
		counts = append(counts, uint32(2+len(r.replicas)))
	}
	resp := &pb.ScanResponse{CellsPerResult: counts, MoreResults: proto.Bool(more),
		MoreResultsInRegion: proto.Bool(more)}
	if more {
		resp.ScannerId = proto.Uint64(id)
	}
	return fakeserver.Response{Msg: resp, Cells: cells}
}

// metaCompare orders hbase:meta rows as the server does.
func metaCompare(a, b []byte) int { return metarow.Compare(a, b) }
