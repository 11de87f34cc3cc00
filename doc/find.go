package doc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// FindOption configures Find: the ReadOptions (Project) and the QueryOptions.
type FindOption interface{ findOption() }

func (ReadOption) findOption()  {}
func (QueryOption) findOption() {}

// QueryOption configures what Find reads.
type QueryOption func(*queryOptions) error

type queryOptions struct {
	start, stop string
	limit       int
	noIndex     bool
	useIndex    string
}

// IDRange restricts Find to the documents whose id is in [start, stop) ("" leaves a side
// open): a scan of that range of rows, or a filter of the ids an index finds.
func IDRange(start, stop string) QueryOption {
	return func(o *queryOptions) error {
		if stop != "" && start >= stop {
			return fmt.Errorf("%w: id range [%q, %q) is empty", hberr.ErrInvalidQuery, start, stop)
		}
		o.start, o.stop = start, stop
		return nil
	}
}

// Limit stops Find after n documents.
func Limit(n int) QueryOption {
	return func(o *queryOptions) error {
		if n < 1 {
			return fmt.Errorf("%w: limit %d", hberr.ErrInvalidQuery, n)
		}
		o.limit = n
		return nil
	}
}

// WithoutIndex makes Find scan the collection even when an index could serve the condition.
func WithoutIndex() QueryOption {
	return func(o *queryOptions) error { o.noIndex = true; return nil }
}

// UseIndex makes Find use the index called name, failing with hberr.ErrInvalidQuery when the
// condition gives it nothing to look up (a comparison, prefix or Contains on its path, alone
// or in an And).
func UseIndex(name string) QueryOption {
	return func(o *queryOptions) error { o.useIndex = name; return nil }
}

// plan is how Find reads: the condition, what it reads of each document, and either the index
// rows it scans or the filter it pushes to a scan of the collection.
type plan struct {
	k     *cond
	q     queryOptions
	proj  readOptions
	sel   selection // of each document: whole, or the projection and the condition's paths
	extra bool      // the condition reads paths the projection leaves out

	ix          *index
	start, stop []byte // the index rows
	filter      hrpc.Filter
}

func (c *Collection) plan(k Cond, opts []FindOption) (*plan, error) {
	p := &plan{}
	for _, opt := range opts {
		var err error
		switch o := opt.(type) {
		case ReadOption:
			if o != nil {
				err = o(&p.proj)
			}
		case QueryOption:
			if o != nil {
				err = o(&p.q)
			}
		case nil:
		default:
			err = fmt.Errorf("%w: option of type %T", hberr.ErrInvalidQuery, opt)
		}
		if err != nil {
			return nil, err
		}
	}
	var err error
	if p.k, err = c.compile(k); err != nil {
		return nil, err
	}
	p.sel = p.proj.selection()
	if !p.sel.whole {
		for _, q := range p.k.paths(nil) {
			if !inSubtrees(q, p.proj.paths) {
				p.sel.addSubtree(q)
				p.extra = true
			}
		}
	}
	if !p.q.noIndex {
		if err := c.chooseIndex(p); err != nil {
			return nil, err
		}
	}
	if p.ix == nil {
		live := &hrpc.SingleColumnValueFilter{Family: c.family, Qualifier: metaQualifierBytes, Op: hrpc.Less,
			Comparator: hrpc.BinaryComparator{Value: []byte{stateDeleted}}, FilterIfMissing: true}
		fs := []hrpc.Filter{live}
		if f := p.k.filter(c.family); f != nil {
			fs = append(fs, f)
		}
		if !p.sel.whole {
			fs = append(fs, selectionFilter(p.sel))
		}
		p.filter = hrpc.NewFilterList(hrpc.MustPassAll, fs...)
	}
	return p, nil
}

// inSubtrees reports whether qualifier q lies in the subtree of one of paths.
func inSubtrees(q string, paths []string) bool {
	for _, p := range paths {
		if q == p || strings.HasPrefix(q, p+".") || strings.HasPrefix(q, p+"[") {
			return true
		}
	}
	return false
}

