package wire

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/cputime"
	"github.com/go-hbase/hbase/internal/pb"
)

// multiResponseBytes is the response to a batch of perRegion mutations in each of regions
// regions, as HBase answers it (every other Result an empty one, the rest with
// associated_cell_count 0); with stats, each region's load statistics too.
func multiResponseBytes(b *testing.B, regions, perRegion int, stats bool) []byte {
	var m pb.MultiResponse
	for range regions {
		rar := &pb.RegionActionResult{}
		for i := range perRegion {
			r := &pb.Result{}
			if i%2 == 1 {
				r.AssociatedCellCount = proto.Int32(0)
			}
			rar.ResultOrException = append(rar.ResultOrException, &pb.ResultOrException{Index: proto.Uint32(uint32(i)), Result: r})
		}
		m.RegionActionResult = append(m.RegionActionResult, rar)
	}
	if stats {
		m.RegionStatistics = &pb.MultiRegionLoadStats{}
		for range regions {
			m.RegionStatistics.Region = append(m.RegionStatistics.Region, &pb.RegionSpecifier{
				Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: []byte("t,r,1.abcdef.")})
			m.RegionStatistics.Stat = append(m.RegionStatistics.Stat, &pb.RegionLoadStats{MemStoreLoad: proto.Int32(10)})
		}
	}
	out, err := proto.Marshal(&m)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkDecodeMultiResponse decodes batch responses as the client does, in a MultiDecoder
// released after each (reused), or in blocks of their own (fresh). cpu-ns/op is the process's
// CPU time per decode: steadier than ns/op on a machine shared with other work.
func BenchmarkDecodeMultiResponse(b *testing.B) {
	for _, bc := range []struct {
		name               string
		regions, perRegion int
		stats, fresh       bool
	}{
		{"1x1000/reused", 1, 1000, false, false},
		{"1x1000/fresh", 1, 1000, false, true},
		{"10x100+stats/reused", 10, 100, true, false},
		{"1x10/reused", 1, 10, false, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			data := multiResponseBytes(b, bc.regions, bc.perRegion, bc.stats)
			var d MultiDecoder
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			cpu0, _ := cputime.Self()
			for b.Loop() {
				var m pb.MultiResponse
				var err error
				if bc.fresh {
					err = DecodeMultiResponse(data, &m)
				} else {
					err = d.Decode(data, &m)
				}
				if err != nil || len(m.RegionActionResult) != bc.regions {
					b.Fatal(err)
				}
				d.Release()
			}
			if cpu1, err := cputime.Self(); err == nil {
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}
