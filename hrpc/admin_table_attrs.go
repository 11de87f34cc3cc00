package hrpc

import (
	"cmp"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/go-hbase/hbase/internal/pb"
)

// Coprocessor is a coprocessor of a table: a class the region servers load for its regions
// (a RegionObserver, an endpoint...), from JarPath when it is not on their class path.
type Coprocessor struct {
	Class   string
	JarPath string // "" when the servers have the class
	// Priority orders the table's coprocessors, lowest first; 0 means HBase's user priority,
	// CoprocessorPriorityUser (a table read back gives the number HBase stored).
	Priority int
	// Properties are the coprocessor's configuration (keys without '=' or ',', values
	// without ',').
	Properties map[string]string
}

// CoprocessorPriorityUser is HBase's priority of a user coprocessor (Coprocessor.PRIORITY_USER).
const CoprocessorPriorityUser = 1<<30 - 1

// coprocessorKey is the attribute key of a table coprocessor (HConstants.CP_HTD_ATTR_KEY_PATTERN).
var coprocessorKey = regexp.MustCompile(`(?i)^coprocessor\$([0-9]+)$`)

// durabilityNames are the values of DURABILITY, by Durability.
var durabilityNames = [...]string{UseDefault: "USE_DEFAULT", SkipWAL: "SKIP_WAL", AsyncWAL: "ASYNC_WAL",
	SyncWAL: "SYNC_WAL", FsyncWAL: "FSYNC_WAL"}

// tableAttrs are the attributes TableDescriptor has typed fields for (the coprocessors apart).
var tableAttrs = []typedAttr[TableDescriptor]{
	intAttr("MAX_FILESIZE", func(t *TableDescriptor) *int64 { return &t.MaxFileSize }),
	intAttr("MEMSTORE_FLUSHSIZE", func(t *TableDescriptor) *int64 { return &t.MemStoreFlushSize }),
	flagAttr("READONLY", func(t *TableDescriptor) *Flag { return &t.ReadOnly }),
	flagAttr("COMPACTION_ENABLED", func(t *TableDescriptor) *Flag { return &t.CompactionEnabled }),
	flagAttr("SPLIT_ENABLED", func(t *TableDescriptor) *Flag { return &t.SplitEnabled }),
	flagAttr("MERGE_ENABLED", func(t *TableDescriptor) *Flag { return &t.MergeEnabled }),
	flagAttr("NORMALIZATION_ENABLED", func(t *TableDescriptor) *Flag { return &t.NormalizationEnabled }),
	{key: "DURABILITY",
		format: func(t *TableDescriptor) (string, bool) {
			if t.Durability <= UseDefault || int(t.Durability) >= len(durabilityNames) {
				return "", false
			}
			return durabilityNames[t.Durability], true
		},
		parse: func(t *TableDescriptor, v string) bool {
			i := slices.Index(durabilityNames[:], strings.ToUpper(v))
			if i < 0 {
				return false
			}
			t.Durability = Durability(i)
			return true
		},
		clear: func(t *TableDescriptor) { t.Durability = UseDefault }},
	intAttr("REGION_REPLICATION", func(t *TableDescriptor) *int { return &t.RegionReplication }),
	flagAttr("REGION_MEMSTORE_REPLICATION", func(t *TableDescriptor) *Flag { return &t.RegionMemStoreReplication }),
	intAttr("PRIORITY", func(t *TableDescriptor) *int { return &t.Priority }),
	nameAttr("OWNER", func(t *TableDescriptor) *string { return &t.Owner }, false),
	nameAttr("FLUSH_POLICY", func(t *TableDescriptor) *string { return &t.FlushPolicy }, false),
	nameAttr("SPLIT_POLICY", func(t *TableDescriptor) *string { return &t.SplitPolicy }, false),
	intAttr("NORMALIZER_TARGET_REGION_COUNT", func(t *TableDescriptor) *int { return &t.NormalizerTargetRegionCount }),
	intAttr("NORMALIZER_TARGET_REGION_SIZE_MB", func(t *TableDescriptor) *int64 { return &t.NormalizerTargetRegionSizeMB }),
}

