package aggregate

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/coprocessor"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// The methods of HBase's AggregateService (AggregateImplementation).
var (
	methods   = pb.File_Aggregate_proto.Services().ByName("AggregateService").Methods()
	getMax    = coprocessor.MethodOf(methods.ByName("GetMax"))
	getMin    = coprocessor.MethodOf(methods.ByName("GetMin"))
	getSum    = coprocessor.MethodOf(methods.ByName("GetSum"))
	getRowNum = coprocessor.MethodOf(methods.ByName("GetRowNum"))
	getAvg    = coprocessor.MethodOf(methods.ByName("GetAvg"))
	getStd    = coprocessor.MethodOf(methods.ByName("GetStd"))
)

// RowCount returns the number of rows scan reads (Java's AggregationClient.rowCount): on each
// region the server counts the rows with a cell the scan returns (only their first cell is
// read when the scan has neither a filter nor a qualifier).
func RowCount(ctx context.Context, c *hbase.Client, scan *hrpc.Scan, opts ...coprocessor.Option) (int64, error) {
	results, err := regions(ctx, c, scan, getRowNum, Long(), true, opts)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, r := range results {
		v, err := count(r.Response.GetFirstPart(), 0)
		if err != nil {
			return 0, regionError(scan, getRowNum, r, err)
		}
		n += v
	}
	return n, nil
}

// Sum returns the sum of the values of scan's column (Java's AggregationClient.sum); ok is
// false when the range holds no value (where Java returns null). The scan names one family and
// at most one qualifier; without a qualifier every cell of the family is a value.
func Sum[T any](ctx context.Context, c *hbase.Client, scan *hrpc.Scan, ci Interpreter[T], opts ...coprocessor.Option) (sum T, ok bool, err error) {
	results, err := regions(ctx, c, scan, getSum, ci, false, opts)
	if err != nil {
		return sum, false, err
	}
	for _, r := range results {
		parts := r.Response.GetFirstPart()
		if len(parts) == 0 {
			continue // no value in this region
		}
		v, err := ci.decode(parts[0])
		if err != nil {
			return sum, false, regionError(scan, getSum, r, err)
		}
		if ok {
			sum = ci.add(sum, v)
		} else {
			sum, ok = v, true
		}
	}
	return sum, ok, nil
}

// Max returns the greatest value of scan's column (Java's AggregationClient.max); ok is false
// when the range holds no value. The scan is as Sum's.
func Max[T any](ctx context.Context, c *hbase.Client, scan *hrpc.Scan, ci Interpreter[T], opts ...coprocessor.Option) (T, bool, error) {
	return extreme(ctx, c, scan, ci, getMax, 1, opts)
}

// Min returns the smallest value of scan's column (Java's AggregationClient.min); ok is false
// when the range holds no value. The scan is as Sum's.
func Min[T any](ctx context.Context, c *hbase.Client, scan *hrpc.Scan, ci Interpreter[T], opts ...coprocessor.Option) (T, bool, error) {
	return extreme(ctx, c, scan, ci, getMin, -1, opts)
}

// extreme is Max (sign 1) or Min (sign -1).
func extreme[T any](ctx context.Context, c *hbase.Client, scan *hrpc.Scan, ci Interpreter[T], m coprocessor.Method, sign int, opts []coprocessor.Option) (best T, ok bool, err error) {
	results, err := regions(ctx, c, scan, m, ci, false, opts)
	if err != nil {
		return best, false, err
	}
	for _, r := range results {
		parts := r.Response.GetFirstPart()
		if len(parts) == 0 {
			continue
		}
		v, err := ci.decode(parts[0])
		if err != nil {
			return best, false, regionError(scan, m, r, err)
		}
		if !ok || sign*ci.compare(v, best) > 0 {
			best, ok = v, true
		}
	}
	return best, ok, nil
}

// Avg returns the mean of the values of scan's column (Java's AggregationClient.avg): the sum
// of the regions' sums over the sum of their row counts, NaN when the range holds no value. The
// server counts, as Java's does, the rows it reads in a region that holds a value, those
// without one included. The scan is as Sum's.
func Avg[T any](ctx context.Context, c *hbase.Client, scan *hrpc.Scan, ci Interpreter[T], opts ...coprocessor.Option) (float64, error) {
	results, err := regions(ctx, c, scan, getAvg, ci, false, opts)
	if err != nil {
		return 0, err
	}
	var sum T
	var rows int64
	ok := false
	for _, r := range results {
		parts := r.Response.GetFirstPart()
		if len(parts) == 0 {
			continue
		}
		v, err := ci.decode(parts[0])
		if err == nil {
			var n int64
			if n, err = count([][]byte{r.Response.GetSecondPart()}, 0); err == nil {
				rows += n
			}
		}
		if err != nil {
			return 0, regionError(scan, getAvg, r, err)
		}
		if ok {
			sum = ci.add(sum, v)
		} else {
			sum, ok = v, true
		}
	}
	if !ok {
		return math.NaN(), nil
	}
	return ci.float(sum) / float64(rows), nil
}

