package admin

import (
	"errors"
	"reflect"
	"testing"

	"github.com/go-hbase/hbase/hberr"
)

// The read-modify-update edits of a peer's table CFs, as HBase's ReplicationPeerConfigUtil
// makes them.
func TestAppendTableCFs(t *testing.T) {
	cur := map[string][]string{"t1": {"a"}, "t2": nil}
	got := appendTableCFs(cur, map[string][]string{"t1": {"b", "a"}, "t2": {"x"}, "t3": nil, "t4": {"f"}})
	want := map[string][]string{"t1": {"a", "b"}, "t2": nil, "t3": nil, "t4": {"f"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("append = %v; want %v", got, want)
	}
	if !reflect.DeepEqual(cur, map[string][]string{"t1": {"a"}, "t2": nil}) {
		t.Fatalf("append changed its input: %v", cur)
	}
	// A table appended without families ships all of them from then on.
	if got := appendTableCFs(map[string][]string{"t": {"a"}}, map[string][]string{"t": nil}); got["t"] != nil {
		t.Fatalf("append of a whole table = %v; want t: every family", got)
	}
	if got := appendTableCFs(nil, map[string][]string{"t": {"a"}}); !reflect.DeepEqual(got, map[string][]string{"t": {"a"}}) {
		t.Fatalf("append to none = %v", got)
	}
}

func TestRemoveTableCFs(t *testing.T) {
	cur := map[string][]string{"t1": {"a", "b"}, "t2": nil}
	got, err := removeTableCFs("p", cur, map[string][]string{"t1": {"a"}, "t2": nil})
	if err != nil || !reflect.DeepEqual(got, map[string][]string{"t1": {"b"}}) {
		t.Fatalf("remove = %v, %v; want t1: [b]", got, err)
	}
	if got, err := removeTableCFs("p", cur, map[string][]string{"t1": {"a", "b"}}); err != nil || !reflect.DeepEqual(got, map[string][]string{"t2": nil}) {
		t.Fatalf("removing every family = %v, %v; want the table gone", got, err)
	}
	if !reflect.DeepEqual(cur, map[string][]string{"t1": {"a", "b"}, "t2": nil}) {
		t.Fatalf("remove changed its input: %v", cur)
	}
	for _, bad := range []map[string][]string{
		{"t3": nil},   // not listed
		{"t2": {"a"}}, // families of a whole table
		{"t1": nil},   // a table listed with families, removed whole
		{"t1": {"a"}, "t9": nil},
	} {
		if _, err := removeTableCFs("p", cur, bad); !errors.Is(err, hberr.ErrInvalidPeerConfig) {
			t.Errorf("remove %v: err = %v; want ErrInvalidPeerConfig", bad, err)
		}
	}
	if _, err := removeTableCFs("p", nil, map[string][]string{"t": nil}); !errors.Is(err, hberr.ErrInvalidPeerConfig) {
		t.Errorf("remove from none: err = %v; want ErrInvalidPeerConfig", err)
	}
}

func TestNeedToReplicate(t *testing.T) {
	all := &ReplicationPeerConfig{ReplicateAll: true, ExcludeNamespaces: []string{"x"},
		ExcludeTableCFs: map[string][]string{"t1": nil, "t2": {"a"}}}
	listed := &ReplicationPeerConfig{Namespaces: []string{"ns"}, TableCFs: map[string][]string{"t1": {"a"}}}
	for _, tc := range []struct {
		c     *ReplicationPeerConfig
		table string
		want  bool
	}{
		{all, "t0", true}, {all, "x:t0", false}, {all, "t1", false}, {all, "t2", true},
		{listed, "ns:t9", true}, {listed, "t1", true}, {listed, "t2", false}, {listed, "other:t1", false},
		{&ReplicationPeerConfig{}, "t1", false},
	} {
		if got := tc.c.needToReplicate(tc.table); got != tc.want {
			t.Errorf("%+v needToReplicate(%q) = %v; want %v", tc.c, tc.table, got, tc.want)
		}
	}
}
