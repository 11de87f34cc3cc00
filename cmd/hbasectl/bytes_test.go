package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestBinaryRoundTrip(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	for _, b := range [][]byte{nil, []byte("row-1"), []byte(`a\b`), {0, 0xff, '\n', '\t'}, all} {
		s := formatBinary(b)
		if strings.ContainsAny(s, "\t\n\r") {
			t.Errorf("formatBinary(%q) = %q holds a control character", b, s)
		}
		got, err := parseBinary(s)
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("parseBinary(formatBinary(%q)) = %q, %v; want the bytes back", b, got, err)
		}
	}
}

func TestFormatBinaryAsTheShell(t *testing.T) {
	for in, want := range map[string]string{
		"alice@example.com": "alice@example.com",
		"a b":               "a b",
		"\x00\x01\xff":      `\x00\x01\xFF`,
		`c:\dir`:            `c:\x5Cdir`,
		"é":                 `\xC3\xA9`,
	} {
		if got := formatBinary([]byte(in)); got != want {
			t.Errorf("formatBinary(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestParseBinary(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:        "plain",
		`\x00\xfF`:     "\x00\xff",
		`row\x2D1`:     "row-1",
		`\x41\x42tail`: "ABtail",
	} {
		got, err := parseBinary(in)
		if err != nil || string(got) != want {
			t.Errorf("parseBinary(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`\`, `\x`, `\x4`, `\x4g`, `\n`, `tail\`} {
		if got, err := parseBinary(bad); err == nil {
			t.Errorf("parseBinary(%q) = %q; want an error", bad, got)
		}
	}
}
