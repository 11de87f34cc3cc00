package engine

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
)

// Self-checking values for the stress test: every value says which row and column it was
// written to and carries a filler derived from its sequence number, so a cell that holds
// another request's bytes, or bytes of another row, fails its check whatever the model knows.

// putValue is the value of Put seq to row:qual, size bytes long (at least its header).
func putValue(row, qual []byte, seq uint64, size int) []byte {
	size = max(size, len(row)+len(qual)+28) // the header: row/qual/seq/size/
	v := fmt.Appendf(make([]byte, 0, size), "%s/%s/%016x/%08x/", row, qual, seq, size)
	for i := len(v); i < size; i++ {
		v = append(v, byte('a'+(uint64(i)+seq)%26))
	}
	return v
}

// parsePutValue checks that v was written by putValue for row:qual and returns its seq.
func parsePutValue(row, qual, v []byte) (uint64, error) {
	prefix := append(append(append(append([]byte(nil), row...), '/'), qual...), '/')
	rest, ok := bytes.CutPrefix(v, prefix)
	if !ok || len(rest) < 26 || rest[16] != '/' || rest[25] != '/' {
		return 0, fmt.Errorf("value %s is not a value of %s:%s", bounded(v), row, qual)
	}
	seq, err1 := strconv.ParseUint(string(rest[:16]), 16, 64)
	size, err2 := strconv.ParseUint(string(rest[17:25]), 16, 32)
	if err1 != nil || err2 != nil || int(size) != len(v) {
		return 0, fmt.Errorf("value %s of %s:%s: bad header (size %d, %d bytes)", bounded(v), row, qual, size, len(v))
	}
	for i := len(prefix) + 26; i < len(v); i++ {
		if v[i] != byte('a'+(uint64(i)+seq)%26) {
			return 0, fmt.Errorf("value of %s:%s seq %d: filler byte %d is %q", row, qual, seq, i, v[i])
		}
	}
	return seq, nil
}

// appendChunk is what Append seq adds to row's append column.
func appendChunk(row []byte, seq uint64) []byte {
	return fmt.Appendf(nil, "<%s#%016x>", row, seq)
}

// parseAppended splits an append column's value into its chunks' seqs, checking that every
// chunk is of row.
func parseAppended(row, v []byte) ([]uint64, error) {
	var seqs []uint64
	for rest := v; len(rest) > 0; {
		n := len(row) + 19 // <row#16 hex>
		if len(rest) < n || rest[0] != '<' || !bytes.Equal(rest[1:1+len(row)], row) || rest[1+len(row)] != '#' || rest[n-1] != '>' {
			return nil, fmt.Errorf("appended value %s of row %s: chunk %d is not of this row", bounded(v), row, len(seqs))
		}
		seq, err := strconv.ParseUint(string(rest[2+len(row):n-1]), 16, 64)
		if err != nil {
			return nil, fmt.Errorf("appended value %s of row %s: %w", bounded(v), row, err)
		}
		seqs = append(seqs, seq)
		rest = rest[n:]
	}
	return seqs, nil
}

func counterValue(v []byte) (int64, error) {
	if len(v) != 8 {
		return 0, fmt.Errorf("counter of %d bytes: %s", len(v), bounded(v))
	}
	return int64(binary.BigEndian.Uint64(v)), nil
}

func bounded(b []byte) string {
	if len(b) > 80 {
		return fmt.Sprintf("%q... (%d bytes)", b[:80], len(b))
	}
	return fmt.Sprintf("%q", b)
}
