package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hrpc"
)

// The shell's data manipulation commands: get, scan, count, put, delete, deleteall, incr,
// get_counter, append, truncate, truncate_preserve, get_splits.

func dmlVerbs() []*shellVerb {
	return []*shellVerb{
		{name: "get", group: "dml", prepare: prepareGet, usage: `get 'table', 'row'
get 'table', 'row', 'family:qualifier', 'family2'
get 'table', 'row', ['family:qualifier', 'family2']
get 'table', 'row', {COLUMN => ['f:q', 'f2'], VERSIONS => 3, TIMERANGE => [from_ms, to_ms]}
get 'table', 'row', {TIMESTAMP => ms, FILTER => "ValueFilter(=, 'binary:v')"}
get 'table', 'row', {CONSISTENCY => 'TIMELINE', ATTRIBUTES => {'k' => 'v'}, MAXLENGTH => 80}

Reads one row: every column, or the columns and families named. VERSIONS returns more than
the newest version of each cell; TIMESTAMP and TIMERANGE (from inclusive, to exclusive)
select by cell time; FILTER takes HBase's filter language (show_filters lists the filters).
CONSISTENCY => 'TIMELINE' lets a secondary region replica answer. AUTHORIZATIONS => ['label']
reads with only those visibility labels (of the ones the user has).`},
		{name: "scan", group: "dml", prepare: prepareScan, usage: `scan 'table'
scan 'table', {LIMIT => 10, STARTROW => 'a', STOPROW => 'm'}
scan 'table', {ROWPREFIXFILTER => 'user', COLUMNS => ['f:q', 'f2']}
scan 'table', {FILTER => "PrefixFilter('a') AND ValueFilter(=, 'binary:x')", REVERSED => true}
scan 'table', {TIMERANGE => [from_ms, to_ms], VERSIONS => 5, CACHE => 1000, BATCH => 10}

Reads rows in key order (REVERSED: backwards), printing each cell as it arrives; Ctrl-C in the
interactive mode stops a long scan. STARTROW is inclusive, STOPROW exclusive. CACHE is rows per
round trip, BATCH cells per result, MAXRESULTSIZE bytes per round trip, CACHE_BLOCKS => false
keeps a one-off scan out of the block cache. AUTHORIZATIONS => ['label'] reads with only those
visibility labels (of the ones the user has).`},
		{name: "count", group: "dml", prepare: prepareCount, usage: `count 'table'
count 'table', INTERVAL => 100000, CACHE => 1000
count 'table', {FILTER => "PrefixFilter('a')", STARTROW => 'a', STOPROW => 'b'}

Counts rows: the servers send one key per row and no values. Every INTERVAL rows (default
1000) it prints the running count and the current row.`},
		{name: "put", group: "dml", prepare: preparePut, usage: `put 'table', 'row', 'family:qualifier', 'value'
put 'table', 'row', 'family:qualifier', 'value', timestamp_ms
put 'table', 'row', 'family:qualifier', 'value', {ATTRIBUTES => {'k' => 'v'}}
put 'table', 'row', 'family:qualifier', 'value', {VISIBILITY => 'secret & !intern'}
put 'table', 'row', 'family:qualifier', 'value', {TTL => 60000, ACL => {'bob' => 'RW'}}

Writes one cell, at the given timestamp or the server's time. VISIBILITY labels it with a
visibility expression (only readers with labels that satisfy it see it), TTL expires it that
many milliseconds after its timestamp, ACL gives users or groups read (R) or write (W) rights
on it.`},
		{name: "delete", group: "dml", prepare: prepareDelete, usage: `delete 'table', 'row', 'family:qualifier'
delete 'table', 'row', 'family:qualifier', timestamp_ms

Deletes one version of a cell: the newest, or the one with exactly that timestamp.`},
		{name: "deleteall", group: "dml", prepare: prepareDeleteAll, usage: `deleteall 'table', 'row'
deleteall 'table', 'row', 'family:qualifier'
deleteall 'table', 'row', 'family'
deleteall 'table', 'row', 'family:qualifier', timestamp_ms
deleteall 'table', {ROWPREFIXFILTER => 'prefix'}

Deletes a whole row, or every version of a column or family (with a timestamp: the versions
at or before it). With ROWPREFIXFILTER it deletes every row starting with the prefix.`},
		{name: "incr", group: "dml", prepare: prepareIncr, usage: `incr 'table', 'row', 'family:qualifier'
incr 'table', 'row', 'family:qualifier', 10

Adds to a counter (an 8-byte big-endian number; 1 by default, may be negative) and prints the
new value. A missing counter starts at 0.`},
		{name: "get_counter", group: "dml", prepare: prepareGetCounter, usage: `get_counter 'table', 'row', 'family:qualifier'

Prints a counter's value (a cell of 8 bytes, as incr writes it).`},
		{name: "append", group: "dml", prepare: prepareAppend, usage: `append 'table', 'row', 'family:qualifier', 'value'

Appends bytes to a cell's value (an empty cell when there is none) and prints the new value.`},
		{name: "truncate", group: "dml", prepare: prepareTruncate(false), usage: `truncate 'table'

Disables the table (when enabled), deletes every row and enables it again, as one region.`},
		{name: "truncate_preserve", group: "dml", prepare: prepareTruncate(true), usage: `truncate_preserve 'table'

Like truncate, keeping the table's region boundaries.`},
		{name: "get_splits", group: "dml", prepare: prepareGetSplits, usage: `get_splits 'table'

Prints the table's split keys: the start keys of its regions but the first.`},
	}
}

