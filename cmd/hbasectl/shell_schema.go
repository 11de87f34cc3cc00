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
	setAttr := func(k, v string) {
		if f.Attributes == nil {
			f.Attributes = map[string]string{}
		}
		f.Attributes[k] = v
	}
	for _, e := range h.hash {
		k, v := e.key, e.val
		switch k {
		case "NAME", "METHOD":
		case "VERSIONS", "MIN_VERSIONS", "BLOCKSIZE":
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
		case "TTL":
			if s, err := scalarText(v); err == nil && strings.EqualFold(s, "FOREVER") {
				f.TTL = 0
				continue
			}
			n, err := intOrText(v, k)
			if err != nil {
				return fmt.Errorf("TTL: want seconds or 'FOREVER', got %s", v.describe())
			}
			if n < 1 || n > 1<<31-1 {
				return fmt.Errorf("TTL: want 1 to 2147483647 seconds, got %d", n)
			}
			f.TTL = time.Duration(n) * time.Second
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
				setAttr(mk, mv)
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
			switch {
			case contains(familyBoolKeys, k):
				b, err := boolVal(v, k)
				if err != nil {
					return err
				}
				setAttr(k, strconv.FormatBool(b))
			case contains(familyIntKeys, k):
				n, err := intOrText(v, k)
				if err != nil {
					return err
				}
				setAttr(k, strconv.FormatInt(n, 10))
			default:
				s, err := upperWord(v, k, familyEnumKeys[k]...)
				if err != nil {
					return err
				}
				setAttr(k, s)
			}
		}
	}
	return nil
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
	var splits [][]byte
	numRegions, algo := 0, ""
	for _, a := range args[1:] {
		switch a.kind {
		case vString:
			if desc.Family(a.s) != nil {
				return nil, fmt.Errorf("family %s is given twice", quoteShell(a.s))
			}
			desc.Families = append(desc.Families, hrpc.FamilyDescriptor{Name: a.s})
			continue
		case vHash:
		default:
			return nil, fmt.Errorf("want a family name or a hash, got %s", a.describe())
		}
		if nv, ok := a.get("NAME"); ok {
			name, err := strVal(nv, "NAME")
			if err != nil {
				return nil, err
			}
			if desc.Family(name) != nil {
				return nil, fmt.Errorf("family %s is given twice", quoteShell(name))
			}
			f := hrpc.FamilyDescriptor{Name: name}
			if err := applyFamily(&f, a); err != nil {
				return nil, fmt.Errorf("family %s: %v", quoteShell(name), err)
			}
			desc.Families = append(desc.Families, f)
			continue
		}
		for _, e := range a.hash {
			switch e.key {
			case "SPLITS":
				ks, err := strList(e.val, "SPLITS")
				if err != nil {
					return nil, err
				}
				for _, k := range ks {
					splits = append(splits, []byte(k))
				}
			case "SPLITS_FILE":
				path, err := strVal(e.val, "SPLITS_FILE")
				if err != nil {
					return nil, err
				}
				data, err := os.ReadFile(path)
				if err != nil {
					return nil, fmt.Errorf("SPLITS_FILE: %v", err)
				}
				for _, line := range strings.Split(string(data), "\n") {
					if line = strings.TrimSpace(line); line != "" {
						splits = append(splits, []byte(line))
					}
				}
			case "NUMREGIONS":
				n, err := intVal(e.val, "NUMREGIONS")
				if err != nil {
					return nil, err
				}
				if n < 2 || n > 1<<20 {
					return nil, fmt.Errorf("NUMREGIONS: want 2 or more, got %d", n)
				}
				numRegions = int(n)
			case "SPLITALGO":
				s, err := strVal(e.val, "SPLITALGO")
				if err != nil {
					return nil, err
				}
				algo = s
			default:
				if _, ok := tableAttrKeys[e.key]; !ok && e.key != "METADATA" && e.key != "CONFIGURATION" {
					return nil, fmt.Errorf("create does not take %s (family options go in a hash with NAME)", e.key)
				}
				if err := applyTableAttr(desc, e.key, e.val); err != nil {
					return nil, err
				}
			}
		}
	}
	if len(desc.Families) == 0 {
		return nil, fmt.Errorf("a table needs at least one column family: create 't', 'f'")
	}
	seen := map[string]bool{}
	for _, k := range splits {
		switch {
		case len(k) == 0:
			return nil, fmt.Errorf("SPLITS: an empty split key (the first region starts at the empty key already)")
		case seen[string(k)]:
			return nil, fmt.Errorf("SPLITS: the split key %s is given twice", quoteShell(string(k)))
		}
		seen[string(k)] = true
	}
	spec := &createSpec{desc: desc}
	switch {
	case len(splits) > 0 && numRegions > 0:
		return nil, fmt.Errorf("SPLITS and NUMREGIONS do not go together")
	case len(splits) > 0:
		spec.opts = append(spec.opts, hrpc.SplitKeys(splits...))
	case numRegions > 0:
		switch algo {
		case "HexStringSplit", "org.apache.hadoop.hbase.util.RegionSplitter.HexStringSplit":
			spec.opts = append(spec.opts, hrpc.HexStringSplits(numRegions))
		case "UniformSplit", "org.apache.hadoop.hbase.util.RegionSplitter.UniformSplit":
			spec.opts = append(spec.opts, hrpc.SplitKeys(uniformSplitKeys(numRegions)...))
		case "":
			return nil, fmt.Errorf("NUMREGIONS needs SPLITALGO => 'HexStringSplit' or 'UniformSplit'")
		default:
			return nil, fmt.Errorf("SPLITALGO: want 'HexStringSplit' or 'UniformSplit', got %s", quoteShell(algo))
		}
	case algo != "":
		return nil, fmt.Errorf("SPLITALGO needs NUMREGIONS")
	}
	// Let the library check the names and values.
	var topts []hrpc.TableOption
	for _, f := range desc.Families {
		topts = append(topts, hrpc.WithFamily(f.Name))
	}
	if _, err := hrpc.NewTableDescriptor(table, topts...); err != nil {
		return nil, err
	}
	for i := range desc.Families {
		if _, err := hrpc.NewFamily(desc.Families[i].Name); err != nil {
			return nil, err
		}
	}
	return spec, nil
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
