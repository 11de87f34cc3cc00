package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// batchPutter is a store that writes many rows in one request. The unmeasured load uses it
// when the store has it: filling the table is set-up, and one Put per row would make it
// take longer than the benchmark itself.
type batchPutter interface {
	PutBatch(ctx context.Context, rows [][]byte, value []byte) error
}

// loadBatchRows is how many rows one load request writes.
const loadBatchRows = 200

// loadRows writes every row of [0, c.Rows) once, with c.Concurrency goroutines, and stops at
// the first failure.
func loadRows(ctx context.Context, st store, c *config) (time.Duration, error) {
	start := time.Now()
	bp, ok := st.(batchPutter)
	if !ok {
		spec := specFor(c, seqWrite, "", 0)
		spec.Duration, spec.Ops = 0, c.Rows
		spec.Rate, spec.Interval, spec.Progress = 0, 0, nil // set-up: unpaced and unshown
		r, err := runWorkload(ctx, st, spec)
		if err != nil {
			return 0, err
		}
		if r.Errors > 0 {
			return 0, fmt.Errorf("%d of %d puts failed, e.g. %v", r.Errors, c.Rows, r.ErrorSamples)
		}
		return time.Since(start), nil
	}
	batches := (c.Rows + loadBatchRows - 1) / loadBatchRows
	var next atomic.Int64
	var failed atomic.Bool
	var once sync.Once
	var firstErr error
	var wg sync.WaitGroup
	for i := range min(int64(c.Concurrency), batches) {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(c.Seed, uint64(i)+1))
			value := make([]byte, c.ValueSize)
			for j := range value {
				value[j] = byte(rng.Uint32())
			}
			rows := make([][]byte, 0, loadBatchRows)
			for !failed.Load() {
				b := next.Add(1) - 1
				if b >= batches {
					return
				}
				rows = rows[:0]
				for n := b * loadBatchRows; n < min((b+1)*loadBatchRows, c.Rows); n++ {
					rows = append(rows, appendKey(make([]byte, 0, c.KeySize), uint64(n), c.KeySize))
				}
				bctx, cancel := context.WithTimeout(ctx, c.OpTimeout)
				err := bp.PutBatch(bctx, rows, value)
				cancel()
				if err != nil {
					once.Do(func() { firstErr = fmt.Errorf("rows %s..%s: %w", rows[0], rows[len(rows)-1], err) })
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return 0, firstErr
	}
	return time.Since(start), ctx.Err()
}
