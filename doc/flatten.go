package doc

import (
	"fmt"
	"maps"
	"slices"

	"github.com/go-hbase/hbase/hberr"
)

// Limits bound what a document may be; a document over one of them is refused with a
// *hberr.DocLimitError (hberr.ErrDocumentLimit) before anything is written. A zero field takes
// its default.
type Limits struct {
	// MaxDepth is the most segments a path may have: {"a":{"b":1}} has a path of 2 (.a.b).
	// Default 32.
	MaxDepth int
	// MaxQualifier is the most bytes of a path as stored (its canonical text, the cell's
	// qualifier). Default 1024; at most 32767.
	MaxQualifier int
	// MaxRowBytes is the most bytes of a document's cells, qualifiers and values (the version
	// cell included). Default 8 MiB: below HBase's 10 MB limit of one cell
	// (hbase.client.keyvalue.maxsize) and far below its 256 MB request limit.
	MaxRowBytes int
}

// Default limits.
const (
	DefaultMaxDepth     = 32
	DefaultMaxQualifier = 1024
	DefaultMaxRowBytes  = 8 << 20
)

func (l Limits) withDefaults() (Limits, error) {
	if l.MaxDepth == 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxQualifier == 0 {
		l.MaxQualifier = DefaultMaxQualifier
	}
	if l.MaxRowBytes == 0 {
		l.MaxRowBytes = DefaultMaxRowBytes
	}
	if l.MaxDepth < 1 || l.MaxQualifier < 16 || l.MaxQualifier > 32767 || l.MaxRowBytes < 1024 {
		return l, fmt.Errorf("doc: limits %+v: want MaxDepth >= 1, MaxQualifier in [16, 32767], MaxRowBytes >= 1024", l)
	}
	return l, nil
}

// cells is a document, or part of one, as cells: qualifier → value. Every container has a
// cell of its own (its marker: an object, or an array and its length), every scalar one.
type cells map[string][]byte

// size is what the cells weigh against MaxRowBytes.
func (cs cells) size() int {
	n := 0
	for q, v := range cs {
		n += len(q) + len(v)
	}
	return n
}

// flattener turns canonical values into cells, checking the limits as it goes.
type flattener struct {
	lim  Limits
	out  cells
	buf  []byte // values are slices of it, allocated in blocks
	path []byte
}

func newFlattener(lim Limits, out cells) *flattener { return &flattener{lim: lim, out: out} }

// value copies v into the flattener's block of value bytes.
func (f *flattener) value(v []byte) []byte {
	f.reserve(len(v))
	n := len(f.buf)
	f.buf = append(f.buf, v...)
	return f.buf[n:len(f.buf):len(f.buf)]
}

// reserve makes room for need more bytes in the block: a new block when the current one is
// full, each twice the last (64 bytes to 4 KiB, or need), so that an update of one value does
// not allocate a block sized for a whole document.
func (f *flattener) reserve(need int) {
	if cap(f.buf)-len(f.buf) >= need {
		return
	}
	f.buf = make([]byte, 0, max(need, min(4096, max(64, 2*cap(f.buf)))))
}

// scalar encodes a canonical scalar into the flattener's block of value bytes.
func (f *flattener) scalar(v any) []byte {
	need := numberLen
	if s, ok := v.(string); ok {
		need = 1 + len(s)
	}
	f.reserve(need)
	n := len(f.buf)
	f.buf = appendScalar(f.buf, v)
	return f.buf[n:len(f.buf):len(f.buf)]
}

// object flattens the members of an object whose path is f.path (the root: empty).
func (f *flattener) object(m map[string]any, depth int) error {
	keys := slices.Sorted(maps.Keys(m)) // the same cells in the same order every time
	base := len(f.path)
	for _, k := range keys {
		f.path = appendKey(f.path[:base], k)
		if err := f.member(m[k], depth+1); err != nil {
			return err
		}
	}
	f.path = f.path[:base]
	return nil
}

// member flattens the value at f.path, depth segments deep.
func (f *flattener) member(v any, depth int) error {
	if depth > f.lim.MaxDepth {
		return &hberr.DocLimitError{Limit: "depth", Path: string(f.path), Size: depth, Max: f.lim.MaxDepth}
	}
	if len(f.path) > f.lim.MaxQualifier {
		return &hberr.DocLimitError{Limit: "qualifier", Path: string(f.path), Size: len(f.path), Max: f.lim.MaxQualifier}
	}
	var tmp [numberLen]byte
	switch x := v.(type) {
	case map[string]any:
		f.out[string(f.path)] = markerObject
		return f.object(x, depth)
	case []any:
		f.out[string(f.path)] = f.value(appendArrayMarker(tmp[:0], len(x)))
		base := len(f.path)
		for i, e := range x {
			f.path = appendIndex(f.path[:base], i)
			if err := f.member(e, depth+1); err != nil {
				return err
			}
		}
		f.path = f.path[:base]
		return nil
	default:
		f.out[string(f.path)] = f.scalar(x)
	}
	return nil
}

// markerObject is every object's marker value; never modified.
var markerObject = []byte{tagObject}

// flattenObject turns a canonical object into the cells of a whole document.
func flattenObject(lim Limits, m map[string]any) (cells, error) {
	out := make(cells, len(m)+1)
	f := newFlattener(lim, out)
	if err := f.object(m, 0); err != nil {
		return nil, err
	}
	return out, nil
}

// flattenAt adds the cells of v at path q (segments deep) to out.
func flattenAt(lim Limits, out cells, q string, depth int, v any) error {
	f := newFlattener(lim, out)
	f.path = append(f.path, q...)
	return f.member(v, depth)
}

// checkRowSize refuses a document of size bytes.
func checkRowSize(lim Limits, size int) error {
	if size > lim.MaxRowBytes {
		return &hberr.DocLimitError{Limit: "row", Size: size, Max: lim.MaxRowBytes}
	}
	return nil
}

// invalid is ErrInvalidDocument with why.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", hberr.ErrInvalidDocument, fmt.Sprintf(format, args...))
}
