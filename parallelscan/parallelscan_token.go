package parallelscan

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/go-hbase/hbase/hberr"
)

// A parallel scan's token is what is left of the scan: the key ranges not scanned yet, each
// starting just after the last row returned from it (or at the row, when only pieces of it
// were returned). Ranges done are not in it, so a scan run to its end leaves a token of no
// ranges, and resuming from it returns nothing.
//
// Layout, version 1: "HBPS", the version byte, the table (uvarint length, bytes), the number of
// ranges (uvarint), then per range a flags byte (bit 0: the start row is excluded), the start
// row and the stop row (uvarint length, bytes; an empty stop row is the table's end), and last
// the CRC-32 (IEEE) of everything before it, big-endian. The version changes whenever the
// layout does; a token of another version is refused, not misread.

var tokenMagic = []byte("HBPS")

const (
	tokenVersion   = 1
	tokenAfterFlag = 1
)

// keyRange is a part of a parallel scan's rows: from start (excluded when after) up to stop
// (excluded; empty: the table's end).
type keyRange struct {
	start []byte
	after bool
	stop  []byte
}

func encodeToken(table string, ranges []keyRange) []byte {
	b := append([]byte(nil), tokenMagic...)
	b = append(b, tokenVersion)
	b = append(binary.AppendUvarint(b, uint64(len(table))), table...)
	b = binary.AppendUvarint(b, uint64(len(ranges)))
	for _, r := range ranges {
		var flags byte
		if r.after {
			flags |= tokenAfterFlag
		}
		b = append(b, flags)
		b = appendBytes(b, r.start)
		b = appendBytes(b, r.stop)
	}
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

func appendBytes(b, v []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(v))), v...)
}

// decodeToken reads a token; every error wraps hberr.ErrBadRequest.
func decodeToken(tok []byte) (table string, ranges []keyRange, err error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: parallel scan token: %s", hberr.ErrBadRequest, fmt.Sprintf(format, args...))
	}
	if len(tok) < len(tokenMagic)+1+4 || !bytes.HasPrefix(tok, tokenMagic) {
		return "", nil, bad("not a token (%d bytes)", len(tok))
	}
	body, sum := tok[:len(tok)-4], binary.BigEndian.Uint32(tok[len(tok)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return "", nil, bad("checksum mismatch: the token was changed or cut")
	}
	if v := body[len(tokenMagic)]; v != tokenVersion {
		return "", nil, bad("version %d, this client reads version %d", v, tokenVersion)
	}
	rest := body[len(tokenMagic)+1:]
	next := func() ([]byte, bool) {
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > uint64(len(rest)-k) {
			return nil, false
		}
		v := bytes.Clone(rest[k : k+int(n)])
		rest = rest[k+int(n):]
		return v, true
	}
	name, ok := next()
	if !ok {
		return "", nil, bad("truncated table name")
	}
	table = string(name)
	count, k := binary.Uvarint(rest)
	if k <= 0 || count > uint64(len(rest)) {
		return "", nil, bad("bad range count")
	}
	rest = rest[k:]
	ranges = make([]keyRange, 0, count)
	for i := range count {
		if len(rest) == 0 {
			return "", nil, bad("truncated range %d", i)
		}
		flags := rest[0]
		rest = rest[1:]
		if flags&^tokenAfterFlag != 0 {
			return "", nil, bad("range %d: unknown flags %#x", i, flags)
		}
		var r keyRange
		r.after = flags&tokenAfterFlag != 0
		if r.start, ok = next(); !ok {
			return "", nil, bad("range %d: truncated start row", i)
		}
		if r.stop, ok = next(); !ok {
			return "", nil, bad("range %d: truncated stop row", i)
		}
		if len(r.stop) != 0 && bytes.Compare(r.start, r.stop) >= 0 {
			return "", nil, bad("range %d: start %q not before stop %q", i, r.start, r.stop)
		}
		ranges = append(ranges, r)
	}
	if len(rest) != 0 {
		return "", nil, bad("%d bytes after the last range", len(rest))
	}
	return table, ranges, nil
}
