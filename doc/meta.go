package doc

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/go-hbase/hbase/hberr"
)

// metaQualifier is the qualifier of a document's version cell. Paths start with '.' or '[',
// so no path is this qualifier.
const metaQualifier = "#v"

var metaQualifierBytes = []byte(metaQualifier)

// The states of a row's version cell.
const (
	stateLive    byte = 0x00
	stateDeleted byte = 0x01 // a tombstone: the document was deleted; its version goes on
)

// metaLen is the version cell's value: state, version, timestamp, writer id, size.
const metaLen = 1 + 8 + 8 + 8 + 8

// metaCellSize is what the version cell weighs in a document's size.
const metaCellSize = len(metaQualifier) + metaLen

// meta is a document's version cell: every write of the layer replaces it, conditionally on
// the value it read, so the writes of one document are serialized by it.
type meta struct {
	state   byte
	version uint64 // 1 for the first write, +1 for each write after it, deletes included
	// ts is the timestamp of every cell of the write that made this version. Each write
	// takes a timestamp above its predecessor's (nextTimestamp), so that its deletes (at ts-1)
	// never mask its own puts, nor a later write's.
	ts uint64
	// writer is a random number drawn by the write, so that a writer whose answer was lost
	// can tell whether this version is its own.
	writer uint64
	size   int // bytes of the document's cells, this one's included
}

func (m meta) live() bool { return m.state == stateLive }

func (m meta) encode() []byte {
	b := make([]byte, 0, metaLen)
	b = append(b, m.state)
	b = binary.BigEndian.AppendUint64(b, m.version)
	b = binary.BigEndian.AppendUint64(b, m.ts)
	b = binary.BigEndian.AppendUint64(b, m.writer)
	return binary.BigEndian.AppendUint64(b, uint64(m.size))
}

func decodeMeta(v []byte) (meta, error) {
	if len(v) != metaLen || v[0] > stateDeleted {
		return meta{}, fmt.Errorf("%w: version cell %x", hberr.ErrInvalidDocument, v)
	}
	return meta{
		state:   v[0],
		version: binary.BigEndian.Uint64(v[1:9]),
		ts:      binary.BigEndian.Uint64(v[9:17]),
		writer:  binary.BigEndian.Uint64(v[17:25]),
		size:    int(binary.BigEndian.Uint64(v[25:33])),
	}, nil
}

// nextTimestamp is the timestamp of the write after one at prev: the clock's milliseconds,
// or prev+1 when the clock is not past it (the same millisecond, or a clock behind another
// writer's).
func nextTimestamp(now time.Time, prev uint64) uint64 {
	ts := uint64(now.UnixMilli())
	if ts <= prev {
		ts = prev + 1
	}
	return ts
}
