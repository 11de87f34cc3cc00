package hrpc

import (
	"math"

	"github.com/go-hbase/hbase/internal/wire"
)

// LatestTimestamp asks the server to use its current time (HConstants.LATEST_TIMESTAMP).
const LatestTimestamp = uint64(math.MaxInt64)

// checkCell reports whether c can be encoded as a KeyValue.
func checkCell(c *wire.Cell) error {
	switch {
	case len(c.Row) > wire.MaxRowLen:
		return invalid("row of %d bytes is longer than %d", len(c.Row), wire.MaxRowLen)
	case len(c.Family) > wire.MaxFamilyLen:
		return invalid("family of %d bytes is longer than %d", len(c.Family), wire.MaxFamilyLen)
	case uint64(wire.CellSize(c)) > wire.MaxCellLen:
		return invalid("cell of %d bytes does not fit a KeyValue", wire.CellSize(c))
	}
	return nil
}

// readCell reads the next cell of rd into c, in place: a Cell is the codec's
// wire.CellOf[CellType].
func readCell(rd *wire.CellReader, c *Cell) error {
	return wire.ReadCell(rd, (*wire.CellOf[CellType])(c))
}
