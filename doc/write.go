package doc

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// WriteOption configures a write (Insert, Replace, Upsert, Update, Delete).
type WriteOption func(*writeOptions) error

type writeOptions struct {
	ifVersion    uint64
	hasIfVersion bool
}

// IfVersion makes a write conditional: it applies only if the document is at version v when
// the write reaches it (its check and its mutation are one atomic CheckAndMutate), and fails
// with hberr.ErrVersionConflict otherwise, writing nothing. Without it a write that finds the
// document changed between its read and its mutation reads it again and tries again, until its
// context ends: writers never lose each other's changes either way, but only a conditional
// write knows that the document is still as its caller saw it. Insert ignores it.
func IfVersion(v uint64) WriteOption {
	return func(o *writeOptions) error { o.ifVersion, o.hasIfVersion = v, true; return nil }
}

func writeOpts(opts []WriteOption) (writeOptions, error) {
	var o writeOptions
	for _, opt := range opts {
		if opt != nil {
			if err := opt(&o); err != nil {
				return o, err
			}
		}
	}
	return o, nil
}

// current is a document as a write read it: its version cell (raw, for the condition) and the
// cells of what the write needs.
type current struct {
	exists bool // the row has a version cell (a live document or a tombstone)
	meta   meta
	raw    []byte
	cells  cells
}

// write is one attempt of a write: the version cell it replaces and the one it writes, the
// cells it puts, those it deletes, and the index keys it adds and removes.
type write struct {
	next      meta
	puts      cells
	dels      []string
	deleteAll bool
	index     []indexChange
}

// selection is what a write or a read needs of a row: the whole family, or the version cell,
// some exact qualifiers and some subtrees.
type selection struct {
	whole    bool
	exact    []string
	subtrees []string
}

func (s *selection) addExact(q string)   { s.exact = append(s.exact, q) }
func (s *selection) addSubtree(q string) { s.subtrees = append(s.subtrees, q) }

// addAncestors adds the exact qualifiers of every container above segs' last segment.
func (s *selection) addAncestors(segs []segment) {
	var b []byte
	for _, seg := range segs[:len(segs)-1] {
		b = appendSegment(b, seg)
		s.exact = append(s.exact, string(b))
	}
}

// getOptions turns a selection into a Get's options: the whole family; or the version cell
// and the exact qualifiers as columns; or, with subtrees, the family and selectionFilter.
func (c *Collection) getOptions(sel selection) []hrpc.GetOption {
	if sel.whole {
		return c.wholeGet
	}
	if len(sel.subtrees) == 0 {
		sel = sel.minimal()
		qs := make([][]byte, 0, 1+len(sel.exact))
		qs = append(qs, metaQualifierBytes)
		for _, q := range sel.exact {
			qs = append(qs, []byte(q))
		}
		return []hrpc.GetOption{hrpc.Columns(c.family, qs...)}
	}
	return []hrpc.GetOption{c.familyOnly, hrpc.WithFilter(selectionFilter(sel))}
}

// minimal drops the subtrees inside other subtrees and the exact qualifiers inside subtrees,
// and sorts what is left.
func (s selection) minimal() selection {
	out := selection{whole: s.whole}
	subs := slices.Clone(s.subtrees)
	slices.Sort(subs)
	subs = slices.Compact(subs)
	for _, q := range subs {
		if !inSubtrees(q, out.subtrees) {
			out.subtrees = append(out.subtrees, q)
		}
	}
	for _, q := range s.exact {
		if !inSubtrees(q, out.subtrees) && !slices.Contains(out.exact, q) {
			out.exact = append(out.exact, q)
		}
	}
	return out
}

// keeps reports whether a qualifier is in the selection.
func (s *selection) keeps(q string) bool {
	return s.whole || q == metaQualifier || slices.Contains(s.exact, q) || inSubtrees(q, s.subtrees)
}

// prefixes are the qualifier prefixes that cover the version cell and the subtrees: each
// subtree's path itself, which also covers the siblings whose keys start like its last key
// (".a" covers ".ab": the client drops them), none a prefix of another. A
// MultipleColumnPrefixFilter looks only at the greatest of its prefixes not above a qualifier,
// so a prefix inside another would hide the rest of the outer one's qualifiers.
func (s selection) prefixes() [][]byte {
	all := append([]string{metaQualifier}, s.subtrees...)
	slices.Sort(all)
	var out [][]byte
	last := ""
	for _, p := range all {
		if len(out) > 0 && strings.HasPrefix(p, last) {
			continue
		}
		out = append(out, []byte(p))
		last = p
	}
	return out
}

