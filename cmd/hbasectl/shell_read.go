package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/go-hbase/hbase/hrpc"
)

// readSpec is what get and scan take in their option hash, read before anything is sent.
type readSpec struct {
	cols        []column
	hasRange    bool
	from, to    uint64
	versions    int
	filter      hrpc.Filter
	consistency hrpc.ConsistencyLevel
	attrs       map[string]string
	maxLength   int
	noCache     bool
}

// readKeys are the option keys get and scan share.
var readKeys = []string{"COLUMN", "COLUMNS", "TIMESTAMP", "TIMERANGE", "VERSIONS", "FILTER", "CONSISTENCY",
	"ATTRIBUTES", "MAXLENGTH", "CACHE_BLOCKS", "RAW", "REGION_REPLICA_ID", "AUTHORIZATIONS", "FORMATTER", "FORMATTER_CLASS"}

// waitingKeys are option keys of the shell that the client library has no call for yet: they
// are refused with that reason instead of being ignored.
var waitingKeys = map[string]string{
	"RAW":               "raw reads (delete markers and deleted cells)",
	"REGION_REPLICA_ID": "reads from one chosen region replica",
	"AUTHORIZATIONS":    "visibility label authorizations on reads",
	"VISIBILITY":        "visibility expressions on writes",
	"ACL":               "cell ACLs on writes",
	"TTL":               "per-cell TTLs on writes",
	"ALL_METRICS":       "printing scan metrics",
	"METRICS":           "printing scan metrics",
	"FORMATTER":         "value formatters",
	"FORMATTER_CLASS":   "value formatters",
}

func refuseWaiting(h value) error {
	for _, e := range h.hash {
		if what, ok := waitingKeys[e.key]; ok {
			// RAW => false and REGION_REPLICA_ID of the primary ask for nothing special.
			if e.key == "RAW" && e.val.kind == vBool && !e.val.b {
				continue
			}
			return fmt.Errorf("%s is not taken yet: the client library has no call for %s", e.key, what)
		}
	}
	return nil
}

// parseShellColumn reads 'family' or 'family:qualifier' as the shell does (the first colon
// splits; a second one would name a value converter, which is not taken).
func parseShellColumn(s string) (column, error) {
	fam, qual, hasQual := cutColon(s)
	if fam == "" {
		return column{}, fmt.Errorf("column %s: want 'family' or 'family:qualifier'", quoteShell(s))
	}
	if hasQual && strings.Contains(qual, ":") {
		return column{}, fmt.Errorf("column %s: value converters ('family:qualifier:toInt') are not taken", quoteShell(s))
	}
	col := column{family: []byte(fam)}
	if hasQual {
		col.qualifier = []byte(qual)
	}
	return col, nil
}

func quoteShell(s string) string { return "'" + formatBinary([]byte(s)) + "'" }

// readOptsFrom reads the shared options of get and scan from h, plus extra column arguments.
func readOptsFrom(h value, extraCols []string) (*readSpec, error) {
	if err := refuseWaiting(h); err != nil {
		return nil, err
	}
	spec := &readSpec{versions: 1, maxLength: -1}
	colNames := extraCols
	for _, key := range []string{"COLUMN", "COLUMNS"} {
		if v, ok := h.get(key); ok {
			names, err := strList(v, key)
			if err != nil {
				return nil, err
			}
			colNames = append(colNames, names...)
		}
	}
	for _, n := range colNames {
		col, err := parseShellColumn(n)
		if err != nil {
			return nil, err
		}
		spec.cols = append(spec.cols, col)
	}
	if v, ok := h.get("TIMESTAMP"); ok {
		ts, err := intVal(v, "TIMESTAMP")
		if err != nil {
			return nil, err
		}
		if ts < 0 || ts == math.MaxInt64 {
			return nil, fmt.Errorf("TIMESTAMP: want milliseconds since the epoch, got %d", ts)
		}
		spec.hasRange, spec.from, spec.to = true, uint64(ts), uint64(ts)+1
	}
	if v, ok := h.get("TIMERANGE"); ok {
		if spec.hasRange {
			return nil, fmt.Errorf("TIMESTAMP and TIMERANGE do not go together")
		}
		if v.kind != vArray || len(v.arr) != 2 {
			return nil, fmt.Errorf("TIMERANGE: want [from, to] in milliseconds, got %s", v.describe())
		}
		from, err := intVal(v.arr[0], "TIMERANGE from")
		if err != nil {
			return nil, err
		}
		to, err := intVal(v.arr[1], "TIMERANGE to")
		if err != nil {
			return nil, err
		}
		if from < 0 || to < from {
			return nil, fmt.Errorf("TIMERANGE: want 0 <= from <= to, got [%d, %d]", from, to)
		}
		spec.hasRange, spec.from, spec.to = true, uint64(from), uint64(to)
	}
	if v, ok := h.get("VERSIONS"); ok {
		n, err := intVal(v, "VERSIONS")
		if err != nil {
			return nil, err
		}
		if n < 1 || n > math.MaxInt32 {
			return nil, fmt.Errorf("VERSIONS: want 1 or more, got %d", n)
		}
		spec.versions = int(n)
	}
	if v, ok := h.get("FILTER"); ok {
		s, err := strVal(v, "FILTER")
		if err != nil {
			return nil, fmt.Errorf("FILTER: want a filter string such as \"PrefixFilter('a')\", got %s", v.describe())
		}
		if spec.filter, err = parseFilterString(s); err != nil {
			return nil, err
		}
	}
	if v, ok := h.get("CONSISTENCY"); ok {
		s, err := scalarText(v)
		if err != nil {
			return nil, fmt.Errorf("CONSISTENCY: %v", err)
		}
		switch strings.ToUpper(s) {
		case "STRONG":
			spec.consistency = hrpc.Strong
		case "TIMELINE":
			spec.consistency = hrpc.Timeline
		default:
			return nil, fmt.Errorf("CONSISTENCY: want 'STRONG' or 'TIMELINE', got %s", v.describe())
		}
	}
	if v, ok := h.get("ATTRIBUTES"); ok {
		m, err := stringMap(v, "ATTRIBUTES")
		if err != nil {
			return nil, err
		}
		spec.attrs = m
	}
	if v, ok := h.get("MAXLENGTH"); ok {
		n, err := intVal(v, "MAXLENGTH")
		if err != nil {
			return nil, err
		}
		if n < 1 {
			return nil, fmt.Errorf("MAXLENGTH: want 1 or more, got %d", n)
		}
		spec.maxLength = int(n)
	}
	if v, ok := h.get("CACHE_BLOCKS"); ok {
		b, err := boolVal(v, "CACHE_BLOCKS")
		if err != nil {
			return nil, err
		}
		spec.noCache = !b
	}
	return spec, nil
}

