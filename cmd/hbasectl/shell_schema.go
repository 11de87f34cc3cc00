package main

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-hbase/hbase/hrpc"
)

// The shell's table and family descriptors: the keys of the hashes create and alter take,
// applied to the library's descriptors before anything is sent.

// familyBoolKeys are family attributes the Java builder stores as "true"/"false".
var familyBoolKeys = []string{"BLOCKCACHE", "CACHE_DATA_ON_WRITE", "CACHE_INDEX_ON_WRITE", "CACHE_BLOOMS_ON_WRITE",
	"EVICT_BLOCKS_ON_CLOSE", "PREFETCH_BLOCKS_ON_OPEN", "IS_MOB", "NEW_VERSION_BEHAVIOR"}

// familyIntKeys are family attributes stored as decimal numbers.
var familyIntKeys = []string{"REPLICATION_SCOPE", "MOB_THRESHOLD", "DFS_REPLICATION"}

// familyEnumKeys are family attributes stored as an upper-case word.
var familyEnumKeys = map[string][]string{
	"KEEP_DELETED_CELLS":   {"TRUE", "FALSE", "TTL"},
	"COMPRESSION_COMPACT":  {"NONE", "GZ", "SNAPPY", "LZ4", "LZO", "ZSTD", "BZIP2", "LZMA"},
	"IN_MEMORY_COMPACTION": {"NONE", "BASIC", "EAGER", "ADAPTIVE"},
	"STORAGE_POLICY":       {"HOT", "WARM", "COLD", "ALL_SSD", "ONE_SSD", "LAZY_PERSIST"},
}

// familyKeys are the keys a family hash takes.
func familyKeys() []string {
	keys := []string{"NAME", "METHOD", "VERSIONS", "MIN_VERSIONS", "TTL", "COMPRESSION", "BLOOMFILTER", "BLOCKSIZE",
		"IN_MEMORY", "DATA_BLOCK_ENCODING", "METADATA", "CONFIGURATION"}
	keys = append(keys, familyBoolKeys...)
	keys = append(keys, familyIntKeys...)
	for k := range familyEnumKeys {
		keys = append(keys, k)
	}
	return keys
}

// upperWord reads a string or constant value as an upper-case word from allowed.
func upperWord(v value, key string, allowed ...string) (string, error) {
	s, err := scalarText(v)
	if err != nil {
		return "", fmt.Errorf("%s: %v", key, err)
	}
	s = strings.ToUpper(s)
	for _, a := range allowed {
		if s == a {
			return s, nil
		}
	}
	return "", fmt.Errorf("%s: want one of %s, got %s", key, strings.Join(allowed, ", "), v.describe())
}

// intOrText reads a number given as a number or as a string of digits (the shell takes both).
func intOrText(v value, key string) (int64, error) {
	switch v.kind {
	case vInt:
		return v.i, nil
	case vString:
		n, err := strconv.ParseInt(strings.TrimSpace(v.s), 10, 64)
		if err == nil {
			return n, nil
		}
	}
	return 0, fmt.Errorf("%s: want a number, got %s", key, v.describe())
}

// applyFamily sets the keys of a family hash on f.
func applyFamily(f *hrpc.FamilyDescriptor, h value) error {
	if err := checkKeys("a column family", h, familyKeys()...); err != nil {
		return err
	}
	for _, e := range h.hash {
		if err := applyFamilyKey(f, e.key, e.val); err != nil {
			return err
		}
	}
	return nil
}

// applyFamilyKey sets one key of a family hash: the keys the descriptor has a field for
// go there, the others become family attributes as the Java builder stores them.
func applyFamilyKey(f *hrpc.FamilyDescriptor, k string, v value) error {
	switch k {
	case "NAME", "METHOD":
		// The caller has read them: they say which family, and what to do with it.
	case "VERSIONS", "MIN_VERSIONS", "BLOCKSIZE":
		return applyFamilyCount(f, k, v)
	case "TTL":
		return applyFamilyTTL(f, v)
	case "COMPRESSION":
		s, err := upperWord(v, k, "NONE", "GZ", "SNAPPY", "LZ4", "LZO", "ZSTD", "BZIP2", "LZMA")
		if err != nil {
			return err
		}
		f.Compression = hrpc.Compression(s)
	case "BLOOMFILTER":
		s, err := upperWord(v, k, "NONE", "ROW", "ROWCOL", "ROWPREFIX_FIXED_LENGTH")
		if err != nil {
			return err
		}
		f.BloomFilter = hrpc.BloomType(s)
	case "DATA_BLOCK_ENCODING":
		s, err := upperWord(v, k, "NONE", "PREFIX", "DIFF", "FAST_DIFF", "ROW_INDEX_V1")
		if err != nil {
			return err
		}
		f.Encoding = hrpc.Encoding(s)
	case "IN_MEMORY":
		b, err := boolVal(v, k)
		if err != nil {
			return err
		}
		f.InMemory = b
	case "METADATA":
		m, err := stringMap(v, k)
		if err != nil {
			return err
		}
		for mk, mv := range m {
			setFamilyAttr(f, mk, mv)
		}
	case "CONFIGURATION":
		m, err := stringMap(v, k)
		if err != nil {
			return err
		}
		if f.Configuration == nil {
			f.Configuration = map[string]string{}
		}
		for mk, mv := range m {
			f.Configuration[mk] = mv
		}
	default:
		return applyFamilyAttr(f, k, v)
	}
	return nil
}

