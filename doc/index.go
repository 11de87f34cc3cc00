package doc

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// index is a secondary index: its name and the canonical path it indexes.
type index struct {
	name  string
	q     string
	depth int
}

// indexQualifier is the one cell of an index row; the row key says everything.
var indexQualifier = []byte("i")

// maxRowKey is HBase's limit of a row key (Short.MAX_VALUE).
const maxRowKey = 32767

// indexChange is what a write does to one index: the scalar keys (scalarKey) to add before
// the document's write and to remove after it.
type indexChange struct {
	ix          *index
	add, remove []string
}

// keys returns the index keys of a document's cells (all of them, or a selection holding the
// index's subtree): the scalar at the index's path, or each scalar element of an array there.
func (ix *index) keys(cs cells) ([]string, error) {
	v, ok := cs[ix.q]
	if !ok || len(v) == 0 {
		return nil, nil
	}
	switch v[0] {
	case tagObject:
		return nil, nil
	case tagArray:
		n, err := decodeArrayLen(ix.q, v)
		if err != nil {
			return nil, err
		}
		var out []string
		var buf []byte
		for i := range n {
			q := string(appendIndex([]byte(ix.q), i))
			e, ok := cs[q]
			if !ok || len(e) == 0 || e[0] == tagObject || e[0] == tagArray {
				continue
			}
			s, err := decodeScalar(q, e)
			if err != nil {
				return nil, err
			}
			buf = scalarKey(buf[:0], s)
			if k := string(buf); !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
		return out, nil
	}
	s, err := decodeScalar(ix.q, v)
	if err != nil {
		return nil, err
	}
	return []string{string(scalarKey(nil, s))}, nil
}

// keysOf returns the index keys of a canonical document.
func (ix *index) keysOf(fields map[string]any, segs []segment) []string {
	v, ok := lookup(fields, segs)
	if !ok {
		return nil
	}
	var out []string
	add := func(e any) {
		switch e.(type) {
		case map[string]any, []any:
			return
		}
		if k := string(scalarKey(nil, e)); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	if a, ok := v.([]any); ok {
		for _, e := range a {
			add(e)
		}
	} else {
		add(v)
	}
	return out
}

// row is the index row of a key and an id: name, 0x00, key, id.
func (ix *index) row(key string, id string) []byte {
	b := make([]byte, 0, len(ix.name)+1+len(key)+len(id))
	b = append(b, ix.name...)
	b = append(b, 0)
	b = append(b, key...)
	return append(b, id...)
}

// prefix is the start of every row of the index.
func (ix *index) prefix() []byte { return append([]byte(ix.name), 0) }

// parseRow splits an index row into its key and id.
func (ix *index) parseRow(row []byte) (key []byte, id string, err error) {
	p := ix.prefix()
	if !bytes.HasPrefix(row, p) {
		return nil, "", errors.New("not a row of the index")
	}
	rest := row[len(p):]
	n, err := scalarKeyLen(rest)
	if err != nil {
		return nil, "", err
	}
	return rest[:n], string(rest[n:]), nil
}

// indexChanges compares the index keys of a document before (old, the cells read: they hold
// each index's subtree) and after a write (new), and checks the new rows' sizes.
func (c *Collection) indexChanges(id string, old, new cells) ([]indexChange, error) {
	var out []indexChange
	for _, ix := range c.indexes {
		var before, after []string
		var err error
		if old != nil {
			if before, err = ix.keys(old); err != nil {
				return nil, err
			}
		}
		if new != nil {
			if after, err = ix.keys(new); err != nil {
				return nil, err
			}
		}
		ch := indexChange{ix: ix}
		for _, k := range after {
			if !slices.Contains(before, k) {
				if n := len(ix.name) + 1 + len(k) + len(id); n > maxRowKey {
					return nil, &hberr.DocLimitError{Limit: "index key", Path: ix.q, Size: n, Max: maxRowKey}
				}
				ch.add = append(ch.add, k)
			}
		}
		for _, k := range before {
			if !slices.Contains(after, k) {
				ch.remove = append(ch.remove, k)
			}
		}
		if len(ch.add) > 0 || len(ch.remove) > 0 {
			out = append(out, ch)
		}
	}
	return out, nil
}

// putIndexKeys writes the index rows w adds, at w's timestamp, before w itself: so an index
// row exists for every value a document has (a row without its value is hidden by reads).
func (c *Collection) putIndexKeys(ctx context.Context, id string, w *write) error {
	var calls []hrpc.Batchable
	for _, ch := range w.index {
		for _, k := range ch.add {
			p, err := hrpc.NewPut(c.idxTable, ch.ix.row(k, id), hrpc.Timestamp(w.next.ts),
				hrpc.Value(c.idxFam, indexQualifier, nil))
			if err != nil {
				return err
			}
			calls = append(calls, p)
		}
	}
	return c.send(ctx, calls)
}

// removeIndexKeys deletes the index rows w made stale, up to w's timestamp minus one: a later
// write that gives the document the value again puts its row at a later timestamp, which this
// delete cannot mask however late it comes. Failures are left to reads (which hide the stale
// rows) and RepairIndex.
func (c *Collection) removeIndexKeys(ctx context.Context, id string, w *write) {
	var calls []hrpc.Batchable
	for _, ch := range w.index {
		for _, k := range ch.remove {
			d, err := hrpc.NewDelete(c.idxTable, ch.ix.row(k, id), hrpc.Timestamp(w.next.ts-1))
			if err != nil {
				continue
			}
			calls = append(calls, d)
		}
	}
	_ = c.send(ctx, calls)
}

// send sends index mutations: one alone, several as a batch; the first failure is returned.
func (c *Collection) send(ctx context.Context, calls []hrpc.Batchable) error {
	switch len(calls) {
	case 0:
		return nil
	case 1:
		var err error
		switch m := calls[0].(type) {
		case *hrpc.Put:
			_, err = c.c.Put(ctx, m)
		case *hrpc.Delete:
			_, err = c.c.Delete(ctx, m)
		}
		return err
	}
	for _, r := range c.c.SendBatch(ctx, calls) {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}

// keyString is a printable form of an index key, for reports: the value as JSON (a number
// that is an integer as an integer).
func keyString(k []byte) string {
	if len(k) == 0 {
		return "?"
	}
	switch k[0] {
	case tagNull:
		return "null"
	case tagFalse:
		return "false"
	case tagTrue:
		return "true"
	case tagString:
		if len(k) < 3 {
			return "?"
		}
		return string(appendQuoted(nil, strings.ReplaceAll(string(k[1:len(k)-2]), "\x00\xff", "\x00")))
	case tagNumber:
		if len(k) < numberKeyLen {
			return "?"
		}
		f := unorderedFloat(binary.BigEndian.Uint64(k[1:9]))
		r := int16(binary.BigEndian.Uint16(k[9:11]) ^ 0x8000)
		if r != 0 || f == math.Trunc(f) && f >= -two63 && f <= two63 {
			return strconv.FormatInt(intFromParts(f, r), 10)
		}
		return string(appendFloatJSON(nil, f))
	}
	return "?"
}
