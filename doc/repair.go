package doc

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/parallelscan"
)

// RepairReport is what RepairIndex found and did.
type RepairReport struct {
	Index string
	// Rows is how many index rows it read, Documents how many documents.
	Rows, Documents int
	// Removed is how many index rows it removed: rows of a value their document does not have
	// (left by a write whose document write failed, or whose removal of the old rows did).
	Removed int
	// Added is how many index rows it wrote: values of documents that had none (a document
	// written by a program that did not know the index, or before it was defined).
	Added int
	// Young is how many rows of a value their document does not have it left alone: rows newer
	// than the document and than the repair grace (WithRepairGrace), which a write still under
	// way may have put. A later repair removes them if they stay stale.
	Young int
	// Examples lists some of the rows removed and added, as "removed .path=value id" lines.
	Examples []string
	// DryRun is set when nothing was written (RepairDryRun): Removed and Added count what a
	// repair would have done.
	DryRun bool
	Took   time.Duration
}

// String is the report in one line.
func (r RepairReport) String() string {
	s := fmt.Sprintf("index %s: %d rows and %d documents read; %d rows removed, %d added, %d young left alone (%v)",
		r.Index, r.Rows, r.Documents, r.Removed, r.Added, r.Young, r.Took.Round(time.Millisecond))
	if r.DryRun {
		s += " (dry run: nothing written)"
	}
	return s
}

// RepairOption configures RepairIndex.
type RepairOption func(*repairOptions) error

type repairOptions struct {
	dryRun      bool
	concurrency int
}

// RepairDryRun makes RepairIndex count what it would fix without writing.
func RepairDryRun() RepairOption {
	return func(o *repairOptions) error { o.dryRun = true; return nil }
}

// RepairConcurrency sets how many scanners read the collection at once (parallelscan's
// WithConcurrency; default parallelscan.DefaultConcurrency).
func RepairConcurrency(n int) RepairOption {
	return func(o *repairOptions) error {
		if n < 1 {
			return fmt.Errorf("doc: repair concurrency %d: want at least 1", n)
		}
		o.concurrency = n
		return nil
	}
}

// maxExamples bounds RepairReport.Examples.
const maxExamples = 20

// RepairIndex makes the index called name agree with the documents, while they are being
// written: first it reads every index row and the document it names, and removes the rows of
// values their document does not have (only up to the row's own timestamp, so that a writer
// putting the same row again meanwhile keeps it; a row newer than its document is left alone
// until it is older than the repair grace); then it reads every document (package
// parallelscan) and writes the rows of values that have none, at the document's timestamp
// (so that a later write that removes the value removes the row too). It is also how an index
// added to a collection that has documents is built.
func (c *Collection) RepairIndex(ctx context.Context, name string, opts ...RepairOption) (RepairReport, error) {
	began := time.Now()
	var o repairOptions
	for _, opt := range opts {
		if opt != nil {
			if err := opt(&o); err != nil {
				return RepairReport{}, c.fail("RepairIndex", "", "", err)
			}
		}
	}
	ix, err := c.indexNamed(name)
	if err != nil {
		return RepairReport{}, c.fail("RepairIndex", "", "", err)
	}
	r := RepairReport{Index: name, DryRun: o.dryRun}
	if err := c.removeStale(ctx, ix, &r, o); err != nil {
		return r, c.fail("RepairIndex", "", ix.q, err)
	}
	if err := c.addMissing(ctx, ix, &r, o); err != nil {
		return r, c.fail("RepairIndex", "", ix.q, err)
	}
	r.Took = time.Since(began)
	return r, nil
}

// indexRow is one row of an index as the repair read it.
type indexRow struct {
	row []byte
	key string
	id  string
	ts  uint64
}

func (r *RepairReport) example(what string, ix *index, key, id string) {
	if len(r.Examples) < maxExamples {
		r.Examples = append(r.Examples, fmt.Sprintf("%s %s=%s %q", what, ix.q, keyString([]byte(key)), id))
	}
}