// cellsOut is the rows of a get or scan, for JSON and for the text of a get.
type cellsOut struct {
	Table string    `json:"table"`
	Rows  int64     `json:"rows"`
	Cells []cellOut `json:"cells"`
	// Stale is set when a secondary replica answered a TIMELINE read.
	Stale bool `json:"stale,omitempty"`
	// Metrics are a scan's metrics, with METRICS or ALL_METRICS.
	Metrics []metricOut `json:"metrics,omitempty"`

	get     bool
	format  *cellFormat
	raw     []*hrpc.Cell
	printed bool // a scan in text mode has printed its rows as they came
}

func (r *cellsOut) add(res *hrpc.Result) {
	r.Rows++
	r.Stale = r.Stale || res.Stale
	for i := range res.Cells {
		c := &res.Cells[i]
		r.Cells = append(r.Cells, cellOut{Row: formatBinary(c.Row), Family: formatBinary(c.Family),
			Qualifier: formatBinary(c.Qualifier), Timestamp: int64(c.Timestamp), Value: formatBinary(c.Value)})
		r.raw = append(r.raw, c)
	}
}

func (r *cellsOut) shellText(w io.Writer) (int64, error) {
	if r.printed {
		return r.Rows, nil
	}
	if r.get {
		fmt.Fprintln(w, twoHeaders("COLUMN", "CELL"))
		for _, c := range r.raw {
			text, err := cellText(c, r.format)
			if err != nil {
				return 0, err
			}
			fmt.Fprintln(w, twoColumns(shellColumn(c), text))
		}
	}
	if r.Stale {
		fmt.Fprintln(w, "(stale: answered by a secondary region replica)")
	}
	printMetrics(w, r.Metrics)
	return r.Rows, nil
}

func prepareGet(st statement) (action, error) {
	args, h := splitOpts(st.args)
	if len(args) < 2 {
		return nil, fmt.Errorf("want get 'table', 'row'[, 'family:qualifier'...][, {OPTIONS}]")
	}
	if err := checkKeys("get", h, readKeys...); err != nil {
		return nil, err
	}
	table, err := tableName(args, 0)
	if err != nil {
		return nil, err
	}
	row, err := strVal(args[1], "row")
	if err != nil {
		return nil, err
	}
	var cols []string
	for _, a := range args[2:] {
		names, err := strList(a, "column")
		if err != nil {
			return nil, err
		}
		cols = append(cols, names...)
	}
	spec, err := readOptsFrom(h, cols)
	if err != nil {
		return nil, err
	}
	get, err := hrpc.NewGet(table, []byte(row), spec.getOptions()...)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		client, ctx, cancel, err := sh.c.clientWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		res, err := client.Get(ctx, get)
		if err != nil {
			return nil, err
		}
		out := &cellsOut{Table: table, Cells: []cellOut{}, get: true, format: spec.format}
		if len(res.Cells) > 0 {
			out.add(res)
		}
		return out, nil
	}, nil
}

