package hrpc

import (
	"maps"
	"math"
	"slices"
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

	// The other attributes the HBase shell names (admin_family_attrs.go has their options).

	KeepDeletedCells KeepDeletedCells // KEEP_DELETED_CELLS
	// CompactionCompression is COMPRESSION_COMPACT, the compression of the files compactions
	// write (Compression when unset); MajorCompactionCompression and
	// MinorCompactionCompression (COMPRESSION_COMPACT_MAJOR, _MINOR) override it for one kind.
	CompactionCompression      Compression
	MajorCompactionCompression Compression
	MinorCompactionCompression Compression
	BlockCache                 Flag // BLOCKCACHE: data blocks cached on read (on by default)
	CacheDataOnWrite           Flag // CACHE_DATA_ON_WRITE
	CacheIndexOnWrite          Flag // CACHE_INDEX_ON_WRITE
	CacheBloomsOnWrite         Flag // CACHE_BLOOMS_ON_WRITE
	EvictBlocksOnClose         Flag // EVICT_BLOCKS_ON_CLOSE
	PrefetchBlocksOnOpen       Flag // PREFETCH_BLOCKS_ON_OPEN
	CompressTags               Flag // COMPRESS_TAGS (on by default)
	NewVersionBehavior         Flag // NEW_VERSION_BEHAVIOR
	// ReplicationScope is REPLICATION_SCOPE: 0 (the default) keeps the family's writes to
	// this cluster, 1 replicates them to the replication peers.
	ReplicationScope int
	// DFSReplication is DFS_REPLICATION, the HDFS replication of the family's files (0: the
	// file system's default).
	DFSReplication int
	// StoragePolicy is STORAGE_POLICY, the HDFS storage policy of the family's files (HOT,
	// WARM, COLD, ALL_SSD, ONE_SSD, LAZY_PERSIST).
	StoragePolicy      string
	InMemoryCompaction MemoryCompaction // IN_MEMORY_COMPACTION
	// MOB: values over MobThreshold bytes (MOB_THRESHOLD; 0: HBase's 100 KiB) go to MOB
	// files when Mob (IS_MOB) is on; MobCompactPartition is MOB_COMPACT_PARTITION_POLICY.
	Mob                 Flag
	MobThreshold        int64
	MobCompactPartition MobPartitionPolicy

	// Attributes are the other attributes of the family as HBase names them (ENCRYPTION,
	// INDEX_BLOCK_ENCODING, METADATA of coprocessors...). An attribute with a typed field
	// above is read into the field, not here; given here and in the field with another value,
	// the descriptor is refused.
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
	if !oneOf(f.Compression, compressions...) {
		return invalid("family %q: unknown compression %q", f.Name, f.Compression)
	}
	if f.BloomFilter != "" && !slices.Contains([]BloomType{BloomNone, BloomRow, BloomRowCol, BloomRowPrefix}, f.BloomFilter) {
		return invalid("family %q: unknown bloom filter %q", f.Name, f.BloomFilter)
	}
	if f.Encoding != "" && !slices.Contains([]Encoding{EncodingNone, EncodingPrefix, EncodingDiff, EncodingFastDiff, EncodingRowIndexV1}, f.Encoding) {
		return invalid("family %q: unknown data block encoding %q", f.Name, f.Encoding)
	}
	return f.checkAttrs()
}

// proto builds the ColumnFamilySchema of a checked f: Attributes with the typed fields
// written in.
func (f *FamilyDescriptor) proto() *pb.ColumnFamilySchema {
	attrs := withTyped(familyAttrs, f, f.Attributes)
	return &pb.ColumnFamilySchema{Name: []byte(f.Name), Attributes: bytesPairs(attrs), Configuration: stringPairs(f.Configuration)}
}

