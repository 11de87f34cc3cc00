package main

import (
	"bytes"
	"testing"
)

func TestServerNameArg(t *testing.T) {
	for in, want := range map[string]string{
		"h1,16020":         "h1:16020",
		"h1,16020,1700000": "h1,16020,1700000",
		"h1:16020":         "h1:16020",
		"h1":               "",
		",16020":           "",
		"h1,16020,x":       "",
		"h1,1,2,3":         "",
	} {
		got, err := serverNameArg(value{kind: vString, s: in})
		if got != want || (err == nil) != (want != "") {
			t.Errorf("serverNameArg(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestCompactionSwitchText(t *testing.T) {
	var b bytes.Buffer
	rows, err := (&switchOut{Previous: map[string]bool{"h2,2,2": false, "h1,1,1": true}}).shellText(&b)
	want := "SERVER  PREV_STATE\nh1,1,1  true\nh2,2,2  false\n"
	if err != nil || rows != 2 || b.String() != want {
		t.Fatalf("got = %q, %d rows, %v; want %q, 2 rows", b.String(), rows, err, want)
	}
}

// TestFlushServer: flush names a region server only by 'host,port' or 'host,port,startcode';
// tables, namespaced tables, region names and hbase:meta's old-format name stay flush's.
func TestFlushServer(t *testing.T) {
	for _, tc := range []struct{ target, family, want string }{
		{"h1,16020", "", "h1:16020"},
		{"h1,16020,1700000000000", "", "h1,16020,1700000000000"},
		{"h1,16020", "f", ""},
		{"t", "", ""},
		{"ns:123", "", ""},
		{"t,key,1700000000000.0123456789abcdef0123456789abcdef.", "", ""},
		{"hbase:meta,,1", "", ""},
	} {
		if got := flushServer(tc.target, tc.family); got != tc.want {
			t.Errorf("flushServer(%q, %q) = %q; want %q", tc.target, tc.family, got, tc.want)
		}
	}
}