// chooseIndex picks the index rows to read: a condition of the And (or the condition itself)
// on an indexed path, an equality or Contains first, then a prefix, then a range.
func (c *Collection) chooseIndex(p *plan) error {
	cands := []*cond{p.k}
	if p.k.kind == condAnd {
		cands = p.k.subs
	}
	best, rank := (*cond)(nil), 0
	var bestIx *index
	for _, k := range cands {
		r := 0
		switch {
		case k.kind == condContains, k.kind == condRange && k.loKey != nil && k.hiKey != nil && k.loInc && k.hiInc && string(k.loKey) == string(k.hiKey):
			r = 3
		case k.kind == condPrefix:
			r = 2
		case k.kind == condRange:
			r = 1
		default:
			continue
		}
		for _, ix := range c.indexes {
			if ix.q != k.q || p.q.useIndex != "" && ix.name != p.q.useIndex {
				continue
			}
			if r > rank {
				best, rank, bestIx = k, r, ix
			}
		}
	}
	if best == nil {
		if p.q.useIndex != "" {
			if _, err := c.indexNamed(p.q.useIndex); err != nil {
				return err
			}
			return fmt.Errorf("%w: index %q cannot serve %s", hberr.ErrInvalidQuery, p.q.useIndex, p.k)
		}
		return nil
	}
	p.ix = bestIx
	pre := bestIx.prefix()
	switch {
	case rank == 3:
		p.start = append(pre, best.loKey...)
		p.stop = prefixEnd(p.start)
	case best.kind == condPrefix:
		k := scalarKey(nil, best.prefix)
		p.start = append(pre, k[:len(k)-2]...) // the string's key without its terminator
		p.stop = prefixEnd(p.start)
	default:
		if best.loKey != nil {
			p.start = append(append([]byte(nil), pre...), best.loKey...)
			if !best.loInc {
				p.start = prefixEnd(p.start)
			}
		} else {
			p.start = append(append([]byte(nil), pre...), typeClass(best.tag))
		}
		if best.hiKey != nil {
			p.stop = append(append([]byte(nil), pre...), best.hiKey...)
			if best.hiInc {
				p.stop = prefixEnd(p.stop)
			}
		} else {
			next := best.tag + 1
			if best.tag == tagFalse {
				next = tagTrue + 1
			}
			p.stop = append(append([]byte(nil), pre...), next)
		}
	}
	return nil
}

// Explain says how Find would read the documents of cond: the index rows it would scan, or
// the scan of the collection and the filter it would push down; then the check of each
// document.
func (c *Collection) Explain(k Cond, opts ...FindOption) (string, error) {
	p, err := c.plan(k, opts)
	if err != nil {
		return "", c.fail("Find", "", "", err)
	}
	var b strings.Builder
	if p.ix != nil {
		fmt.Fprintf(&b, "index %s (%s): rows [%q, %q), then a Get of each document", p.ix.name, p.ix.q, p.start, p.stop)
	} else {
		fmt.Fprintf(&b, "scan of %s", c.table)
		if p.q.start != "" || p.q.stop != "" {
			fmt.Fprintf(&b, " ids [%q, %q)", p.q.start, p.q.stop)
		}
		b.WriteString(", filter pushed down: ")
		if f := p.k.filter(c.family); f != nil {
			b.WriteString(p.k.String())
		} else {
			b.WriteString("live documents only")
		}
	}
	fmt.Fprintf(&b, "; each document checked: %s", p.k)
	if len(p.proj.paths) > 0 {
		fmt.Fprintf(&b, "; projection %v", p.proj.paths)
	}
	return b.String(), nil
}

// Find returns the documents cond matches, in id order (with an index: in the index's order
// of values, then ids). Without an index that serves cond it scans the collection (or the id
// range of IDRange), pushing down as a filter what HBase's filters can say of cond; with
// one, it scans the index rows of cond's values and reads each document, skipping those whose
// value no longer matches (an index row left by a write that failed halfway: see the package
// documentation). Every document is checked against cond before it is returned. The last
// value is the error that ended the query, if any.
func (c *Collection) Find(ctx context.Context, k Cond, opts ...FindOption) iter.Seq2[*Document, error] {
	return func(yield func(*Document, error) bool) {
		p, err := c.plan(k, opts)
		if err != nil {
			yield(nil, c.fail("Find", "", "", err))
			return
		}
		n := 0
		emit := func(d *Document) bool {
			n++
			return yield(d, nil) && (p.q.limit == 0 || n < p.q.limit)
		}
		if p.ix != nil {
			err = c.findIndexed(ctx, p, emit)
		} else {
			err = c.findScan(ctx, p, emit)
		}
		if err != nil {
			yield(nil, c.fail("Find", "", "", err))
		}
	}
}