// selectionFilter keeps the cells of a selection (not whole): a MultipleColumnPrefixFilter of
// the version cell and the subtrees, ORed with a QualifierFilter per exact qualifier (the
// markers of the containers above an update's paths) that no prefix covers.
func selectionFilter(sel selection) hrpc.Filter {
	sel = sel.minimal()
	prefixes := sel.prefixes()
	mcpf := &hrpc.MultipleColumnPrefixFilter{Prefixes: prefixes}
	var filters []hrpc.Filter
	for _, q := range sel.exact {
		if !slices.ContainsFunc(prefixes, func(p []byte) bool { return strings.HasPrefix(q, string(p)) }) {
			filters = append(filters, &hrpc.QualifierFilter{Op: hrpc.Equal, Comparator: hrpc.BinaryComparator{Value: []byte(q)}})
		}
	}
	if len(filters) == 0 {
		return mcpf
	}
	return hrpc.NewFilterList(hrpc.MustPassOne, append(filters, mcpf)...)
}

// read reads what sel selects of document id.
func (c *Collection) read(ctx context.Context, id string, sel selection) (*current, error) {
	cs, err := c.fetch(ctx, id, sel)
	if err != nil {
		return nil, err
	}
	return c.rowCells(c.selected(cs, &sel))
}

// fetch reads the cells of row id that sel selects (and perhaps more: selected drops them).
// A selection with subtrees is read first as explicit columns: the version cell, the exact
// qualifiers and the subtrees' roots. A root that is a scalar, an empty array or absent has
// nothing under it (a row has no cell under a scalar, past its array's length or without its
// parent's marker), and the server answers a Get of columns faster than one with a prefix
// filter. Only when a root is an object or an array with elements is the row read again,
// with the filter; that read alone is used, so the cells are still of one row version. A
// root the collection has seen as a container is read with the filter at once.
func (c *Collection) fetch(ctx context.Context, id string, sel selection) ([]hrpc.Cell, error) {
	if !sel.whole && len(sel.subtrees) > 0 {
		if !c.shapes.anyContainer(sel.subtrees) {
			cols := selection{exact: append(slices.Clip(sel.exact), sel.subtrees...)}
			cs, err := c.get(ctx, id, cols)
			if err != nil || !slices.ContainsFunc(sel.subtrees, func(r string) bool { return containerIn(cs, r) }) {
				return cs, err
			}
		}
		cs, err := c.get(ctx, id, sel)
		if err == nil {
			c.shapes.learn(cs, sel.subtrees)
		}
		return cs, err
	}
	return c.get(ctx, id, sel)
}

// get is one Get of what sel selects of row id.
func (c *Collection) get(ctx context.Context, id string, sel selection) ([]hrpc.Cell, error) {
	g, err := hrpc.NewGet(c.table, []byte(id), c.getOptions(sel)...)
	if err != nil {
		return nil, err
	}
	res, err := c.c.Get(ctx, g)
	if err != nil {
		return nil, err
	}
	return res.Cells, nil
}

// selected keeps the cells of the collection's family that sel selects (a prefix filter also
// lets through siblings whose keys start like a selected one).
// Most reads keep every cell: cs itself is returned then, without a copy.
func (c *Collection) selected(cs []hrpc.Cell, sel *selection) []hrpc.Cell {
	keep := func(cell *hrpc.Cell) bool {
		return bytes.Equal(cell.Family, c.family) && (sel.whole || sel.keeps(string(cell.Qualifier)))
	}
	for i := range cs {
		if keep(&cs[i]) {
			continue
		}
		out := make([]hrpc.Cell, i, len(cs)-1)
		copy(out, cs[:i])
		for j := i + 1; j < len(cs); j++ {
			if keep(&cs[j]) {
				out = append(out, cs[j])
			}
		}
		return out
	}
	return cs
}

// attempt is what a write does with the document as it read it: the write to make, or why
// it cannot be made.
type attempt func(cur *current, ts uint64) (*write, error)

// errConflict is a conditional write's refusal by the server: the version cell had changed.
var errConflict = errors.New("conflict")

