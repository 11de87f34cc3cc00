package doc

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-hbase/hbase/hberr"
)

// segment is one step of a path: an object key, or an array index (index >= 0).
type segment struct {
	key   string
	index int // -1 for a key
}

func (s segment) isIndex() bool { return s.index >= 0 }

// maxIndex bounds the array indexes a path may name.
const maxIndex = math.MaxInt32

// bareRune reports whether r may appear in a key written without quotes: anything but the
// path's own punctuation, the quote and escape characters and control characters.
func bareRune(r rune) bool {
	switch r {
	case '.', '[', ']', '"', '\\', utf8.RuneError, 0x7f:
		return false
	}
	return r >= 0x20
}

// bareKey reports whether key is written without quotes in a canonical path.
func bareKey(key string) bool {
	if key == "" {
		return false
	}
	for i, r := range key {
		if !bareRune(r) {
			if r == utf8.RuneError {
				if _, n := utf8.DecodeRuneInString(key[i:]); n == 3 {
					continue // U+FFFD itself, spelled out
				}
			}
			return false
		}
	}
	return true
}

// appendKey appends the canonical segment of an object key: .key, or .["key"] with the key
// quoted as JSON quotes it (only ", \ and control characters escaped) when it is empty or
// holds a character a bare key cannot.
func appendKey(b []byte, key string) []byte {
	b = append(b, '.')
	if bareKey(key) {
		return append(b, key...)
	}
	b = append(b, '[', '"')
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20 || c == 0x7f:
			b = append(b, '\\', 'u', '0', '0', hexDigit(c>>4), hexDigit(c&0xf))
		default:
			b = append(b, c)
		}
	}
	return append(b, '"', ']')
}

func hexDigit(c byte) byte { return "0123456789abcdef"[c] }

// appendIndex appends the canonical segment of an array index: [i].
func appendIndex(b []byte, i int) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(i), 10)
	return append(b, ']')
}

func appendSegment(b []byte, s segment) []byte {
	if s.isIndex() {
		return appendIndex(b, s.index)
	}
	return appendKey(b, s.key)
}

// formatPath is the canonical text of a path: its qualifier.
func formatPath(segs []segment) string {
	var b []byte
	for _, s := range segs {
		b = appendSegment(b, s)
	}
	return string(b)
}

// PathOf builds the canonical path of its segments: each a string (an object key, any
// UTF-8, quoted as needed) or an int (an array index). PathOf("address", "city") is
// ".address.city", PathOf("a.b", 0) is `.["a.b"][0]`. It panics on a segment of another type
// or a negative index, as a program's own mistake.
func PathOf(segments ...any) string {
	var b []byte
	for _, s := range segments {
		switch v := s.(type) {
		case string:
			b = appendKey(b, v)
		case int:
			if v < 0 {
				panic(fmt.Sprintf("doc.PathOf: negative index %d", v))
			}
			b = appendIndex(b, v)
		default:
			panic(fmt.Sprintf("doc.PathOf: segment %v of type %T; want string or int", s, s))
		}
	}
	return string(b)
}

// pathError is ErrInvalidPath with where and why.
func pathError(path string, at int, why string) error {
	return fmt.Errorf("%w: %q at byte %d: %s", hberr.ErrInvalidPath, path, at, why)
}

// parsePath reads a path as a user writes it: segments .key, ["quoted key"] and [index],
// the first key's dot optional ("a.b" is ".a.b"). Quoted keys take JSON's escapes.
func parsePath(path string) ([]segment, error) {
	if path == "" {
		return nil, pathError(path, 0, "empty path")
	}
	s := path
	if s[0] != '.' && s[0] != '[' {
		s = "." + s
	}
	segs, at, err := scanPath(s, false, nil)
	if err != nil {
		if s != path {
			at-- // the dot we added
		}
		return nil, pathError(path, at, err.Error())
	}
	return segs, nil
}

// parseQualifier reads a stored qualifier: a canonical path and nothing else.
func parseQualifier(q string) ([]segment, error) {
	segs, at, err := scanPath(q, true, nil)
	if err != nil {
		return nil, pathError(q, at, err.Error())
	}
	return segs, nil
}

