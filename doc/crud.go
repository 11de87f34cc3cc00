package doc

import (
	"context"
	"maps"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// Insert stores a new document under id and returns its version. It fails with
// hberr.ErrDocumentExists when id has a document. v is the document: a map[string]any, a
// struct (or a pointer to one, see Document.Decode for the field names), a json.RawMessage of
// a JSON object, or a *Document.
func (c *Collection) Insert(ctx context.Context, id string, v any, opts ...WriteOption) (uint64, error) {
	fields, err := c.canonical(v)
	if err != nil {
		return 0, c.fail("Insert", id, "", err)
	}
	doc, err := flattenObject(c.lim, fields)
	if err != nil {
		return 0, c.fail("Insert", id, "", err)
	}
	ver, err := c.run(ctx, id, selection{}, writeOptions{}, &current{}, func(cur *current, _ uint64) (*write, error) {
		if cur.exists && cur.meta.live() {
			return nil, hberr.ErrDocumentExists
		}
		return c.whole(id, nil, doc, cur.exists)
	})
	return ver, c.fail("Insert", id, "", err)
}

// Replace replaces the document of id by v (as Insert takes it) and returns its new version.
// It fails with hberr.ErrDocumentNotFound when id has none.
func (c *Collection) Replace(ctx context.Context, id string, v any, opts ...WriteOption) (uint64, error) {
	return c.replace(ctx, "Replace", id, v, true, opts)
}

// Upsert stores v (as Insert takes it) under id, replacing the document there if there is
// one, and returns its version.
func (c *Collection) Upsert(ctx context.Context, id string, v any, opts ...WriteOption) (uint64, error) {
	return c.replace(ctx, "Upsert", id, v, false, opts)
}

func (c *Collection) replace(ctx context.Context, op, id string, v any, mustExist bool, opts []WriteOption) (uint64, error) {
	wo, err := writeOpts(opts)
	if err != nil {
		return 0, c.fail(op, id, "", err)
	}
	fields, err := c.canonical(v)
	if err != nil {
		return 0, c.fail(op, id, "", err)
	}
	doc, err := flattenObject(c.lim, fields)
	if err != nil {
		return 0, c.fail(op, id, "", err)
	}
	ver, err := c.run(ctx, id, c.indexSelection(), wo, nil, func(cur *current, _ uint64) (*write, error) {
		live := cur.exists && cur.meta.live()
		if mustExist && !live {
			return nil, hberr.ErrDocumentNotFound
		}
		var old cells
		if live {
			old = cur.cells
		}
		return c.whole(id, old, doc, cur.exists)
	})
	return ver, c.fail(op, id, "", err)
}

// indexSelection is what a whole-document write reads: the version cell and each index's
// subtree (the old values, whose index rows it removes).
func (c *Collection) indexSelection() selection {
	var sel selection
	for _, ix := range c.indexes {
		sel.addSubtree(ix.q)
	}
	return sel
}

// whole is the write of a whole document: every cell of the family up to the write's
// timestamp deleted (when a row is there), the document's cells put.
func (c *Collection) whole(id string, old, doc cells, rowExists bool) (*write, error) {
	ch, err := c.indexChanges(id, old, doc)
	if err != nil {
		return nil, err
	}
	return &write{next: meta{state: stateLive, size: doc.size() + metaCellSize}, puts: doc,
		deleteAll: rowExists, index: ch}, nil
}

// Update applies ops to the document of id, all of them or none, in one atomic row mutation,
// and returns its new version. It reads only what the ops need (the containers above their
// paths, the subtrees they replace, the indexed paths). It fails with hberr.ErrDocumentNotFound
// when id has no document, with hberr.ErrInvalidUpdate when an op cannot apply (writing
// nothing), and with a *hberr.DocLimitError when the result would pass a limit.
func (c *Collection) Update(ctx context.Context, id string, ops []Op, opts ...WriteOption) (uint64, error) {
	wo, err := writeOpts(opts)
	if err != nil {
		return 0, c.fail("Update", id, "", err)
	}
	parsed, err := c.parseOps(ops)
	if err != nil {
		return 0, c.fail("Update", id, "", err)
	}
	failPath := ""
	ver, err := c.run(ctx, id, c.selectionOf(parsed), wo, nil, func(cur *current, _ uint64) (*write, error) {
		if !cur.exists || !cur.meta.live() {
			return nil, hberr.ErrDocumentNotFound
		}
		a := applier{c: c, cur: maps.Clone(cur.cells)}
		for _, op := range parsed {
			if err := a.apply(op); err != nil {
				failPath = op.q
				return nil, err
			}
		}
		w := &write{puts: cells{}}
		size := cur.meta.size
		for q, v := range a.cur {
			if o, ok := cur.cells[q]; !ok || string(o) != string(v) {
				w.puts[q] = v
				size += len(q) + len(v)
				if ok {
					size -= len(q) + len(o)
				}
			}
		}
		for q, o := range cur.cells {
			if _, ok := a.cur[q]; !ok {
				w.dels = append(w.dels, q)
				size -= len(q) + len(o)
			}
		}
		w.next = meta{state: stateLive, size: size}
		if w.index, err = c.indexChanges(id, cur.cells, a.cur); err != nil {
			return nil, err
		}
		return w, nil
	})
	return ver, c.fail("Update", id, failPath, err)
}

// Delete deletes the document of id. It fails with hberr.ErrDocumentNotFound when there is
// none. The row keeps one cell, the version cell marking the document deleted (its version
// goes on if the id is written again).
func (c *Collection) Delete(ctx context.Context, id string, opts ...WriteOption) error {
	wo, err := writeOpts(opts)
	if err != nil {
		return c.fail("Delete", id, "", err)
	}
	_, err = c.run(ctx, id, c.indexSelection(), wo, nil, func(cur *current, _ uint64) (*write, error) {
		if !cur.exists || !cur.meta.live() {
			return nil, hberr.ErrDocumentNotFound
		}
		ch, err := c.indexChanges(id, cur.cells, nil)
		if err != nil {
			return nil, err
		}
		return &write{next: meta{state: stateDeleted, size: metaCellSize}, puts: cells{}, deleteAll: true, index: ch}, nil
	})
	return c.fail("Delete", id, "", err)
}

// ReadOption configures Get and Find.
type ReadOption func(*readOptions) error

type readOptions struct {
	paths []string // canonical
	segs  [][]segment
}

// Project reads only the given paths (ParsePath's syntax) and what lies under them: the
// Get or Scan asks the server for those qualifiers only. The Document holds them with the
// containers above them.
func Project(paths ...string) ReadOption {
	return func(o *readOptions) error {
		for _, p := range paths {
			segs, err := parsePath(p)
			if err != nil {
				return err
			}
			o.paths = append(o.paths, formatPath(segs))
			o.segs = append(o.segs, segs)
		}
		return nil
	}
}

func readOpts(opts []ReadOption) (readOptions, error) {
	var o readOptions
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&o); err != nil {
			return o, err
		}
	}
	return o, nil
}

