package hrpc

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// Compression is a column family's compression algorithm (HBase's COMPRESSION attribute).
// The servers must have the codec: NONE and GZ always work.
type Compression string

// Compression algorithms HBase 2.x knows.
const (
	CompressionNone   Compression = "NONE"
	CompressionGZ     Compression = "GZ"
	CompressionSnappy Compression = "SNAPPY"
	CompressionLZ4    Compression = "LZ4"
	CompressionLZO    Compression = "LZO"
	CompressionZSTD   Compression = "ZSTD"
	CompressionBZIP2  Compression = "BZIP2"
	CompressionLZMA   Compression = "LZMA"
)

// BloomType is a column family's bloom filter (BLOOMFILTER).
type BloomType string

// Bloom filter types.
const (
	BloomNone   BloomType = "NONE"
	BloomRow    BloomType = "ROW"
	BloomRowCol BloomType = "ROWCOL"
	// BloomRowPrefix needs the table configuration RowPrefixBloomFilter.prefix_length.
	BloomRowPrefix BloomType = "ROWPREFIX_FIXED_LENGTH"
)

// Encoding is a column family's data block encoding (DATA_BLOCK_ENCODING).
type Encoding string

// Data block encodings.
const (
	EncodingNone       Encoding = "NONE"
	EncodingPrefix     Encoding = "PREFIX"
	EncodingDiff       Encoding = "DIFF"
	EncodingFastDiff   Encoding = "FAST_DIFF"
	EncodingRowIndexV1 Encoding = "ROW_INDEX_V1"
)

// The attribute keys of a column family descriptor that FamilyDescriptor has fields for.
const (
	attrVersions    = "VERSIONS"
	attrMinVersions = "MIN_VERSIONS"
	attrTTL         = "TTL"
	attrCompression = "COMPRESSION"
	attrBloom       = "BLOOMFILTER"
	attrBlockSize   = "BLOCKSIZE"
	attrInMemory    = "IN_MEMORY"
	attrEncoding    = "DATA_BLOCK_ENCODING"
)

// ttlForever is HBase's TTL meaning "never expire" (HConstants.FOREVER, seconds).
const ttlForever = math.MaxInt32

// FamilyDescriptor describes a column family. The zero value of a field means HBase's
// default (1 version, no TTL, no compression, ROW bloom filter, 64 KiB blocks, not in memory,
// no encoding); DescribeTable fills every field with what the table has.
type FamilyDescriptor struct {
	Name        string
	MaxVersions int           // VERSIONS: versions kept of each cell
	MinVersions int           // MIN_VERSIONS: versions kept even past the TTL
	TTL         time.Duration // TTL, whole seconds; 0 means forever
	Compression Compression
	BloomFilter BloomType
	BlockSize   int  // BLOCKSIZE in bytes
	InMemory    bool // IN_MEMORY: favoured in the block cache
	Encoding    Encoding
	// Attributes are the other attributes of the family (BLOCKCACHE, REPLICATION_SCOPE...)
	// as HBase names them.
	Attributes map[string]string
	// Configuration overrides server configuration for this family.
	Configuration map[string]string
}

// FamilyOption configures a column family built by NewFamily or WithFamily.
type FamilyOption func(*FamilyDescriptor) error

