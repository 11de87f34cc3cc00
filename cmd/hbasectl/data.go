package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/go-hbase/hbase/hrpc"
)

// cellOut is one cell in the output; byte strings as formatBinary writes them.
type cellOut struct {
	Row       string `json:"row"`
	Family    string `json:"family"`
	Qualifier string `json:"qualifier"`
	Timestamp int64  `json:"timestamp"` // milliseconds since the epoch
	Value     string `json:"value"`
}

// cellsResult is what get and scan print.
type cellsResult struct {
	Table string    `json:"table"`
	Rows  int64     `json:"rows"`
	Cells []cellOut `json:"cells"`
	// More is set when -limit stopped the scan before the end of its range.
	More bool `json:"more,omitempty"`
	// Limit is the -limit that was reached (with More).
	Limit int `json:"limit,omitempty"`
}

func (r *cellsResult) add(res *hrpc.Result) {
	r.Rows++
	for _, cell := range res.Cells {
		r.Cells = append(r.Cells, cellOut{
			Row: formatBinary(cell.Row), Family: formatBinary(cell.Family), Qualifier: formatBinary(cell.Qualifier),
			Timestamp: int64(cell.Timestamp), Value: formatBinary(cell.Value),
		})
	}
}

func (r *cellsResult) writeText(w io.Writer) error {
	rows := make([][]string, len(r.Cells))
	for i, cell := range r.Cells {
		rows[i] = []string{cell.Row, cell.Family + ":" + cell.Qualifier, formatMillis(cell.Timestamp), cell.Value}
	}
	if len(rows) > 0 {
		if err := writeTable(w, []string{"ROW", "COLUMN", "TIMESTAMP", "VALUE"}, rows); err != nil {
			return err
		}
	}
	more := ""
	if r.More {
		more = fmt.Sprintf(" (stopped at -limit %d; there are more)", r.Limit)
	}
	_, err := fmt.Fprintf(w, "%s%s\n", plural(r.Rows, "row"), more)
	return err
}

// columnsFlag collects -column family or family:qualifier, repeatable.
type columnsFlag []column

type column struct {
	family, qualifier []byte // qualifier nil: the whole family
}

func (f *columnsFlag) String() string { return "" }

func (f *columnsFlag) Set(v string) error {
	col, err := parseColumn(v, false)
	if err != nil {
		return err
	}
	*f = append(*f, col)
	return nil
}

// parseColumn reads family or family:qualifier (family:qualifier only, with needQualifier).
func parseColumn(v string, needQualifier bool) (column, error) {
	fam, qual, hasQual := cutColon(v)
	if fam == "" || needQualifier && !hasQual {
		if needQualifier {
			return column{}, fmt.Errorf("want family:qualifier, got %q", v)
		}
		return column{}, fmt.Errorf("want family or family:qualifier, got %q", v)
	}
	f, err := parseBinary(fam)
	if err != nil {
		return column{}, err
	}
	col := column{family: f}
	if hasQual {
		if col.qualifier, err = parseBinary(qual); err != nil {
			return column{}, err
		}
	}
	return col, nil
}

// cutColon splits at the first colon (family names have none; qualifiers may).
func cutColon(v string) (string, string, bool) {
	for i := 0; i < len(v); i++ {
		if v[i] == ':' {
			return v[:i], v[i+1:], true
		}
	}
	return v, "", false
}

// readOptions turns -column and -versions into the options of a Get or a Scan.
func readOptions(cols columnsFlag, versions int) []hrpc.ReadOption {
	var opts []hrpc.ReadOption
	for _, col := range cols {
		if col.qualifier == nil {
			opts = append(opts, hrpc.Families(col.family))
		} else {
			opts = append(opts, hrpc.Columns(col.family, col.qualifier))
		}
	}
	if versions != 1 {
		opts = append(opts, hrpc.MaxVersions(versions))
	}
	return opts
}

func binaryArg(what, v string) ([]byte, error) {
	b, err := parseBinary(v)
	if err != nil {
		return nil, usagef("%s: %v", what, err)
	}
	return b, nil
}

func getCmd() *command {
	return &command{
		name: "get", args: "<table> <row>", summary: "read one row", minArgs: 2, maxArgs: 2,
		setup: func(fs *flag.FlagSet) runFunc {
			var cols columnsFlag
			fs.Var(&cols, "column", "family or family:qualifier to read, repeatable (default: every column)")
			versions := fs.Int("versions", 1, "versions of each cell to read")
			return func(ctx context.Context, c *cli, args []string) error {
				row, err := binaryArg("row", args[1])
				if err != nil {
					return err
				}
				var opts []hrpc.GetOption
				for _, o := range readOptions(cols, *versions) {
					opts = append(opts, o)
				}
				get, err := hrpc.NewGet(args[0], row, opts...)
				if err != nil {
					return usagef("get: %v", err)
				}
				client, ctx, cancel, err := c.clientWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				res, err := client.Get(ctx, get)
				if err != nil {
					return err
				}
				out := &cellsResult{Table: args[0], Cells: []cellOut{}}
				if len(res.Cells) > 0 {
					out.add(res)
				}
				return c.emit(out)
			}
		},
	}
}

// putResult is what put prints.
type putResult struct {
	Table string `json:"table"`
	Row   string `json:"row"`
	Cells int    `json:"cells"`
}

func (r *putResult) writeText(w io.Writer) error {
	return writeTable(w, []string{"TABLE", "ROW", "CELLS"}, [][]string{{r.Table, r.Row, strconv.Itoa(r.Cells)}})
}

