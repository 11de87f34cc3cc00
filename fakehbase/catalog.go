package fakehbase

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"maps"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/metarow"
	"github.com/go-hbase/hbase/internal/pb"
)

const (
	defaultNS = "default"
	systemNS  = "hbase"
)

// namespace is a namespace and its properties.
type namespace struct {
	name  string
	props map[string]string
}

// family is a column family of a table: what reads need of it, and its schema as describe
// returns it.
type family struct {
	name        string
	maxVersions int
	ttl         int64 // ms; 0: forever
	attrs       map[string]string
	config      map[string]string
}

// familyDefaults are the attributes HBase 2.6 gives every family (ColumnFamilyDescriptorBuilder
// DEFAULT_VALUES); describe returns them with those set by the creator.
var familyDefaults = map[string]string{
	"BLOOMFILTER":          "ROW",
	"REPLICATION_SCOPE":    "0",
	"VERSIONS":             "1",
	"MIN_VERSIONS":         "0",
	"COMPRESSION":          "NONE",
	"TTL":                  "2147483647",
	"BLOCKSIZE":            "65536",
	"IN_MEMORY":            "false",
	"BLOCKCACHE":           "true",
	"KEEP_DELETED_CELLS":   "FALSE",
	"DATA_BLOCK_ENCODING":  "NONE",
	"INDEX_BLOCK_ENCODING": "NONE",
}

// tableDefaults are the attributes HBase 2.6 gives every table.
var tableDefaults = map[string]string{
	"IS_META":                       "false",
	"hbase.store.file-tracker.impl": "DEFAULT",
}

// familyFromSchema checks a family's schema. Settings that change what reads return and that
// the fake does not implement are refused by name.
func familyFromSchema(s *pb.ColumnFamilySchema) (*family, error) {
	f := &family{name: string(s.GetName()), attrs: maps.Clone(familyDefaults), config: map[string]string{}}
	if f.name == "" {
		return nil, jerr(IllegalArgument, "Column Family name can not be empty")
	}
	for _, p := range s.GetAttributes() {
		f.attrs[string(p.GetFirst())] = string(p.GetSecond())
	}
	for _, p := range s.GetConfiguration() {
		f.config[p.GetName()] = p.GetValue()
	}
	var err error
	if f.maxVersions, err = f.intAttr("VERSIONS"); err != nil {
		return nil, err
	}
	if f.maxVersions <= 0 {
		return nil, badRequest("Maximum versions must be positive")
	}
	minVersions, err := f.intAttr("MIN_VERSIONS")
	if err != nil {
		return nil, err
	}
	ttl, err := f.intAttr("TTL")
	if err != nil {
		return nil, err
	}
	if ttl <= 0 {
		return nil, badRequest("TTL for column family %s must be positive", f.name)
	}
	if ttl < 2147483647 {
		f.ttl = int64(ttl) * 1000
	}
	if minVersions > 0 && f.ttl > 0 {
		return nil, unsupported("MIN_VERSIONS with a TTL (family %s)", f.name)
	}
	if v := strings.ToUpper(f.attrs["KEEP_DELETED_CELLS"]); v != "FALSE" {
		return nil, unsupported("KEEP_DELETED_CELLS=%s (family %s)", f.attrs["KEEP_DELETED_CELLS"], f.name)
	}
	if v, ok := f.attrs["NEW_VERSION_BEHAVIOR"]; ok && strings.ToLower(v) != "false" {
		return nil, unsupported("NEW_VERSION_BEHAVIOR (family %s)", f.name)
	}
	return f, nil
}

func (f *family) intAttr(k string) (int, error) {
	n, err := strconv.Atoi(f.attrs[k])
	if err != nil {
		return 0, badRequest("family %s: %s=%q is not a number", f.name, k, f.attrs[k])
	}
	return n, nil
}

func (f *family) schema() *pb.ColumnFamilySchema {
	s := &pb.ColumnFamilySchema{Name: []byte(f.name)}
	for _, k := range slices.Sorted(maps.Keys(f.attrs)) {
		s.Attributes = append(s.Attributes, &pb.BytesBytesPair{First: []byte(k), Second: []byte(f.attrs[k])})
	}
	for _, k := range slices.Sorted(maps.Keys(f.config)) {
		s.Configuration = append(s.Configuration, &pb.NameStringPair{Name: proto.String(k), Value: proto.String(f.config[k])})
	}
	return s
}

