package doc

import (
	"github.com/go-hbase/hbase/hberr"
)

// Document is one document as read: its id, its version and its fields (the JSON object in
// canonical form: nil, bool, int64, float64, string, []any and map[string]any values). A
// projection's Document holds only the paths it asked for, with the objects and arrays above
// them (an array holds the projected elements at their indexes, null elsewhere).
type Document struct {
	ID string
	// Version counts the document's writes: 1 after the first, and one more with each write
	// after it, a delete included (a document inserted again after a delete goes on from
	// there). IfVersion makes a write conditional on it.
	Version uint64
	Fields  map[string]any

	codec *codec
}

// Decode stores the document's fields in the value dst points to: a struct (fields matched by
// their `doc` tag, else their `json` tag, else their Go name; members the struct does not have
// are ignored), a map, or an interface. A value that does not fit its Go field (a string for
// an int, a fraction for an integer, a number out of the field's range) fails with
// hberr.ErrInvalidDocument, naming the path.
func (d *Document) Decode(dst any) error {
	c := d.codec
	if c == nil {
		c = newCodec()
	}
	if err := c.decodeInto(d.Fields, dst); err != nil {
		return &hberr.DocError{Op: "Decode", ID: d.ID, Err: err}
	}
	return nil
}

// JSON returns the document's fields as JSON (MarshalJSON: keys sorted, floats marked as such).
func (d *Document) JSON() ([]byte, error) { return MarshalJSON(d.Fields) }

// Lookup returns the value at path (ParsePath's syntax) and whether there is one; a path that
// does not parse has none.
func (d *Document) Lookup(path string) (any, bool) {
	segs, err := parsePath(path)
	if err != nil {
		return nil, false
	}
	return lookup(d.Fields, segs)
}

// lookup walks a canonical value by segments.
func lookup(root map[string]any, segs []segment) (any, bool) {
	var cur any = root
	for _, s := range segs {
		switch c := cur.(type) {
		case map[string]any:
			if s.isIndex() {
				return nil, false
			}
			v, ok := c[s.key]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			if !s.isIndex() || s.index >= len(c) {
				return nil, false
			}
			cur = c[s.index]
		default:
			return nil, false
		}
	}
	return cur, true
}

// ParsePath checks a path and returns its canonical form, the column qualifier of its cell.
// The syntax is jq's: a segment per step, .key for an object's member (any UTF-8 but
// . [ ] " \ and control characters), ["key"] for any key (a JSON string), [n] for an array's
// element; the first key's dot may be left out. ParsePath("a.b[0]") is ".a.b[0]",
// ParsePath(`.["a.b"]`) is `.["a.b"]`, ParsePath(`.["x"]`) is ".x".
func ParsePath(path string) (string, error) {
	segs, err := parsePath(path)
	if err != nil {
		return "", err
	}
	return formatPath(segs), nil
}
