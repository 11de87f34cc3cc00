package main

import (
	"context"

	"github.com/go-hbase/hbase/hrpc"
)

// Scan reads up to n rows from start in one RPC where the server allows it (rows per RPC =
// n), as a paging reader would.
func (s *hbaseStore) Scan(ctx context.Context, start []byte, n int) (int, error) {
	scan, err := hrpc.NewScan(s.table, hrpc.StartRow(start), hrpc.Limit(n), hrpc.NumberOfRows(n), hrpc.Families(s.family))
	if err != nil {
		return 0, err
	}
	rows := 0
	for _, err := range s.client.Scan(ctx, scan) {
		if err != nil {
			return rows, err
		}
		rows++
	}
	return rows, nil
}