var scanKeys = append([]string{"STARTROW", "STOPROW", "START_ROW", "STOP_ROW", "ROWPREFIXFILTER", "LIMIT", "REVERSED", "CACHE", "BATCH",
	"MAXRESULTSIZE", "ALL_METRICS", "METRICS"}, readKeys...)

// scanRange reads the row range options of scan, count and deleteall.
func scanRange(h value) ([]hrpc.ScanOption, error) {
	var opts []hrpc.ScanOption
	for _, k := range []struct {
		keys []string
		opt  func([]byte) hrpc.ScanOption
	}{{[]string{"STARTROW", "START_ROW"}, hrpc.StartRow}, {[]string{"STOPROW", "STOP_ROW"}, hrpc.StopRow}, {[]string{"ROWPREFIXFILTER"}, hrpc.Prefix}} {
		for _, key := range k.keys {
			if v, ok := h.get(key); ok {
				s, err := strVal(v, key)
				if err != nil {
					return nil, err
				}
				opts = append(opts, k.opt([]byte(s)))
			}
		}
	}
	return opts, nil
}

func positiveInt(h value, key string) (int, bool, error) {
	v, ok := h.get(key)
	if !ok {
		return 0, false, nil
	}
	n, err := intVal(v, key)
	if err != nil {
		return 0, false, err
	}
	if n < 1 || n > math.MaxInt32 {
		return 0, false, fmt.Errorf("%s: want 1 or more, got %d", key, n)
	}
	return int(n), true, nil
}

func prepareScan(st statement) (action, error) {
	args, h := splitOpts(st.args)
	if len(args) != 1 {
		return nil, fmt.Errorf("want scan 'table'[, {OPTIONS}]")
	}
	if err := checkKeys("scan", h, scanKeys...); err != nil {
		return nil, err
	}
	table, err := tableName(args, 0)
	if err != nil {
		return nil, err
	}
	spec, err := readOptsFrom(h, nil)
	if err != nil {
		return nil, err
	}
	opts, err := scanRange(h)
	if err != nil {
		return nil, err
	}
	opts = append(opts, spec.scanOptions()...)
	limit, hasLimit, err := positiveInt(h, "LIMIT")
	if err != nil {
		return nil, err
	}
	if hasLimit {
		opts = append(opts, hrpc.Limit(limit))
	}
	if v, ok := h.get("REVERSED"); ok {
		b, err := boolVal(v, "REVERSED")
		if err != nil {
			return nil, err
		}
		if b {
			opts = append(opts, hrpc.Reversed())
		}
	}
	if n, ok, err := positiveInt(h, "CACHE"); err != nil {
		return nil, err
	} else if ok {
		opts = append(opts, hrpc.NumberOfRows(n))
	}
	if n, ok, err := positiveInt(h, "BATCH"); err != nil {
		return nil, err
	} else if ok {
		opts = append(opts, hrpc.BatchSize(n))
	}
	if n, ok, err := positiveInt(h, "MAXRESULTSIZE"); err != nil {
		return nil, err
	} else if ok {
		opts = append(opts, hrpc.MaxResultSize(int64(n)))
	}
	metrics, allMetrics, err := scanMetricsWanted(h)
	if err != nil {
		return nil, err
	}
	if allMetrics || len(metrics) > 0 {
		opts = append(opts, hrpc.TrackScanMetrics())
	}
	scan, err := hrpc.NewScan(table, opts...)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		client, ctx, cancel, err := sh.c.clientWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		out := &cellsOut{Table: table, Cells: []cellOut{}, format: spec.format}
		sc := client.NewScanner(ctx, scan)
		defer sc.Close()
		if err := scanRows(sh, sc, out); err != nil {
			return nil, err
		}
		if allMetrics || len(metrics) > 0 {
			if out.Metrics, err = pickMetrics(sc.Metrics(), metrics, allMetrics); err != nil {
				return nil, err
			}
		}
		if out.printed {
			printMetrics(sh.out, out.Metrics)
		}
		return out, nil
	}, nil
}

