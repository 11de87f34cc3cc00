package hbasetest

import (
	"strings"
	"testing"
)

func TestNormalizeProtection(t *testing.T) {
	for in, want := range map[string]string{
		"privacy":                          "privacy",
		"authentication":                   "authentication",
		"authentication,integrity,privacy": "authentication,integrity,privacy",
		" Privacy , authentication":        "privacy,authentication",
	} {
		got, err := normalizeProtection(in)
		if err != nil || got != want {
			t.Errorf("normalizeProtection(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, why := range map[string]string{
		"none":              `"none" is not`,
		"privacy,auth-conf": `"auth-conf" is not`,
		"privacy,":          "empty entry",
		"":                  "empty entry",
		"privacy,privacy":   "twice",
	} {
		if got, err := normalizeProtection(in); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("normalizeProtection(%q) = %q, %v; want an error saying %s", in, got, err, why)
		}
	}
}
