package fakehbase

import (
	"bytes"
	"math"
	"slices"
)

// HBase drops cells when it writes them out, not when a read hides them, and a test can see
// the difference: a family keeping one version shows its older version again once the newer
// is deleted, until a flush has dropped it. So the fake keeps every cell in a "memstore"
// until the region flushes (its close: disable, a schema change, a move; or a FlushRegion
// call), and then keeps what HBase's flush writes to a store file. Compactions work on the
// store files only, as HBase's do.

// flushRegion flushes the memstore of region r, its families as f describes them.
// Callers hold s.mu.
func (s *Server) flushRegion(r *region) {
	s.rewrite(r, func(cells []stored, f *family, now int64) []stored {
		return prune(cells, f, now, false, false)
	})
}

// compactRegion compacts the store files of region r: a major compaction drops the delete
// markers and what they mask, a minor one what they mask. Callers hold s.mu.
func (s *Server) compactRegion(r *region, major bool) {
	s.rewrite(r, func(cells []stored, f *family, now int64) []stored {
		return prune(cells, f, now, true, major)
	})
}

func (s *Server) rewrite(r *region, fn func([]stored, *family, int64) []stored) {
	t := r.t
	now := s.now()
	visit := func(row *row) bool {
		if !r.contains(row.key) {
			return false
		}
		for name, cells := range row.fams {
			if f := t.fams[name]; f != nil {
				row.fams[name] = fn(cells, f, now)
			}
		}
		return true
	}
	t.data.rows.AscendGreaterOrEqual(&row{key: r.start}, visit)
}

// prune returns the cells of one family of a row after a flush (files false: of the
// memstore's cells) or a compaction (files true: of the store files' cells), which keep the
// newest version at each timestamp, the newest versions up to the family's maximum, no cell
// past its TTL and none a delete marker masks; a major compaction drops the markers too. The
// other cells are kept as they are.
func prune(cells []stored, f *family, now int64, files, major bool) []stored {
	var in, out []stored
	for _, c := range cells {
		if c.flushed == files {
			in = append(in, c)
		} else {
			out = append(out, c)
		}
	}
	sp := &readSpec{readPoint: math.MaxUint64}
	m := sp.markersOf(in)
	oldest := int64(math.MinInt64)
	if f.ttl > 0 {
		oldest = now - f.ttl
	}
	for i := 0; i < len(in); {
		j := i + 1
		for j < len(in) && bytes.Equal(in[j].qualifier, in[i].qualifier) {
			j++
		}
		versions := 0
		lastTS := int64(math.MinInt64)
		for _, c := range in[i:j] {
			if c.typ != typePut {
				if !major {
					c.flushed = true
					out = append(out, c)
				}
				continue
			}
			if c.ts == lastTS || c.ts < oldest || m.masks(c.qualifier, c.ts) {
				lastTS = c.ts
				continue
			}
			lastTS = c.ts
			if versions++; versions > f.maxVersions {
				continue
			}
			c.flushed = true
			out = append(out, c)
		}
		i = j
	}
	slices.SortFunc(out, func(a, b stored) int {
		if a.before(&b) {
			return -1
		}
		return 1
	})
	return out
}