// Std returns the population standard deviation of the values of scan's column (Java's
// AggregationClient.std): the square root of the mean of the squares less the square of the
// mean, from each region's sum, sum of squares and row count; NaN when the range holds no
// value. A row's value is the sum of its values (its cells of the family, without a
// qualifier). The scan is as Sum's.
func Std[T any](ctx context.Context, c *hbase.Client, scan *hrpc.Scan, ci Interpreter[T], opts ...coprocessor.Option) (float64, error) {
	results, err := regions(ctx, c, scan, getStd, ci, false, opts)
	if err != nil {
		return 0, err
	}
	var sum, sumSq T
	var rows int64
	ok := false
	for _, r := range results {
		parts := r.Response.GetFirstPart()
		if len(parts) == 0 {
			continue
		}
		if len(parts) != 2 {
			return 0, regionError(scan, getStd, r, wire.BadResponse("%d parts in a GetStd answer; want the sum and the sum of squares", len(parts)))
		}
		s, err := ci.decode(parts[0])
		var sq T
		if err == nil {
			sq, err = ci.decode(parts[1])
		}
		var n int64
		if err == nil {
			n, err = count([][]byte{r.Response.GetSecondPart()}, 0)
		}
		if err != nil {
			return 0, regionError(scan, getStd, r, err)
		}
		if ok {
			sum, sumSq = ci.add(sum, s), ci.add(sumSq, sq)
		} else {
			sum, sumSq, ok = s, sq, true
		}
		rows += n
	}
	if !ok {
		return math.NaN(), nil
	}
	avg := ci.float(sum) / float64(rows)
	avgOfSq := ci.float(sumSq) / float64(rows)
	return math.Pow(avgOfSq-avg*avg, 0.5), nil
}

// regions calls m on every region scan reads, with ci, and returns their answers. A region
// whose endpoint failed fails the whole call (*hberr.RegionsError).
func regions[T any](ctx context.Context, c *hbase.Client, scan *hrpc.Scan, m coprocessor.Method, ci Interpreter[T], familyOptional bool, opts []coprocessor.Option) ([]coprocessor.Result[*pb.AggregateResponse], error) {
	req, table, start, stop, err := request(scan, ci, familyOptional)
	if err != nil {
		return nil, &hberr.OpError{Op: m.String(), Table: table, Row: start, Err: err}
	}
	opts = append([]coprocessor.Option{coprocessor.Idempotent()}, opts...)
	return coprocessor.CallRegions[*pb.AggregateResponse](ctx, c, table, start, stop, m, req, opts...)
}

// request builds the AggregateRequest of scan with ci, after the checks of Java's
// AggregationHelper.validateParameters, and the row range whose regions get it: the scan's,
// its stop row's region included when the scan includes its stop row.
func request[T any](scan *hrpc.Scan, ci Interpreter[T], familyOptional bool) (req *pb.AggregateRequest, table string, start, stop []byte, err error) {
	if scan == nil {
		return nil, "", nil, nil, fmt.Errorf("aggregate: %w: nil scan", hberr.ErrBadRequest)
	}
	if ci == nil {
		return nil, "", nil, nil, fmt.Errorf("aggregate: %w: nil Interpreter", hberr.ErrBadRequest)
	}
	ws := hrpcwire.Scan(scan)
	table = ws.TableName()
	var b wire.ScanProtoBuffer
	p := ws.ProtoInto(&b)
	start, stop = p.GetStartRow(), p.GetStopRow()
	switch {
	case p.GetReversed():
		err = fmt.Errorf("aggregate: %w: a reversed scan (aggregate a forward one)", hberr.ErrBadRequest)
	case len(stop) > 0 && bytes.Compare(start, stop) >= 0:
		err = fmt.Errorf("aggregate: %w: start row %q not before stop row %q", hberr.ErrBadRequest, start, stop)
	case !familyOptional && families(p) != 1:
		err = fmt.Errorf("aggregate: %w: the scan names %d families; name one", hberr.ErrBadRequest, families(p))
	}
	if err != nil {
		return nil, table, start, nil, err
	}
	if len(stop) > 0 && p.GetIncludeStopRow() {
		stop = append(bytes.Clone(stop), 0)
	}
	// The request is encoded before b and scan can change (CallRegions encodes it at once).
	return &pb.AggregateRequest{
		InterpreterClassName: proto.String(ci.className()),
		Scan:                 p,
		// Every interpreter of HBase takes an EmptyMsg: present and empty, as Java sends it.
		InterpreterSpecificBytes: []byte{},
	}, table, start, stop, nil
}

// families counts the scan's distinct families.
func families(p *pb.Scan) int {
	seen := make(map[string]bool)
	for _, col := range p.GetColumn() {
		seen[string(col.GetFamily())] = true
	}
	return len(seen)
}

// count reads parts[i], a row count as 8 big-endian bytes.
func count(parts [][]byte, i int) (int64, error) {
	if i >= len(parts) || len(parts[i]) != 8 {
		return 0, wire.BadResponse("row count missing or not 8 bytes")
	}
	return int64(binary.BigEndian.Uint64(parts[i])), nil
}

// regionError is the error of a region's answer that does not read.
func regionError(scan *hrpc.Scan, m coprocessor.Method, r coprocessor.Result[*pb.AggregateResponse], err error) error {
	return &hberr.OpError{Op: m.String(), Table: hrpcwire.Scan(scan).TableName(), Row: r.Start,
		Err: fmt.Errorf("%w: region %q: %w", hberr.ErrCorruptResponse, r.Region, err)}
}