// scanRows reads the rows of sc into out, or, in text mode, prints them as they come.
func scanRows(sh *shell, sc *hbase.Scanner, out *cellsOut) error {
	stream := !sh.c.json
	if stream {
		fmt.Fprintln(sh.out, twoHeaders("ROW", "COLUMN+CELL"))
	}
	for sc.Next() {
		res := sc.Result()
		if !stream {
			out.add(res)
			continue
		}
		out.Rows++
		out.Stale = out.Stale || res.Stale
		for i := range res.Cells {
			c := &res.Cells[i]
			text, err := cellText(c, out.format)
			if err != nil {
				return err
			}
			fmt.Fprintln(sh.out, twoColumns(formatBinary(c.Row), "column="+shellColumn(c)+", "+text))
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	out.printed = stream
	if stream && out.Stale {
		fmt.Fprintln(sh.out, "(stale: answered by a secondary region replica)")
	}
	return nil
}

// countOut is what count prints at the end.
type countOut struct {
	Table string `json:"table"`
	Rows  int64  `json:"rows"`
}

func (r *countOut) shellText(io.Writer) (int64, error) { return r.Rows, nil }

func prepareCount(st statement) (action, error) {
	args, h := splitOpts(st.args)
	if len(args) != 1 {
		return nil, fmt.Errorf("want count 'table'[, {INTERVAL => n, CACHE => n, FILTER => ...}]")
	}
	if err := checkKeys("count", h, "INTERVAL", "CACHE", "FILTER", "STARTROW", "STOPROW", "START_ROW", "STOP_ROW", "ROWPREFIXFILTER", "COLUMNS", "COLUMN", "TIMERANGE"); err != nil {
		return nil, err
	}
	table, err := tableName(args, 0)
	if err != nil {
		return nil, err
	}
	interval, ok, err := positiveInt(h, "INTERVAL")
	if err != nil {
		return nil, err
	}
	if !ok {
		interval = 1000
	}
	caching, ok, err := positiveInt(h, "CACHE")
	if err != nil {
		return nil, err
	}
	if !ok {
		caching = 10
	}
	spec, err := readOptsFrom(h, nil)
	if err != nil {
		return nil, err
	}
	opts, err := scanRange(h)
	if err != nil {
		return nil, err
	}
	keys := []hrpc.Filter{hrpc.FirstKeyOnlyFilter{}, hrpc.KeyOnlyFilter{}}
	if spec.filter != nil {
		keys = append([]hrpc.Filter{spec.filter}, keys...)
		spec.filter = nil
	}
	opts = append(opts, spec.scanOptions()...)
	opts = append(opts, hrpc.WithFilter(hrpc.NewFilterList(hrpc.MustPassAll, keys...)), hrpc.NumberOfRows(caching))
	scan, err := hrpc.NewScan(table, opts...)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		client, ctx, cancel, err := sh.c.clientWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		out := &countOut{Table: table}
		for res, err := range client.Scan(ctx, scan) {
			if err != nil {
				return nil, err
			}
			out.Rows++
			if out.Rows%int64(interval) == 0 && !sh.c.json && len(res.Cells) > 0 {
				fmt.Fprintf(sh.out, "Current count: %d, row: %s\n", out.Rows, formatBinary(res.Cells[0].Row))
			}
		}
		return out, nil
	}, nil
}

// writeOut says what a write did.
type writeOut struct {
	Verb  string `json:"verb"`
	Table string `json:"table"`
	Row   string `json:"row"`
	What  string `json:"what"`
	// Value is the new value of incr (a number) or append (bytes as the shell prints them).
	Value any `json:"value,omitempty"`
	label string
}

func (r *writeOut) shellText(w io.Writer) (int64, error) {
	if r.label != "" {
		fmt.Fprintf(w, "%s = %v\n", r.label, r.Value)
	}
	_, err := fmt.Fprintf(w, "%s: %s of row '%s' in %s\n", r.Verb, r.What, r.Row, r.Table)
	return -1, err
}

// cellArgs reads 'table', 'row', 'family:qualifier' at the start of args.
func cellArgs(args []value, needQualifier bool) (string, []byte, column, error) {
	table, err := tableName(args, 0)
	if err != nil {
		return "", nil, column{}, err
	}
	row, err := strVal(args[1], "row")
	if err != nil {
		return "", nil, column{}, err
	}
	name, err := strVal(args[2], "column")
	if err != nil {
		return "", nil, column{}, err
	}
	col, err := parseShellColumn(name)
	if err != nil {
		return "", nil, column{}, err
	}
	if needQualifier && col.qualifier == nil {
		// The shell takes 'f' as the family's empty qualifier here.
		col.qualifier = []byte{}
	}
	return table, []byte(row), col, nil
}

func timestampArg(v value) (uint64, error) {
	ts, err := intVal(v, "timestamp")
	if err != nil {
		return 0, err
	}
	if ts < 0 || ts == math.MaxInt64 {
		return 0, fmt.Errorf("timestamp: want milliseconds since the epoch, got %d", ts)
	}
	return uint64(ts), nil
}

// withAttributes appends to opts an hrpc.Attribute for each entry of h's ATTRIBUTES, in key
// order. O is the request's option type: hrpc.AttributeOption implements it for every request
// with attributes, which a type parameter cannot say, so any other O is an error here.
func withAttributes[O any](opts []O, h value) ([]O, error) {
	v, ok := h.get("ATTRIBUTES")
	if !ok {
		return opts, nil
	}
	m, err := stringMap(v, "ATTRIBUTES")
	if err != nil {
		return nil, err
	}
	for _, k := range sortedKeys(m) {
		o, ok := any(hrpc.Attribute(k, []byte(m[k]))).(O)
		if !ok {
			return nil, fmt.Errorf("ATTRIBUTES: this request takes no attributes")
		}
		opts = append(opts, o)
	}
	return opts, nil
}

func preparePut(st statement) (action, error) {
	args, h := splitOpts(st.args)
	if len(args) < 4 || len(args) > 5 {
		return nil, fmt.Errorf("want put 'table', 'row', 'family:qualifier', 'value'[, timestamp][, {ATTRIBUTES => {...}}]")
	}
	if err := checkKeys("put", h, "ATTRIBUTES", "VISIBILITY", "TTL", "ACL"); err != nil {
		return nil, err
	}
	if err := refuseWaiting(h); err != nil {
		return nil, err
	}
	table, row, col, err := cellArgs(args, true)
	if err != nil {
		return nil, err
	}
	val, err := scalarText(args[3])
	if err != nil {
		return nil, fmt.Errorf("value: %v", err)
	}
	var opts []hrpc.PutOption
	if len(args) == 5 {
		ts, err := timestampArg(args[4])
		if err != nil {
			return nil, err
		}
		opts = append(opts, hrpc.ValueAt(col.family, col.qualifier, ts, []byte(val)))
	} else {
		opts = append(opts, hrpc.Value(col.family, col.qualifier, []byte(val)))
	}
	if opts, err = withAttributes(opts, h); err != nil {
		return nil, err
	}
	if opts, err = withCellSecurity(opts, h); err != nil {
		return nil, err
	}
	put, err := hrpc.NewPut(table, row, opts...)
	if err != nil {
		return nil, err
	}
	return mutate(table, row, "put", "wrote "+quoteShell(string(col.family)+":"+string(col.qualifier)), func(ctx context.Context, client *hbase.Client) (*hrpc.Result, error) {
		return client.Put(ctx, put)
	}), nil
}

// mutate runs one write and says what it did. Unlike clientWithTimeout, it connects within
// -timeout, as the write verbs always have.
func mutate(table string, row []byte, verb, what string, send func(context.Context, *hbase.Client) (*hrpc.Result, error)) action {
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		ctx, cancel := sh.c.withTimeout(ctx)
		defer cancel()
		client, err := sh.c.connect(ctx)
		if err != nil {
			return nil, err
		}
		if _, err := send(ctx, client); err != nil {
			return nil, err
		}
		return &writeOut{Verb: verb, Table: table, Row: formatBinary(row), What: what}, nil
	}
}

