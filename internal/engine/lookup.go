package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// MetaTableName is the name of the table of regions.
const MetaTableName = "hbase:meta"

var (
	metaRegionName = []byte("hbase:meta,,1")
	infoFamily     = wire.MetaInfoFamily
	regionInfoCol  = []byte("regioninfo")
	serverCol      = []byte("server")
	pbufMagic      = []byte("PBUF")
)

// metaRowsPerLookup is how many hbase:meta rows one lookup reads: the region wanted, plus a
// few before it in case the first ones are split parents being cleaned up.
const metaRowsPerLookup = 4

// locateInMeta reads hbase:meta for the region of table holding row (or, when before is set,
// the region holding the rows just below row; an empty row then means the table's last
// region). It does not connect to the region's server.
func (c *Client) locateInMeta(ctx context.Context, table, row []byte, before bool) (*regionInfo, error) {
	if c.metaReps != nil && ctx.Value(primaryMetaKey{}) == nil {
		// Load balance over hbase:meta's replicas (metareplica.go); any failure there falls
		// back to the primary.
		if name, conn := c.metaReplica(ctx); conn != nil {
			r, err := c.lookupOn(ctx, conn, name, table, row, before)
			if err == nil {
				c.metaReplicaRPCs.Add(1)
				return r, nil
			}
			c.Log.Debug("hbase: lookup on a replica of hbase:meta failed", "region", string(name), "err", err)
			c.metaReps.failed()
		}
	}
	meta, conn, err := c.findMeta(ctx)
	if err != nil {
		return nil, err
	}
	c.metaRPCs.Add(1)
	r, err := c.lookupOn(ctx, conn, meta.name, table, row, before)
	if err != nil && errors.Is(err, errMetaRPC) {
		if act := Classify(err); act == Relocate || act == PauseAndRelocate {
			c.markUnavailable(meta, conn)
		}
	}
	return r, err
}

// errMetaRPC marks a lookup whose RPC to hbase:meta failed (not what it read).
var errMetaRPC = errors.New("scanning hbase:meta")

// lookupOn reads the region of table holding row from the hbase:meta region metaName (the
// primary, or a replica) on conn.
func (c *Client) lookupOn(ctx context.Context, conn *region.Client, metaName, table, row []byte, before bool) (*regionInfo, error) {
	req := wire.MetaLookupRequest(metaName, table, row, before, metaRowsPerLookup)
	resp := &pb.ScanResponse{}
	cells, err := conn.CallChecked(ctx, region.HighPriority, "Scan", req, nil, resp, metaCheck{})
	if err != nil {
		return nil, fmt.Errorf("hbase: %w %s on %s: %w", errMetaRPC, metaName, conn.Addr(), err)
	}
	rows, err := metaRows(resp, cells)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, hberr.ErrTableNotFound
	}
	for _, mr := range rows {
		if mr.info.GetSplit() || mr.info.GetOffline() {
			continue // a split parent waiting for cleanup: its daughters hold its rows now
		}
		r, err := mr.region(table)
		if err != nil {
			return nil, err
		}
		covers := r.contains(row)
		if before {
			covers = bytes.Compare(r.start, row) < 0 || len(row) == 0
			covers = covers && (len(r.end) == 0 || (len(row) != 0 && bytes.Compare(r.end, row) >= 0))
		}
		if !covers {
			return nil, errRegionHole
		}
		if mr.server == "" {
			return nil, errRegionNotAssigned
		}
		r.addr = mr.server
		return r, nil
	}
	return nil, errRegionHole
}

// metaRow is one row of hbase:meta: a region and where it is served.
type metaRow struct {
	name     []byte
	info     *pb.RegionInfo
	server   string
	replicas []replicaLoc // info:server_000N, the secondary replicas' servers
}

func (mr *metaRow) region(table []byte) (*regionInfo, error) {
	tn := mr.info.GetTableName()
	name := tn.GetQualifier()
	if ns := tn.GetNamespace(); len(ns) != 0 && string(ns) != "default" {
		name = append(append(bytes.Clone(ns), ':'), name...)
	}
	if !bytes.Equal(name, table) {
		// The scan is bounded to table's rows, so this is a broken hbase:meta row.
		return nil, fmt.Errorf("hbase: hbase:meta row %q describes table %q, not %q", mr.name, name, table)
	}
	r := &regionInfo{
		table: bytes.Clone(table),
		start: bytes.Clone(mr.info.GetStartKey()),
		end:   bytes.Clone(mr.info.GetEndKey()),
		name:  bytes.Clone(mr.name),
		id:    mr.info.GetRegionId(),
	}
	reps, err := secondaries(r, mr.replicas)
	if err != nil {
		return nil, err
	}
	r.replicas = reps
	return r, nil
}