// checkAttrs validates the typed attributes of t.
func (t *TableDescriptor) checkAttrs() error {
	for _, fl := range []Flag{t.ReadOnly, t.CompactionEnabled, t.SplitEnabled, t.MergeEnabled,
		t.NormalizationEnabled, t.RegionMemStoreReplication} {
		if fl < FlagDefault || fl > FlagOff {
			return invalid("table %q: flag %d is not FlagDefault, FlagOn or FlagOff", t.Name, fl)
		}
	}
	switch {
	case t.MaxFileSize < 0 || t.MemStoreFlushSize < 0:
		return invalid("table %q: negative MAX_FILESIZE %d or MEMSTORE_FLUSHSIZE %d", t.Name, t.MaxFileSize, t.MemStoreFlushSize)
	case t.Durability < UseDefault || int(t.Durability) >= len(durabilityNames):
		return invalid("table %q: unknown durability %d", t.Name, t.Durability)
	case t.RegionReplication < 0 || t.RegionReplication > 0xffff:
		return invalid("table %q: region replication %d: want 1 to 65535", t.Name, t.RegionReplication)
	case t.Priority < 0:
		return invalid("table %q: negative priority %d", t.Name, t.Priority)
	case t.NormalizerTargetRegionCount < 0 || t.NormalizerTargetRegionSizeMB < 0:
		return invalid("table %q: negative normalizer target %d regions or %d MB", t.Name, t.NormalizerTargetRegionCount, t.NormalizerTargetRegionSizeMB)
	}
	if k, field, attr := conflict(tableAttrs, t, t.Attributes); k != "" {
		return invalid("table %q: attribute %s is %q in Attributes and %q in its field", t.Name, k, attr, field)
	}
	seen := make(map[string]bool, len(t.Coprocessors))
	for _, c := range t.Coprocessors {
		if err := c.check(); err != nil {
			return invalid("table %q: %v", t.Name, err)
		}
		if seen[c.Class] {
			return invalid("table %q: coprocessor %s given twice", t.Name, c.Class)
		}
		seen[c.Class] = true
	}
	for k, v := range t.Attributes {
		if coprocessorKey.MatchString(strings.TrimSpace(k)) {
			if c, ok := parseCoprocessor(v); ok && seen[c.Class] {
				return invalid("table %q: coprocessor %s given in Coprocessors and as attribute %s", t.Name, c.Class, k)
			}
		}
	}
	return nil
}

// attributes is t.Attributes with the typed fields and the coprocessors written in, each
// coprocessor under the key after the highest coprocessor key already there (as HBase's
// TableDescriptorBuilder numbers them).
func (t *TableDescriptor) attributes() map[string]string {
	attrs := withTyped(tableAttrs, t, t.Attributes)
	next := 0
	for k := range attrs {
		if m := coprocessorKey.FindStringSubmatch(strings.TrimSpace(k)); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				next = max(next, n)
			}
		}
	}
	for _, c := range t.Coprocessors {
		next++
		attrs["coprocessor$"+strconv.Itoa(next)] = c.spec()
	}
	return attrs
}

// readAttributes reads the master's table attributes into t's typed fields, its
// Coprocessors (in the order of their keys) and its Attributes.
func (t *TableDescriptor) readAttributes(pairs []*pb.BytesBytesPair) {
	type numbered struct {
		n int
		c Coprocessor
	}
	var cps []numbered
	for _, p := range pairs {
		k, v := string(p.GetFirst()), string(p.GetSecond())
		if m := coprocessorKey.FindStringSubmatch(strings.TrimSpace(k)); m != nil {
			n, nerr := strconv.Atoi(m[1])
			if c, ok := parseCoprocessor(v); ok && nerr == nil {
				cps = append(cps, numbered{n, c})
				continue
			}
		}
		if readTyped(tableAttrs, t, k, v) {
			continue
		}
		if t.Attributes == nil {
			t.Attributes = make(map[string]string)
		}
		t.Attributes[k] = v
	}
	slices.SortFunc(cps, func(a, b numbered) int { return cmp.Compare(a.n, b.n) })
	for _, c := range cps {
		t.Coprocessors = append(t.Coprocessors, c.c)
	}
}

func (c *Coprocessor) check() error {
	switch {
	case strings.TrimSpace(c.Class) == "" || strings.ContainsAny(c.Class, "|"):
		return invalid("coprocessor class %q: empty or with '|'", c.Class)
	case strings.Contains(c.JarPath, "|"):
		return invalid("coprocessor %s: jar path %q has '|'", c.Class, c.JarPath)
	case c.Priority < 0:
		return invalid("coprocessor %s: negative priority %d", c.Class, c.Priority)
	}
	for k, v := range c.Properties {
		if k == "" || strings.ContainsAny(k, "=,") || v == "" || strings.Contains(v, ",") {
			return invalid("coprocessor %s: property %q=%q: keys need no '=' or ',', values no ','", c.Class, k, v)
		}
	}
	return nil
}

// spec is the attribute value of c: "jar|class|priority|k=v,k=v".
func (c *Coprocessor) spec() string {
	prio := c.Priority
	if prio == 0 {
		prio = CoprocessorPriorityUser
	}
	var kv []string
	for _, k := range slices.Sorted(maps.Keys(c.Properties)) {
		kv = append(kv, k+"="+c.Properties[k])
	}
	return c.JarPath + "|" + c.Class + "|" + strconv.Itoa(prio) + "|" + strings.Join(kv, ",")
}

