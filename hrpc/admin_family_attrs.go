package hrpc

import (
	"strconv"
	"strings"
	"time"
)

// KeepDeletedCells says whether deleted cells stay readable by reads at a time before the
// delete (KEEP_DELETED_CELLS).
type KeepDeletedCells string

// KeepDeletedCells values.
const (
	KeepDeletedFalse KeepDeletedCells = "FALSE" // deleted cells go at the next major compaction
	KeepDeletedTrue  KeepDeletedCells = "TRUE"  // kept while within VERSIONS and TTL
	// KeepDeletedTTL keeps them until the TTL, past VERSIONS too.
	KeepDeletedTTL KeepDeletedCells = "TTL"
)

// MemoryCompaction is a family's in-memory compaction policy (IN_MEMORY_COMPACTION).
type MemoryCompaction string

// In-memory compaction policies.
const (
	MemoryCompactionNone     MemoryCompaction = "NONE"
	MemoryCompactionBasic    MemoryCompaction = "BASIC"
	MemoryCompactionEager    MemoryCompaction = "EAGER"
	MemoryCompactionAdaptive MemoryCompaction = "ADAPTIVE"
)

// MobPartitionPolicy is how MOB compactions group files (MOB_COMPACT_PARTITION_POLICY).
type MobPartitionPolicy string

// MOB compaction partition policies.
const (
	MobPartitionDaily   MobPartitionPolicy = "DAILY"
	MobPartitionWeekly  MobPartitionPolicy = "WEEKLY"
	MobPartitionMonthly MobPartitionPolicy = "MONTHLY"
)

// familyAttrs are the attributes FamilyDescriptor has typed fields for.
var familyAttrs = []typedAttr[FamilyDescriptor]{
	intAttr("VERSIONS", func(f *FamilyDescriptor) *int { return &f.MaxVersions }),
	intAttr("MIN_VERSIONS", func(f *FamilyDescriptor) *int { return &f.MinVersions }),
	intAttr("BLOCKSIZE", func(f *FamilyDescriptor) *int { return &f.BlockSize }),
	{key: "TTL",
		format: func(f *FamilyDescriptor) (string, bool) {
			return strconv.FormatInt(int64(f.TTL/time.Second), 10), f.TTL > 0
		},
		parse: func(f *FamilyDescriptor, v string) bool {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return false
			}
			if n > 0 && n < ttlForever { // FOREVER reads as 0
				f.TTL = time.Duration(n) * time.Second
			}
			return true
		},
		clear: func(f *FamilyDescriptor) { f.TTL = 0 }},
	nameAttr("COMPRESSION", func(f *FamilyDescriptor) *Compression { return &f.Compression }, false),
	nameAttr("BLOOMFILTER", func(f *FamilyDescriptor) *BloomType { return &f.BloomFilter }, false),
	nameAttr("DATA_BLOCK_ENCODING", func(f *FamilyDescriptor) *Encoding { return &f.Encoding }, false),
	{key: "IN_MEMORY",
		format: func(f *FamilyDescriptor) (string, bool) { return "true", f.InMemory },
		parse: func(f *FamilyDescriptor, v string) bool {
			if v != "true" && v != "false" {
				return false
			}
			f.InMemory = v == "true"
			return true
		},
		clear: func(f *FamilyDescriptor) { f.InMemory = false }},
	nameAttr("KEEP_DELETED_CELLS", func(f *FamilyDescriptor) *KeepDeletedCells { return &f.KeepDeletedCells }, true),
	nameAttr("COMPRESSION_COMPACT", func(f *FamilyDescriptor) *Compression { return &f.CompactionCompression }, false),
	nameAttr("COMPRESSION_COMPACT_MAJOR", func(f *FamilyDescriptor) *Compression { return &f.MajorCompactionCompression }, false),
	nameAttr("COMPRESSION_COMPACT_MINOR", func(f *FamilyDescriptor) *Compression { return &f.MinorCompactionCompression }, false),
	flagAttr("BLOCKCACHE", func(f *FamilyDescriptor) *Flag { return &f.BlockCache }),
	flagAttr("CACHE_DATA_ON_WRITE", func(f *FamilyDescriptor) *Flag { return &f.CacheDataOnWrite }),
	flagAttr("CACHE_INDEX_ON_WRITE", func(f *FamilyDescriptor) *Flag { return &f.CacheIndexOnWrite }),
	flagAttr("CACHE_BLOOMS_ON_WRITE", func(f *FamilyDescriptor) *Flag { return &f.CacheBloomsOnWrite }),
	flagAttr("EVICT_BLOCKS_ON_CLOSE", func(f *FamilyDescriptor) *Flag { return &f.EvictBlocksOnClose }),
	flagAttr("PREFETCH_BLOCKS_ON_OPEN", func(f *FamilyDescriptor) *Flag { return &f.PrefetchBlocksOnOpen }),
	flagAttr("COMPRESS_TAGS", func(f *FamilyDescriptor) *Flag { return &f.CompressTags }),
	flagAttr("NEW_VERSION_BEHAVIOR", func(f *FamilyDescriptor) *Flag { return &f.NewVersionBehavior }),
	intAttr("REPLICATION_SCOPE", func(f *FamilyDescriptor) *int { return &f.ReplicationScope }),
	intAttr("DFS_REPLICATION", func(f *FamilyDescriptor) *int { return &f.DFSReplication }),
	nameAttr("STORAGE_POLICY", func(f *FamilyDescriptor) *string { return &f.StoragePolicy }, false),
	nameAttr("IN_MEMORY_COMPACTION", func(f *FamilyDescriptor) *MemoryCompaction { return &f.InMemoryCompaction }, true),
	flagAttr("IS_MOB", func(f *FamilyDescriptor) *Flag { return &f.Mob }),
	intAttr("MOB_THRESHOLD", func(f *FamilyDescriptor) *int64 { return &f.MobThreshold }),
	nameAttr("MOB_COMPACT_PARTITION_POLICY", func(f *FamilyDescriptor) *MobPartitionPolicy { return &f.MobCompactPartition }, true),
}

