package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// hbaseStore is a store backed by one go-hbase client.
type hbaseStore struct {
	client    *hbase.Client
	closeAll  func() error // the client, then its Kerberos credentials
	table     string
	family    []byte
	qualifier []byte // the value's column: family:qualifier (q, or PE's 0)
	caching   int    // rows per scan RPC (-caching)
}

// errSetup marks a run that could not start: the cluster unreachable, the table missing.
// main exits with status 2 for it, as for a bad command line.
var errSetup = errors.New("cannot start")

// startError is an errSetup whose message is the whole story, in one line.
type startError struct{ msg string }

func (e *startError) Error() string        { return e.msg }
func (e *startError) Is(target error) bool { return target == errSetup }

func startErrorf(format string, args ...any) error {
	return &startError{msg: fmt.Sprintf(format, args...)}
}

// hbaseOpener connects one go-hbase client per mode.
func hbaseOpener(log, clientLog *slog.Logger) openFunc {
	return func(ctx context.Context, c *config, sec securityFlags) (store, io.Closer, error) {
		f := c.Flags
		f.Security = sec
		client, closeAll, err := f.NewClient(hbase.WithLogger(clientLog))
		if err != nil {
			return nil, nil, startErrorf("connect: %v", err)
		}
		st := &hbaseStore{client: client, closeAll: closeAll, table: c.Table, family: []byte(c.Family),
			qualifier: []byte(c.Qualifier), caching: c.Caching}
		if c.Create {
			if err := createTable(ctx, admin.New(client), c, log); err != nil {
				st.Close()
				return nil, nil, setupError(c, "create table", err)
			}
		}
		// Fail here, with one clear error, rather than in every operation: find the table's
		// first region and complete the connection handshake (SASL included) once.
		pctx, cancel := context.WithTimeout(ctx, c.OpTimeout)
		defer cancel()
		if _, err := st.Get(pctx, appendKey(nil, 0, c.KeySize)); err != nil {
			st.Close()
			if ctx.Err() != nil {
				return nil, nil, err // interrupted: not the cluster's fault
			}
			return nil, nil, setupError(c, "probe table", err)
		}
		return st, st, nil
	}
}

// setupError says in one line why the run cannot start.
func setupError(c *config, what string, err error) error {
	where := c.ZKQuorum
	if c.Bootstrap != "" {
		where = c.Bootstrap
	}
	switch {
	case errors.Is(err, hberr.ErrTableNotFound):
		return startErrorf("table %q does not exist on the cluster at %s (create it with -create, or load it with PE's sequentialWrite)", c.Table, where)
	case errors.Is(err, hberr.ErrNoSuchFamily):
		return startErrorf("table %q has no column family %q (-family; -pe uses PE's info0)", c.Table, c.Family)
	case errors.Is(err, context.DeadlineExceeded):
		return startErrorf("cluster at %s did not answer within -op-timeout %v (%s %s: %v)", where, c.OpTimeout, what, c.Table, err)
	}
	return startErrorf("%s %s at %s: %v", what, c.Table, where, err)
}

// ServerLatency is the client's latency per region server (the report's section).
func (s *hbaseStore) ServerLatency() []hbasetrace.ServerLatency { return s.client.ServerLatency() }

// ResetServerLatency starts the latency per region server afresh (after the warm-up).
func (s *hbaseStore) ResetServerLatency() { s.client.ResetServerLatency() }

// Close closes the client, then the Kerberos credentials it used.
func (s *hbaseStore) Close() error {
	return s.closeAll()
}

// Get reads the value column of row, as PE's Gets ask for their column (addColumns).
func (s *hbaseStore) Get(ctx context.Context, row []byte) (bool, error) {
	g, err := hrpc.NewGet(s.table, row, hrpc.Columns(s.family, s.qualifier))
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
	p, err := hrpc.NewPut(s.table, row, hrpc.Value(s.family, s.qualifier, value))
	if err != nil {
		return err
	}
	_, err = s.client.Put(ctx, p)
	return err
}

// Increment adds 1 to family:IncrementTest of row.
func (s *hbaseStore) Increment(ctx context.Context, row []byte) (int64, error) {
	inc, err := hrpc.NewIncrement(s.table, row, hrpc.Amount(s.family, incrementQualifier, 1))
	if err != nil {
		return 0, err
	}
	res, err := s.client.Increment(ctx, inc)
	if err != nil {
		return 0, err
	}
	for _, c := range res.Cells {
		if len(c.Value) == 8 {
			return int64(binary.BigEndian.Uint64(c.Value)), nil
		}
	}
	return 0, fmt.Errorf("increment of %s: no 8-byte counter in the result", row)
}

// CheckAndMutate does what PE's CheckAndMutateTest does for one row: a Put of the row's key
// into family:CheckAndMutateTest, then a CheckAndMutate that puts it again if it is there.
func (s *hbaseStore) CheckAndMutate(ctx context.Context, row []byte) (bool, error) {
	p, err := hrpc.NewPut(s.table, row, hrpc.Value(s.family, checkAndMutateQualifier, row))
	if err != nil {
		return false, err
	}
	if _, err := s.client.Put(ctx, p); err != nil {
		return false, err
	}
	rm, err := hrpc.NewRowMutations([]hrpc.Mutation{p})
	if err != nil {
		return false, err
	}
	cam, err := hrpc.NewCheckAndMutateRow(hrpc.IfValue(s.family, checkAndMutateQualifier, hrpc.Equal, row), rm)
	if err != nil {
		return false, err
	}
	return s.client.CheckAndMutate(ctx, cam)
}

// PutBatch writes rows in one SendBatch (the table load).
func (s *hbaseStore) PutBatch(ctx context.Context, rows [][]byte, value []byte) error {
	calls := make([]hrpc.Batchable, len(rows))
	for i, row := range rows {
		p, err := hrpc.NewPut(s.table, row, hrpc.Value(s.family, s.qualifier, value))
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
func createTable(ctx context.Context, admin *admin.Admin, c *config, log *slog.Logger) error {
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
		splits, err := c.tableSplits()
		if err != nil {
			return err
		}
		opts = append(opts, hrpc.SplitKeys(splits...))
	}
	began := time.Now()
	if err := admin.CreateTable(ctx, desc, opts...); err != nil && !errors.Is(err, hberr.ErrTableExists) {
		return err
	}
	log.Info("table created", "table", c.Table, "regions", c.Regions, "took", time.Since(began).Round(time.Millisecond))
	return nil
}