// scanPath parses s into segments (appended to segs). canonical refuses every spelling but
// the canonical one, as stored qualifiers are. It returns the byte where parsing failed, or
// on success where the last segment starts (the length of its parent's path).
func scanPath(s string, canonical bool, segs []segment) ([]segment, int, error) {
	if s == "" {
		return nil, 0, fmt.Errorf("empty path")
	}
	i, last := 0, 0
	for i < len(s) {
		last = i
		switch s[i] {
		case '.':
			if i+1 < len(s) && s[i+1] == '[' {
				// .["key"] (canonical), or .[n] as jq writes an index (not canonical)
				if i+2 < len(s) && s[i+2] == '"' {
					key, end, err := scanQuoted(s, i+2, canonical)
					if err != nil {
						return nil, end, err
					}
					if end >= len(s) || s[end] != ']' {
						return nil, end, fmt.Errorf("want ']' after a quoted key")
					}
					if canonical && bareKey(key) {
						return nil, i, fmt.Errorf("quoted key %q is written bare in a canonical path", key)
					}
					segs = append(segs, segment{key: key, index: -1})
					i = end + 1
					continue
				}
				if canonical {
					return nil, i, fmt.Errorf(".[ without a quoted key in a canonical path")
				}
				i++
				continue // the index, below, on the next turn
			}
			j := i + 1
			for j < len(s) && s[j] != '.' && s[j] != '[' {
				r, n := utf8.DecodeRuneInString(s[j:])
				if !bareRune(r) && !(r == utf8.RuneError && n == 3) {
					if r == utf8.RuneError && n == 1 {
						return nil, j, fmt.Errorf("key is not UTF-8")
					}
					return nil, j, fmt.Errorf("%q in a key: quote the key as .[\"...\"]", r)
				}
				j += n
			}
			if j == i+1 {
				return nil, i, fmt.Errorf("empty key after '.': write .[\"\"] for the empty key")
			}
			segs = append(segs, segment{key: s[i+1 : j], index: -1})
			i = j
		case '[':
			if i+1 < len(s) && s[i+1] == '"' {
				if canonical {
					return nil, i, fmt.Errorf("a quoted key is written .[\"...\"] in a canonical path")
				}
				key, end, err := scanQuoted(s, i+1, canonical)
				if err != nil {
					return nil, end, err
				}
				if end >= len(s) || s[end] != ']' {
					return nil, end, fmt.Errorf("want ']' after a quoted key")
				}
				segs = append(segs, segment{key: key, index: -1})
				i = end + 1
				continue
			}
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j == i+1 || j >= len(s) || s[j] != ']' {
				return nil, i, fmt.Errorf("want [index] or [\"key\"]")
			}
			digits := s[i+1 : j]
			if len(digits) > 1 && digits[0] == '0' {
				return nil, i + 1, fmt.Errorf("index %s has a leading zero", digits)
			}
			n, err := strconv.Atoi(digits)
			if err != nil || n > maxIndex {
				return nil, i + 1, fmt.Errorf("index %s over %d", digits, maxIndex)
			}
			segs = append(segs, segment{index: n})
			i = j + 1
		default:
			return nil, i, fmt.Errorf("want '.' or '[' to start a segment")
		}
	}
	return segs, last, nil
}

// scanQuoted reads the JSON string starting at s[at] (a '"') and returns it and the byte
// after its closing quote. canonical allows only the escapes appendKey writes.
func scanQuoted(s string, at int, canonical bool) (string, int, error) {
	var b strings.Builder
	i := at + 1
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), i + 1, nil
		case c == '\\':
			if i+1 >= len(s) {
				return "", i, fmt.Errorf("unfinished escape")
			}
			e := s[i+1]
			switch e {
			case '"', '\\':
				b.WriteByte(e)
				i += 2
				continue
			case 'u':
				r, n, err := scanUnicodeEscape(s, i)
				if err != nil {
					return "", i, err
				}
				if canonical && (r >= 0x20 && r != 0x7f || n != 6) {
					return "", i, fmt.Errorf("escape of %q in a canonical path", r)
				}
				b.WriteRune(r)
				i += n
				continue
			}
			if canonical {
				return "", i, fmt.Errorf("escape \\%c in a canonical path", e)
			}
			var r byte
			switch e {
			case '/':
				r = '/'
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			default:
				return "", i, fmt.Errorf("unknown escape \\%c", e)
			}
			b.WriteByte(r)
			i += 2
		case c < 0x20 || canonical && c == 0x7f:
			return "", i, fmt.Errorf("control character %#x in a quoted key: escape it as \\u00%02x", c, c)
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				return "", i, fmt.Errorf("key is not UTF-8")
			}
			b.WriteString(s[i : i+n])
			i += n
		}
	}
	return "", i, fmt.Errorf("unterminated quoted key")
}

// scanUnicodeEscape reads \uXXXX at s[i] (with a following low surrogate when it is a high
// one) and returns the rune and the bytes read.
func scanUnicodeEscape(s string, i int) (rune, int, error) {
	hex4 := func(at int) (rune, bool) {
		if at+6 > len(s) || s[at] != '\\' || s[at+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(s[at+2:at+6], 16, 16)
		return rune(v), err == nil
	}
	r, ok := hex4(i)
	if !ok {
		return 0, 0, fmt.Errorf("bad \\u escape")
	}
	if utf16IsHigh(r) {
		lo, ok := hex4(i + 6)
		if !ok || !utf16IsLow(lo) {
			return 0, 0, fmt.Errorf("unpaired surrogate in \\u escape")
		}
		return (r-0xd800)<<10 | (lo - 0xdc00) + 0x10000, 12, nil
	}
	if utf16IsLow(r) {
		return 0, 0, fmt.Errorf("unpaired surrogate in \\u escape")
	}
	return r, 6, nil
}

func utf16IsHigh(r rune) bool { return r >= 0xd800 && r < 0xdc00 }
func utf16IsLow(r rune) bool  { return r >= 0xdc00 && r < 0xe000 }

// lastSegment splits a canonical qualifier into its parent's length and its last segment,
// the decoder's one parse of each cell; buf is scratch space for the segments. It checks the
// whole qualifier.
func lastSegment(q string, buf []segment) (parent int, last segment, err error) {
	segs, at, err := scanPath(q, true, buf[:0])
	if err != nil {
		return 0, segment{}, pathError(q, at, err.Error())
	}
	return at, segs[len(segs)-1], nil
}

// subtreePrefixes are the qualifier prefixes of what lies under the path q (besides q itself).
func subtreePrefixes(q string) (dot, bracket string) { return q + ".", q + "[" }