// table is one table: its schema, state, regions and rows.
type table struct {
	ns, qual string
	name     string // "ns:qual", or "qual" in the default namespace
	attrs    map[string]string
	config   map[string]string
	fams     map[string]*family
	famNames []string // sorted
	enabled  bool
	regions  []*region // by start key
	data     *data
	metaRows [][]byte // its rows in hbase:meta
}

func (t *table) tableName() *pb.TableName {
	return &pb.TableName{Namespace: []byte(t.ns), Qualifier: []byte(t.qual)}
}

func (t *table) setFamilies(fams []*family) {
	t.fams = map[string]*family{}
	t.famNames = t.famNames[:0]
	for _, f := range fams {
		t.fams[f.name] = f
		t.famNames = append(t.famNames, f.name)
	}
	slices.Sort(t.famNames)
}

func (t *table) schema() *pb.TableSchema {
	s := &pb.TableSchema{TableName: t.tableName()}
	for _, k := range slices.Sorted(maps.Keys(t.attrs)) {
		s.Attributes = append(s.Attributes, &pb.BytesBytesPair{First: []byte(k), Second: []byte(t.attrs[k])})
	}
	for _, name := range t.famNames {
		s.ColumnFamilies = append(s.ColumnFamilies, t.fams[name].schema())
	}
	for _, k := range slices.Sorted(maps.Keys(t.config)) {
		s.Configuration = append(s.Configuration, &pb.NameStringPair{Name: proto.String(k), Value: proto.String(t.config[k])})
	}
	return s
}

// regionOf returns the region of t holding row.
func (t *table) regionOf(row []byte) *region {
	i, _ := slices.BinarySearchFunc(t.regions, row, func(r *region, row []byte) int {
		if t.data.cmp(r.start, row) <= 0 {
			return -1
		}
		return 1
	})
	if i == 0 {
		return t.regions[0]
	}
	return t.regions[i-1]
}

// region is one region of a table.
type region struct {
	t          *table
	start, end []byte // end empty: the table's end
	id         int64
	name       []byte // "table,start,id.encoded."
	encoded    string
	server     int          // the index of the region server that serves it
	movedFrom  map[int]bool // servers it moved away from: they answer RegionMovedException
	closed     bool         // moved onto its own server: not served until hbase:meta is read again
}

func newRegion(t *table, start, end []byte, id int64, server int) *region {
	prefix := []byte(t.name + ",")
	prefix = append(prefix, start...)
	prefix = append(prefix, ',')
	prefix = strconv.AppendInt(prefix, id, 10)
	sum := md5.Sum(prefix)
	enc := hex.EncodeToString(sum[:])
	name := append(append(append(bytes.Clone(prefix), '.'), enc...), '.')
	return &region{t: t, start: bytes.Clone(start), end: bytes.Clone(end), id: id, name: name,
		encoded: enc, server: server}
}

// contains reports whether row belongs to the region.
func (r *region) contains(row []byte) bool {
	cmp := r.t.data.cmp
	if cmp(row, r.start) < 0 {
		return false
	}
	return len(r.end) == 0 || cmp(row, r.end) < 0
}

func (r *region) info() *pb.RegionInfo {
	return &pb.RegionInfo{RegionId: proto.Uint64(uint64(r.id)), TableName: r.t.tableName(),
		StartKey: r.start, EndKey: r.end, Offline: proto.Bool(false), Split: proto.Bool(false),
		ReplicaId: proto.Int32(0)}
}

// hbase:meta, as the fake keeps it: a table like the others, in hbase:meta's own row order,
// whose rows the catalog rewrites whenever a table or region changes.
const (
	metaTable      = "hbase:meta"
	metaRegionName = "hbase:meta,,1"
	metaEncoded    = "1588230740"
)

var metaFamilies = []string{"info", "rep_barrier", "table"}

func newMetaTable() *table {
	t := &table{ns: systemNS, qual: "meta", name: metaTable, attrs: map[string]string{},
		config: map[string]string{}, enabled: true, data: newData(metarow.Compare)}
	var fams []*family
	for _, name := range metaFamilies {
		attrs := maps.Clone(familyDefaults)
		attrs["VERSIONS"] = "3"
		fams = append(fams, &family{name: name, maxVersions: 3, attrs: attrs, config: map[string]string{}})
	}
	t.setFamilies(fams)
	r := &region{t: t, id: 1, name: []byte(metaRegionName), encoded: metaEncoded}
	t.regions = []*region{r}
	return t
}