// applyFamilyCount sets VERSIONS, MIN_VERSIONS or BLOCKSIZE, which the server keeps as
// Java ints.
func applyFamilyCount(f *hrpc.FamilyDescriptor, k string, v value) error {
	n, err := intOrText(v, k)
	if err != nil {
		return err
	}
	if n < 0 || n > 1<<31-1 || k == "VERSIONS" && n < 1 {
		return fmt.Errorf("%s: out of range: %d", k, n)
	}
	switch k {
	case "VERSIONS":
		f.MaxVersions = int(n)
	case "MIN_VERSIONS":
		f.MinVersions = int(n)
	default:
		f.BlockSize = int(n)
	}
	return nil
}

// applyFamilyTTL sets TTL from seconds or 'FOREVER' (no TTL).
func applyFamilyTTL(f *hrpc.FamilyDescriptor, v value) error {
	if s, err := scalarText(v); err == nil && strings.EqualFold(s, "FOREVER") {
		f.TTL = 0
		return nil
	}
	n, err := intOrText(v, "TTL")
	if err != nil {
		return fmt.Errorf("TTL: want seconds or 'FOREVER', got %s", v.describe())
	}
	if n < 1 || n > 1<<31-1 {
		return fmt.Errorf("TTL: want 1 to 2147483647 seconds, got %d", n)
	}
	f.TTL = time.Duration(n) * time.Second
	return nil
}

// applyFamilyAttr sets a key of familyBoolKeys, familyIntKeys or familyEnumKeys as a
// family attribute, written as the Java builder writes it.
func applyFamilyAttr(f *hrpc.FamilyDescriptor, k string, v value) error {
	switch {
	case contains(familyBoolKeys, k):
		b, err := boolVal(v, k)
		if err != nil {
			return err
		}
		setFamilyAttr(f, k, strconv.FormatBool(b))
	case contains(familyIntKeys, k):
		n, err := intOrText(v, k)
		if err != nil {
			return err
		}
		setFamilyAttr(f, k, strconv.FormatInt(n, 10))
	default:
		s, err := upperWord(v, k, familyEnumKeys[k]...)
		if err != nil {
			return err
		}
		setFamilyAttr(f, k, s)
	}
	return nil
}

