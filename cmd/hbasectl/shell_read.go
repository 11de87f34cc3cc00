package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strconv"
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
	format      *cellFormat
	noCache     bool
	auths       *[]string // AUTHORIZATIONS, nil when not given
}

// cellFormat is how get and scan print values: MAXLENGTH, FORMATTER and the converters of
// columns written 'family:qualifier:toInt' (methods of HBase's Bytes class).
type cellFormat struct {
	maxLength  int
	formatter  string            // for every column; "" is toStringBinary
	converters map[string]string // "family:qualifier" (raw bytes) to a converter
}

// converters are the Bytes methods the shell's FORMATTER and column converters name.
var converters = map[string]func([]byte) (string, error){
	"toStringBinary": func(b []byte) (string, error) { return formatBinary(b), nil },
	"toString":       func(b []byte) (string, error) { return strings.ToValidUTF8(string(b), "\uFFFD"), nil },
	"toHex":          func(b []byte) (string, error) { return fmt.Sprintf("%x", b), nil },
	"toLong":         fixed(8, func(b []byte) string { return strconv.FormatInt(int64(binary.BigEndian.Uint64(b)), 10) }),
	"toInt":          fixed(4, func(b []byte) string { return strconv.FormatInt(int64(int32(binary.BigEndian.Uint32(b))), 10) }),
	"toShort":        fixed(2, func(b []byte) string { return strconv.FormatInt(int64(int16(binary.BigEndian.Uint16(b))), 10) }),
	"toDouble":       fixed(8, func(b []byte) string { return javaDouble(math.Float64frombits(binary.BigEndian.Uint64(b))) }),
	"toFloat":        fixed(4, func(b []byte) string { return javaDouble(float64(math.Float32frombits(binary.BigEndian.Uint32(b)))) }),
	"toBoolean":      fixed(1, func(b []byte) string { return strconv.FormatBool(b[0] != 0) }),
}

// fixed wraps a converter of n-byte values, refusing values of another length as the Java
// method does.
func fixed(n int, f func([]byte) string) func([]byte) (string, error) {
	return func(b []byte) (string, error) {
		if len(b) != n {
			return "", fmt.Errorf("the value %s has %d byte(s); the converter needs %d", formatBinary(b), len(b), n)
		}
		return f(b), nil
	}
}

// javaDouble prints a float as Java's Double.toString does for ordinary values (1.0, 0.5).
func javaDouble(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEIN") {
		s += ".0"
	}
	return s
}

// converterName reads a converter as the shell takes it: 'toInt', or
// 'c(org.apache.hadoop.hbase.util.Bytes).toInt'.
func converterName(s string) (string, error) {
	name := s
	if rest, ok := strings.CutPrefix(s, "c("); ok {
		class, method, ok := strings.Cut(rest, ").")
		if !ok || class != "org.apache.hadoop.hbase.util.Bytes" {
			return "", fmt.Errorf("converter %s: only the methods of org.apache.hadoop.hbase.util.Bytes are taken", quoteShell(s))
		}
		name = method
	}
	if converters[name] == nil {
		var names []string
		for n := range converters {
			names = append(names, n)
		}
		sort.Strings(names)
		return "", fmt.Errorf("converter %s: want one of %s", quoteShell(s), strings.Join(names, ", "))
	}
	return name, nil
}

// value is a cell's value as the format prints it.
func (f *cellFormat) value(c *hrpc.Cell) (string, error) {
	conv := f.formatter
	if name, ok := f.converters[string(c.Family)+":"+string(c.Qualifier)]; ok {
		conv = name
	}
	if conv == "" {
		return formatBinary(c.Value), nil
	}
	return converters[conv](c.Value)
}

// readKeys are the option keys get and scan share.
var readKeys = []string{"COLUMN", "COLUMNS", "TIMESTAMP", "TIMERANGE", "VERSIONS", "FILTER", "CONSISTENCY",
	"ATTRIBUTES", "MAXLENGTH", "CACHE_BLOCKS", "RAW", "REGION_REPLICA_ID", "AUTHORIZATIONS", "FORMATTER", "FORMATTER_CLASS"}

