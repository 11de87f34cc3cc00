package engine

import (
	"bytes"

	"github.com/go-hbase/hbase/hrpc"
)

// scanBatches regroups the pieces of a row into results of exactly size cells, the last
// piece of a row excepted, for a Scan with a batch size that does not allow partial results.
// This is what the Java client's Scan.setBatch gives its users: the server caps each result
// at the batch size, but it also ends a result early when the RPC reaches its size or time
// limit, and those short pieces are not handed on as they come.
//
// The cells waiting here were not returned yet: when the scan is reopened (a region moved, a
// scanner expired) they are dropped, and the server sends them again, since the scan restarts
// at the last row returned and drops only the cells returned already (Scanner.dropReturned).
type scanBatches struct {
	size    int         // cells per result; 0: pieces pass through as they come
	row     []byte      // the row of pending
	pending []hrpc.Cell // cells of row not returned yet, in order
	stale   bool        // a piece in pending came from a secondary replica
}

// add takes the next piece of a row (its cells returned already dropped) and emits the
// batches it completes. A piece without Partial ends its row.
func (b *scanBatches) add(r *hrpc.Result, emit func(*hrpc.Result)) {
	if b.size == 0 {
		emit(r)
		return
	}
	row := r.Cells[0].Row
	if len(b.pending) > 0 && !bytes.Equal(b.row, row) {
		// The server flagged the row's last piece as possibly incomplete, but its
		// remaining cells were filtered out: the row ended.
		b.endRow(emit)
	}
	if len(b.pending) == 0 && (len(r.Cells) == b.size || !r.Partial && len(r.Cells) < b.size) {
		emit(r) // the common case: the server sent a full batch or a row's last piece
		return
	}
	b.row = row
	b.pending = append(b.pending, r.Cells...)
	b.stale = b.stale || r.Stale
	for len(b.pending) >= b.size {
		cells := b.pending[:b.size:b.size]
		b.pending = b.pending[b.size:]
		emit(&hrpc.Result{Cells: cells, Stale: b.stale, Partial: r.Partial || len(b.pending) > 0})
		if len(b.pending) == 0 {
			b.reset()
		}
	}
	if !r.Partial {
		b.endRow(emit)
	}
}

// endRow emits the cells of the row in progress as its last piece: the row ended (the
// region or the scan ended, or the server answered without results and without a heartbeat,
// which it does only at a row boundary).
func (b *scanBatches) endRow(emit func(*hrpc.Result)) {
	if len(b.pending) == 0 {
		return
	}
	r := &hrpc.Result{Cells: b.pending, Stale: b.stale}
	b.reset()
	emit(r)
}

// reset drops the cells not returned yet: the scan is reopened at the last row returned.
func (b *scanBatches) reset() {
	b.row, b.pending, b.stale = nil, nil, false
}

// withinLimit reports whether r, about to be returned, is within the Scan's limit, and
// counts the rows it ends. A limit counts rows, not results: a row passed on in pieces
// counts once, when its last piece (not Partial) goes out, or when a piece of the next row
// does (the server may flag a row's last piece as possibly incomplete). This is also how
// the server counts the limit sent with each request.
func (s *Scanner) withinLimit(r *hrpc.Result) bool {
	if !s.hasLimit {
		return true
	}
	if s.lastCell != nil && !bytes.Equal(r.Cells[0].Row, s.lastRow) {
		s.lastCell = nil // the row in progress ended
		s.limit--
	}
	if s.limit == 0 {
		return false
	}
	if !r.Partial {
		s.limit--
	}
	return true
}