func setFamilyAttr(f *hrpc.FamilyDescriptor, k, v string) {
	if f.Attributes == nil {
		f.Attributes = map[string]string{}
	}
	f.Attributes[k] = v
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// tableAttrKeys are table attributes the shell names, with how their value is written.
var tableAttrKeys = map[string]string{
	"MAX_FILESIZE": "int", "MEMSTORE_FLUSHSIZE": "int", "READONLY": "bool", "COMPACTION_ENABLED": "bool",
	"SPLIT_ENABLED": "bool", "MERGE_ENABLED": "bool", "NORMALIZATION_ENABLED": "bool",
	"NORMALIZER_TARGET_REGION_COUNT": "int", "NORMALIZER_TARGET_REGION_SIZE": "int", "NORMALIZER_TARGET_REGION_SIZE_MB": "int",
	"REGION_MEMSTORE_REPLICATION": "bool", "REGION_REPLICATION": "int", "PRIORITY": "int",
	"DURABILITY": "durability", "SPLIT_POLICY": "text", "FLUSH_POLICY": "text", "OWNER": "text",
}

// applyTableAttr sets a table attribute key of the shell on t.
func applyTableAttr(t *hrpc.TableDescriptor, k string, v value) error {
	set := func(s string) {
		if t.Attributes == nil {
			t.Attributes = map[string]string{}
		}
		t.Attributes[k] = s
	}
	switch k {
	case "METADATA":
		m, err := stringMap(v, k)
		if err != nil {
			return err
		}
		for mk, mv := range m {
			if t.Attributes == nil {
				t.Attributes = map[string]string{}
			}
			t.Attributes[mk] = mv
		}
		return nil
	case "CONFIGURATION":
		m, err := stringMap(v, k)
		if err != nil {
			return err
		}
		if t.Configuration == nil {
			t.Configuration = map[string]string{}
		}
		for mk, mv := range m {
			t.Configuration[mk] = mv
		}
		return nil
	}
	switch tableAttrKeys[k] {
	case "int":
		n, err := intOrText(v, k)
		if err != nil {
			return err
		}
		if n < 0 {
			return fmt.Errorf("%s: must not be negative, got %d", k, n)
		}
		set(strconv.FormatInt(n, 10))
	case "bool":
		b, err := boolVal(v, k)
		if err != nil {
			return err
		}
		set(strconv.FormatBool(b))
	case "durability":
		s, err := upperWord(v, k, "USE_DEFAULT", "SKIP_WAL", "ASYNC_WAL", "SYNC_WAL", "FSYNC_WAL")
		if err != nil {
			return err
		}
		set(s)
	case "text":
		s, err := scalarText(v)
		if err != nil {
			return fmt.Errorf("%s: %v", k, err)
		}
		set(s)
	default:
		return fmt.Errorf("unknown table attribute %s", k)
	}
	return nil
}

// createSpec is what create reads: the descriptor and how to pre-split.
type createSpec struct {
	desc *hrpc.TableDescriptor
	opts []hrpc.CreateTableOption
}

// readCreate reads create's arguments: the name, families as names or hashes, and table
// options (SPLITS, SPLITS_FILE, NUMREGIONS with SPLITALGO, attributes) in any hash.
func readCreate(args []value) (*createSpec, error) {
	table, err := tableName(args, 0)
	if err != nil {
		return nil, err
	}
	desc := &hrpc.TableDescriptor{Name: table}
	var split createSplit
	for _, a := range args[1:] {
		if err := readCreateArg(desc, &split, a); err != nil {
			return nil, err
		}
	}
	if len(desc.Families) == 0 {
		return nil, fmt.Errorf("a table needs at least one column family: create 't', 'f'")
	}
	if err := split.checkKeys(); err != nil {
		return nil, err
	}
	opts, err := split.options()
	if err != nil {
		return nil, err
	}
	if err := checkCreateNames(desc); err != nil {
		return nil, err
	}
	return &createSpec{desc: desc, opts: opts}, nil
}

// createSplit is how create is asked to pre-split: split keys (SPLITS, SPLITS_FILE) or a
// region count and algorithm (NUMREGIONS, SPLITALGO).
type createSplit struct {
	keys       [][]byte
	numRegions int
	algo       string
}

// readCreateArg reads one argument of create after the table name: a family name, a family
// hash (one with NAME), or a hash of table options.
func readCreateArg(desc *hrpc.TableDescriptor, split *createSplit, a value) error {
	switch a.kind {
	case vString:
		if desc.Family(a.s) != nil {
			return fmt.Errorf("family %s is given twice", quoteShell(a.s))
		}
		desc.Families = append(desc.Families, hrpc.FamilyDescriptor{Name: a.s})
		return nil
	case vHash:
	default:
		return fmt.Errorf("want a family name or a hash, got %s", a.describe())
	}
	if nv, ok := a.get("NAME"); ok {
		return addCreateFamily(desc, nv, a)
	}
	for _, e := range a.hash {
		if err := readCreateOption(desc, split, e.key, e.val); err != nil {
			return err
		}
	}
	return nil
}

// addCreateFamily adds the family of hash h, whose NAME is nv.
func addCreateFamily(desc *hrpc.TableDescriptor, nv, h value) error {
	name, err := strVal(nv, "NAME")
	if err != nil {
		return err
	}
	if desc.Family(name) != nil {
		return fmt.Errorf("family %s is given twice", quoteShell(name))
	}
	f := hrpc.FamilyDescriptor{Name: name}
	if err := applyFamily(&f, h); err != nil {
		return fmt.Errorf("family %s: %v", quoteShell(name), err)
	}
	desc.Families = append(desc.Families, f)
	return nil
}

// readCreateOption reads one key of a hash of table options: a way to pre-split, or a
// table attribute.
func readCreateOption(desc *hrpc.TableDescriptor, split *createSplit, k string, v value) error {
	switch k {
	case "SPLITS":
		ks, err := strList(v, "SPLITS")
		if err != nil {
			return err
		}
		for _, key := range ks {
			split.keys = append(split.keys, []byte(key))
		}
	case "SPLITS_FILE":
		return split.readKeysFile(v)
	case "NUMREGIONS":
		n, err := intVal(v, "NUMREGIONS")
		if err != nil {
			return err
		}
		if n < 2 || n > 1<<20 {
			return fmt.Errorf("NUMREGIONS: want 2 or more, got %d", n)
		}
		split.numRegions = int(n)
	case "SPLITALGO":
		s, err := strVal(v, "SPLITALGO")
		if err != nil {
			return err
		}
		split.algo = s
	default:
		if _, ok := tableAttrKeys[k]; !ok && k != "METADATA" && k != "CONFIGURATION" {
			return fmt.Errorf("create does not take %s (family options go in a hash with NAME)", k)
		}
		return applyTableAttr(desc, k, v)
	}
	return nil
}

// readKeysFile adds the split keys of SPLITS_FILE: one a line, blank lines skipped.
func (split *createSplit) readKeysFile(v value) error {
	path, err := strVal(v, "SPLITS_FILE")
	if err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("SPLITS_FILE: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			split.keys = append(split.keys, []byte(line))
		}
	}
	return nil
}