// waitingKeys are option keys of the shell that the client library has no call for yet: they
// are refused with that reason instead of being ignored.
var waitingKeys = map[string]string{
	// FORMATTER and FORMATTER_CLASS are taken (Bytes' methods); other classes are refused
	// where they are read.
	"RAW":               "the client library has no call for raw reads (delete markers and deleted cells)",
	"REGION_REPLICA_ID": "the client library has no call for reads from one chosen region replica",
}

func refuseWaiting(h value) error {
	for _, e := range h.hash {
		if what, ok := waitingKeys[e.key]; ok {
			// RAW => false and REGION_REPLICA_ID of the primary ask for nothing special.
			if e.key == "RAW" && e.val.kind == vBool && !e.val.b {
				continue
			}
			return fmt.Errorf("%s is not taken yet: %s", e.key, what)
		}
	}
	return nil
}

// parseShellColumn reads 'family' or 'family:qualifier' as the shell does (the first colon
// splits; a second one names a value converter, which only get and scan take).
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
	spec := &readSpec{versions: 1, format: &cellFormat{maxLength: -1, converters: map[string]string{}}}
	if err := spec.readColumns(h, extraCols); err != nil {
		return nil, err
	}
	// In this order, so that of several bad options the same one is reported as before.
	for _, read := range []func(value) error{
		spec.readFormatter, spec.readTimeRange, spec.readVersions, spec.readFilter,
		spec.readConsistency, spec.readAttributes, spec.readMaxLength, spec.readCacheBlocks,
		spec.readAuthorizations,
	} {
		if err := read(h); err != nil {
			return nil, err
		}
	}
	return spec, nil
}

// readColumns reads the COLUMN and COLUMNS options after the extra column arguments; a
// column written 'family:qualifier:toInt' also names the converter its values print with.
func (s *readSpec) readColumns(h value, extraCols []string) error {
	colNames := extraCols
	for _, key := range []string{"COLUMN", "COLUMNS"} {
		if v, ok := h.get(key); ok {
			names, err := strList(v, key)
			if err != nil {
				return err
			}
			colNames = append(colNames, names...)
		}
	}
	for _, n := range colNames {
		fam, qual, hasQual := cutColon(n)
		if q, conv, ok := strings.Cut(qual, ":"); hasQual && ok {
			name, err := converterName(conv)
			if err != nil {
				return err
			}
			s.format.converters[fam+":"+q] = name
			n = fam + ":" + q
		}
		col, err := parseShellColumn(n)
		if err != nil {
			return err
		}
		s.cols = append(s.cols, col)
	}
	return nil
}

func (s *readSpec) readFormatter(h value) error {
	if v, ok := h.get("FORMATTER"); ok {
		text, err := strVal(v, "FORMATTER")
		if err != nil {
			return err
		}
		if s.format.formatter, err = converterName(text); err != nil {
			return err
		}
	}
	if v, ok := h.get("FORMATTER_CLASS"); ok {
		if text, err := strVal(v, "FORMATTER_CLASS"); err != nil || text != "org.apache.hadoop.hbase.util.Bytes" {
			return fmt.Errorf("FORMATTER_CLASS: only 'org.apache.hadoop.hbase.util.Bytes' is taken")
		}
	}
	return nil
}

// readTimeRange reads TIMESTAMP (one exact time) or TIMERANGE ([from, to)), never both.
func (s *readSpec) readTimeRange(h value) error {
	if v, ok := h.get("TIMESTAMP"); ok {
		ts, err := intVal(v, "TIMESTAMP")
		if err != nil {
			return err
		}
		if ts < 0 || ts == math.MaxInt64 {
			return fmt.Errorf("TIMESTAMP: want milliseconds since the epoch, got %d", ts)
		}
		s.hasRange, s.from, s.to = true, uint64(ts), uint64(ts)+1
	}
	if v, ok := h.get("TIMERANGE"); ok {
		if s.hasRange {
			return fmt.Errorf("TIMESTAMP and TIMERANGE do not go together")
		}
		if v.kind != vArray || len(v.arr) != 2 {
			return fmt.Errorf("TIMERANGE: want [from, to] in milliseconds, got %s", v.describe())
		}
		from, err := intVal(v.arr[0], "TIMERANGE from")
		if err != nil {
			return err
		}
		to, err := intVal(v.arr[1], "TIMERANGE to")
		if err != nil {
			return err
		}
		if from < 0 || to < from {
			return fmt.Errorf("TIMERANGE: want 0 <= from <= to, got [%d, %d]", from, to)
		}
		s.hasRange, s.from, s.to = true, uint64(from), uint64(to)
	}
	return nil
}

