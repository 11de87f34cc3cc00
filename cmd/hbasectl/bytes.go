package main

import (
	"fmt"
	"strings"
)

// parseBinary reads a byte string as the HBase shell writes one (Bytes.toBytesBinary):
// literal characters, and \xNN for any byte. A backslash not followed by x and two hex
// digits is an error rather than a guess.
func parseBinary(s string) ([]byte, error) {
	if !strings.Contains(s, `\`) {
		return []byte(s), nil
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			out = append(out, s[i])
			continue
		}
		if i+3 >= len(s) || s[i+1] != 'x' {
			return nil, fmt.Errorf("bad escape at byte %d of %q: want \\xNN", i, s)
		}
		hi, ok1 := unhex(s[i+2])
		lo, ok2 := unhex(s[i+3])
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("bad escape at byte %d of %q: want \\xNN", i, s)
		}
		out = append(out, hi<<4|lo)
		i += 3
	}
	return out, nil
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// formatBinary writes b as the HBase shell prints bytes (Bytes.toStringBinary): letters,
// digits and ASCII punctuation as they are, every other byte (backslash included) as \xNN,
// so that parseBinary(formatBinary(b)) == b.
func formatBinary(b []byte) string {
	const hex = "0123456789ABCDEF"
	var sb strings.Builder
	sb.Grow(len(b))
	for _, c := range b {
		if c >= ' ' && c <= '~' && c != '\\' {
			sb.WriteByte(c)
			continue
		}
		sb.WriteString(`\x`)
		sb.WriteByte(hex[c>>4])
		sb.WriteByte(hex[c&0xf])
	}
	return sb.String()
}
