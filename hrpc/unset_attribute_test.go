package hrpc

import "testing"

// UnsetAttribute finds an attribute in its typed field or in Attributes, as alter's
// table_att_unset names it.
func TestUnsetAttribute(t *testing.T) {
	d := TableDescriptor{MaxFileSize: 1 << 30, ReadOnly: FlagOn, Durability: AsyncWAL, Owner: "bob",
		Attributes: map[string]string{"hbase.rsgroup.name": "g1"}}
	for _, k := range []string{"MAX_FILESIZE", "READONLY", "DURABILITY", "OWNER", "hbase.rsgroup.name"} {
		if !d.UnsetAttribute(k) {
			t.Fatalf("UnsetAttribute(%q) = false; want true", k)
		}
		if d.UnsetAttribute(k) {
			t.Fatalf("UnsetAttribute(%q) again = true; want false", k)
		}
	}
	if d.MaxFileSize != 0 || d.ReadOnly != FlagDefault || d.Durability != UseDefault || d.Owner != "" || len(d.Attributes) != 0 {
		t.Fatalf("after unsetting everything: %+v", d)
	}
	if d.UnsetAttribute("MEMSTORE_FLUSHSIZE") || d.UnsetAttribute("NO_SUCH") {
		t.Fatal("UnsetAttribute of an attribute the table does not have = true")
	}
	if got := d.attributes(); len(got) != 0 {
		t.Fatalf("attributes sent after unsetting = %v; want none", got)
	}
}
