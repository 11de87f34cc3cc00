package doc

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// Collection is a table and a column family holding documents, one per row, the row key
// being the document's id. Its methods are safe for concurrent use; it holds no connection
// of its own (calls go through the client it was opened with).
type Collection struct {
	c        *hbase.Client
	table    string
	family   []byte
	lim      Limits
	indexes  []*index
	idxTable string
	idxFam   []byte
	codec    *codec
	now      func() time.Time
	grace    time.Duration
	// The Get options of a whole document and of the family, built once: options are
	// immutable, and a Get of a document builds none.
	wholeGet   []hrpc.GetOption
	familyOnly hrpc.GetOption
	shapes     shapes // the subtrees last seen as containers: how fetch reads them
}

// Option configures a Collection.
type Option func(*options) error

type options struct {
	lim      Limits
	indexes  []indexSpec
	idxTable string
	idxFam   string
	now      func() time.Time
	grace    time.Duration
}

type indexSpec struct{ name, path string }

// WithLimits sets the collection's limits (zero fields keep their defaults).
func WithLimits(l Limits) Option {
	return func(o *options) error {
		lim, err := l.withDefaults()
		if err != nil {
			return err
		}
		o.lim = lim
		return nil
	}
}

// WithIndex adds a secondary index called name on path: each document whose value at path
// is a scalar (or an array, for each scalar element) has an index row holding that value and
// its id, so that Find can read the documents of a value or a range of values without
// scanning the collection. The collection maintains it on every write (see the package
// documentation for what a crash leaves and how reads hide it); RepairIndex rebuilds it. Every
// program writing the collection must open it with the same indexes. An index name is
// non-empty and holds no byte 0x00.
func WithIndex(name, path string) Option {
	return func(o *options) error {
		if name == "" || strings.IndexByte(name, 0) >= 0 {
			return fmt.Errorf("doc: index name %q: want a non-empty name without 0x00", name)
		}
		for _, s := range o.indexes {
			if s.name == name {
				return fmt.Errorf("doc: index %q given twice", name)
			}
		}
		o.indexes = append(o.indexes, indexSpec{name: name, path: path})
		return nil
	}
}

// WithIndexTable sets where the index rows go: a table and family of their own (default: the
// table "<collection's table>_index" and the collection's family). Collections sharing an
// index table and family need indexes of distinct names.
func WithIndexTable(table, family string) Option {
	return func(o *options) error {
		if table == "" || family == "" {
			return fmt.Errorf("doc: index table %q family %q: want both", table, family)
		}
		o.idxTable, o.idxFam = table, family
		return nil
	}
}

// WithRepairGrace sets how old an index row must be before RepairIndex removes it while its
// document has a version older than the row (a writer that put the row and then failed, or
// is still writing): default 1 minute, longer than any write's deadline should be.
func WithRepairGrace(d time.Duration) Option {
	return func(o *options) error {
		if d <= 0 {
			return fmt.Errorf("doc: repair grace %v: want a positive duration", d)
		}
		o.grace = d
		return nil
	}
}

// Open returns the collection of documents in family of table. It sends nothing: the table
// and the family must exist (a call on a missing one fails with hberr.ErrTableNotFound or
// hberr.ErrNoSuchFamily), and so must the index table when the collection has indexes.
func Open(client *hbase.Client, table, family string, opts ...Option) (*Collection, error) {
	if client == nil {
		return nil, fmt.Errorf("doc: Open with a nil client")
	}
	if table == "" || family == "" {
		return nil, fmt.Errorf("doc: Open: want a table and a family, got %q and %q", table, family)
	}
	lim, _ := Limits{}.withDefaults()
	o := options{lim: lim, now: time.Now, grace: time.Minute}
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	c := &Collection{c: client, table: table, family: []byte(family), lim: o.lim, codec: newCodec(),
		now: o.now, grace: o.grace, idxTable: o.idxTable, idxFam: []byte(o.idxFam)}
	c.familyOnly = hrpc.Families(c.family)
	c.wholeGet = []hrpc.GetOption{c.familyOnly}
	if c.idxTable == "" {
		c.idxTable, c.idxFam = table+"_index", c.family
	}
	for _, s := range o.indexes {
		segs, err := parsePath(s.path)
		if err != nil {
			return nil, fmt.Errorf("doc: index %q: %w", s.name, err)
		}
		if len(segs) > c.lim.MaxDepth {
			return nil, fmt.Errorf("doc: index %q: path %s deeper than the limit of %d", s.name, s.path, c.lim.MaxDepth)
		}
		c.indexes = append(c.indexes, &index{name: s.name, q: formatPath(segs), depth: len(segs)})
	}
	return c, nil
}

// Table is the collection's table.
func (c *Collection) Table() string { return c.table }

// Family is the collection's column family.
func (c *Collection) Family() string { return string(c.family) }

// Indexes lists the collection's indexes: name → canonical path.
func (c *Collection) Indexes() map[string]string {
	m := make(map[string]string, len(c.indexes))
	for _, ix := range c.indexes {
		m[ix.name] = ix.q
	}
	return m
}

// indexNamed returns the index called name.
func (c *Collection) indexNamed(name string) (*index, error) {
	i := slices.IndexFunc(c.indexes, func(ix *index) bool { return ix.name == name })
	if i < 0 {
		return nil, fmt.Errorf("%w: %q (the collection's: %v)", hberr.ErrIndexNotFound, name, c.Indexes())
	}
	return c.indexes[i], nil
}

// fail wraps err in the DocError of op on id at path.
func (c *Collection) fail(op, id, path string, err error) error {
	if err == nil {
		return nil
	}
	return &hberr.DocError{Op: op, Table: c.table, Family: string(c.family), ID: id, Path: path, Err: err}
}

// canonical converts a document given to a write.
func (c *Collection) canonical(v any) (map[string]any, error) {
	cv := conv{c: c.codec, maxDepth: c.lim.MaxDepth}
	return cv.object(v)
}

// canonicalValue converts a value given to an update or a condition.
func (c *Collection) canonicalValue(v any, path string, depth int) (any, error) {
	cv := conv{c: c.codec, maxDepth: c.lim.MaxDepth, path: []byte(path)}
	return cv.value(v, depth)
}