// projection is the selection of a projection's paths, or the whole family without one.
func (o *readOptions) selection() selection {
	if len(o.paths) == 0 {
		return selection{whole: true}
	}
	var sel selection
	for _, p := range o.paths {
		sel.addSubtree(p)
	}
	return sel
}

// Get reads the document of id, whole or the paths of Project. It fails with
// hberr.ErrDocumentNotFound when id has none.
func (c *Collection) Get(ctx context.Context, id string, opts ...ReadOption) (*Document, error) {
	o, err := readOpts(opts)
	if err != nil {
		return nil, c.fail("Get", id, "", err)
	}
	if id == "" {
		return nil, c.fail("Get", id, "", invalid("empty document id"))
	}
	sel := o.selection()
	cs, err := c.fetch(ctx, id, sel)
	if err != nil {
		return nil, c.fail("Get", id, "", err)
	}
	d, err := c.decode(id, c.selected(cs, &sel), len(o.paths) > 0)
	return d, c.fail("Get", id, "", err)
}

// decode makes the Document of a row's cells; a row without a live version cell has none.
func (c *Collection) decode(id string, cs []hrpc.Cell, partial bool) (*Document, error) {
	dec := decoder{partial: partial}
	m, found, fields, err := dec.row(cs)
	if err != nil {
		return nil, err
	}
	if !found || !m.live() {
		return nil, hberr.ErrDocumentNotFound
	}
	return &Document{ID: id, Version: m.version, Fields: fields, codec: c.codec}, nil
}