// parseCoprocessor reads a coprocessor attribute as HBase does
// (HConstants.CP_HTD_ATTR_VALUE_PATTERN): jar path, class, priority (empty: the user
// priority), then optional k=v pairs.
func parseCoprocessor(spec string) (Coprocessor, bool) {
	f := strings.SplitN(strings.TrimSpace(spec), "|", 4)
	if len(f) < 3 {
		return Coprocessor{}, false
	}
	c := Coprocessor{JarPath: strings.TrimSpace(f[0]), Class: strings.TrimSpace(f[1]), Priority: CoprocessorPriorityUser}
	if c.Class == "" {
		return Coprocessor{}, false
	}
	if p := strings.TrimSpace(f[2]); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || strings.ContainsAny(p, "+-") {
			return Coprocessor{}, false
		}
		c.Priority = n
	}
	if len(f) == 4 {
		for kv := range strings.SplitSeq(f[3], ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" || v == "" {
				continue // HBase's CP_HTD_ATTR_VALUE_PARAM_PATTERN does not match it either
			}
			if c.Properties == nil {
				c.Properties = make(map[string]string)
			}
			c.Properties[k] = v
		}
	}
	return c, true
}

// MaxFileSize sets the size past which the table's regions split (MAX_FILESIZE, bytes).
func MaxFileSize(n int64) TableOption {
	return func(t *TableDescriptor) error { t.MaxFileSize = n; return nil }
}

// MemStoreFlushSize sets the memstore size past which a region flushes (MEMSTORE_FLUSHSIZE).
func MemStoreFlushSize(n int64) TableOption {
	return func(t *TableDescriptor) error { t.MemStoreFlushSize = n; return nil }
}

// ReadOnly makes the table refuse writes (READONLY).
func ReadOnly(on bool) TableOption {
	return func(t *TableDescriptor) error { t.ReadOnly = flagOf(on); return nil }
}

// CompactionEnabled allows or stops the compactions of the table's regions
// (COMPACTION_ENABLED).
func CompactionEnabled(on bool) TableOption {
	return func(t *TableDescriptor) error { t.CompactionEnabled = flagOf(on); return nil }
}

// SplitEnabled allows or stops the splits of the table's regions (SPLIT_ENABLED).
func SplitEnabled(on bool) TableOption {
	return func(t *TableDescriptor) error { t.SplitEnabled = flagOf(on); return nil }
}

// MergeEnabled allows or stops the merges of the table's regions (MERGE_ENABLED).
func MergeEnabled(on bool) TableOption {
	return func(t *TableDescriptor) error { t.MergeEnabled = flagOf(on); return nil }
}

// NormalizationEnabled has the region normalizer look at the table (NORMALIZATION_ENABLED).
func NormalizationEnabled(on bool) TableOption {
	return func(t *TableDescriptor) error { t.NormalizationEnabled = flagOf(on); return nil }
}

// TableDurability sets how the table's writes reach the write-ahead log (DURABILITY); a
// mutation's WithDurability overrides it.
func TableDurability(d Durability) TableOption {
	return func(t *TableDescriptor) error { t.Durability = d; return nil }
}

// RegionMemStoreReplication sets whether secondary replicas follow the primary's memstore
// (REGION_MEMSTORE_REPLICATION, on by default) or only its flushed files.
func RegionMemStoreReplication(on bool) TableOption {
	return func(t *TableDescriptor) error { t.RegionMemStoreReplication = flagOf(on); return nil }
}

// TablePriority sets the RPC priority the servers give the table's requests (PRIORITY).
func TablePriority(n int) TableOption {
	return func(t *TableDescriptor) error { t.Priority = n; return nil }
}

// Owner sets the table's OWNER attribute.
func Owner(user string) TableOption {
	return func(t *TableDescriptor) error { t.Owner = user; return nil }
}

// FlushPolicy sets the class choosing which stores of a region flush (FLUSH_POLICY).
func FlushPolicy(class string) TableOption {
	return func(t *TableDescriptor) error { t.FlushPolicy = class; return nil }
}

// SplitPolicy sets the table's RegionSplitPolicy class (SPLIT_POLICY).
func SplitPolicy(class string) TableOption {
	return func(t *TableDescriptor) error { t.SplitPolicy = class; return nil }
}

// NormalizerTarget sets the normalizer's targets for the table: a region count
// (NORMALIZER_TARGET_REGION_COUNT) or a region size in MB (NORMALIZER_TARGET_REGION_SIZE_MB);
// 0 leaves one unset.
func NormalizerTarget(regions int, sizeMB int64) TableOption {
	return func(t *TableDescriptor) error {
		t.NormalizerTargetRegionCount, t.NormalizerTargetRegionSizeMB = regions, sizeMB
		return nil
	}
}

// WithCoprocessor adds a coprocessor to the table.
func WithCoprocessor(c Coprocessor) TableOption {
	return func(t *TableDescriptor) error {
		if err := c.check(); err != nil {
			return err
		}
		c.Properties = maps.Clone(c.Properties)
		t.Coprocessors = append(t.Coprocessors, c)
		return nil
	}
}