func (s *readSpec) readVersions(h value) error {
	v, ok := h.get("VERSIONS")
	if !ok {
		return nil
	}
	n, err := intVal(v, "VERSIONS")
	if err != nil {
		return err
	}
	if n < 1 || n > math.MaxInt32 {
		return fmt.Errorf("VERSIONS: want 1 or more, got %d", n)
	}
	s.versions = int(n)
	return nil
}

func (s *readSpec) readFilter(h value) error {
	v, ok := h.get("FILTER")
	if !ok {
		return nil
	}
	text, err := strVal(v, "FILTER")
	if err != nil {
		return fmt.Errorf("FILTER: want a filter string such as \"PrefixFilter('a')\", got %s", v.describe())
	}
	s.filter, err = parseFilterString(text)
	return err
}

func (s *readSpec) readConsistency(h value) error {
	v, ok := h.get("CONSISTENCY")
	if !ok {
		return nil
	}
	text, err := scalarText(v)
	if err != nil {
		return fmt.Errorf("CONSISTENCY: %v", err)
	}
	switch strings.ToUpper(text) {
	case "STRONG":
		s.consistency = hrpc.Strong
	case "TIMELINE":
		s.consistency = hrpc.Timeline
	default:
		return fmt.Errorf("CONSISTENCY: want 'STRONG' or 'TIMELINE', got %s", v.describe())
	}
	return nil
}

func (s *readSpec) readAttributes(h value) error {
	v, ok := h.get("ATTRIBUTES")
	if !ok {
		return nil
	}
	m, err := stringMap(v, "ATTRIBUTES")
	if err != nil {
		return err
	}
	s.attrs = m
	return nil
}

func (s *readSpec) readMaxLength(h value) error {
	v, ok := h.get("MAXLENGTH")
	if !ok {
		return nil
	}
	n, err := intVal(v, "MAXLENGTH")
	if err != nil {
		return err
	}
	if n < 1 {
		return fmt.Errorf("MAXLENGTH: want 1 or more, got %d", n)
	}
	s.format.maxLength = int(n)
	return nil
}

func (s *readSpec) readCacheBlocks(h value) error {
	v, ok := h.get("CACHE_BLOCKS")
	if !ok {
		return nil
	}
	b, err := boolVal(v, "CACHE_BLOCKS")
	if err != nil {
		return err
	}
	s.noCache = !b
	return nil
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
	if s.auths != nil {
		opts = append(opts, hrpc.Authorizations(*s.auths...))
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
// Bytes.toStringBinary writes it (or as the format's converter does), cut at MAXLENGTH.
func cellText(c *hrpc.Cell, f *cellFormat) (string, error) {
	var s string
	types := map[hrpc.CellType]string{hrpc.CellTypeDelete: "Delete", hrpc.CellTypeDeleteFamilyVersion: "DeleteFamilyVersion",
		hrpc.CellTypeDeleteColumn: "DeleteColumn", hrpc.CellTypeDeleteFamily: "DeleteFamily"}
	if t, ok := types[c.Type]; ok {
		s = fmt.Sprintf("timestamp=%d, type=%s", c.Timestamp, t)
	} else {
		v, err := f.value(c)
		if err != nil {
			return "", fmt.Errorf("column %s:%s: %v", formatBinary(c.Family), formatBinary(c.Qualifier), err)
		}
		s = fmt.Sprintf("timestamp=%d, value=%s", c.Timestamp, v)
	}
	if f.maxLength > 0 && len(s) > f.maxLength {
		s = s[:f.maxLength]
	}
	return s, nil
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