// run is every write: read what sel selects, make the attempt's write, put its new index
// rows, apply it conditionally on the version cell read, then remove the index rows it made
// stale. A write refused because the document changed meanwhile is read and tried again
// (after a short random pause) until ctx ends, unless the caller made it conditional. first,
// when set, is tried once before any read (Insert's guess: no document).
func (c *Collection) run(ctx context.Context, id string, sel selection, wo writeOptions, first *current, plan attempt) (uint64, error) {
	if id == "" {
		return 0, invalid("empty document id")
	}
	pause := time.Millisecond
	for try := 0; ; try++ {
		cur := first
		if try > 0 || cur == nil {
			var err error
			if cur, err = c.read(ctx, id, sel); err != nil {
				return 0, err
			}
		}
		if wo.hasIfVersion && (!cur.exists || !cur.meta.live() || cur.meta.version != wo.ifVersion) {
			return 0, versionConflict(wo.ifVersion, cur)
		}
		ts := nextTimestamp(c.now(), cur.meta.ts)
		w, err := plan(cur, ts)
		if err != nil {
			return 0, err
		}
		w.next.ts = ts
		w.next.writer = rand.Uint64()
		if cur.exists {
			w.next.version = cur.meta.version + 1
		} else {
			w.next.version = 1
		}
		if err := checkRowSize(c.lim, w.next.size); err != nil {
			return 0, err
		}
		err = c.apply(ctx, id, cur, w)
		switch {
		case err == nil:
			c.removeIndexKeys(ctx, id, w) // best effort: reads hide what it leaves
			return w.next.version, nil
		case !errors.Is(err, errConflict):
			return 0, err
		case wo.hasIfVersion:
			return 0, hberr.ErrVersionConflict
		}
		if err := sleep(ctx, pause+rand.N(pause)); err != nil {
			return 0, err
		}
		pause = min(2*pause, 50*time.Millisecond)
	}
}

func versionConflict(want uint64, cur *current) error {
	if !cur.exists || !cur.meta.live() {
		return errors.Join(hberr.ErrVersionConflict, hberr.ErrDocumentNotFound)
	}
	return hberr.ErrVersionConflict
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}

// apply puts w's new index keys, then applies w to the row if its version cell is still what
// cur read: errConflict when it is not. A CheckAndMutate whose outcome is unknown (its
// connection broke) is settled by reading the version cell: w's own (drawn at random) means
// applied; anything else leaves the error, hberr.ErrIndeterminate.
func (c *Collection) apply(ctx context.Context, id string, cur *current, w *write) error {
	if err := c.putIndexKeys(ctx, id, w); err != nil {
		return err
	}
	row := []byte(id)
	ts := w.next.ts
	putOpts := make([]hrpc.PutOption, 0, len(w.puts)+2)
	putOpts = append(putOpts, hrpc.Timestamp(ts))
	for q, v := range w.puts {
		putOpts = append(putOpts, hrpc.Value(c.family, []byte(q), v))
	}
	nextRaw := w.next.encode()
	putOpts = append(putOpts, hrpc.Value(c.family, metaQualifierBytes, nextRaw))
	put, err := hrpc.NewPut(c.table, row, putOpts...)
	if err != nil {
		return err
	}
	var del *hrpc.Delete
	switch {
	case w.deleteAll:
		// Every cell of the document has a timestamp below ts: the family up to ts-1 is all of
		// them, and none of this write's.
		del, err = hrpc.NewDelete(c.table, row, hrpc.DeleteFamily(c.family), hrpc.Timestamp(ts-1))
	case len(w.dels) > 0:
		delOpts := make([]hrpc.DeleteOption, 0, len(w.dels)+1)
		delOpts = append(delOpts, hrpc.Timestamp(ts-1))
		for _, q := range w.dels {
			delOpts = append(delOpts, hrpc.DeleteColumn(c.family, []byte(q)))
		}
		del, err = hrpc.NewDelete(c.table, row, delOpts...)
	}
	if err != nil {
		return err
	}
	cond := hrpc.IfNotExists(c.family, metaQualifierBytes)
	if cur.exists {
		cond = hrpc.IfValue(c.family, metaQualifierBytes, hrpc.Equal, cur.raw)
	}
	var cam *hrpc.CheckAndMutate
	if del == nil {
		cam, err = hrpc.NewCheckAndMutate(cond, put)
	} else {
		var rm *hrpc.RowMutations
		if rm, err = hrpc.NewRowMutations([]hrpc.Mutation{del, put}); err == nil {
			cam, err = hrpc.NewCheckAndMutateRow(cond, rm)
		}
	}
	if err != nil {
		return err
	}
	applied, err := c.c.CheckAndMutate(ctx, cam)
	if err != nil && errors.Is(err, hberr.ErrIndeterminate) {
		applied, err = c.settle(ctx, id, nextRaw, err)
	}
	switch {
	case err != nil:
		return err
	case !applied:
		return errConflict
	}
	return nil
}

// settle finds out whether a write whose answer was lost was applied: the version cell it
// wrote (its writer number drawn at random) is there. Anything else leaves the error,
// hberr.ErrIndeterminate: the write may still be running on the server, or have been applied
// and overwritten since, so trying it again could apply it twice.
func (c *Collection) settle(ctx context.Context, id string, nextRaw []byte, indeterminate error) (bool, error) {
	now, err := c.read(ctx, id, selection{})
	if err == nil && now.exists && bytes.Equal(now.raw, nextRaw) {
		return true, nil
	}
	return false, indeterminate
}