// readOptions are the spec's options, as a Get and a Scan both take them.
func (s *readSpec) readOptions() []hrpc.ReadOption {
	var opts []hrpc.ReadOption
	// Whole families and single columns of one family: the library merges them per family.
	for _, col := range s.cols {
		if col.qualifier == nil {
			opts = append(opts, hrpc.Families(col.family))
		} else {
			opts = append(opts, hrpc.Columns(col.family, col.qualifier))
		}
	}
	if s.versions != 1 {
		opts = append(opts, hrpc.MaxVersions(s.versions))
	}
	if s.filter != nil {
		opts = append(opts, hrpc.WithFilter(s.filter))
	}
	if s.consistency != hrpc.Strong {
		opts = append(opts, hrpc.Consistency(s.consistency))
	}
	if s.noCache {
		opts = append(opts, hrpc.NoBlockCache())
	}
	return opts
}

func (s *readSpec) getOptions() []hrpc.GetOption {
	var opts []hrpc.GetOption
	for _, o := range s.readOptions() {
		opts = append(opts, o)
	}
	if s.hasRange {
		opts = append(opts, hrpc.TimeRange(s.from, s.to))
	}
	for _, k := range sortedKeys(s.attrs) {
		opts = append(opts, hrpc.Attribute(k, []byte(s.attrs[k])))
	}
	return opts
}

func (s *readSpec) scanOptions() []hrpc.ScanOption {
	var opts []hrpc.ScanOption
	for _, o := range s.readOptions() {
		opts = append(opts, o)
	}
	if s.hasRange {
		opts = append(opts, hrpc.TimeRange(s.from, s.to))
	}
	for _, k := range sortedKeys(s.attrs) {
		opts = append(opts, hrpc.Attribute(k, []byte(s.attrs[k])))
	}
	return opts
}

// cellText is a cell as the shell prints it: timestamp in milliseconds, value as
// Bytes.toStringBinary writes it, cut at MAXLENGTH.
func cellText(c *hrpc.Cell, maxLength int) string {
	var s string
	types := map[hrpc.CellType]string{hrpc.CellTypeDelete: "Delete", hrpc.CellTypeDeleteFamilyVersion: "DeleteFamilyVersion",
		hrpc.CellTypeDeleteColumn: "DeleteColumn", hrpc.CellTypeDeleteFamily: "DeleteFamily"}
	if t, ok := types[c.Type]; ok {
		s = fmt.Sprintf("timestamp=%d, type=%s", c.Timestamp, t)
	} else {
		s = fmt.Sprintf("timestamp=%d, value=%s", c.Timestamp, formatBinary(c.Value))
	}
	if maxLength > 0 && len(s) > maxLength {
		s = s[:maxLength]
	}
	return s
}

// shellColumn is family:qualifier as the shell prints it.
func shellColumn(c *hrpc.Cell) string {
	return formatBinary(c.Family) + ":" + formatBinary(c.Qualifier)
}

// twoColumns writes a line of the shell's two-column output.
func twoColumns(left, right string) string {
	return fmt.Sprintf(" %-31s %s", left, right)
}

// twoHeaders writes the header line of the shell's two-column output, aligned with
// twoColumns.
func twoHeaders(left, right string) string {
	return fmt.Sprintf("%-33s%s", left, right)
}
