package fakehbase

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
)

// Seeding and reading cells on the server side, without a client: a test writes the rows its
// code under test should find, and checks the rows that code wrote, as miniredis's Set and
// Get do. The names are strings (a Go string holds any bytes: string(key) for a binary row);
// table is "ns:t", or "t" in the default namespace.
//
// A cell written by Put is what a client's Put of it would write: the write is visible to
// every read that starts after it, its timestamp (the server's clock at millisecond
// resolution) is what a client reads, the family's VERSIONS and TTL apply to it. Reads see
// what a client's read would: the newest version of each column, without the deleted and
// expired ones.

// Put writes value at row, family:qualifier of table, with the server's time as its
// timestamp, as a client's Put would.
func (s *Server) Put(table, row, family, qualifier, value string) error {
	return s.putCell("Put", table, row, family, qualifier, latestTS, value)
}

// PutAt writes value at row, family:qualifier of table with timestamp ts (milliseconds since
// the epoch, as hrpc.ValueAt takes it).
func (s *Server) PutAt(table, row, family, qualifier string, ts uint64, value string) error {
	if ts >= latestTS {
		return s.misuse(fmt.Errorf("fakehbase: PutAt %q: timestamp %d is not a cell's (at most %d)", table, ts, uint64(latestTS-1)))
	}
	return s.putCell("PutAt", table, row, family, qualifier, int64(ts), value)
}

func (s *Server) putCell(method, table, row, family, qualifier string, ts int64, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.userTable(table)
	if err == nil && !t.enabled {
		err = fmt.Errorf("table %q is disabled", table)
	}
	if err == nil && row == "" {
		err = fmt.Errorf("an empty row")
	}
	if err != nil {
		return s.misuse(fmt.Errorf("fakehbase: %s %q: %w", method, table, err))
	}
	m := &mutation{typ: pb.MutationProto_PUT, row: []byte(row), ts: ts, cells: []kv{{row: []byte(row),
		family: []byte(family), qualifier: []byte(qualifier), ts: ts, typ: typePut, value: []byte(value)}}}
	r := t.regionOf(m.row)
	if err := m.check(r); err != nil {
		return s.misuse(fmt.Errorf("fakehbase: %s %q: %w", method, table, err))
	}
	s.seq++
	if _, err := s.apply(r, m, s.seq, s.now()); err != nil {
		return s.misuse(fmt.Errorf("fakehbase: %s %q: %w", method, table, err))
	}
	return nil
}

// userTable returns the table named, which must not be hbase:meta (the server's own).
// Callers hold s.mu.
func (s *Server) userTable(name string) (*table, error) {
	t := s.tables[strings.TrimPrefix(name, defaultNS+":")]
	switch {
	case t == nil:
		return nil, fmt.Errorf("no such table")
	case t == s.meta:
		return nil, fmt.Errorf("hbase:meta is the server's own (its rows follow the tables)")
	}
	return t, nil
}

// Get returns the newest value at row, family:qualifier of table, as a client's Get of the
// column would read it; ok is false when there is none. It fails for a table or family that
// does not exist.
func (s *Server) Get(table, row, family, qualifier string) (value string, ok bool, err error) {
	value, ok, err = s.readCell(table, row, family, qualifier)
	if err != nil {
		return "", false, s.misuse(err)
	}
	return value, ok, nil
}

// CheckGet fails t unless row, family:qualifier of table holds want (Get's value).
func (s *Server) CheckGet(t testing.TB, table, row, family, qualifier, want string) {
	t.Helper()
	got, ok, err := s.readCell(table, row, family, qualifier)
	switch {
	case err != nil:
		t.Error(err)
	case !ok:
		t.Errorf("fakehbase: %s %q %s:%s: no value; want %q", table, row, family, qualifier, want)
	case got != want:
		t.Errorf("fakehbase: %s %q %s:%s = %q; want %q", table, row, family, qualifier, got, want)
	}
}

func (s *Server) readCell(table, row, family, qualifier string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.userTable(table)
	if err != nil {
		return "", false, fmt.Errorf("fakehbase: Get %q: %w", table, err)
	}
	if row == "" {
		return "", false, nil
	}
	g := &pb.Get{Row: []byte(row), Column: []*pb.Column{{Family: []byte(family), Qualifier: [][]byte{[]byte(qualifier)}}}}
	cells, err := s.get(t.regionOf(g.Row), g)
	if err != nil {
		return "", false, fmt.Errorf("fakehbase: Get %q: %w", table, err)
	}
	if len(cells) == 0 {
		return "", false, nil
	}
	return string(cells[0].value), true, nil
}

// Rows returns every row of table in order, each as a client's Scan of the whole table
// would return it: the newest version of each column, families and qualifiers in order.
func (s *Server) Rows(table string) ([]*hrpc.Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.userTable(table)
	if err != nil {
		return nil, s.misuse(fmt.Errorf("fakehbase: Rows %q: %w", table, err))
	}
	sp, err := newReadSpec(t, nil, readParams{}, s.seq, s.now())
	if err != nil {
		return nil, fmt.Errorf("fakehbase: Rows %q: %w", table, err)
	}
	var out []*hrpc.Result
	t.data.rows.Ascend(func(r *row) bool {
		cells := sp.finishRow(sp.readRow(r))
		if len(cells) == 0 {
			return true
		}
		res := &hrpc.Result{Cells: make([]hrpc.Cell, len(cells))}
		for i, k := range cells {
			res.Cells[i] = hrpc.Cell{Row: bytes.Clone(k.row), Family: bytes.Clone(k.family), Qualifier: bytes.Clone(k.qualifier),
				Timestamp: uint64(k.ts), Type: hrpc.CellType(k.typ), Value: bytes.Clone(k.value)}
		}
		out = append(out, res)
		return true
	})
	return out, nil
}