// familyFromProto reads a ColumnFamilySchema the master returned. Attributes it has no field
// for stay in Attributes; a typed attribute whose value does not parse stays there too.
func familyFromProto(s *pb.ColumnFamilySchema) FamilyDescriptor {
	f := FamilyDescriptor{Name: string(s.GetName()), Attributes: make(map[string]string)}
	for _, p := range s.GetAttributes() {
		k, v := string(p.GetFirst()), string(p.GetSecond())
		if !readTyped(familyAttrs, &f, k, v) {
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
// namespace), its column families, the attributes the HBase shell names (zero values leave
// HBase's defaults), its other attributes and configuration overrides.
type TableDescriptor struct {
	Name     string
	Families []FamilyDescriptor

	// The attributes the HBase shell names (admin_table_attrs.go has their options).

	MaxFileSize       int64 // MAX_FILESIZE: a region splits past it (bytes)
	MemStoreFlushSize int64 // MEMSTORE_FLUSHSIZE: a region's memstore flushes past it (bytes)
	ReadOnly          Flag  // READONLY
	// CompactionEnabled, SplitEnabled and MergeEnabled (COMPACTION_ENABLED, SPLIT_ENABLED,
	// MERGE_ENABLED, on by default) allow the table's regions to be compacted, split, merged.
	CompactionEnabled    Flag
	SplitEnabled         Flag
	MergeEnabled         Flag
	NormalizationEnabled Flag       // NORMALIZATION_ENABLED: the normalizer looks at the table
	Durability           Durability // DURABILITY: how the table's writes reach the WAL
	// RegionReplication is REGION_REPLICATION, the replicas of each region (1: the primary
	// alone); RegionMemStoreReplication (REGION_MEMSTORE_REPLICATION, on by default) has the
	// secondaries follow the primary's memstore, not only its flushed files.
	RegionReplication         int
	RegionMemStoreReplication Flag
	Priority                  int    // PRIORITY: the RPC priority of the table's requests
	Owner                     string // OWNER (deprecated by HBase, kept for the shell's alter)
	FlushPolicy               string // FLUSH_POLICY: the class choosing which stores flush
	SplitPolicy               string // SPLIT_POLICY: the RegionSplitPolicy class
	// NormalizerTargetRegionCount and NormalizerTargetRegionSizeMB
	// (NORMALIZER_TARGET_REGION_COUNT, NORMALIZER_TARGET_REGION_SIZE_MB) are the normalizer's
	// targets for this table.
	NormalizerTargetRegionCount  int
	NormalizerTargetRegionSizeMB int64
	// Coprocessors are the table's coprocessors (the attributes coprocessor$1, $2...).
	Coprocessors []Coprocessor

	// Attributes are the other attributes of the table as HBase names them
	// (ERASURE_CODING_POLICY, hbase.rsgroup.name...). An attribute with a typed field above is
	// read into the field, not here; given here and in the field with another value, the
	// descriptor is refused.
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

// UnsetAttribute removes the attribute HBase names key ("MAX_FILESIZE", "DURABILITY",
// "hbase.rsgroup.name"...) from t, whether it is read into a typed field or kept in
// Attributes, as the shell's alter with METHOD => 'table_att_unset' does; false when t does
// not have it. A typed field goes back to its zero value (HBase's default).
func (t *TableDescriptor) UnsetAttribute(key string) bool {
	if unsetTyped(tableAttrs, t, key) {
		return true
	}
	if _, ok := t.Attributes[key]; ok {
		delete(t.Attributes, key)
		return true
	}
	return false
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
		t.RegionReplication = n
		return nil
	}
}

// TableConfiguration overrides a server configuration key for this table. HBase 2 keeps it
// among the table's values: DescribeTable gives it back in Attributes.
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
	return t.checkAttrs()
}

func (t *TableDescriptor) proto() (*pb.TableSchema, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	tn, err := wire.TableNameProto(t.Name)
	if err != nil {
		return nil, err
	}
	s := &pb.TableSchema{TableName: tn, Attributes: bytesPairs(t.attributes()), Configuration: stringPairs(t.Configuration)}
	for i := range t.Families {
		s.ColumnFamilies = append(s.ColumnFamilies, t.Families[i].proto())
	}
	return s, nil
}

// tableFromProto reads a TableSchema the master returned.
func tableFromProto(s *pb.TableSchema) *TableDescriptor {
	t := &TableDescriptor{Name: wire.TableNameString(s.GetTableName())}
	t.readAttributes(s.GetAttributes())
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
