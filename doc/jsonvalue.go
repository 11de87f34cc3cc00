package doc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-hbase/hbase/hberr"
)

// ParseJSON reads a JSON object into the canonical form of a document: map[string]any whose
// values are nil, bool, int64 (a number written without a fraction or exponent that fits),
// float64 (every other number), string, []any and map[string]any. A number outside float64's
// range, a root that is not an object, trailing data and keys or strings that are not UTF-8
// are refused (hberr.ErrInvalidDocument).
func ParseJSON(data []byte) (map[string]any, error) {
	v, err := parseJSONValue(data)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalid("the root of a document is a JSON object, not %s", kindName(v))
	}
	return m, nil
}

// parseJSONValue reads any JSON value in canonical form.
func parseJSONValue(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, invalid("JSON is not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, invalid("JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, invalid("JSON: data after the value")
	}
	return canonicalJSON(v)
}

// canonicalJSON turns encoding/json's numbers (UseNumber) into int64 or float64, in place.
func canonicalJSON(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		return parseNumber(string(x))
	case map[string]any:
		for k, e := range x {
			c, err := canonicalJSON(e)
			if err != nil {
				return nil, err
			}
			x[k] = c
		}
	case []any:
		for i, e := range x {
			c, err := canonicalJSON(e)
			if err != nil {
				return nil, err
			}
			x[i] = c
		}
	}
	return v, nil
}

// parseNumber reads a JSON number: int64 when written as an integer that fits, else float64.
func parseNumber(s string) (any, error) {
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, invalid("number %s out of float64's range", s)
	}
	return f, nil
}

// kindName names a canonical value's JSON type, for messages.
func kindName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// MarshalJSON writes a canonical value (a document's Fields, or any value in them) as JSON
// that ParseJSON reads back to the same value: object keys sorted, floats with a fraction or
// exponent even when integral (1.0, -0.0, 1e+21) so that they stay floats, int64s as
// integers, strings escaped as encoding/json escapes them (without HTML escaping). A value
// that is not canonical is refused (hberr.ErrInvalidDocument).
func MarshalJSON(v any) ([]byte, error) {
	return appendJSON(nil, v, "", "")
}

// MarshalJSONIndent is MarshalJSON with each member on a line of its own, indented.
func MarshalJSONIndent(v any, prefix, indent string) ([]byte, error) {
	return appendJSON(nil, v, prefix, indent)
}

func appendJSON(b []byte, v any, prefix, indent string) ([]byte, error) {
	w := jsonWriter{b: b, prefix: prefix, indent: indent}
	if err := w.value(v, 0); err != nil {
		return nil, err
	}
	return w.b, nil
}

type jsonWriter struct {
	b              []byte
	prefix, indent string
}

func (w *jsonWriter) newline(depth int) {
	if w.indent == "" && w.prefix == "" {
		return
	}
	w.b = append(w.b, '\n')
	w.b = append(w.b, w.prefix...)
	for range depth {
		w.b = append(w.b, w.indent...)
	}
}

func (w *jsonWriter) value(v any, depth int) error {
	switch x := v.(type) {
	case nil:
		w.b = append(w.b, "null"...)
	case bool:
		w.b = strconv.AppendBool(w.b, x)
	case int64:
		w.b = strconv.AppendInt(w.b, x, 10)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return invalid("number %v has no JSON form", x)
		}
		w.b = appendFloatJSON(w.b, x)
	case string:
		w.b = appendQuoted(w.b, x)
	case []any:
		if len(x) == 0 {
			w.b = append(w.b, "[]"...)
			return nil
		}
		w.b = append(w.b, '[')
		for i, e := range x {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.newline(depth + 1)
			if err := w.value(e, depth+1); err != nil {
				return err
			}
		}
		w.newline(depth)
		w.b = append(w.b, ']')
	case map[string]any:
		if len(x) == 0 {
			w.b = append(w.b, "{}"...)
			return nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		w.b = append(w.b, '{')
		for i, k := range keys {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.newline(depth + 1)
			w.b = appendQuoted(w.b, k)
			w.b = append(w.b, ':')
			if w.indent != "" || w.prefix != "" {
				w.b = append(w.b, ' ')
			}
			if err := w.value(x[k], depth+1); err != nil {
				return err
			}
		}
		w.newline(depth)
		w.b = append(w.b, '}')
	default:
		return fmt.Errorf("%w: %T is not a canonical value (use doc.Canonical)", hberr.ErrInvalidDocument, v)
	}
	return nil
}

// appendFloatJSON writes a float64 as encoding/json does, plus ".0" when that would read as
// an integer.
func appendFloatJSON(b []byte, f float64) []byte {
	start := len(b)
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9, as encoding/json does
		n := len(b)
		if n-start >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
		return b
	}
	if !bytes.ContainsAny(b[start:], ".e") {
		b = append(b, '.', '0')
	}
	return b
}

// appendQuoted writes a JSON string: ", \ and control characters escaped, nothing else.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigit(c>>4), hexDigit(c&0xf))
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
