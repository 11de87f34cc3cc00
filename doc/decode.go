package doc

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-hbase/hbase/hrpc"
)

// hole marks an array element whose cell has not been read (yet).
type hole struct{}

// decoder turns a row's cells into a document. A whole document is decoded strictly: each
// cell's parent read before it (qualifiers sort parents first), no element beyond its array's
// length, no array with a missing element, nothing under a scalar. A projection reads only
// some subtrees: their missing parents are made up (objects for keys, arrays grown for
// indexes), and array elements not read are null.
type decoder struct {
	partial bool
	segs    []segment
	// slots counts the elements the arrays' markers announce, filled those set: equal, a
	// whole document has no missing element, and finish need not look.
	slots, filled int
	// The containers of the last cell's parent and of the last container placed, with their
	// qualifiers: qualifiers sort parents first and siblings together, so most cells of a
	// whole document find their parent here instead of walking from the root.
	parentQ, lastQ string
	parentC, lastC any
}

// row decodes a row's cells: the version cell (found reports whether there is one) and the
// document's fields. Qualifiers and string values share one allocation.
func (d *decoder) row(cs []hrpc.Cell) (m meta, found bool, fields map[string]any, err error) {
	total := 0
	for i := range cs {
		c := &cs[i]
		total += len(c.Qualifier)
		if len(c.Value) > 0 && c.Value[0] == tagString {
			total += len(c.Value) - 1
		}
	}
	var sb strings.Builder
	sb.Grow(total)
	for i := range cs {
		c := &cs[i]
		sb.Write(c.Qualifier)
		if len(c.Value) > 0 && c.Value[0] == tagString {
			sb.Write(c.Value[1:])
		}
	}
	all := sb.String()
	fields = make(map[string]any, topLevel(cs))
	at := 0
	for i := range cs {
		c := &cs[i]
		q := all[at : at+len(c.Qualifier)]
		at += len(c.Qualifier)
		var str string
		if len(c.Value) > 0 && c.Value[0] == tagString {
			str = all[at : at+len(c.Value)-1]
			at += len(c.Value) - 1
		}
		if q == metaQualifier {
			if m, err = decodeMeta(c.Value); err != nil {
				return meta{}, false, nil, err
			}
			found = true
			continue
		}
		if err := d.cell(fields, q, c.Value, str); err != nil {
			return meta{}, false, nil, err
		}
	}
	if d.partial || d.slots != d.filled {
		if err := d.finish(fields); err != nil {
			return meta{}, false, nil, err
		}
	}
	return m, found, fields, nil
}

// topLevel guesses how many members the root has: the cells of one segment (a quoted key
// holding a '.' or '[' is missed, which only makes the map grow).
func topLevel(cs []hrpc.Cell) int {
	n := 0
	for i := range cs {
		q := cs[i].Qualifier
		if len(q) > 1 && q[0] == '.' && !hasSeparator(q[1:]) {
			n++
		}
	}
	return n
}

func hasSeparator(q []byte) bool {
	for _, c := range q {
		if c == '.' || c == '[' {
			return true
		}
	}
	return false
}

// place sets the member or element s of container c to val.
func (d *decoder) place(c any, s segment, val any, q string) error {
	switch c := c.(type) {
	case map[string]any:
		if s.isIndex() {
			return corrupt(q, "index %d of an object", s.index)
		}
		if _, ok := c[s.key]; ok {
			return corrupt(q, "set twice")
		}
		c[s.key] = val
		return nil
	case []any:
		if !s.isIndex() {
			return corrupt(q, "key %q of an array", s.key)
		}
		if s.index >= len(c) {
			return corrupt(q, "index %d of an array of %d", s.index, len(c))
		}
		if c[s.index] != (hole{}) {
			return corrupt(q, "set twice")
		}
		c[s.index] = val
		d.filled++
		return nil
	}
	return corrupt(q, "under a scalar")
}

// cell places one cell's value in the document.
func (d *decoder) cell(root map[string]any, q string, v []byte, str string) error {
	if q == "" || q[0] != '.' && q[0] != '[' {
		return corrupt(q, "not a path")
	}
	segs, parentLen, err := scanPath(q, true, d.segs[:0])
	if err != nil {
		return corrupt(q, "%v", err)
	}
	d.segs = segs
	val, err := cellValue(q, v, str)
	if err != nil {
		return err
	}
	isContainer := false
	switch a := val.(type) {
	case []any:
		d.slots += len(a)
		isContainer = true
	case map[string]any:
		isContainer = true
	}
	if !d.partial && parentLen > 0 {
		if placed, err := d.placeUnderRecent(q, parentLen, segs[len(segs)-1], val, isContainer); placed {
			return err
		}
	}
	if !d.partial && isContainer {
		d.lastQ, d.lastC = q, val
	}
	return d.placeFromRoot(root, q, segs, parentLen, val)
}

