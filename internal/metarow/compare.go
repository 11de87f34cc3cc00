// Package metarow orders the row keys of hbase:meta as HBase does.
//
// hbase:meta is not sorted by the bytes of its rows. Its region names
// ("table,start key,region id.encoded name.") are compared part by part
// (MetaCellComparator): the table (up to the first comma), then the start key (up
// to the last comma), then the region id, each part by its bytes. So the first
// region of a table ("t,,1") sorts before "t,\x00,1" although ',' (0x2c) is
// greater than 0x00 as a byte, and every row of table "t" sorts before any row
// of table "t-" although "t," is greater than "t-". Start keys may hold commas;
// table names and region ids may not.
//
// User tables keep byte order: this comparator applies to hbase:meta's rows
// only.
package metarow

import "bytes"

// Compare compares two hbase:meta row keys as HBase's MetaCellComparator does,
// returning -1, 0 or +1. It follows HBase for every input, including rows that
// are not region names: a row without a comma (a table state row, "t") sorts
// before every region of its table, and one with a single comma compares the
// rest of the row as its start key and then, when that ties, the whole row.
func Compare(a, b []byte) int {
	ad, bd := bytes.IndexByte(a, ','), bytes.IndexByte(b, ',')
	if c := bytes.Compare(head(a, ad), head(b, bd)); c != 0 {
		return c
	}
	switch {
	case ad < 0 && bd < 0:
		return 0
	case ad < 0:
		return -1
	case bd < 0:
		return 1
	}
	// The start key runs to the last comma after the first one. Without one, it is
	// the rest of the row and the "region id" HBase compares next is the whole row
	// (its index arithmetic lands on offset 0): kept, so that the order agrees
	// with the server's for any key.
	aRest, bRest := a[ad+1:], b[bd+1:]
	af, bf := bytes.LastIndexByte(aRest, ','), bytes.LastIndexByte(bRest, ',')
	if c := bytes.Compare(head(aRest, af), head(bRest, bf)); c != 0 {
		return c
	}
	return bytes.Compare(tail(a, aRest, af), tail(b, bRest, bf))
}

// head returns row up to index i, or the whole row when i < 0.
func head(row []byte, i int) []byte {
	if i < 0 {
		return row
	}
	return row[:i]
}

// tail returns what follows the last comma of rest (the region id), or the whole row
// when rest has none.
func tail(row, rest []byte, i int) []byte {
	if i < 0 {
		return row
	}
	return rest[i+1:]
}

// Less reports whether row a sorts before row b in hbase:meta.
func Less(a, b []byte) bool { return Compare(a, b) < 0 }
