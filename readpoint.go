package hbase

import "bytes"

// A scan reads each region at one MVCC read point, as the Java client's ClientScanner does:
// the server gives it with the first scanner it opens in a region, and a scanner reopened
// after a failure (the region moved, the scanner expired, the server restarted) sends it back
// (Scan.mvcc_read_point), so that rows written after the scan reached the region are not seen
// in it, however often it reopens.
//
// Java keeps the read point for every reopen until the scan moves on to the next region by
// its boundaries. This scanner keeps it while the scan stays in the key range of the region
// that gave it, whatever the region is called now:
//   - the same region moved to another server: its cells keep their sequence ids, and the
//     writes after the read point have higher ones, so they stay invisible;
//   - the daughters of a split: they read the parent's files, whose cells keep the parent's
//     sequence ids, and their own writes come after the parent's last one. Java drops the
//     read point when it moves from the first daughter to the second; this scanner keeps it,
//     so the whole parent range is read at one point;
//   - a region made by a merge reaches past that range: the other parent's cells carry
//     sequence ids of another region's numbering, which the read point would hide at random.
//     Java keeps the read point there (and may miss rows of the other parent); this scanner
//     drops it and takes the merged region's own.

// readPointHolds reports whether the scan's read point applies to r, a region the scan opens
// a scanner in: r lies in the key range of the region that gave the read point.
func (s *Scanner) readPointHolds(r *regionInfo) bool {
	if s.readPoint == 0 {
		return false
	}
	if bytes.Compare(r.start, s.rpStart) < 0 {
		return false
	}
	if len(s.rpEnd) == 0 {
		return true
	}
	return len(r.end) != 0 && bytes.Compare(r.end, s.rpEnd) <= 0
}
