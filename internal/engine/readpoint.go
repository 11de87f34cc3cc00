package engine

import "bytes"

// A scan reads each region at one MVCC read point, as the Java client's ClientScanner does:
// the server gives it with the first scanner the scan opens in a region, and a scanner
// reopened after a failure (the region moved or split, the scanner expired, the server
// restarted) sends it back (Scan.mvcc_read_point), so that rows written after the scan reached
// the region are not seen in it, however often it reopens. Moving on to the next region by
// its boundaries drops it (nextRegion): that region gets its own, as in Java.
//
// Java keeps the read point for every reopen. This scanner keeps it when the region it
// reopens in lies in the key range of the region that gave it:
//   - the same region moved to another server: its cells keep their sequence ids, and the
//     writes after the read point have higher ones, so they stay invisible;
//   - the daughter of a split holding the scan's position: it reads the parent's files, whose
//     cells keep the parent's sequence ids, and its own writes come after the parent's last;
//   - not a region made by a merge, which reaches past that range: the other parent's cells
//     carry sequence ids of another region's numbering, which the read point would hide at
//     random (Java keeps the read point there and may miss rows of the other parent).
//
// The second daughter of a split gets its own read point, as in Java, when the scan reaches
// it: a read point older than a compaction of the region hides the rows updated since (the
// compaction kept only their newest version, which the read point does not see), and a
// daughter compacts its references to the parent's files as soon as it opens; the scan
// reaches the second daughter long after that. The reopen in the first daughter runs the
// same risk in a window of milliseconds, as Java's does.

// readPointHolds reports whether the scan's read point applies to r, a region the scan reopens
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
