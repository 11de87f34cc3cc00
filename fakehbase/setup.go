package fakehbase

import (
	"fmt"
	"strings"

	"github.com/go-hbase/hbase/internal/pb"
)

// CreateTable creates a table with the given column families (each keeping one version,
// HBase's default), split into regions at splitKeys, without going through a client: setup
// for a test. name is "ns:table", or "table" in the default namespace; a namespace other than
// "default" must exist (CreateNamespace). For other family settings (versions, TTL), create
// the table through the client's Admin instead.
func (s *Server) CreateTable(name string, families []string, splitKeys ...[]byte) error {
	ns, q, ok := strings.Cut(name, ":")
	if !ok {
		ns, q = defaultNS, name
	}
	if err := checkTableName(ns, q); err != nil {
		return s.misuse(fmt.Errorf("fakehbase: CreateTable %q: %w", name, err))
	}
	schema := &pb.TableSchema{TableName: &pb.TableName{Namespace: []byte(ns), Qualifier: []byte(q)}}
	for _, f := range families {
		schema.ColumnFamilies = append(schema.ColumnFamilies, &pb.ColumnFamilySchema{Name: []byte(f)})
	}
	keys, err := sortedSplitKeys(splitKeys)
	if err != nil {
		return s.misuse(fmt.Errorf("fakehbase: CreateTable %q: %w", name, err))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.checkNewTable(schema)
	if err == nil {
		err = s.createTable(t, keys)
	}
	if err != nil {
		return s.misuse(fmt.Errorf("fakehbase: CreateTable %q: %w", name, err))
	}
	return nil
}

// checkTableName refuses what HBase's TableName refuses.
func checkTableName(ns, q string) error {
	if err := checkNamespaceName(ns); err != nil {
		return err
	}
	if q == "" || q[0] == '.' || q[0] == '-' {
		return fmt.Errorf("illegal table name %q", q)
	}
	for i := 0; i < len(q); i++ {
		c := q[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return fmt.Errorf("illegal character %q in table name %q", c, q)
		}
	}
	return nil
}

// CreateNamespace creates a namespace, without going through a client.
func (s *Server) CreateNamespace(name string) error {
	if err := checkNamespaceName(name); err != nil {
		return s.misuse(fmt.Errorf("fakehbase: CreateNamespace %q: %w", name, err))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.namespaces[name] != nil {
		return s.misuse(fmt.Errorf("fakehbase: CreateNamespace %q: %w", name, jerr(NamespaceExist, "%s", name)))
	}
	s.namespaces[name] = &namespace{name: name, props: map[string]string{}}
	return nil
}

// MoveRegion moves the region of table holding row to another region server, as a balancer
// would: the server that served it answers RegionMovedException, naming the new one, from
// then on, and hbase:meta names the new one. With one region server the region is reopened
// where it is: its server answers NotServingRegionException until a client reads the
// region's row of hbase:meta again (the relocation the client does on that answer). Clients
// that follow are served as before; the error reaches a caller only if its context or
// attempts run out first.
func (s *Server) MoveRegion(table string, row []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tables[strings.TrimPrefix(table, defaultNS+":")]
	if t == nil || t == s.meta {
		return s.misuse(fmt.Errorf("fakehbase: MoveRegion: no table %q", table))
	}
	r := t.regionOf(row)
	if t.enabled {
		s.flushRegion(r) // it closes on its server
	}
	if len(s.servers) == 1 {
		r.closed = true
	} else {
		if r.movedFrom == nil {
			r.movedFrom = map[int]bool{}
		}
		r.movedFrom[r.server] = true
		r.server = (r.server + 1) % len(s.servers)
		delete(r.movedFrom, r.server)
	}
	s.metaWrite(t)
	return nil
}
