package main

import (
	"io"
	"testing"
)

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"2097152": 2 << 20, "2MiB": 2 << 20, "2MB": 2 << 20, "512KiB": 512 << 10,
		"64 KiB": 64 << 10, "1GiB": 1 << 30, "100B": 100} {
		if got, err := parseBytes(in); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1MiB", "2TiB", "1.5MiB", "MiB", "2048GiB"} {
		if n, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q) = %d, want an error", in, n)
		}
	}
}

func TestParseConfigBuffered(t *testing.T) {
	c, err := parseConfig([]string{"-buffered", "-write-buffer", "512KiB", "-workload", "randomWrite,randomRead"},
		env("HBASE_ZK", "127.0.0.1:2181"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Buffered || c.WriteBuffer != 512<<10 {
		t.Errorf("buffered %v, write buffer %d; want true, 512 KiB", c.Buffered, c.WriteBuffer)
	}
	if s := specFor(c, randRead, "", 0); s.Buffered {
		t.Error("randomRead runs buffered")
	}
	if s := specFor(c, randWrite, "", 0); !s.Buffered || s.WriteBuffer != 512<<10 {
		t.Errorf("randomWrite: buffered %v, write buffer %d", s.Buffered, s.WriteBuffer)
	}
}