// errStop ends a query whose caller stopped.
var errStop = errors.New("stopped")

// check decodes a row, checks it against the plan's condition, and returns its Document
// (nil when it does not match or is no live document).
func (c *Collection) check(p *plan, id string, cs []hrpc.Cell) (*Document, error) {
	cs = c.selected(cs, &p.sel)
	d, err := c.decode(id, cs, !p.sel.whole)
	if err != nil {
		if errors.Is(err, hberr.ErrDocumentNotFound) {
			return nil, nil
		}
		return nil, fmt.Errorf("document %q: %w", id, err)
	}
	if !p.k.match(d.Fields) {
		return nil, nil
	}
	if p.extra {
		kept := cs[:0:0]
		for _, cell := range cs {
			if q := string(cell.Qualifier); q == metaQualifier || inSubtrees(q, p.proj.paths) {
				kept = append(kept, cell)
			}
		}
		return c.decode(id, kept, true)
	}
	return d, nil
}

func (c *Collection) findScan(ctx context.Context, p *plan, emit func(*Document) bool) error {
	opts := []hrpc.ScanOption{hrpc.Families(c.family), hrpc.WithFilter(p.filter)}
	if p.q.start != "" {
		opts = append(opts, hrpc.StartRow([]byte(p.q.start)))
	}
	if p.q.stop != "" {
		opts = append(opts, hrpc.StopRow([]byte(p.q.stop)))
	}
	s, err := hrpc.NewScan(c.table, opts...)
	if err != nil {
		return err
	}
	for res, err := range c.c.Scan(ctx, s) {
		if err != nil {
			return err
		}
		if len(res.Cells) == 0 {
			continue
		}
		d, err := c.check(p, string(res.Cells[0].Row), res.Cells)
		if err != nil {
			return err
		}
		if d != nil && !emit(d) {
			return nil
		}
	}
	return nil
}

// findBatch is how many documents an index query reads in one batch of Gets.
const findBatch = 64

func (c *Collection) findIndexed(ctx context.Context, p *plan, emit func(*Document) bool) error {
	if p.stop != nil && bytes.Compare(p.start, p.stop) >= 0 {
		return nil // an empty range: the bounds cross
	}
	s, err := hrpc.NewScan(c.idxTable, hrpc.Families(c.idxFam), hrpc.StartRow(p.start), hrpc.StopRow(p.stop))
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	var ids []string
	flush := func() error {
		if len(ids) == 0 {
			return nil
		}
		calls := make([]hrpc.Batchable, len(ids))
		for i, id := range ids {
			g, err := hrpc.NewGet(c.table, []byte(id), c.getOptions(p.sel)...)
			if err != nil {
				return err
			}
			calls[i] = g
		}
		results := c.c.SendBatch(ctx, calls)
		for i, r := range results {
			if r.Err != nil {
				return r.Err
			}
			d, err := c.check(p, ids[i], r.Result.Cells)
			if err != nil {
				return err
			}
			if d != nil && !emit(d) {
				return errStop
			}
		}
		ids = ids[:0]
		return nil
	}
	for res, err := range c.c.Scan(ctx, s) {
		if err != nil {
			return err
		}
		if len(res.Cells) == 0 {
			continue
		}
		_, id, err := p.ix.parseRow(res.Cells[0].Row)
		if err != nil {
			return fmt.Errorf("%w: index %s: row %q: %v", hberr.ErrInvalidDocument, p.ix.name, res.Cells[0].Row, err)
		}
		if seen[id] || id == "" || id < p.q.start || p.q.stop != "" && id >= p.q.stop {
			continue
		}
		seen[id] = true
		ids = append(ids, id)
		if len(ids) == findBatch {
			if err := flush(); err != nil {
				if err == errStop {
					return nil
				}
				return err
			}
		}
	}
	if err := flush(); err != nil && err != errStop {
		return err
	}
	return nil
}