func putCmd() *command {
	return &command{
		name: "put", args: "<table> <row> <family:qualifier> <value> [...]",
		summary: "write cells of one row (atomically)", minArgs: 4, maxArgs: -1,
		setup: func(fs *flag.FlagSet) runFunc {
			ts := fs.Int64("ts", 0, "timestamp of the cells in milliseconds (default: the server's time)")
			return func(ctx context.Context, c *cli, args []string) error {
				if len(args)%2 != 0 {
					return usagef("put: %q has no value: want family:qualifier value pairs after the row", args[len(args)-1])
				}
				if *ts < 0 {
					return usagef("put: -ts must not be negative, got %d", *ts)
				}
				row, err := binaryArg("row", args[1])
				if err != nil {
					return err
				}
				var opts []hrpc.PutOption
				for i := 2; i < len(args); i += 2 {
					col, err := parseColumn(args[i], true)
					if err != nil {
						return usagef("put: %v", err)
					}
					val, err := binaryArg("value", args[i+1])
					if err != nil {
						return err
					}
					if *ts > 0 {
						opts = append(opts, hrpc.ValueAt(col.family, col.qualifier, uint64(*ts), val))
					} else {
						opts = append(opts, hrpc.Value(col.family, col.qualifier, val))
					}
				}
				put, err := hrpc.NewPut(args[0], row, opts...)
				if err != nil {
					return usagef("put: %v", err)
				}
				client, ctx, cancel, err := c.clientWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				if _, err := client.Put(ctx, put); err != nil {
					return err
				}
				return c.emit(&putResult{Table: args[0], Row: formatBinary(row), Cells: len(opts)})
			}
		},
	}
}

// rangeFlags are the row range of scan and count.
type rangeFlags struct {
	start, stop, prefix string
}

func (r *rangeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.start, "start", "", "first row (inclusive)")
	fs.StringVar(&r.stop, "stop", "", "row to stop before (exclusive)")
	fs.StringVar(&r.prefix, "prefix", "", "only rows starting with this prefix")
}

func (r *rangeFlags) options() ([]hrpc.ScanOption, error) {
	var opts []hrpc.ScanOption
	for _, f := range []struct {
		name, v string
		opt     func([]byte) hrpc.ScanOption
	}{{"-start", r.start, hrpc.StartRow}, {"-stop", r.stop, hrpc.StopRow}, {"-prefix", r.prefix, hrpc.Prefix}} {
		if f.v == "" {
			continue
		}
		b, err := binaryArg(f.name, f.v)
		if err != nil {
			return nil, err
		}
		opts = append(opts, f.opt(b))
	}
	return opts, nil
}

func scanCmd() *command {
	return &command{
		name: "scan", args: "<table>", summary: "read rows in key order, at most -limit", minArgs: 1, maxArgs: 1,
		setup: func(fs *flag.FlagSet) runFunc {
			var rng rangeFlags
			rng.register(fs)
			var cols columnsFlag
			fs.Var(&cols, "column", "family or family:qualifier to read, repeatable (default: every column)")
			versions := fs.Int("versions", 1, "versions of each cell to read")
			limit := fs.Int("limit", 100, "rows to print at most (0: every row of the range)")
			reverse := fs.Bool("reverse", false, "scan backwards, from -start down to -stop")
			return func(ctx context.Context, c *cli, args []string) error {
				if *limit < 0 {
					return usagef("scan: -limit must not be negative, got %d", *limit)
				}
				opts, err := rng.options()
				if err != nil {
					return err
				}
				for _, o := range readOptions(cols, *versions) {
					opts = append(opts, o)
				}
				if *limit > 0 {
					// One row more than printed says whether the range holds more.
					opts = append(opts, hrpc.Limit(*limit+1))
				}
				if *reverse {
					opts = append(opts, hrpc.Reversed())
				}
				scan, err := hrpc.NewScan(args[0], opts...)
				if err != nil {
					return usagef("scan: %v", err)
				}
				client, ctx, cancel, err := c.clientWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				out := &cellsResult{Table: args[0], Cells: []cellOut{}}
				for res, err := range client.Scan(ctx, scan) {
					if err != nil {
						return err
					}
					if *limit > 0 && out.Rows == int64(*limit) {
						out.More, out.Limit = true, *limit
						break
					}
					out.add(res)
				}
				return c.emit(out)
			}
		},
	}
}

// countResult is what count prints.
type countResult struct {
	Table string `json:"table"`
	Rows  int64  `json:"rows"`
}

func (r *countResult) writeText(w io.Writer) error {
	return writeTable(w, []string{"TABLE", "ROWS"}, [][]string{{r.Table, strconv.FormatInt(r.Rows, 10)}})
}

func countCmd() *command {
	return &command{
		name: "count", args: "<table>", summary: "count rows (the server sends one key per row, no values)", minArgs: 1, maxArgs: 1,
		setup: func(fs *flag.FlagSet) runFunc {
			var rng rangeFlags
			rng.register(fs)
			caching := fs.Int("caching", 1000, "rows per scan RPC")
			return func(ctx context.Context, c *cli, args []string) error {
				if *caching < 1 {
					return usagef("count: -caching must be positive, got %d", *caching)
				}
				opts, err := rng.options()
				if err != nil {
					return err
				}
				keysOnly := hrpc.NewFilterList(hrpc.MustPassAll, hrpc.FirstKeyOnlyFilter{}, hrpc.KeyOnlyFilter{})
				opts = append(opts, hrpc.WithFilter(keysOnly), hrpc.NumberOfRows(*caching))
				scan, err := hrpc.NewScan(args[0], opts...)
				if err != nil {
					return usagef("count: %v", err)
				}
				client, ctx, cancel, err := c.clientWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				out := &countResult{Table: args[0]}
				for _, err := range client.Scan(ctx, scan) {
					if err != nil {
						return err
					}
					out.Rows++
				}
				return c.emit(out)
			}
		},
	}
}