// removeStale reads the index rows and their documents, batch by batch, and removes the rows
// of values the documents do not have.
func (c *Collection) removeStale(ctx context.Context, ix *index, r *RepairReport, o repairOptions) error {
	s, err := hrpc.NewScan(c.idxTable, hrpc.Families(c.idxFam), hrpc.Prefix(ix.prefix()))
	if err != nil {
		return err
	}
	sel := selection{}
	sel.addSubtree(ix.q)
	var batch []indexRow
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		calls := make([]hrpc.Batchable, len(batch))
		for i, e := range batch {
			g, err := hrpc.NewGet(c.table, []byte(e.id), c.getOptions(sel)...)
			if err != nil {
				return err
			}
			calls[i] = g
		}
		var dels []hrpc.Batchable
		graceEnd := uint64(c.now().Add(-c.grace).UnixMilli())
		for i, res := range c.c.SendBatch(ctx, calls) {
			if res.Err != nil {
				return res.Err
			}
			e := batch[i]
			cur, err := c.rowCells(res.Result.Cells)
			if err != nil {
				return fmt.Errorf("document %q: %w", e.id, err)
			}
			var keys []string
			if cur.exists && cur.meta.live() {
				if keys, err = ix.keys(cur.cells); err != nil {
					return fmt.Errorf("document %q: %w", e.id, err)
				}
			}
			if slices.Contains(keys, e.key) {
				continue
			}
			if e.ts > cur.meta.ts && e.ts >= graceEnd {
				r.Young++
				continue
			}
			r.Removed++
			r.example("removed", ix, e.key, e.id)
			d, err := hrpc.NewDelete(c.idxTable, e.row, hrpc.Timestamp(e.ts))
			if err != nil {
				return err
			}
			dels = append(dels, d)
		}
		batch = batch[:0]
		if o.dryRun {
			return nil
		}
		return c.send(ctx, dels)
	}
	for res, err := range c.c.Scan(ctx, s) {
		if err != nil {
			return err
		}
		if len(res.Cells) == 0 {
			continue
		}
		cell := res.Cells[0]
		key, id, err := ix.parseRow(cell.Row)
		if err != nil {
			return fmt.Errorf("index row %q: %w", cell.Row, err)
		}
		r.Rows++
		batch = append(batch, indexRow{row: append([]byte(nil), cell.Row...), key: string(key), id: id, ts: cell.Timestamp})
		if len(batch) == findBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// rowCells reads a document's cells (a Get's or a scan's) as a write reads them.
func (c *Collection) rowCells(cs []hrpc.Cell) (*current, error) {
	cur := &current{cells: make(cells, len(cs))}
	for i := range cs {
		cell := &cs[i]
		if string(cell.Qualifier) == metaQualifier {
			m, err := decodeMeta(cell.Value)
			if err != nil {
				return nil, err
			}
			cur.exists, cur.meta, cur.raw = true, m, cell.Value
			continue
		}
		cur.cells[string(cell.Qualifier)] = cell.Value
	}
	return cur, nil
}

// addMissing reads every document (the index's subtree) and writes the index rows of values
// that have none.
func (c *Collection) addMissing(ctx context.Context, ix *index, r *RepairReport, o repairOptions) error {
	sel := selection{}
	sel.addSubtree(ix.q)
	live := &hrpc.SingleColumnValueFilter{Family: c.family, Qualifier: metaQualifierBytes, Op: hrpc.Less,
		Comparator: hrpc.BinaryComparator{Value: []byte{stateDeleted}}, FilterIfMissing: true}
	s, err := hrpc.NewScan(c.table, hrpc.Families(c.family),
		hrpc.WithFilter(hrpc.NewFilterList(hrpc.MustPassAll, live, selectionFilter(sel))))
	if err != nil {
		return err
	}
	type want struct {
		row []byte
		key string
		id  string
		ts  uint64
	}
	var batch []want
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		calls := make([]hrpc.Batchable, len(batch))
		for i, w := range batch {
			g, err := hrpc.NewGet(c.idxTable, w.row, hrpc.Families(c.idxFam))
			if err != nil {
				return err
			}
			calls[i] = g
		}
		var puts []hrpc.Batchable
		for i, res := range c.c.SendBatch(ctx, calls) {
			if res.Err != nil {
				return res.Err
			}
			if len(res.Result.Cells) > 0 {
				continue
			}
			w := batch[i]
			r.Added++
			r.example("added", ix, w.key, w.id)
			p, err := hrpc.NewPut(c.idxTable, w.row, hrpc.Timestamp(w.ts), hrpc.Value(c.idxFam, indexQualifier, nil))
			if err != nil {
				return err
			}
			puts = append(puts, p)
		}
		batch = batch[:0]
		if o.dryRun {
			return nil
		}
		return c.send(ctx, puts)
	}
	var popts []parallelscan.Option
	if o.concurrency > 0 {
		popts = append(popts, parallelscan.WithConcurrency(o.concurrency))
	}
	for res, err := range parallelscan.Scan(ctx, c.c, s, popts...) {
		if err != nil {
			return err
		}
		if len(res.Cells) == 0 {
			continue
		}
		id := string(res.Cells[0].Row)
		cur, err := c.rowCells(res.Cells)
		if err != nil {
			return fmt.Errorf("document %q: %w", id, err)
		}
		if !cur.exists || !cur.meta.live() {
			continue
		}
		r.Documents++
		keys, err := ix.keys(cur.cells)
		if err != nil {
			return fmt.Errorf("document %q: %w", id, err)
		}
		for _, k := range keys {
			batch = append(batch, want{row: ix.row(k, id), key: k, id: id, ts: cur.meta.ts})
		}
		if len(batch) >= findBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}