// metaRows decodes the rows of an hbase:meta scan response (cells in the cellblock, or in
// the response's results when the server did not use a cellblock).
func metaRows(resp *pb.ScanResponse, cellblock []byte) ([]metaRow, error) {
	var rows []metaRow
	add := func(cells []wire.Cell) error {
		if len(cells) == 0 {
			return nil
		}
		mr := metaRow{name: cells[0].Row}
		for i := range cells {
			c := &cells[i]
			if !bytes.Equal(c.Row, mr.name) {
				return fmt.Errorf("%w: hbase:meta result of row %q holds a cell of row %q", wire.ErrForeignCells, mr.name, c.Row)
			}
			if !bytes.Equal(c.Family, infoFamily) {
				continue
			}
			switch {
			case bytes.Equal(c.Qualifier, regionInfoCol):
				v, ok := bytes.CutPrefix(c.Value, pbufMagic)
				if !ok {
					return fmt.Errorf("hbase: hbase:meta row %q: info:regioninfo lacks the PBUF prefix", c.Row)
				}
				mr.info = &pb.RegionInfo{}
				if err := proto.Unmarshal(v, mr.info); err != nil {
					return fmt.Errorf("hbase: hbase:meta row %q: info:regioninfo: %w", c.Row, err)
				}
			case bytes.Equal(c.Qualifier, serverCol):
				mr.server = string(c.Value)
			default:
				if id, ok := replicaOfQualifier(c.Qualifier); ok {
					mr.replicas = append(mr.replicas, replicaLoc{id: id, server: string(c.Value)})
				}
			}
		}
		if mr.info == nil {
			return nil // a row being written, or a table state row: nothing to use
		}
		rows = append(rows, mr)
		return nil
	}
	if len(resp.GetCellsPerResult()) > 0 {
		rd := wire.NewCellReader(cellblock)
		for _, n := range resp.GetCellsPerResult() {
			cells := make([]wire.Cell, n)
			for i := range cells {
				if err := rd.Next(&cells[i]); err != nil {
					if errors.Is(err, io.EOF) {
						err = io.ErrUnexpectedEOF
					}
					return nil, fmt.Errorf("hbase: decoding hbase:meta scan: %w", err)
				}
			}
			if err := add(cells); err != nil {
				return nil, err
			}
		}
		return rows, nil
	}
	for _, res := range resp.GetResults() {
		cells := make([]wire.Cell, 0, len(res.GetCell()))
		for _, pc := range res.GetCell() {
			cells = append(cells, wire.Cell{Row: pc.GetRow(), Family: pc.GetFamily(),
				Qualifier: pc.GetQualifier(), Timestamp: pc.GetTimestamp(), Value: pc.GetValue()})
		}
		if err := add(cells); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// probeKey returns a row inside r that a Get can ask about: the start key itself, or a key
// just after it for the first region (an empty row is not a valid Get).
func probeKey(r *regionInfo) []byte {
	if len(r.start) != 0 {
		return r.start
	}
	if len(r.end) == 0 || bytes.Compare([]byte{0}, r.end) < 0 {
		return []byte{0}
	}
	return r.start
}

// probe checks that conn serves r, with an existence-only Get that reads nothing.
func (c *Client) probe(ctx context.Context, r *regionInfo, conn *region.Client) error {
	req := wire.ProbeRequest(r.name, probeKey(r))
	if _, err := conn.Call(ctx, "Get", req, nil, &pb.GetResponse{}); err != nil {
		return fmt.Errorf("probing region %s on %s: %w", quoteBytes(r.name), conn.Addr(), err)
	}
	return nil
}

// quoteBytes quotes a row or table for an error message, bounded as hberr's OpError bounds
// its row: a row may be 32767 bytes.
func quoteBytes(b []byte) string {
	const max = 64
	if len(b) <= max {
		return strconv.Quote(string(b))
	}
	return strconv.Quote(string(b[:max])) + "... (" + strconv.Itoa(len(b)) + " bytes)"
}

// metaCheck checks an hbase:meta scan response by decoding it while the region connection
// still holds its frame (region.Checker): a corrupt one resets the connection and is logged.
type metaCheck struct{}

func (metaCheck) CheckResponse(resp proto.Message, cells []byte) error {
	r, ok := resp.(*pb.ScanResponse)
	if !ok {
		return fmt.Errorf("%w: %T for a Scan", wire.ErrBadResponse, resp)
	}
	_, err := metaRows(r, cells)
	return err
}
