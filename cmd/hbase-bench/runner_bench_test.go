package main

import (
	"context"
	"testing"
)

// nopStore answers at once, so a run over it measures the runner's own cost per operation:
// the floor under every CPU µs/op and allocs/op figure hbase-bench prints.
type nopStore struct{}

func (nopStore) Get(context.Context, []byte) (bool, error)      { return true, nil }
func (nopStore) Put(context.Context, []byte, []byte) error      { return nil }
func (nopStore) Scan(context.Context, []byte, int) (int, error) { return 1, nil }
func (nopStore) ScanRange(context.Context, []byte, []byte) (int, error) {
	return 1, nil
}
func (nopStore) Increment(context.Context, []byte) (int64, error)     { return 1, nil }
func (nopStore) CheckAndMutate(context.Context, []byte) (bool, error) { return true, nil }
func (nopStore) FilterScan(context.Context, []byte) (int, error)      { return 0, nil }
func (nopStore) OpenScan(context.Context, []byte, []byte) rowCursor   { return nopCursor{} }

type nopCursor struct{}

func (nopCursor) Next() (bool, error) { return true, nil }
func (nopCursor) Close()              {}

func BenchmarkRunnerOverhead(b *testing.B) {
	spec := testSpec(randRead)
	spec.Concurrency = 1
	spec.Ops = int64(b.N)
	b.ReportAllocs()
	b.ResetTimer()
	r, err := runWorkload(b.Context(), nopStore{}, spec)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(r.AllocsPerOp, "measured-allocs/op")
}
