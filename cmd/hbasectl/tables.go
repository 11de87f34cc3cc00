package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hrpc"
)

// admin returns the client's Admin, connecting first.
func (c *cli) admin(ctx context.Context) (*admin.Admin, error) {
	client, err := c.connect(ctx)
	if err != nil {
		return nil, err
	}
	return admin.New(client), nil
}

// adminWithTimeout returns the client's Admin, connecting first, and ctx bounded by -timeout
// for the command's calls.
func (c *cli) adminWithTimeout(ctx context.Context) (*admin.Admin, context.Context, context.CancelFunc, error) {
	admin, err := c.admin(ctx)
	if err != nil {
		return nil, ctx, func() {}, err
	}
	ctx, cancel := c.withTimeout(ctx)
	return admin, ctx, cancel, nil
}

// disableIfEnabled disables table unless it is disabled already, and says whether it did.
func disableIfEnabled(ctx context.Context, admin *admin.Admin, table string) (bool, error) {
	enabled, err := admin.TableEnabled(ctx, table)
	if err != nil || !enabled {
		return false, err
	}
	return true, admin.DisableTable(ctx, table)
}

// listResult is what list prints.
type listResult struct {
	Tables []string `json:"tables"`
}

func (r *listResult) writeText(w io.Writer) error {
	rows := make([][]string, len(r.Tables))
	for i, t := range r.Tables {
		rows[i] = []string{t}
	}
	if err := writeTable(w, []string{"TABLE"}, rows); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, plural(int64(len(r.Tables)), "table"))
	return err
}

func listCmd() *command {
	return &command{
		name: "list", args: "", summary: "list tables", minArgs: 0, maxArgs: 0,
		setup: func(fs *flag.FlagSet) runFunc {
			regex := fs.String("regex", "", "only tables whose full name matches this (Java) regular expression")
			ns := fs.String("namespace", "", "only tables of this namespace")
			system := fs.Bool("system", false, "include the system tables (hbase:meta, hbase:namespace ...)")
			return func(ctx context.Context, c *cli, _ []string) error {
				var opts []hrpc.ListTablesOption
				if *regex != "" {
					opts = append(opts, hrpc.TableRegex(*regex))
				}
				if *ns != "" {
					opts = append(opts, hrpc.InNamespace(*ns))
				}
				if *system {
					opts = append(opts, hrpc.IncludeSystemTables())
				}
				admin, ctx, cancel, err := c.adminWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				tables, err := admin.ListTables(ctx, opts...)
				if err != nil {
					return err
				}
				if tables == nil {
					tables = []string{}
				}
				return c.emit(&listResult{Tables: tables})
			}
		},
	}
}

// familyOut is a column family in describe's output.
type familyOut struct {
	Name        string            `json:"name"`
	Versions    int               `json:"versions"`
	MinVersions int               `json:"min_versions"`
	TTLSeconds  int64             `json:"ttl_seconds"` // 0: forever
	Compression string            `json:"compression"`
	BloomFilter string            `json:"bloom_filter"`
	BlockSize   int               `json:"block_size"`
	InMemory    bool              `json:"in_memory"`
	Encoding    string            `json:"encoding"`
	Attributes  map[string]string `json:"attributes,omitempty"`
}

func familyOf(f *hrpc.FamilyDescriptor) familyOut {
	other := f.AllAttributes() // the attributes the columns do not show
	for _, k := range []string{"VERSIONS", "MIN_VERSIONS", "TTL", "COMPRESSION", "BLOOMFILTER", "BLOCKSIZE", "IN_MEMORY", "DATA_BLOCK_ENCODING"} {
		delete(other, k)
	}
	return familyOut{
		Name: f.Name, Versions: f.MaxVersions, MinVersions: f.MinVersions, TTLSeconds: int64(f.TTL / time.Second),
		Compression: string(f.Compression), BloomFilter: string(f.BloomFilter), BlockSize: f.BlockSize,
		InMemory: f.InMemory, Encoding: string(f.Encoding), Attributes: other,
	}
}

// regionOut is a region of a table in the output.
type regionOut struct {
	Name    string `json:"name"`
	Encoded string `json:"encoded"`
	Start   string `json:"start"`
	End     string `json:"end"`
	Server  string `json:"server"` // host:port; empty when not assigned
}