func prepareDelete(st statement) (action, error) {
	args, h := splitOpts(st.args)
	if len(args) < 3 || len(args) > 4 {
		return nil, fmt.Errorf("want delete 'table', 'row', 'family:qualifier'[, timestamp]")
	}
	if err := checkKeys("delete", h, "ATTRIBUTES", "VISIBILITY"); err != nil {
		return nil, err
	}
	if err := refuseWaiting(h); err != nil {
		return nil, err
	}
	table, row, col, err := cellArgs(args, true)
	if err != nil {
		return nil, err
	}
	var opts []hrpc.DeleteOption
	what := "deleted the newest version of " + quoteShell(string(col.family)+":"+string(col.qualifier))
	if len(args) == 4 {
		ts, err := timestampArg(args[3])
		if err != nil {
			return nil, err
		}
		opts = append(opts, hrpc.DeleteColumnVersion(col.family, col.qualifier, ts))
		what = fmt.Sprintf("deleted the version %d of %s", ts, quoteShell(string(col.family)+":"+string(col.qualifier)))
	} else {
		opts = append(opts, hrpc.DeleteLatestVersion(col.family, col.qualifier))
	}
	if opts, err = withAttributes(opts, h); err != nil {
		return nil, err
	}
	if opts, err = withCellSecurity(opts, h); err != nil {
		return nil, err
	}
	del, err := hrpc.NewDelete(table, row, opts...)
	if err != nil {
		return nil, err
	}
	return mutate(table, row, "delete", what, func(ctx context.Context, client *hbase.Client) (*hrpc.Result, error) {
		return client.Delete(ctx, del)
	}), nil
}

