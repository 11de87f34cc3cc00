package doc

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-hbase/hbase/hberr"
)

// codec maps Go values to canonical documents and back, with a cache of the structs it has
// seen. Each Collection has its own (no package-level state); a Document decodes with its
// collection's.
type codec struct {
	mu      sync.RWMutex
	structs map[reflect.Type]*structInfo
}

func newCodec() *codec { return &codec{structs: map[reflect.Type]*structInfo{}} }

// field is one mapped field of a struct: its name in the document and how to reach it.
type field struct {
	name      string
	index     []int // reflect's index path, through embedded structs
	omitEmpty bool
	omitZero  bool
}

type structInfo struct {
	fields []field
	byName map[string]int
}

var (
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// info returns the fields of struct type t: exported fields, named by their `doc` tag, else
// their `json` tag, else their Go name; `-` leaves a field out; embedded structs without a
// name of their own lend their fields (a shallower field wins over a deeper one of the same
// name, the first declared over a later one at the same depth).
func (c *codec) info(t reflect.Type) *structInfo {
	c.mu.RLock()
	si := c.structs[t]
	c.mu.RUnlock()
	if si != nil {
		return si
	}
	si = &structInfo{byName: map[string]int{}}
	type level struct {
		t     reflect.Type
		index []int
	}
	current := []level{{t: t}}
	seen := map[reflect.Type]bool{}
	for len(current) > 0 {
		var next []level
		for _, l := range current {
			if seen[l.t] {
				continue
			}
			seen[l.t] = true
			for i := range l.t.NumField() {
				sf := l.t.Field(i)
				tag, hasTag := sf.Tag.Lookup("doc")
				if !hasTag {
					tag = sf.Tag.Get("json")
				}
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				index := append(append([]int(nil), l.index...), i)
				ft := sf.Type
				if sf.Anonymous && name == "" {
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if ft.Kind() == reflect.Struct {
						next = append(next, level{t: ft, index: index})
						continue
					}
				}
				if !sf.IsExported() {
					continue
				}
				if name == "" {
					name = sf.Name
				}
				if _, dup := si.byName[name]; dup {
					continue
				}
				f := field{name: name, index: index}
				for o := range strings.SplitSeq(opts, ",") {
					switch o {
					case "omitempty":
						f.omitEmpty = true
					case "omitzero":
						f.omitZero = true
					}
				}
				si.byName[name] = len(si.fields)
				si.fields = append(si.fields, f)
			}
		}
		current = next
	}
	c.mu.Lock()
	c.structs[t] = si
	c.mu.Unlock()
	return si
}

// conv converts Go values to canonical ones, tracking the path for messages and the depth
// against the limit (which also stops a cycle of pointers).
type conv struct {
	c        *codec
	maxDepth int
	path     []byte
}

func (cv *conv) fail(format string, args ...any) error {
	p := string(cv.path)
	if p == "" {
		p = "the root"
	}
	return fmt.Errorf("%w: at %s: %s", hberr.ErrInvalidDocument, p, fmt.Sprintf(format, args...))
}

// object converts a document's root: a map, a struct, a pointer to one, JSON text
// (json.RawMessage) or a *Document.
func (cv *conv) object(v any) (map[string]any, error) {
	switch x := v.(type) {
	case json.RawMessage:
		return ParseJSON(x)
	case *Document:
		if x == nil {
			return nil, cv.fail("nil *Document")
		}
		v = x.Fields
	case Document:
		v = x.Fields
	}
	c, err := cv.value(v, 0)
	if err != nil {
		return nil, err
	}
	m, ok := c.(map[string]any)
	if !ok {
		return nil, cv.fail("the root of a document is an object (a map or a struct), not %s", kindName(c))
	}
	return m, nil
}

// value converts any Go value at cv.path, depth segments deep.
func (cv *conv) value(v any, depth int) (any, error) {
	if depth > cv.maxDepth {
		return nil, &hberr.DocLimitError{Limit: "depth", Path: string(cv.path), Size: depth, Max: cv.maxDepth}
	}
	switch x := v.(type) {
	case nil:
		return nil, nil
	case bool:
		return x, nil
	case string:
		if !utf8.ValidString(x) {
			return nil, cv.fail("string is not UTF-8")
		}
		return x, nil
	case int64:
		return x, nil
	case int:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, cv.fail("number %v has no JSON form", x)
		}
		return x, nil
	case json.Number:
		n, err := parseNumber(string(x))
		if err != nil {
			return nil, cv.fail("%v", err)
		}
		return n, nil
	case json.RawMessage:
		return parseJSONValue(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		base := len(cv.path)
		for k, e := range x {
			if !utf8.ValidString(k) {
				return nil, cv.fail("key %q is not UTF-8", k)
			}
			cv.path = appendKey(cv.path[:base], k)
			c, err := cv.value(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		cv.path = cv.path[:base]
		return out, nil
	case []any:
		out := make([]any, len(x))
		base := len(cv.path)
		for i, e := range x {
			cv.path = appendIndex(cv.path[:base], i)
			c, err := cv.value(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		cv.path = cv.path[:base]
		return out, nil
	}
	return cv.reflect(reflect.ValueOf(v), depth)
}

// reflect converts a Go value that is none of value's plain types, by its kind; a
// TextMarshaler is its text first, as encoding/json does.
func (cv *conv) reflect(rv reflect.Value, depth int) (any, error) {
	if depth > cv.maxDepth {
		return nil, &hberr.DocLimitError{Limit: "depth", Path: string(cv.path), Size: depth, Max: cv.maxDepth}
	}
	t := rv.Type()
	if t.Implements(textMarshaler) && (t.Kind() != reflect.Pointer || !rv.IsNil()) {
		return cv.marshalText(rv)
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil, nil
		}
		return cv.value(rv.Elem().Interface(), depth)
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.String:
		return cv.value(rv.String(), depth)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > math.MaxInt64 {
			return nil, cv.fail("%d is over int64's range", u)
		}
		return int64(u), nil
	case reflect.Float32, reflect.Float64:
		return cv.value(rv.Float(), depth)
	case reflect.Slice:
		if rv.IsNil() {
			return nil, nil
		}
		if t.Elem().Kind() == reflect.Uint8 && !t.Elem().Implements(textMarshaler) {
			return base64.StdEncoding.EncodeToString(rv.Bytes()), nil
		}
		return cv.reflectArray(rv, depth)
	case reflect.Array:
		return cv.reflectArray(rv, depth)
	case reflect.Map:
		if rv.IsNil() {
			return nil, nil
		}
		return cv.reflectMap(rv, depth)
	case reflect.Struct:
		return cv.reflectStruct(rv, depth)
	}
	return nil, cv.fail("%s has no JSON form", t)
}

// marshalText is a TextMarshaler's text, which must be UTF-8 to be a document's string.
func (cv *conv) marshalText(rv reflect.Value) (any, error) {
	text, err := rv.Interface().(encoding.TextMarshaler).MarshalText()
	if err != nil {
		return nil, cv.fail("%v", err)
	}
	if !utf8.Valid(text) {
		return nil, cv.fail("MarshalText of %s is not UTF-8", rv.Type())
	}
	return string(text), nil
}

// reflectArray converts the elements of a slice or an array, depth being the container's.
func (cv *conv) reflectArray(rv reflect.Value, depth int) (any, error) {
	out := make([]any, rv.Len())
	base := len(cv.path)
	for i := range out {
		cv.path = appendIndex(cv.path[:base], i)
		c, err := cv.reflect(rv.Index(i), depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	cv.path = cv.path[:base]
	return out, nil
}

// reflectMap converts a non-nil map to an object, its keys by mapKey.
func (cv *conv) reflectMap(rv reflect.Value, depth int) (any, error) {
	out := make(map[string]any, rv.Len())
	base := len(cv.path)
	for it := rv.MapRange(); it.Next(); {
		k, err := mapKey(it.Key())
		if err != nil {
			return nil, cv.fail("%v", err)
		}
		if !utf8.ValidString(k) {
			return nil, cv.fail("key %q is not UTF-8", k)
		}
		cv.path = appendKey(cv.path[:base], k)
		c, err := cv.reflect(it.Value(), depth+1)
		if err != nil {
			return nil, err
		}
		out[k] = c
	}
	cv.path = cv.path[:base]
	return out, nil
}

// reflectStruct converts a struct's mapped fields to an object, leaving out those its tags'
// omitempty and omitzero skip and those behind a nil embedded pointer.
func (cv *conv) reflectStruct(rv reflect.Value, depth int) (any, error) {
	si := cv.c.info(rv.Type())
	out := make(map[string]any, len(si.fields))
	base := len(cv.path)
	for _, f := range si.fields {
		fv, ok := fieldByIndex(rv, f.index)
		if !ok || f.omitEmpty && isEmpty(fv) || f.omitZero && fv.IsZero() {
			continue
		}
		cv.path = appendKey(cv.path[:base], f.name)
		c, err := cv.reflect(fv, depth+1)
		if err != nil {
			return nil, err
		}
		out[f.name] = c
	}
	cv.path = cv.path[:base]
	return out, nil
}

// fieldByIndex follows index through embedded structs; ok is false past a nil pointer.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// mapKey is a map key as an object key: strings as they are, integers in decimal, text
// marshalers as their text.
func mapKey(k reflect.Value) (string, error) {
	if k.Type().Implements(textMarshaler) {
		b, err := k.Interface().(encoding.TextMarshaler).MarshalText()
		return string(b), err
	}
	switch k.Kind() {
	case reflect.String:
		return k.String(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10), nil
	}
	return "", fmt.Errorf("map key of type %s", k.Type())
}

// Canonical converts a Go value to the canonical form of a document: a map, a struct (its
// fields by their `doc` tags, see the package documentation) or a pointer to one, or JSON
// text as a json.RawMessage. It is what Insert, Replace and Upsert store.
func Canonical(v any) (map[string]any, error) {
	cv := conv{c: newCodec(), maxDepth: DefaultMaxDepth}
	return cv.object(v)
}

// decoding is one decode of a canonical value into a Go value.
type decoding struct {
	c    *codec
	path []byte
}

func (d *decoding) fail(v any, t reflect.Type, why string) error {
	p := string(d.path)
	if p == "" {
		p = "the root"
	}
	if why != "" {
		why = ": " + why
	}
	return fmt.Errorf("%w: at %s: cannot decode %s into %s%s", hberr.ErrInvalidDocument, p, kindName(v), t, why)
}

// into decodes the canonical value v into rv (settable).
func (d *decoding) into(v any, rv reflect.Value) error {
	t := rv.Type()
	if s, ok := v.(string); ok && reflect.PointerTo(t).Implements(textUnmarshaler) && rv.CanAddr() {
		if err := rv.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
			return d.fail(v, t, err.Error())
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v == nil {
			rv.SetZero()
			return nil
		}
		if rv.IsNil() {
			rv.Set(reflect.New(t.Elem()))
		}
		return d.into(v, rv.Elem())
	case reflect.Interface:
		if v == nil {
			rv.SetZero()
			return nil
		}
		if t.NumMethod() != 0 {
			return d.fail(v, t, "an interface with methods")
		}
		rv.Set(reflect.ValueOf(v))
		return nil
	}
	if v == nil {
		// null leaves a value as it is, as encoding/json does (slices and maps become nil).
		switch t.Kind() {
		case reflect.Slice, reflect.Map:
			rv.SetZero()
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return d.fail(v, t, "")
		}
		rv.SetBool(b)
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return d.fail(v, t, "")
		}
		rv.SetString(s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return d.intoNumber(v, rv)
	case reflect.Slice:
		return d.intoSlice(v, rv)
	case reflect.Array:
		a, ok := v.([]any)
		if !ok || len(a) > rv.Len() {
			return d.fail(v, t, "")
		}
		rv.SetZero()
		return d.elements(a, rv)
	case reflect.Map:
		return d.intoMap(v, rv)
	case reflect.Struct:
		return d.intoStruct(v, rv)
	default:
		return d.fail(v, t, "no JSON form")
	}
	return nil
}

// intoNumber decodes a number into an integer or float kind, refusing what would not come
// back the same: a fraction into an integer, a value out of the kind's range, an integer a
// float cannot hold exactly.
func (d *decoding) intoNumber(v any, rv reflect.Value) error {
	t := rv.Type()
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, ok := exactInt(v)
		if !ok || rv.OverflowInt(i) {
			return d.fail(v, t, "not an integer in range")
		}
		rv.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		i, ok := exactInt(v)
		if !ok || i < 0 || rv.OverflowUint(uint64(i)) {
			return d.fail(v, t, "not an integer in range")
		}
		rv.SetUint(uint64(i))
	case reflect.Float32, reflect.Float64:
		var f float64
		switch x := v.(type) {
		case float64:
			f = x
		case int64:
			f = float64(x)
			if f >= two63 || int64(f) != x {
				return d.fail(v, t, "not exact as a float")
			}
		default:
			return d.fail(v, t, "")
		}
		if rv.OverflowFloat(f) {
			return d.fail(v, t, "out of range")
		}
		rv.SetFloat(f)
	}
	return nil
}

// intoSlice decodes an array into a slice, or a string into a []byte: base64, which is how
// a []byte is stored (as encoding/json does).
func (d *decoding) intoSlice(v any, rv reflect.Value) error {
	t := rv.Type()
	if s, ok := v.(string); ok && t.Elem().Kind() == reflect.Uint8 {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return d.fail(v, t, err.Error())
		}
		rv.SetBytes(b)
		return nil
	}
	a, ok := v.([]any)
	if !ok {
		return d.fail(v, t, "")
	}
	s := reflect.MakeSlice(t, len(a), len(a))
	if err := d.elements(a, s); err != nil {
		return err
	}
	rv.Set(s)
	return nil
}

// intoMap decodes an object into a map, adding to a map already there (as encoding/json
// does); keys convert to the map's key type.
func (d *decoding) intoMap(v any, rv reflect.Value) error {
	t := rv.Type()
	m, ok := v.(map[string]any)
	if !ok {
		return d.fail(v, t, "")
	}
	if rv.IsNil() {
		rv.Set(reflect.MakeMapWithSize(t, len(m)))
	}
	base := len(d.path)
	for k, e := range m {
		d.path = appendKey(d.path[:base], k)
		kv, err := keyValue(k, t.Key())
		if err != nil {
			return d.fail(k, t.Key(), err.Error())
		}
		ev := reflect.New(t.Elem()).Elem()
		if err := d.into(e, ev); err != nil {
			return err
		}
		rv.SetMapIndex(kv, ev)
	}
	d.path = d.path[:base]
	return nil
}

// intoStruct decodes an object into a struct's mapped fields.
func (d *decoding) intoStruct(v any, rv reflect.Value) error {
	t := rv.Type()
	m, ok := v.(map[string]any)
	if !ok {
		return d.fail(v, t, "")
	}
	si := d.c.info(t)
	base := len(d.path)
	for k, e := range m {
		i, ok := si.byName[k]
		if !ok {
			continue // a member the struct does not have, as encoding/json ignores it
		}
		fv, err := settableField(rv, si.fields[i].index)
		if err != nil {
			return d.fail(e, t, err.Error())
		}
		d.path = appendKey(d.path[:base], k)
		if err := d.into(e, fv); err != nil {
			return err
		}
	}
	d.path = d.path[:base]
	return nil
}

func (d *decoding) elements(a []any, rv reflect.Value) error {
	base := len(d.path)
	for i, e := range a {
		d.path = appendIndex(d.path[:base], i)
		if err := d.into(e, rv.Index(i)); err != nil {
			return err
		}
	}
	d.path = d.path[:base]
	return nil
}

// exactInt is v as an int64 when it is one exactly (an int64, or an integral float64).
func exactInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		if x == math.Trunc(x) && x >= -two63 && x < two63 {
			return int64(x), true
		}
	}
	return 0, false
}

// settableField follows index through embedded structs, allocating nil embedded pointers.
func settableField(v reflect.Value, index []int) (reflect.Value, error) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return reflect.Value{}, fmt.Errorf("nil embedded pointer to an unexported struct")
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, nil
}

// keyValue is an object key as a map key of type t.
func keyValue(k string, t reflect.Type) (reflect.Value, error) {
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		kv := reflect.New(t)
		if err := kv.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(k)); err != nil {
			return reflect.Value{}, err
		}
		return kv.Elem(), nil
	}
	kv := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.String:
		kv.SetString(k)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(k, 10, 64)
		if err != nil || kv.OverflowInt(n) {
			return reflect.Value{}, fmt.Errorf("key %q is not an integer in range", k)
		}
		kv.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, err := strconv.ParseUint(k, 10, 64)
		if err != nil || kv.OverflowUint(n) {
			return reflect.Value{}, fmt.Errorf("key %q is not an integer in range", k)
		}
		kv.SetUint(n)
	default:
		return reflect.Value{}, fmt.Errorf("map key of type %s", t)
	}
	return kv, nil
}

// decodeInto decodes a document's fields into dst, a non-nil pointer.
func (c *codec) decodeInto(fields map[string]any, dst any) error {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("%w: decode into %T: want a non-nil pointer", hberr.ErrInvalidDocument, dst)
	}
	d := decoding{c: c}
	return d.into(fields, rv.Elem())
}