func regionsOf(regions []*hrpc.Region) []regionOut {
	out := make([]regionOut, len(regions))
	for i, r := range regions {
		out[i] = regionOut{Name: formatBinary(r.Name), Encoded: r.Encoded, Start: formatBinary(r.Start), End: formatBinary(r.End)}
		if r.Server.Host != "" {
			out[i].Server = r.Server.Addr()
		}
	}
	return out
}

func writeRegions(w io.Writer, regions []regionOut) error {
	rows := make([][]string, len(regions))
	for i, r := range regions {
		rows[i] = []string{r.Encoded, orDash(r.Start), orDash(r.End), orDash(r.Server)}
	}
	return writeTable(w, []string{"REGION", "START", "END", "SERVER"}, rows)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// describeResult is what describe prints.
type describeResult struct {
	Table         string            `json:"table"`
	Enabled       bool              `json:"enabled"`
	Families      []familyOut       `json:"families"`
	Attributes    map[string]string `json:"attributes,omitempty"`
	Configuration map[string]string `json:"configuration,omitempty"`
	Regions       []regionOut       `json:"regions"`
}

func (r *describeResult) writeText(w io.Writer) error {
	state := "disabled"
	if r.Enabled {
		state = "enabled"
	}
	fmt.Fprintf(w, "%s: %s, %s\n", r.Table, state, plural(int64(len(r.Regions)), "region"))
	for _, m := range []map[string]string{r.Attributes, r.Configuration} {
		for _, k := range sortedKeys(m) {
			fmt.Fprintf(w, "  %s => %s\n", k, m[k])
		}
	}
	fmt.Fprintln(w)
	rows := make([][]string, len(r.Families))
	for i, f := range r.Families {
		ttl := "FOREVER"
		if f.TTLSeconds > 0 {
			ttl = (time.Duration(f.TTLSeconds) * time.Second).String()
		}
		var attrs []string
		for _, k := range sortedKeys(f.Attributes) {
			attrs = append(attrs, k+"="+f.Attributes[k])
		}
		rows[i] = []string{f.Name, strconv.Itoa(f.Versions), strconv.Itoa(f.MinVersions), ttl, f.Compression, f.BloomFilter,
			strconv.Itoa(f.BlockSize), strconv.FormatBool(f.InMemory), f.Encoding, orDash(strings.Join(attrs, ","))}
	}
	if err := writeTable(w, []string{"FAMILY", "VERSIONS", "MIN_VERSIONS", "TTL", "COMPRESSION", "BLOOM", "BLOCKSIZE", "IN_MEMORY", "ENCODING", "OTHER"}, rows); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return writeRegions(w, r.Regions)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func describeCmd() *command {
	return &command{
		name: "describe", args: "<table>", summary: "show a table's state, families with their settings, and regions", minArgs: 1, maxArgs: 1,
		setup: func(fs *flag.FlagSet) runFunc {
			return func(ctx context.Context, c *cli, args []string) error {
				admin, ctx, cancel, err := c.adminWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				return describe(ctx, c, admin, args[0])
			}
		},
	}
}

func describe(ctx context.Context, c *cli, admin *admin.Admin, table string) error {
	desc, err := admin.DescribeTable(ctx, table)
	if err != nil {
		return err
	}
	enabled, err := admin.TableEnabled(ctx, table)
	if err != nil {
		return err
	}
	regions, err := admin.Regions(ctx, table)
	if err != nil {
		return err
	}
	out := &describeResult{Table: desc.Name, Enabled: enabled, Attributes: desc.AllAttributes(), Configuration: desc.Configuration, Regions: regionsOf(regions)}
	for i := range desc.Families {
		out.Families = append(out.Families, familyOf(&desc.Families[i]))
	}
	return c.emit(out)
}

// splitsFlag collects -split keys, repeatable.
type splitsFlag [][]byte

func (f *splitsFlag) String() string { return "" }

func (f *splitsFlag) Set(v string) error {
	b, err := parseBinary(v)
	if err != nil {
		return err
	}
	if len(b) == 0 {
		return errors.New("empty split key")
	}
	*f = append(*f, b)
	return nil
}

func createCmd() *command {
	return &command{
		name: "create", args: "<table> <family>[,<family>...]",
		summary: "create a table; the family flags apply to every family", minArgs: 2, maxArgs: 2,
		setup: func(fs *flag.FlagSet) runFunc {
			versions := fs.Int("versions", 0, "versions kept of each cell (default HBase's, 1)")
			minVersions := fs.Int("min-versions", 0, "versions kept even past the TTL")
			ttl := fs.Duration("ttl", 0, "time to live of cells, whole seconds (0: forever)")
			compression := fs.String("compression", "", "NONE, GZ, SNAPPY, LZ4, LZO, ZSTD, BZIP2 or LZMA (the servers need the codec)")
			bloom := fs.String("bloom", "", "bloom filter: NONE, ROW, ROWCOL or ROWPREFIX_FIXED_LENGTH (default ROW)")
			blockSize := fs.Int("blocksize", 0, "HFile block size in bytes (default 65536)")
			inMemory := fs.Bool("in-memory", false, "favour the families' blocks in the block cache")
			encoding := fs.String("encoding", "", "data block encoding: NONE, PREFIX, DIFF, FAST_DIFF or ROW_INDEX_V1")
			var splits splitsFlag
			fs.Var(&splits, "split", "pre-split at this key, repeatable")
			regions := fs.Int("regions", 0, "pre-split into this many regions by -algo (instead of -split)")
			algo := fs.String("algo", "hex", "with -regions: hex (keys starting with 8 hex digits, HexStringSplit) or uniform (random bytes, UniformSplit)")
			return func(ctx context.Context, c *cli, args []string) error {
				var fopts []hrpc.FamilyOption
				if *versions != 0 {
					fopts = append(fopts, hrpc.Versions(*versions))
				}
				if *minVersions != 0 {
					fopts = append(fopts, hrpc.MinVersions(*minVersions))
				}
				if *ttl != 0 {
					fopts = append(fopts, hrpc.TTL(*ttl))
				}
				if *compression != "" {
					fopts = append(fopts, hrpc.Compress(hrpc.Compression(strings.ToUpper(*compression))))
				}
				if *bloom != "" {
					fopts = append(fopts, hrpc.Bloom(hrpc.BloomType(strings.ToUpper(*bloom))))
				}
				if *blockSize != 0 {
					fopts = append(fopts, hrpc.BlockSize(*blockSize))
				}
				if *inMemory {
					fopts = append(fopts, hrpc.InMemory(true))
				}
				if *encoding != "" {
					fopts = append(fopts, hrpc.BlockEncoding(hrpc.Encoding(strings.ToUpper(*encoding))))
				}
				var topts []hrpc.TableOption
				for _, fam := range strings.Split(args[1], ",") {
					topts = append(topts, hrpc.WithFamily(fam, fopts...))
				}
				desc, err := hrpc.NewTableDescriptor(args[0], topts...)
				if err != nil {
					return usagef("create: %v", err)
				}
				var copts []hrpc.CreateTableOption
				switch {
				case len(splits) > 0 && *regions != 0:
					return usagef("create: -split and -regions do not go together")
				case len(splits) > 0:
					copts = append(copts, hrpc.SplitKeys(splits...))
				case *regions < 0 || *regions == 1:
					return usagef("create: -regions: want 2 or more, got %d", *regions)
				case *regions > 1 && *algo == "hex":
					copts = append(copts, hrpc.HexStringSplits(*regions))
				case *regions > 1 && *algo == "uniform":
					copts = append(copts, hrpc.UniformSplits(*regions))
				case *regions > 1:
					return usagef("create: -algo: want hex or uniform, got %q", *algo)
				}
				admin, ctx, cancel, err := c.adminWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				if err := admin.CreateTable(ctx, desc, copts...); err != nil {
					return err
				}
				return describe(ctx, c, admin, args[0])
			}
		},
	}
}

// dropResult is what drop prints.
type dropResult struct {
	Table    string `json:"table"`
	Disabled bool   `json:"disabled"` // drop disabled it first
	Dropped  bool   `json:"dropped"`
}

func (r *dropResult) writeText(w io.Writer) error {
	return writeTable(w, []string{"TABLE", "DISABLED", "DROPPED"}, [][]string{{r.Table, strconv.FormatBool(r.Disabled), strconv.FormatBool(r.Dropped)}})
}

func dropCmd() *command {
	return &command{
		name: "drop", args: "<table>", summary: "disable (when enabled) and delete a table with its data", minArgs: 1, maxArgs: 1,
		setup: func(fs *flag.FlagSet) runFunc {
			return func(ctx context.Context, c *cli, args []string) error {
				admin, ctx, cancel, err := c.adminWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				out := &dropResult{Table: args[0]}
				if out.Disabled, err = disableIfEnabled(ctx, admin, args[0]); err != nil {
					return err
				}
				if err := admin.DeleteTable(ctx, args[0]); err != nil {
					return err
				}
				out.Dropped = true
				return c.emit(out)
			}
		},
	}
}