// compressions are the algorithms HBase 2.x knows.
var compressions = []Compression{CompressionNone, CompressionGZ, CompressionSnappy, CompressionLZ4,
	CompressionLZO, CompressionZSTD, CompressionBZIP2, CompressionLZMA}

// checkAttrs validates the typed attributes FamilyDescriptor.check does not.
func (f *FamilyDescriptor) checkAttrs() error {
	for _, c := range []struct {
		what string
		v    Compression
	}{{"compaction compression", f.CompactionCompression}, {"major compaction compression", f.MajorCompactionCompression},
		{"minor compaction compression", f.MinorCompactionCompression}} {
		if !oneOf(c.v, compressions...) {
			return invalid("family %q: unknown %s %q", f.Name, c.what, c.v)
		}
	}
	for _, fl := range []Flag{f.BlockCache, f.CacheDataOnWrite, f.CacheIndexOnWrite, f.CacheBloomsOnWrite,
		f.EvictBlocksOnClose, f.PrefetchBlocksOnOpen, f.CompressTags, f.NewVersionBehavior, f.Mob} {
		if fl < FlagDefault || fl > FlagOff {
			return invalid("family %q: flag %d is not FlagDefault, FlagOn or FlagOff", f.Name, fl)
		}
	}
	switch {
	case !oneOf(f.KeepDeletedCells, KeepDeletedFalse, KeepDeletedTrue, KeepDeletedTTL):
		return invalid("family %q: unknown KEEP_DELETED_CELLS %q", f.Name, f.KeepDeletedCells)
	case !oneOf(f.InMemoryCompaction, MemoryCompactionNone, MemoryCompactionBasic, MemoryCompactionEager, MemoryCompactionAdaptive):
		return invalid("family %q: unknown IN_MEMORY_COMPACTION %q", f.Name, f.InMemoryCompaction)
	case !oneOf(f.MobCompactPartition, MobPartitionDaily, MobPartitionWeekly, MobPartitionMonthly):
		return invalid("family %q: unknown MOB_COMPACT_PARTITION_POLICY %q", f.Name, f.MobCompactPartition)
	case f.ReplicationScope < 0:
		return invalid("family %q: negative replication scope %d", f.Name, f.ReplicationScope)
	case f.DFSReplication < 0 || f.DFSReplication > 32767:
		return invalid("family %q: DFS replication %d is not 0 to 32767", f.Name, f.DFSReplication)
	case f.MobThreshold < 0:
		return invalid("family %q: negative MOB threshold %d", f.Name, f.MobThreshold)
	case strings.ContainsAny(f.StoragePolicy, " \t\n"):
		return invalid("family %q: storage policy %q has white space", f.Name, f.StoragePolicy)
	}
	if k, field, attr := conflict(familyAttrs, f, f.Attributes); k != "" {
		return invalid("family %q: attribute %s is %q in Attributes and %q in its field", f.Name, k, attr, field)
	}
	return nil
}

