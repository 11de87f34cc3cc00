package engine

import (
	"context"
	"errors"
	"maps"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// Server scan metric names (HBase's ServerSideScanMetrics).
const (
	metricRowsScanned  = "ROWS_SCANNED"
	metricRowsFiltered = "ROWS_FILTERED"
)

// Metrics returns the scan's metrics so far (after the scan ended: its totals). The server's
// metrics are there only when the Scan was built with hrpc.TrackScanMetrics.
func (s *Scanner) Metrics() hbasetrace.ScanMetrics {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.metrics
	m.Server = maps.Clone(m.Server)
	return m
}

// startObs starts following the scan for the hooks and asks for server metrics if the Scan
// wants them.
func (s *Scanner) startObs(scan wire.Scan) {
	if s.track = scan.TrackScanMetrics(); s.track {
		s.metrics.Server = make(map[string]int64)
	}
	if s.c.Hooks == nil {
		return
	}
	o := NewCallObs(s.c, "Scan", s.table, s.start)
	s.obs = &o
	s.ctx = o.Begin(s.ctx)
}

// endObs reports the end of the scan to the hooks, once.
func (s *Scanner) endObs() {
	o := s.obs
	if o == nil {
		return
	}
	s.obs = nil
	ctx := s.ctx
	o.End(ctx, s.err)
	if s.c.Hooks.ScanMetrics != nil {
		m := s.metrics
		m.Server = maps.Clone(m.Server)
		s.c.Hooks.ScanMetrics(ctx, hbasetrace.ScanMetricsInfo{Table: s.table, Metrics: m})
	}
}

// call sends one ScanRequest on the scanner's connection, timing it for the latency
// histograms and the hooks, and counts it in the scan's metrics.
func (s *Scanner) call(ctx context.Context, req *pb.ScanRequest, resp *pb.ScanResponse) error {
	var start time.Time
	timed := s.c.lat != nil || s.obs != nil
	if timed {
		start = time.Now()
	}
	cells, err := s.conn.CallExtras(ctx, s.extras, "Scan", req, nil, resp, &s.check)
	s.c.noteRPC(err)
	s.lastRPC = time.Now()
	if timed {
		d := s.lastRPC.Sub(start)
		if o := s.obs; o != nil {
			o.reqBytes = RequestSize(req, nil)
			o.attempted(ctx, s.c, s.reg.name, s.conn.Addr(), d, resp, cells, err)
		} else {
			s.c.lat.record(s.conn.Addr(), kindScan, d)
		}
	}
	if err != nil {
		return err
	}
	s.metrics.RPCs++
	s.metrics.ResponseBytes += int64(len(cells))
	if s.track && wire.AddScanMetrics(s.metrics.Server, resp) {
		s.metrics.RowsScanned = s.metrics.Server[metricRowsScanned]
		s.metrics.RowsFiltered = s.metrics.Server[metricRowsFiltered]
	}
	return nil
}

// retrying counts a failed ScanRequest that the scanner will try again.
func (s *Scanner) retrying(ctx context.Context, err error) {
	act := Classify(err)
	if act == GiveUp && !errors.Is(err, hberr.ErrScannerExpired) {
		return
	}
	s.metrics.Retries++
	s.c.retrying(ctx, s.obs, s.conn, err, act)
}
