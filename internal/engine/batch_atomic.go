package engine

import (
	"fmt"
	"slices"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// A CheckAndMutate or RowMutations of a batch is a region action of its own, atomic, with the
// CheckAndMutate's condition (HBase 2.4+, as Java's AsyncBatchRpcRetryingCaller sends them):
// the server answers it with one RegionActionResult, an exception for the whole of it or one
// result per mutation (indexed from 0 within the region action) and the condition's verdict
// in processed.

func isAtomic(call hrpc.Batchable) bool {
	_, ok := wireOf(call).(wire.AtomicBatchable)
	return ok
}

func isCheckAndMutate(call hrpc.Batchable) bool {
	_, ok := call.(*hrpc.CheckAndMutate)
	return ok
}

// addAtomic adds the atomic calls of one region to multi, each as its region action, and
// returns sent with one entry for each (a call that cannot be built gets its error instead).
func addAtomic(multi *wire.Multi, region []byte, atomic []int, calls []hrpc.Batchable, results []hrpc.BatchResult, sent [][]int) [][]int {
	for _, i := range atomic {
		if err := multi.AddAtomic(wireOf(calls[i]).(wire.AtomicBatchable), region); err != nil {
			results[i].Err = err
			continue
		}
		sent = append(sent, []int{i})
	}
	return sent
}

// atomicResult reads the result of an atomic region action: its mutations' results merged
// (an Append's or Increment's new values; empty for Puts and Deletes) and the processed flag,
// or ex, the exception of one of its actions (the server applied none of them), or err when
// the answer does not decode (whether it was applied is then unknown).
func atomicResult(rar *pb.RegionActionResult, rd *wire.CellReader) (res *hrpc.Result, processed bool, ex, err error) {
	res = &hrpc.Result{}
	for _, roe := range rar.GetResultOrException() {
		if e := roe.GetException(); e != nil {
			if ex == nil {
				ex = wire.ActionException(e)
			}
			continue
		}
		if roe.GetResult() == nil {
			continue
		}
		r, perr := hrpcwire.ParseResult(roe.GetResult(), rd)
		if perr != nil {
			return nil, false, nil, perr
		}
		if r != nil {
			res.Cells = append(res.Cells, r.Cells...)
		}
	}
	if ex != nil {
		return nil, false, ex, nil
	}
	if rar.Processed == nil {
		return nil, false, nil, fmt.Errorf("%w: no processed flag in the result of an atomic region action", wire.ErrBadResponse)
	}
	res.Cells = slices.Clip(res.Cells)
	return res, rar.GetProcessed(), nil, nil
}
