package engine

import (
	"bytes"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
)

// addCursor files a cursor result (hrpc.CursorResults): a heartbeat that brought no row but
// says which row the server has reached. As the Java client, only heartbeats give one; a row
// being put together from pieces holds it back, since the server's position is then inside a
// row the caller has not seen whole.
//
// The cursor moves nothing: a scanner reopened later starts after the last row returned, not
// at the cursor, so no row between them can be missed whatever the server meant by it.
func (s *Scanner) addCursor(resp *pb.ScanResponse) {
	row := resp.GetCursor().GetRow()
	if len(row) == 0 || s.partial != nil || s.done {
		return
	}
	s.buf = append(s.buf, &hrpc.Result{Cursor: bytes.Clone(row)})
}