func prepareDeleteAll(st statement) (action, error) {
	args, h := splitOpts(st.args)
	if len(args) == 1 && len(h.hash) > 0 {
		return prepareDeleteByPrefix(args, h)
	}
	if len(args) < 2 || len(args) > 4 {
		return nil, fmt.Errorf("want deleteall 'table', 'row'[, 'family[:qualifier]'[, timestamp]] or deleteall 'table', {ROWPREFIXFILTER => 'prefix'}")
	}
	if err := checkKeys("deleteall", h, "ATTRIBUTES", "VISIBILITY"); err != nil {
		return nil, err
	}
	if err := refuseWaiting(h); err != nil {
		return nil, err
	}
	table, err := tableName(args, 0)
	if err != nil {
		return nil, err
	}
	rowS, err := strVal(args[1], "row")
	if err != nil {
		return nil, err
	}
	row := []byte(rowS)
	opts, what, err := deleteAllOptions(args[2:])
	if err != nil {
		return nil, err
	}
	if opts, err = withAttributes(opts, h); err != nil {
		return nil, err
	}
	if opts, err = withCellSecurity(opts, h); err != nil {
		return nil, err
	}
	del, err := hrpc.NewDelete(table, row, opts...)
	if err != nil {
		return nil, err
	}
	return mutate(table, row, "deleteall", what, func(ctx context.Context, client *hbase.Client) (*hrpc.Result, error) {
		return client.Delete(ctx, del)
	}), nil
}

// deleteAllOptions reads deleteall's optional column and timestamp.
func deleteAllOptions(rest []value) ([]hrpc.DeleteOption, string, error) {
	var opts []hrpc.DeleteOption
	what := "deleted every cell"
	var ts uint64
	hasTS := false
	if len(rest) == 2 {
		var err error
		if ts, err = timestampArg(rest[1]); err != nil {
			return nil, "", err
		}
		hasTS = true
		opts = append(opts, hrpc.Timestamp(ts))
	}
	if len(rest) >= 1 && rest[0].kind != vNil {
		name, err := strVal(rest[0], "column")
		if err != nil {
			return nil, "", err
		}
		col, err := parseShellColumn(name)
		if err != nil {
			return nil, "", err
		}
		if col.qualifier == nil {
			opts = append(opts, hrpc.DeleteFamily(col.family))
			what = "deleted every version of family " + quoteShell(string(col.family))
		} else {
			opts = append(opts, hrpc.DeleteColumn(col.family, col.qualifier))
			what = "deleted every version of " + quoteShell(name)
		}
	}
	if hasTS {
		what += fmt.Sprintf(" at or before %d", ts)
	}
	return opts, what, nil
}

