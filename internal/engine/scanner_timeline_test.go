package engine

import (
	"testing"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// The hedge timer of a Timeline scan's open may fire just as the primary answers, and its
// launch run after openTimeline returned and the Scanner went back to the pool, zeroed. The
// late launch must find the race settled without reading the scanner (a make reliability run
// under -race once died here of a nil Client).
func TestScanRaceLaunchAfterScannerReused(t *testing.T) {
	fc := newFakeCluster(t, fakeRegion{table: "t", id: 1, encoded: fakeEncoded})
	c := fc.client(t)
	s := &Scanner{c: c}
	primary := reg("t", "", "")
	rep := reg("t", "", "")
	rep.replicaID = 1
	race := s.newScanRace(t.Context(), primary, []*regionInfo{rep}, &pb.ScanRequest{Region: wire.RegionSpecifier(primary.name), Scan: &pb.Scan{}})
	defer race.legsDone()
	race.mu.Lock()
	race.settled = true // the primary's leg ended
	race.mu.Unlock()
	*s = Scanner{pooled: true} // what releaseScanner does
	race.launch(false)         // the timer's function, late
	if race.launched != 0 {
		t.Fatalf("a settled race launched %d legs", race.launched)
	}
}