// placeUnderRecent places val when its parent is the last cell's parent or the last container
// placed, which is most cells of a whole document (qualifiers sort parents first and siblings
// together), so they skip the walk from the root. placed is false when the parent is neither.
func (d *decoder) placeUnderRecent(q string, parentLen int, s segment, val any, isContainer bool) (placed bool, err error) {
	parent := q[:parentLen]
	var pc any
	switch parent {
	case d.parentQ:
		pc = d.parentC
	case d.lastQ:
		pc = d.lastC
	}
	if pc == nil {
		return false, nil
	}
	if err := d.place(pc, s, val, q); err != nil {
		return true, err
	}
	d.parentQ, d.parentC = parent, pc
	if isContainer {
		d.lastQ, d.lastC = q, val
	}
	return true, nil
}

// placeFromRoot walks segs from the root and places val at the last one. A whole document
// must already hold every parent; a projection makes up the missing ones and grows arrays to
// reach an index.
func (d *decoder) placeFromRoot(root map[string]any, q string, segs []segment, parentLen int, val any) error {
	var cur any = root
	// Where cur came from, to write a grown array back: a key of an object, or an element.
	var (
		upMap map[string]any
		upKey string
		upArr []any
		upIdx int
	)
	for i, s := range segs {
		last := i == len(segs)-1
		switch c := cur.(type) {
		case map[string]any:
			if s.isIndex() {
				return corrupt(q, "index %d of an object", s.index)
			}
			child, ok := c[s.key]
			if last {
				if ok {
					return corrupt(q, "set twice")
				}
				c[s.key] = val
				if !d.partial && parentLen > 0 {
					d.parentQ, d.parentC = q[:parentLen], c
				}
				return nil
			}
			if !ok {
				if !d.partial {
					return corrupt(q, "no parent container")
				}
				child = newContainer(segs[i+1])
				c[s.key] = child
			}
			upMap, upKey, upArr = c, s.key, nil
			cur = child
		case []any:
			if !s.isIndex() {
				return corrupt(q, "key %q of an array", s.key)
			}
			if s.index >= len(c) {
				if !d.partial {
					return corrupt(q, "index %d of an array of %d", s.index, len(c))
				}
				c = grownWithHoles(c, s.index+1)
				if upMap != nil {
					upMap[upKey] = c
				} else {
					upArr[upIdx] = c
				}
			}
			child := c[s.index]
			if last {
				if child != (hole{}) {
					return corrupt(q, "set twice")
				}
				c[s.index] = val
				d.filled++
				if !d.partial {
					d.parentQ, d.parentC = q[:parentLen], c
				}
				return nil
			}
			if child == (hole{}) {
				if !d.partial {
					return corrupt(q, "no parent container")
				}
				child = newContainer(segs[i+1])
				c[s.index] = child
			}
			upMap, upArr, upIdx = nil, c, s.index
			cur = child
		default:
			return corrupt(q, "under a scalar")
		}
	}
	return nil
}

// grownWithHoles is a projection's array c grown to n elements, the new ones holes: elements
// not read become null in finish, while a hole that a later cell fills is not "set twice".
func grownWithHoles(c []any, n int) []any {
	grown := append(c, make([]any, n-len(c))...)
	for j := len(c); j < len(grown); j++ {
		grown[j] = hole{}
	}
	return grown
}

// newContainer is the made-up parent of a projected path whose next segment is s.
func newContainer(s segment) any {
	if s.isIndex() {
		return []any{}
	}
	return map[string]any{}
}

// cellValue is a cell's value in the document: a scalar, or an empty container to fill.
func cellValue(q string, v []byte, str string) (any, error) {
	if len(v) == 0 {
		return nil, corrupt(q, "empty value")
	}
	switch v[0] {
	case tagObject:
		if len(v) != 1 {
			return nil, corrupt(q, "object marker of %d bytes", len(v))
		}
		return map[string]any{}, nil
	case tagArray:
		n, err := decodeArrayLen(q, v)
		if err != nil {
			return nil, err
		}
		a := make([]any, n)
		for i := range a {
			a[i] = hole{}
		}
		return a, nil
	case tagString:
		if !utf8.ValidString(str) {
			return nil, corrupt(q, "string is not UTF-8")
		}
		return str, nil
	}
	return decodeScalar(q, v)
}

// finish checks that no array has a missing element (a projection's become null).
func (d *decoder) finish(fields map[string]any) error {
	if at, found := d.holes(fields); found {
		slices.Reverse(at)
		return corrupt(formatPath(at), "array element missing")
	}
	return nil
}

// holes looks for a missing element under v: in a whole document it returns the path to it
// (last segment first); in a projection it makes them null.
func (d *decoder) holes(v any) ([]segment, bool) {
	switch c := v.(type) {
	case map[string]any:
		for k, e := range c {
			if at, found := d.holes(e); found {
				return append(at, segment{key: k, index: -1}), true
			}
		}
	case []any:
		for i, e := range c {
			if e == (hole{}) {
				if !d.partial {
					return []segment{{index: i}}, true
				}
				c[i] = nil
				continue
			}
			if at, found := d.holes(e); found {
				return append(at, segment{index: i}), true
			}
		}
	}
	return nil, false
}
