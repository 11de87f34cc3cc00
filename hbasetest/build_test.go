package hbasetest

import "testing"

// Versions without -hadoop3 are Hadoop 2 builds and get the pom's hadoop2 profile.
func TestHadoop2(t *testing.T) {
	for v, want := range map[string]bool{
		"2.4.18":         true,
		"2.5.11":         true,
		"2.5.11-hadoop3": false,
		"2.6.1-hadoop3":  false,
		"3.0.0-beta-1":   false,
	} {
		if got := hadoop2(v); got != want {
			t.Errorf("hadoop2(%q) = %v; want %v", v, got, want)
		}
	}
}