// prefixDeleteOut says how many rows deleteall with ROWPREFIXFILTER deleted.
type prefixDeleteOut struct {
	Table  string `json:"table"`
	Prefix string `json:"prefix"`
	Rows   int64  `json:"rows"`
}

func (r *prefixDeleteOut) shellText(w io.Writer) (int64, error) {
	_, err := fmt.Fprintf(w, "deleteall: deleted %d row(s) starting with '%s' in %s\n", r.Rows, r.Prefix, r.Table)
	return -1, err
}

func prepareDeleteByPrefix(args []value, h value) (action, error) {
	if err := checkKeys("deleteall", h, "ROWPREFIXFILTER", "CACHE"); err != nil {
		return nil, err
	}
	table, err := tableName(args, 0)
	if err != nil {
		return nil, err
	}
	pv, ok := h.get("ROWPREFIXFILTER")
	if !ok {
		return nil, fmt.Errorf("want deleteall 'table', {ROWPREFIXFILTER => 'prefix'}")
	}
	prefix, err := strVal(pv, "ROWPREFIXFILTER")
	if err != nil {
		return nil, err
	}
	keys := hrpc.NewFilterList(hrpc.MustPassAll, hrpc.FirstKeyOnlyFilter{}, hrpc.KeyOnlyFilter{})
	scan, err := hrpc.NewScan(table, hrpc.Prefix([]byte(prefix)), hrpc.WithFilter(keys), hrpc.NumberOfRows(1000))
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		client, ctx, cancel, err := sh.c.clientWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		var rows [][]byte
		for res, err := range client.Scan(ctx, scan) {
			if err != nil {
				return nil, err
			}
			if len(res.Cells) > 0 {
				rows = append(rows, append([]byte(nil), res.Cells[0].Row...))
			}
		}
		out := &prefixDeleteOut{Table: table, Prefix: formatBinary([]byte(prefix))}
		for len(rows) > 0 {
			n := min(len(rows), 1000)
			var calls []hrpc.Batchable
			for _, r := range rows[:n] {
				d, err := hrpc.NewDelete(table, r)
				if err != nil {
					return nil, err
				}
				calls = append(calls, d)
			}
			for _, br := range client.SendBatch(ctx, calls) {
				if br.Err != nil {
					return nil, br.Err
				}
				out.Rows++
			}
			rows = rows[n:]
		}
		return out, nil
	}, nil
}

func prepareIncr(st statement) (action, error) {
	args, h := splitOpts(st.args)
	if len(args) < 3 || len(args) > 4 {
		return nil, fmt.Errorf("want incr 'table', 'row', 'family:qualifier'[, amount]")
	}
	if err := checkKeys("incr", h, "ATTRIBUTES", "VISIBILITY"); err != nil {
		return nil, err
	}
	if err := refuseWaiting(h); err != nil {
		return nil, err
	}
	table, row, col, err := cellArgs(args, true)
	if err != nil {
		return nil, err
	}
	delta := int64(1)
	if len(args) == 4 {
		if delta, err = intVal(args[3], "amount"); err != nil {
			return nil, err
		}
	}
	opts := []hrpc.IncrementOption{hrpc.Amount(col.family, col.qualifier, delta)}
	if opts, err = withAttributes(opts, h); err != nil {
		return nil, err
	}
	if opts, err = withCellSecurity(opts, h); err != nil {
		return nil, err
	}
	inc, err := hrpc.NewIncrement(table, row, opts...)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		client, ctx, cancel, err := sh.c.clientWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		res, err := client.Increment(ctx, inc)
		if err != nil {
			return nil, err
		}
		out := &writeOut{Verb: "incr", Table: table, Row: formatBinary(row), What: fmt.Sprintf("added %d to %s", delta, quoteShell(string(col.family)+":"+string(col.qualifier))), label: "COUNTER VALUE"}
		if len(res.Cells) == 1 && len(res.Cells[0].Value) == 8 {
			out.Value = int64(binary.BigEndian.Uint64(res.Cells[0].Value))
		}
		return out, nil
	}, nil
}

// counterOut is what get_counter prints.
type counterOut struct {
	Found bool  `json:"found"`
	Value int64 `json:"value"`
}