// KeepDeleted sets whether deleted cells stay readable by reads at an earlier time
// (KEEP_DELETED_CELLS).
func KeepDeleted(k KeepDeletedCells) FamilyOption {
	return func(f *FamilyDescriptor) error { f.KeepDeletedCells = k; return nil }
}

// CompactionCompress sets the compression of the files compactions write
// (COMPRESSION_COMPACT); the family's Compress when unset.
func CompactionCompress(c Compression) FamilyOption {
	return func(f *FamilyDescriptor) error { f.CompactionCompression = c; return nil }
}

// BlockCache sets whether the family's data blocks are cached on read (BLOCKCACHE, on by
// default).
func BlockCache(on bool) FamilyOption {
	return func(f *FamilyDescriptor) error { f.BlockCache = flagOf(on); return nil }
}

// CacheOnWrite sets whether data, index and bloom blocks are cached as they are written
// (CACHE_DATA_ON_WRITE, CACHE_INDEX_ON_WRITE, CACHE_BLOOMS_ON_WRITE).
func CacheOnWrite(data, index, blooms bool) FamilyOption {
	return func(f *FamilyDescriptor) error {
		f.CacheDataOnWrite, f.CacheIndexOnWrite, f.CacheBloomsOnWrite = flagOf(data), flagOf(index), flagOf(blooms)
		return nil
	}
}

// PrefetchBlocksOnOpen sets whether a region's opening reads the family's blocks into the
// cache (PREFETCH_BLOCKS_ON_OPEN).
func PrefetchBlocksOnOpen(on bool) FamilyOption {
	return func(f *FamilyDescriptor) error { f.PrefetchBlocksOnOpen = flagOf(on); return nil }
}

// ReplicationScope sets REPLICATION_SCOPE: 1 replicates the family's writes to the
// replication peers, 0 does not.
func ReplicationScope(scope int) FamilyOption {
	return func(f *FamilyDescriptor) error { f.ReplicationScope = scope; return nil }
}

// Mob stores values over threshold bytes in MOB files (IS_MOB, MOB_THRESHOLD; 0: HBase's
// 100 KiB).
func Mob(threshold int64) FamilyOption {
	return func(f *FamilyDescriptor) error { f.Mob, f.MobThreshold = FlagOn, threshold; return nil }
}

// MobCompactPartition sets how MOB compactions group files (MOB_COMPACT_PARTITION_POLICY).
func MobCompactPartition(p MobPartitionPolicy) FamilyOption {
	return func(f *FamilyDescriptor) error { f.MobCompactPartition = p; return nil }
}

// NewVersionBehavior sets NEW_VERSION_BEHAVIOR: a delete masks only the versions written
// before it, and versions are counted as the reads see them.
func NewVersionBehavior(on bool) FamilyOption {
	return func(f *FamilyDescriptor) error { f.NewVersionBehavior = flagOf(on); return nil }
}

// DFSReplication sets the HDFS replication of the family's files (DFS_REPLICATION).
func DFSReplication(n int) FamilyOption {
	return func(f *FamilyDescriptor) error { f.DFSReplication = n; return nil }
}

// StoragePolicy sets the HDFS storage policy of the family's files (STORAGE_POLICY).
func StoragePolicy(p string) FamilyOption {
	return func(f *FamilyDescriptor) error { f.StoragePolicy = p; return nil }
}

// InMemoryCompaction sets the family's in-memory compaction policy (IN_MEMORY_COMPACTION).
func InMemoryCompaction(p MemoryCompaction) FamilyOption {
	return func(f *FamilyDescriptor) error { f.InMemoryCompaction = p; return nil }
}

// EvictBlocksOnClose sets whether a region's closing drops the family's blocks from the
// cache (EVICT_BLOCKS_ON_CLOSE).
func EvictBlocksOnClose(on bool) FamilyOption {
	return func(f *FamilyDescriptor) error { f.EvictBlocksOnClose = flagOf(on); return nil }
}

// CompressTags sets whether cell tags are compressed in the family's files (COMPRESS_TAGS, on
// by default).
func CompressTags(on bool) FamilyOption {
	return func(f *FamilyDescriptor) error { f.CompressTags = flagOf(on); return nil }
}

// FamilyConfiguration overrides a server configuration key for this family.
func FamilyConfiguration(key, value string) FamilyOption {
	return func(f *FamilyDescriptor) error {
		if key == "" {
			return invalid("empty family configuration key")
		}
		if f.Configuration == nil {
			f.Configuration = make(map[string]string)
		}
		f.Configuration[key] = value
		return nil
	}
}