// NewFamily returns the descriptor of a column family called name, after checking the name
// and the options.
func NewFamily(name string, opts ...FamilyOption) (*FamilyDescriptor, error) {
	f := &FamilyDescriptor{Name: name}
	for _, o := range opts {
		if o == nil {
			return nil, invalid("nil FamilyOption")
		}
		if err := o(f); err != nil {
			return nil, err
		}
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	return f, nil
}

// Versions sets how many versions of each cell the family keeps (VERSIONS).
func Versions(n int) FamilyOption {
	return func(f *FamilyDescriptor) error { f.MaxVersions = n; return nil }
}

// MinVersions sets how many versions are kept even when older than the TTL (MIN_VERSIONS).
func MinVersions(n int) FamilyOption {
	return func(f *FamilyDescriptor) error { f.MinVersions = n; return nil }
}

// TTL sets how long cells live (whole seconds); 0 means forever.
func TTL(d time.Duration) FamilyOption {
	return func(f *FamilyDescriptor) error { f.TTL = d; return nil }
}

// Compress sets the family's compression algorithm.
func Compress(c Compression) FamilyOption {
	return func(f *FamilyDescriptor) error { f.Compression = c; return nil }
}

// Bloom sets the family's bloom filter.
func Bloom(b BloomType) FamilyOption {
	return func(f *FamilyDescriptor) error { f.BloomFilter = b; return nil }
}

// BlockSize sets the size of the family's HFile blocks in bytes.
func BlockSize(n int) FamilyOption {
	return func(f *FamilyDescriptor) error { f.BlockSize = n; return nil }
}

// InMemory favours the family's blocks in the block cache.
func InMemory(on bool) FamilyOption {
	return func(f *FamilyDescriptor) error { f.InMemory = on; return nil }
}

// BlockEncoding sets the family's data block encoding.
func BlockEncoding(e Encoding) FamilyOption {
	return func(f *FamilyDescriptor) error { f.Encoding = e; return nil }
}

// FamilyAttribute sets any other attribute of the family, by HBase's name for it
// ("BLOCKCACHE", "REPLICATION_SCOPE"...).
func FamilyAttribute(key, value string) FamilyOption {
	return func(f *FamilyDescriptor) error {
		if key == "" {
			return invalid("empty family attribute name")
		}
		if f.Attributes == nil {
			f.Attributes = make(map[string]string)
		}
		f.Attributes[key] = value
		return nil
	}
}

// check validates f as the request constructors do: a struct filled by hand (or read by
// DescribeTable and edited) is checked like one built with options.
func (f *FamilyDescriptor) check() error {
	if err := wire.CheckFamilyName(f.Name); err != nil {
		return err
	}
	switch {
	case f.MaxVersions < 0:
		return invalid("family %q: negative max versions %d", f.Name, f.MaxVersions)
	case f.MinVersions < 0:
		return invalid("family %q: negative min versions %d", f.Name, f.MinVersions)
	case f.MaxVersions > 0 && f.MinVersions > f.MaxVersions:
		return invalid("family %q: min versions %d above max versions %d", f.Name, f.MinVersions, f.MaxVersions)
	case f.TTL < 0 || f.TTL%time.Second != 0 || f.TTL/time.Second >= ttlForever:
		return invalid("family %q: TTL %v is not a whole number of seconds in [0, %ds)", f.Name, f.TTL, ttlForever)
	case f.BlockSize < 0:
		return invalid("family %q: negative block size %d", f.Name, f.BlockSize)
	}
	if f.Compression != "" && !slices.Contains([]Compression{CompressionNone, CompressionGZ, CompressionSnappy,
		CompressionLZ4, CompressionLZO, CompressionZSTD, CompressionBZIP2, CompressionLZMA}, f.Compression) {
		return invalid("family %q: unknown compression %q", f.Name, f.Compression)
	}
	if f.BloomFilter != "" && !slices.Contains([]BloomType{BloomNone, BloomRow, BloomRowCol, BloomRowPrefix}, f.BloomFilter) {
		return invalid("family %q: unknown bloom filter %q", f.Name, f.BloomFilter)
	}
	if f.Encoding != "" && !slices.Contains([]Encoding{EncodingNone, EncodingPrefix, EncodingDiff, EncodingFastDiff, EncodingRowIndexV1}, f.Encoding) {
		return invalid("family %q: unknown data block encoding %q", f.Name, f.Encoding)
	}
	return nil
}

// proto builds the ColumnFamilySchema of a checked f: the typed fields win over Attributes.
func (f *FamilyDescriptor) proto() *pb.ColumnFamilySchema {
	attrs := maps.Clone(f.Attributes)
	if attrs == nil {
		attrs = make(map[string]string)
	}
	setInt := func(k string, v int) {
		if v > 0 {
			attrs[k] = strconv.Itoa(v)
		}
	}
	setInt(attrVersions, f.MaxVersions)
	setInt(attrMinVersions, f.MinVersions)
	setInt(attrBlockSize, f.BlockSize)
	if f.TTL > 0 {
		attrs[attrTTL] = strconv.FormatInt(int64(f.TTL/time.Second), 10)
	}
	if f.Compression != "" {
		attrs[attrCompression] = string(f.Compression)
	}
	if f.BloomFilter != "" {
		attrs[attrBloom] = string(f.BloomFilter)
	}
	if f.Encoding != "" {
		attrs[attrEncoding] = string(f.Encoding)
	}
	if f.InMemory {
		attrs[attrInMemory] = "true"
	}
	return &pb.ColumnFamilySchema{Name: []byte(f.Name), Attributes: bytesPairs(attrs), Configuration: stringPairs(f.Configuration)}
}

// familyFromProto reads a ColumnFamilySchema the master returned. Attributes it has no field
// for stay in Attributes; a typed attribute whose value does not parse stays there too.
func familyFromProto(s *pb.ColumnFamilySchema) FamilyDescriptor {
	f := FamilyDescriptor{Name: string(s.GetName()), Attributes: make(map[string]string)}
	for _, p := range s.GetAttributes() {
		k, v := string(p.GetFirst()), string(p.GetSecond())
		n, nerr := strconv.ParseInt(v, 10, 64)
		switch {
		case k == attrVersions && nerr == nil:
			f.MaxVersions = int(n)
		case k == attrMinVersions && nerr == nil:
			f.MinVersions = int(n)
		case k == attrBlockSize && nerr == nil:
			f.BlockSize = int(n)
		case k == attrTTL && nerr == nil:
			if n > 0 && n < ttlForever {
				f.TTL = time.Duration(n) * time.Second
			}
		case k == attrCompression:
			f.Compression = Compression(v)
		case k == attrBloom:
			f.BloomFilter = BloomType(v)
		case k == attrEncoding:
			f.Encoding = Encoding(v)
		case k == attrInMemory && (v == "true" || v == "false"):
			f.InMemory = v == "true"
		default:
			f.Attributes[k] = v
		}
	}
	if len(s.GetConfiguration()) > 0 {
		f.Configuration = make(map[string]string, len(s.GetConfiguration()))
		for _, p := range s.GetConfiguration() {
			f.Configuration[p.GetName()] = p.GetValue()
		}
	}
	return f
}

// TableDescriptor describes a table: its name ("ns:qualifier", or "qualifier" in the default
// namespace), its column families, and its other attributes (MAX_FILESIZE, READONLY,
// NORMALIZATION_ENABLED... as HBase names them) and configuration overrides.
type TableDescriptor struct {
	Name          string
	Families      []FamilyDescriptor
	Attributes    map[string]string
	Configuration map[string]string
}

// TableOption configures a table built by NewTableDescriptor.
type TableOption func(*TableDescriptor) error

// NewTableDescriptor returns the descriptor of a table after checking its name, its families
// (at least one) and the options.
func NewTableDescriptor(name string, opts ...TableOption) (*TableDescriptor, error) {
	t := &TableDescriptor{Name: name}
	for _, o := range opts {
		if o == nil {
			return nil, invalid("nil TableOption")
		}
		if err := o(t); err != nil {
			return nil, err
		}
	}
	if err := t.check(); err != nil {
		return nil, err
	}
	return t, nil
}

// WithFamily adds a column family to the table.
func WithFamily(name string, opts ...FamilyOption) TableOption {
	return func(t *TableDescriptor) error {
		f, err := NewFamily(name, opts...)
		if err != nil {
			return err
		}
		t.Families = append(t.Families, *f)
		return nil
	}
}

// TableAttribute sets an attribute of the table by HBase's name for it ("MAX_FILESIZE",
// "READONLY", "NORMALIZATION_ENABLED", "DURABILITY"...).
func TableAttribute(key, value string) TableOption {
	return func(t *TableDescriptor) error {
		if key == "" {
			return invalid("empty table attribute name")
		}
		if t.Attributes == nil {
			t.Attributes = make(map[string]string)
		}
		t.Attributes[key] = value
		return nil
	}
}

// RegionReplication sets how many replicas each region of the table has (HBase's
// REGION_REPLICATION; 1, the default, is the primary alone). Secondary replicas serve
// reads of consistency Timeline; with hbase.region.replica.replication.enabled on the servers
// they follow the primary's writes within moments, else only its flushed files.
func RegionReplication(n int) TableOption {
	return func(t *TableDescriptor) error {
		if n < 1 || n > 0xffff {
			return invalid("region replication %d: want 1 to 65535", n)
		}
		return TableAttribute("REGION_REPLICATION", strconv.Itoa(n))(t)
	}
}

// TableConfiguration overrides a server configuration key for this table.
func TableConfiguration(key, value string) TableOption {
	return func(t *TableDescriptor) error {
		if key == "" {
			return invalid("empty table configuration key")
		}
		if t.Configuration == nil {
			t.Configuration = make(map[string]string)
		}
		t.Configuration[key] = value
		return nil
	}
}

// Family returns the family called name, or nil.
func (t *TableDescriptor) Family(name string) *FamilyDescriptor {
	for i := range t.Families {
		if t.Families[i].Name == name {
			return &t.Families[i]
		}
	}
	return nil
}

func (t *TableDescriptor) check() error {
	if t == nil {
		return invalid("nil TableDescriptor")
	}
	if err := wire.CheckTableName(t.Name); err != nil {
		return err
	}
	if len(t.Families) == 0 {
		return invalid("table %q has no column family", t.Name)
	}
	seen := make(map[string]bool, len(t.Families))
	for i := range t.Families {
		f := &t.Families[i]
		if err := f.check(); err != nil {
			return err
		}
		if seen[f.Name] {
			return invalid("table %q: family %q given twice", t.Name, f.Name)
		}
		seen[f.Name] = true
	}
	return nil
}

func (t *TableDescriptor) proto() (*pb.TableSchema, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	tn, err := wire.TableNameProto(t.Name)
	if err != nil {
		return nil, err
	}
	s := &pb.TableSchema{TableName: tn, Attributes: bytesPairs(t.Attributes), Configuration: stringPairs(t.Configuration)}
	for i := range t.Families {
		s.ColumnFamilies = append(s.ColumnFamilies, t.Families[i].proto())
	}
	return s, nil
}

// tableFromProto reads a TableSchema the master returned.
func tableFromProto(s *pb.TableSchema) *TableDescriptor {
	t := &TableDescriptor{Name: wire.TableNameString(s.GetTableName())}
	if len(s.GetAttributes()) > 0 {
		t.Attributes = make(map[string]string, len(s.GetAttributes()))
		for _, p := range s.GetAttributes() {
			t.Attributes[string(p.GetFirst())] = string(p.GetSecond())
		}
	}
	if len(s.GetConfiguration()) > 0 {
		t.Configuration = make(map[string]string, len(s.GetConfiguration()))
		for _, p := range s.GetConfiguration() {
			t.Configuration[p.GetName()] = p.GetValue()
		}
	}
	for _, f := range s.GetColumnFamilies() {
		t.Families = append(t.Families, familyFromProto(f))
	}
	return t
}

// bytesPairs returns m as BytesBytesPairs sorted by key, so a request is the same bytes every
// time.
func bytesPairs(m map[string]string) []*pb.BytesBytesPair {
	var out []*pb.BytesBytesPair
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, &pb.BytesBytesPair{First: []byte(k), Second: []byte(m[k])})
	}
	return out
}

func stringPairs(m map[string]string) []*pb.NameStringPair {
	var out []*pb.NameStringPair
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, &pb.NameStringPair{Name: &k, Value: new(m[k])})
	}
	return out
}
