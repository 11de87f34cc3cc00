package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// A table disabled while a client uses it shows only as regions whose servers answer
// NotServingRegionException while hbase:meta still names those servers: re-establishing them
// would go on until every call's deadline. So when a region's server says it does not serve
// it just after hbase:meta said it does, the client reads the table's state, as the Java
// client does before its retries, and fails the calls at once with hberr.ErrTableDisabled.

// tableDisabledError is the error of calls on a disabled table.
type tableDisabledError struct{ table string }

func (e *tableDisabledError) Error() string {
	return fmt.Sprintf("hbase: table %q is disabled", e.table)
}

func (e *tableDisabledError) Is(target error) bool {
	return target == hberr.ErrTableDisabled || target == hberr.ErrDoNotRetry
}

// checkDisabled returns hberr.ErrTableDisabled instead of err, a failed probe of a region of table,
// when the server did not serve the region because the table is disabled (or being
// disabled). Any other err, or a failure to read the state, leaves err as it is.
func (c *Client) checkDisabled(ctx context.Context, table []byte, err error) error {
	re, ok := errors.AsType[*hberr.RemoteError](err)
	if !ok || !strings.HasSuffix(re.Class, ".NotServingRegionException") {
		return err
	}
	st, found, serr := c.tableState(ctx, table)
	if serr != nil || !found || (st != pb.TableState_DISABLED && st != pb.TableState_DISABLING) {
		return err
	}
	return &tableDisabledError{table: string(table)}
}

// tableState reads table's state from hbase:meta.
func (c *Client) tableState(ctx context.Context, table []byte) (pb.TableState_State, bool, error) {
	meta, conn, err := c.findMeta(ctx)
	if err != nil {
		return 0, false, err
	}
	c.metaRPCs.Add(1)
	resp := &pb.GetResponse{}
	check := tableStateCheck(table)
	cells, err := conn.CallChecked(ctx, region.HighPriority, "Get", wire.MetaTableStateRequest(meta.name, table), nil, resp, check)
	if err != nil {
		return 0, false, err
	}
	return wire.ParseMetaTableState(resp, cells, table)
}

// tableStateCheck checks a table state response while the connection still holds its frame
// (region.Checker), as every response is checked: a corrupt one resets the connection.
type tableStateCheck []byte

func (t tableStateCheck) CheckResponse(resp proto.Message, cells []byte) error {
	r, ok := resp.(*pb.GetResponse)
	if !ok {
		return fmt.Errorf("%w: %T for a Get", wire.ErrBadResponse, resp)
	}
	_, _, err := wire.ParseMetaTableState(r, cells, t)
	return err
}
