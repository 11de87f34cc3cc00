package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hrpc"
)

// qualifier is the one column every row has, family:q, as in the seeds' benchmark.
var qualifier = []byte("q")

// hbaseStore is a store backed by one go-hbase client.
type hbaseStore struct {
	client   *hbase.Client
	closeAll func() error // the client, then its Kerberos credentials
	table    []byte
	family   []byte
}

// hbaseOpener connects one go-hbase client per mode.
func hbaseOpener(log *slog.Logger) openFunc {
	return func(ctx context.Context, c *config, sec securityFlags) (store, io.Closer, error) {
		f := c.Flags
		f.Security = sec
		client, closeAll, err := f.NewClient(hbase.WithLogger(log.With("component", "go-hbase")))
		if err != nil {
			return nil, nil, err
		}
		st := &hbaseStore{client: client, closeAll: closeAll, table: []byte(c.Table), family: []byte(c.Family)}
		if c.Create {
			if err := createTable(ctx, client.Admin(), c, log); err != nil {
				st.Close()
				return nil, nil, err
			}
		}
		// Fail here, with one clear error, rather than in every operation: find the table's
		// first region and complete the connection handshake (SASL included) once.
		pctx, cancel := context.WithTimeout(ctx, c.OpTimeout)
		defer cancel()
		if _, err := st.Get(pctx, appendKey(nil, 0, c.KeySize)); err != nil {
			st.Close()
			return nil, nil, fmt.Errorf("probe table %s: %w", c.Table, err)
		}
		return st, st, nil
	}
}

// ServerLatency is the client's latency per region server (the report's section).
func (s *hbaseStore) ServerLatency() []hbase.ServerLatency { return s.client.ServerLatency() }

// ResetServerLatency starts the latency per region server afresh (after the warm-up).
func (s *hbaseStore) ResetServerLatency() { s.client.ResetServerLatency() }

// Close closes the client, then the Kerberos credentials it used.
func (s *hbaseStore) Close() error {
	return s.closeAll()
}

func (s *hbaseStore) Get(ctx context.Context, row []byte) (bool, error) {
	g, err := hrpc.NewGet(s.table, row, hrpc.Families(s.family))
	if err != nil {
		return false, err
	}
	res, err := s.client.Get(ctx, g)
	if err != nil {
		return false, err
	}
	return len(res.Cells) > 0, nil
}

func (s *hbaseStore) Put(ctx context.Context, row, value []byte) error {
	p, err := hrpc.NewPut(s.table, row, hrpc.Value(s.family, qualifier, value))
	if err != nil {
		return err
	}
	_, err = s.client.Put(ctx, p)
	return err
}

// PutBatch writes rows in one SendBatch (the table load).
func (s *hbaseStore) PutBatch(ctx context.Context, rows [][]byte, value []byte) error {
	calls := make([]hrpc.Batchable, len(rows))
	for i, row := range rows {
		p, err := hrpc.NewPut(s.table, row, hrpc.Value(s.family, qualifier, value))
		if err != nil {
			return err
		}
		calls[i] = p
	}
	for i, r := range s.client.SendBatch(ctx, calls) {
		if r.Err != nil {
			return fmt.Errorf("put %s: %w", rows[i], r.Err)
		}
	}
	return nil
}

// createTable creates the benchmark table through the admin API (-create) when it does not
// exist: family c.Family, pre-split into c.Regions regions over the key space as -local does.
// An existing table is left as it is.
func createTable(ctx context.Context, admin *hbase.Admin, c *config, log *slog.Logger) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	exists, err := admin.TableExists(ctx, c.Table)
	if err != nil {
		return err
	}
	if exists {
		log.Info("table exists, left as it is", "table", c.Table)
		return nil
	}
	desc, err := hrpc.NewTableDescriptor(c.Table, hrpc.WithFamily(c.Family))
	if err != nil {
		return err
	}
	var opts []hrpc.CreateTableOption
	if c.Regions > 1 {
		splits, err := splitKeys(c.Rows, c.Regions, c.KeySize)
		if err != nil {
			return err
		}
		opts = append(opts, hrpc.SplitKeys(splits...))
	}
	began := time.Now()
	if err := admin.CreateTable(ctx, desc, opts...); err != nil && !errors.Is(err, hbase.ErrTableExists) {
		return err
	}
	log.Info("table created", "table", c.Table, "regions", c.Regions, "took", time.Since(began).Round(time.Millisecond))
	return nil
}