func (r *counterOut) shellText(w io.Writer) (int64, error) {
	if !r.Found {
		_, err := fmt.Fprintln(w, "No counter found at the given coordinates")
		return -1, err
	}
	_, err := fmt.Fprintf(w, "COUNTER VALUE = %d\n", r.Value)
	return -1, err
}

func prepareGetCounter(st statement) (action, error) {
	args, h := splitOpts(st.args)
	if len(args) != 3 || len(h.hash) > 0 {
		return nil, fmt.Errorf("want get_counter 'table', 'row', 'family:qualifier'")
	}
	table, row, col, err := cellArgs(args, true)
	if err != nil {
		return nil, err
	}
	get, err := hrpc.NewGet(table, row, hrpc.Columns(col.family, col.qualifier))
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		client, ctx, cancel, err := sh.c.clientWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		res, err := client.Get(ctx, get)
		if err != nil {
			return nil, err
		}
		if len(res.Cells) == 0 {
			return &counterOut{}, nil
		}
		v := res.Cells[0].Value
		if len(v) != 8 {
			return nil, fmt.Errorf("the cell holds %d bytes (%s), not an 8-byte counter", len(v), formatBinary(v))
		}
		return &counterOut{Found: true, Value: int64(binary.BigEndian.Uint64(v))}, nil
	}, nil
}

func prepareAppend(st statement) (action, error) {
	args, h := splitOpts(st.args)
	if len(args) != 4 {
		return nil, fmt.Errorf("want append 'table', 'row', 'family:qualifier', 'value'")
	}
	if err := checkKeys("append", h, "ATTRIBUTES", "VISIBILITY"); err != nil {
		return nil, err
	}
	if err := refuseWaiting(h); err != nil {
		return nil, err
	}
	table, row, col, err := cellArgs(args, true)
	if err != nil {
		return nil, err
	}
	val, err := scalarText(args[3])
	if err != nil {
		return nil, fmt.Errorf("value: %v", err)
	}
	opts := []hrpc.AppendOption{hrpc.Value(col.family, col.qualifier, []byte(val))}
	if opts, err = withAttributes(opts, h); err != nil {
		return nil, err
	}
	if opts, err = withCellSecurity(opts, h); err != nil {
		return nil, err
	}
	app, err := hrpc.NewAppend(table, row, opts...)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		client, ctx, cancel, err := sh.c.clientWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		res, err := client.Append(ctx, app)
		if err != nil {
			return nil, err
		}
		out := &writeOut{Verb: "append", Table: table, Row: formatBinary(row), What: "appended " + strconv.Itoa(len(val)) + " byte(s) to " + quoteShell(string(col.family)+":"+string(col.qualifier)), label: "CURRENT VALUE"}
		if len(res.Cells) == 1 {
			out.Value = formatBinary(res.Cells[0].Value)
		}
		return out, nil
	}, nil
}

func prepareTruncate(preserve bool) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if err := wantArgs(st.args, 1, 1, st.verb+" 'table'"); err != nil {
			return nil, err
		}
		table, err := tableName(st.args, 0)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, sh *shell) (shellResult, error) {
			admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
			if err != nil {
				return nil, err
			}
			defer cancel()
			if _, err := disableIfEnabled(ctx, admin, table); err != nil {
				return nil, err
			}
			if err := admin.TruncateTable(ctx, table, preserve); err != nil {
				return nil, err
			}
			if preserve {
				return done("Truncated table %s, keeping its region boundaries", table), nil
			}
			return done("Truncated table %s", table), nil
		}, nil
	}
}

func prepareGetSplits(st statement) (action, error) {
	if err := wantArgs(st.args, 1, 1, "get_splits 'table'"); err != nil {
		return nil, err
	}
	table, err := tableName(st.args, 0)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		regions, err := admin.Regions(ctx, table)
		if err != nil {
			return nil, err
		}
		out := &listOut{Names: []string{}}
		for _, r := range regions {
			if len(r.Start) > 0 {
				out.Names = append(out.Names, formatBinary(r.Start))
			}
		}
		out.Header = fmt.Sprintf("Total number of splits = %d", len(out.Names)+1)
		return out, nil
	}, nil
}
