package admin

import (
	"context"
	"fmt"
	"time"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// CompactionState is what a region, or the regions of a table, are compacting.
type CompactionState int

// Compaction states, as HBase's CompactionState.
const (
	CompactionNone CompactionState = iota
	CompactionMinor
	CompactionMajor
	CompactionMajorAndMinor // some regions (or stores) minor, some major
)

// String is HBase's name of the state.
func (s CompactionState) String() string {
	switch s {
	case CompactionNone:
		return "NONE"
	case CompactionMinor:
		return "MINOR"
	case CompactionMajor:
		return "MAJOR"
	case CompactionMajorAndMinor:
		return "MAJOR_AND_MINOR"
	}
	return fmt.Sprintf("CompactionState(%d)", int(s))
}

// with is the state of a table one of whose regions is in state r, as the Java Admin adds
// them up.
func (s CompactionState) with(r CompactionState) CompactionState {
	switch {
	case s == r || r == CompactionNone:
		return s
	case s == CompactionNone:
		return r
	}
	return CompactionMajorAndMinor
}

// TableCompactionState asks the server of each region of table what the region is
// compacting, and adds the answers up: NONE, MINOR, MAJOR, or MAJOR_AND_MINOR when both kinds
// run.
func (a *Admin) TableCompactionState(ctx context.Context, table string) (CompactionState, error) {
	ctx, call := a.begin(ctx, "TableCompactionState", table, table)
	rs, err := a.regions(ctx, table)
	state := CompactionNone
	for _, r := range rs {
		if err != nil || state == CompactionMajorAndMinor {
			break
		}
		var st CompactionState
		st, err = a.regionCompactionState(ctx, r.Name, r)
		state = state.with(st)
	}
	return state, call.end(ctx, err)
}

// RegionCompactionState asks the server of a region (full or encoded name) what it is
// compacting.
func (a *Admin) RegionCompactionState(ctx context.Context, regionName []byte) (CompactionState, error) {
	ctx, call := a.begin(ctx, "RegionCompactionState", string(regionName), regionTable(regionName))
	st, err := a.regionCompactionState(ctx, regionName, nil)
	return st, call.end(ctx, err)
}

func (a *Admin) regionCompactionState(ctx context.Context, name []byte, r *hrpc.Region) (CompactionState, error) {
	resp := &pb.GetRegionInfoResponse{}
	err := a.onRegionServer(ctx, name, r, wire.MethodGetRegionInfo, func(r *hrpc.Region) (proto.Message, proto.Message, error) {
		req, err := wire.RegionInfoRequest(r.Name)
		return req, resp, err
	})
	if err != nil {
		return CompactionNone, err
	}
	return CompactionState(resp.GetCompactionState()), nil
}

// LastMajorCompaction returns when the region of table whose last major compaction is
// oldest had it: the time every region has been major compacted since (the zero Time when one
// never was). The master answers 0 for a table that does not exist too: that answer is
// checked, and gives hberr.ErrTableNotFound for no table.
func (a *Admin) LastMajorCompaction(ctx context.Context, table string) (time.Time, error) {
	ctx, call := a.begin(ctx, "LastMajorCompaction", table, table)
	req, err := wire.LastMajorCompactionRequest(table)
	resp := &pb.MajorCompactionTimestampResponse{}
	if err == nil {
		err = a.callMaster(ctx, wire.MethodLastMajorCompaction, req, resp)
	}
	if err == nil && resp.GetCompactionTimestamp() == 0 {
		_, err = a.tableState(ctx, table)
	}
	return millisTime(resp.GetCompactionTimestamp()), call.end(ctx, err)
}

// RegionLastMajorCompaction returns when a region (full or encoded name) last had a major
// compaction (the zero Time when it never had one), as its server last reported it to the
// master.
func (a *Admin) RegionLastMajorCompaction(ctx context.Context, regionName []byte) (time.Time, error) {
	ctx, call := a.begin(ctx, "RegionLastMajorCompaction", string(regionName), regionTable(regionName))
	resp := &pb.MajorCompactionTimestampResponse{}
	r, err := a.region(ctx, regionName)
	if err == nil {
		var req *pb.MajorCompactionTimestampForRegionRequest
		if req, err = wire.LastMajorCompactionForRegionRequest(r.Name); err == nil {
			err = a.callMaster(ctx, wire.MethodLastMajorCompactionForRegion, req, resp)
		}
	}
	return millisTime(resp.GetCompactionTimestamp()), call.end(ctx, err)
}

func millisTime(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// CompactFamily queues a compaction (major or not) of family in every region of table. It
// returns once they are queued, not done.
func (a *Admin) CompactFamily(ctx context.Context, table, family string, major bool) error {
	ctx, call := a.begin(ctx, "CompactFamily", table, table)
	err := wire.CheckFamilyName(family)
	if err == nil {
		err = a.eachRegion(ctx, table, wire.MethodCompactRegion, compactFamilyReq(family, major))
	}
	return call.end(ctx, err)
}

// CompactRegionFamily queues a compaction (major or not) of family in a region (full or
// encoded name).
func (a *Admin) CompactRegionFamily(ctx context.Context, regionName []byte, family string, major bool) error {
	ctx, call := a.begin(ctx, "CompactRegionFamily", string(regionName), regionTable(regionName))
	err := wire.CheckFamilyName(family)
	if err == nil {
		err = a.onRegionServer(ctx, regionName, nil, wire.MethodCompactRegion, compactFamilyReq(family, major))
	}
	return call.end(ctx, err)
}

// FlushFamily writes the memstore of family, in every region of table, to store files.
func (a *Admin) FlushFamily(ctx context.Context, table, family string) error {
	ctx, call := a.begin(ctx, "FlushFamily", table, table)
	err := wire.CheckFamilyName(family)
	if err == nil {
		err = a.eachRegion(ctx, table, wire.MethodFlushRegion, flushFamilyReq(family))
	}
	return call.end(ctx, err)
}

// FlushRegionFamily writes the memstore of family in a region (full or encoded name) to store
// files.
func (a *Admin) FlushRegionFamily(ctx context.Context, regionName []byte, family string) error {
	ctx, call := a.begin(ctx, "FlushRegionFamily", string(regionName), regionTable(regionName))
	err := wire.CheckFamilyName(family)
	if err == nil {
		err = a.onRegionServer(ctx, regionName, nil, wire.MethodFlushRegion, flushFamilyReq(family))
	}
	return call.end(ctx, err)
}

func compactFamilyReq(family string, major bool) func(r *hrpc.Region) (proto.Message, proto.Message, error) {
	return func(r *hrpc.Region) (proto.Message, proto.Message, error) {
		req, err := wire.CompactFamilyRequest(r.Name, family, major)
		return req, &pb.CompactRegionResponse{}, err
	}
}

func flushFamilyReq(family string) func(r *hrpc.Region) (proto.Message, proto.Message, error) {
	return func(r *hrpc.Region) (proto.Message, proto.Message, error) {
		req, err := wire.FlushFamilyRequest(r.Name, family)
		return req, &pb.FlushRegionResponse{}, err
	}
}
