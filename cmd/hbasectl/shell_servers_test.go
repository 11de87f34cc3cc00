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
