package main

import (
	"strings"
	"testing"

	"github.com/go-hbase/hbase/hrpc"
)

// attributesHash is the option hash of a one-statement script.
func attributesHash(t *testing.T, src string) value {
	t.Helper()
	sts, err := parseScript(src)
	if err != nil {
		t.Fatalf("parseScript(%q) = %v", src, err)
	}
	_, h := splitOpts(sts[0].args)
	return h
}

func TestWithAttributes(t *testing.T) {
	h := attributesHash(t, `put 't', 'r', 'f:q', 'v', {ATTRIBUTES => {'b' => '2', 'a' => '1'}}`)
	start := []hrpc.PutOption{hrpc.Value([]byte("f"), []byte("q"), []byte("v"))}
	opts, err := withAttributes(start, h)
	if err != nil {
		t.Fatalf("withAttributes = %v; want no error", err)
	}
	if len(opts) != 3 {
		t.Fatalf("withAttributes gave %d options; want 3 (the value and two attributes)", len(opts))
	}
	if _, err := hrpc.NewPut("t", []byte("r"), opts...); err != nil {
		t.Fatalf("NewPut with the attributes = %v; want no error", err)
	}

	none, err := withAttributes(start, attributesHash(t, `put 't', 'r', 'f:q', 'v'`))
	if err != nil || len(none) != 1 {
		t.Fatalf("withAttributes without ATTRIBUTES = %d options, %v; want 1, no error", len(none), err)
	}

	if _, err := withAttributes([]hrpc.RowMutationsOption(nil), h); err == nil || !strings.Contains(err.Error(), "takes no attributes") {
		t.Fatalf("withAttributes for a RowMutations = %v; want an error that it takes no attributes", err)
	}

	bad := attributesHash(t, `put 't', 'r', 'f:q', 'v', {ATTRIBUTES => 'a'}`)
	if _, err := withAttributes([]hrpc.PutOption(nil), bad); err == nil || !strings.Contains(err.Error(), "ATTRIBUTES") {
		t.Fatalf("withAttributes with ATTRIBUTES => 'a' = %v; want an error naming ATTRIBUTES", err)
	}
}
