package main

import (
	"context"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hrpc"
)

// Scan reads up to n rows from start in one RPC where the server allows it (rows per RPC =
// n), as a paging reader would (randomSeekScan).
func (s *hbaseStore) Scan(ctx context.Context, start []byte, n int) (int, error) {
	scan, err := hrpc.NewScan(s.table, hrpc.StartRow(start), hrpc.Limit(n), hrpc.NumberOfRows(n), hrpc.Families(s.family))
	if err != nil {
		return 0, err
	}
	return s.count(ctx, scan)
}

// ScanRange reads [start, stop) of the value's column, -caching rows per RPC, as PE's
// scanRangeN (which asks for the column, caching 30).
func (s *hbaseStore) ScanRange(ctx context.Context, start, stop []byte) (int, error) {
	opts := []hrpc.ScanOption{hrpc.StartRow(start), hrpc.NumberOfRows(s.caching), hrpc.Columns(s.family, s.qualifier)}
	if stop != nil {
		opts = append(opts, hrpc.StopRow(stop))
	}
	scan, err := hrpc.NewScan(s.table, opts...)
	if err != nil {
		return 0, err
	}
	return s.count(ctx, scan)
}

// FilterScan scans the whole table for rows whose value column equals value, the filter
// running on the servers (PE's filterScan: SingleColumnValueFilter, EQUAL, BinaryComparator).
func (s *hbaseStore) FilterScan(ctx context.Context, value []byte) (int, error) {
	f := hrpc.SingleColumnValueFilter{Family: s.family, Qualifier: s.qualifier, Op: hrpc.Equal,
		Comparator: hrpc.BinaryComparator{Value: value}}
	scan, err := hrpc.NewScan(s.table, hrpc.NumberOfRows(s.caching), hrpc.Columns(s.family, s.qualifier), hrpc.WithFilter(f))
	if err != nil {
		return 0, err
	}
	return s.count(ctx, scan)
}

func (s *hbaseStore) count(ctx context.Context, scan *hrpc.Scan) (int, error) {
	rows := 0
	for _, err := range s.client.Scan(ctx, scan) {
		if err != nil {
			return rows, err
		}
		rows++
	}
	return rows, nil
}

// OpenScan starts the sequential scan of [start, stop) (stop nil: to the end), -caching rows
// per RPC, read a row at a time (PE's scan).
func (s *hbaseStore) OpenScan(ctx context.Context, start, stop []byte) rowCursor {
	opts := []hrpc.ScanOption{hrpc.StartRow(start), hrpc.NumberOfRows(s.caching), hrpc.Columns(s.family, s.qualifier)}
	if stop != nil {
		opts = append(opts, hrpc.StopRow(stop))
	}
	scan, err := hrpc.NewScan(s.table, opts...)
	if err != nil {
		return errCursor{err}
	}
	return hbaseCursor{s.client.NewScanner(ctx, scan)}
}

type hbaseCursor struct{ sc *hbase.Scanner }

func (c hbaseCursor) Next() (bool, error) {
	if c.sc.Next() {
		return true, nil
	}
	return false, c.sc.Err()
}

func (c hbaseCursor) Close() { c.sc.Close() }

// errCursor is a scan that could not start.
type errCursor struct{ err error }

func (c errCursor) Next() (bool, error) { return false, c.err }
func (errCursor) Close()                {}