// checkKeys refuses an empty or repeated split key here, with the key in the message,
// rather than leave it to the server.
func (split *createSplit) checkKeys() error {
	seen := map[string]bool{}
	for _, k := range split.keys {
		switch {
		case len(k) == 0:
			return fmt.Errorf("SPLITS: an empty split key (the first region starts at the empty key already)")
		case seen[string(k)]:
			return fmt.Errorf("SPLITS: the split key %s is given twice", quoteShell(string(k)))
		}
		seen[string(k)] = true
	}
	return nil
}

// options are the create options that pre-split the table as asked.
func (split *createSplit) options() ([]hrpc.CreateTableOption, error) {
	switch {
	case len(split.keys) > 0 && split.numRegions > 0:
		return nil, fmt.Errorf("SPLITS and NUMREGIONS do not go together")
	case len(split.keys) > 0:
		return []hrpc.CreateTableOption{hrpc.SplitKeys(split.keys...)}, nil
	case split.numRegions > 0:
		switch split.algo {
		case "HexStringSplit", "org.apache.hadoop.hbase.util.RegionSplitter.HexStringSplit":
			return []hrpc.CreateTableOption{hrpc.HexStringSplits(split.numRegions)}, nil
		case "UniformSplit", "org.apache.hadoop.hbase.util.RegionSplitter.UniformSplit":
			return []hrpc.CreateTableOption{hrpc.SplitKeys(uniformSplitKeys(split.numRegions)...)}, nil
		case "":
			return nil, fmt.Errorf("NUMREGIONS needs SPLITALGO => 'HexStringSplit' or 'UniformSplit'")
		default:
			return nil, fmt.Errorf("SPLITALGO: want 'HexStringSplit' or 'UniformSplit', got %s", quoteShell(split.algo))
		}
	case split.algo != "":
		return nil, fmt.Errorf("SPLITALGO needs NUMREGIONS")
	}
	return nil, nil
}

// checkCreateNames lets the library check the table and family names before anything is
// sent, so that create refuses them with the library's own errors.
func checkCreateNames(desc *hrpc.TableDescriptor) error {
	var topts []hrpc.TableOption
	for _, f := range desc.Families {
		topts = append(topts, hrpc.WithFamily(f.Name))
	}
	if _, err := hrpc.NewTableDescriptor(desc.Name, topts...); err != nil {
		return err
	}
	for i := range desc.Families {
		if _, err := hrpc.NewFamily(desc.Families[i].Name); err != nil {
			return err
		}
	}
	return nil
}

// uniformSplitKeys are the split keys of HBase's UniformSplit for n regions, as the shell
// makes them: key i is i times 2^64/n (rounded down), as 8 bytes. hrpc.UniformSplits rounds
// the step up and trims trailing zero bytes, which gives other keys (the corpus test found
// it), so the shell's command computes them itself.
func uniformSplitKeys(n int) [][]byte {
	step := new(big.Int).Div(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(int64(n)))
	keys := make([][]byte, 0, n-1)
	for i := 1; i < n; i++ {
		k := new(big.Int).Mul(step, big.NewInt(int64(i)))
		keys = append(keys, binary.BigEndian.AppendUint64(nil, k.Uint64()))
	}
	return keys
}
