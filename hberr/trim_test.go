package hberr

import "testing"

// The message of a wrong family, as HBase 2.6.1 sends it (629 characters), loses the table
// descriptor and keeps the family, region and table; the whole text stays in StackTrace.
func TestRemoteErrorDropsTableDescriptor(t *testing.T) {
	const class = "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException"
	const head = "Column family nofam does not exist in region xt,,1795655964491.2e94cc4d325f3f3d76cba94484e43cac. in table 'xt'"
	const trace = class + ": " + head + ", {TABLE_ATTRIBUTES => {METADATA => {'hbase.store.file-tracker.impl' => 'DEFAULT'}}}, " +
		"{NAME => 'f', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '1', KEEP_DELETED_CELLS => 'FALSE', DATA_BLOCK_ENCODING => 'NONE', " +
		"TTL => 'FOREVER', MIN_VERSIONS => '0', REPLICATION_SCOPE => '0', BLOOMFILTER => 'ROW', IN_MEMORY => 'false', " +
		"COMPRESSION => 'NONE', BLOCKCACHE => 'true', BLOCKSIZE => '65536 B (64KB)'}\n\tat org.apache.hadoop.hbase.regionserver.HRegion.checkFamily(HRegion.java:8128)"
	e := NewRemoteError(class, trace, true)
	if e.Message != head {
		t.Errorf("Message = %q; want %q", e.Message, head)
	}
	if want := class + ": " + head; e.Error() != want {
		t.Errorf("Error() = %q; want %q", e.Error(), want)
	}
	if e.StackTrace != trace {
		t.Errorf("StackTrace lost text: %q", e.StackTrace)
	}
	for _, tc := range []struct{ in, want string }{
		{"table 'u', {NAME => 'g', VERSIONS => '1'}", "table 'u'"},
		{"x in table 'u' {TABLE_ATTRIBUTES => {}}", "x in table 'u'"},
		{"plain message", "plain message"},
		{"", ""},
	} {
		if got := trimMessage(tc.in); got != tc.want {
			t.Errorf("trimMessage(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}
