package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-hbase/hbase/hrpc"
)

// HBase's filter language (the strings the shell's FILTER takes and its ParseFilter class
// reads): filters by name with arguments in parentheses, combined with AND, OR, SKIP, WHILE
// and parentheses; string arguments in single quotes ('' for a quote), compare operators
// < <= = != > >=, comparators 'binary:', 'binaryprefix:', 'regexstring:', 'substring:'.
// hbasectl reads the string here, into the library's filters, so a bad filter is refused
// before anything is sent: the RPC protocol has no call that parses a filter string on the
// server (ParseFilter runs inside the Java client, and in the Thrift and REST gateways).

type filterTok struct {
	kind byte // 'w' word, 's' quoted string, 'n' number, 'o' compare operator, '(' ')' ','
	text string
	pos  int
}

func lexFilter(src string) ([]filterTok, error) {
	var toks []filterTok
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')' || c == ',':
			toks = append(toks, filterTok{kind: c, text: string(c), pos: i})
			i++
		case c == '\'':
			var sb strings.Builder
			j := i + 1
			for {
				if j >= len(src) {
					return nil, fmt.Errorf("filter: unterminated quoted argument at column %d of %q", i+1, src)
				}
				if src[j] == '\'' {
					if j+1 < len(src) && src[j+1] == '\'' {
						sb.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				sb.WriteByte(src[j])
				j++
			}
			toks = append(toks, filterTok{kind: 's', text: sb.String(), pos: i})
			i = j + 1
		case strings.IndexByte("<>=!", c) >= 0:
			j := i + 1
			if j < len(src) && src[j] == '=' {
				j++
			}
			toks = append(toks, filterTok{kind: 'o', text: src[i:j], pos: i})
			i = j
		case c == '-' || isDigit(c):
			j := i + 1
			for j < len(src) && (isDigit(src[j]) || src[j] == '.') {
				j++
			}
			toks = append(toks, filterTok{kind: 'n', text: src[i:j], pos: i})
			i = j
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			toks = append(toks, filterTok{kind: 'w', text: src[i:j], pos: i})
			i = j
		default:
			return nil, fmt.Errorf("filter: unexpected %q at column %d of %q", string(c), i+1, src)
		}
	}
	return toks, nil
}

type filterParser struct {
	src  string
	toks []filterTok
	p    int
}

// parseFilterString reads a filter string into the library's filter.
func parseFilterString(src string) (hrpc.Filter, error) {
	toks, err := lexFilter(src)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return nil, fmt.Errorf("filter: empty filter string")
	}
	fp := &filterParser{src: src, toks: toks}
	f, err := fp.or()
	if err != nil {
		return nil, err
	}
	if fp.p < len(fp.toks) {
		return nil, fmt.Errorf("filter: unexpected %q at column %d of %q", fp.toks[fp.p].text, fp.toks[fp.p].pos+1, src)
	}
	return f, nil
}

func (fp *filterParser) peekWord(w string) bool {
	return fp.p < len(fp.toks) && fp.toks[fp.p].kind == 'w' && strings.EqualFold(fp.toks[fp.p].text, w)
}

// or: and {OR and}; and: unary {AND unary}; unary: SKIP unary | WHILE unary | primary.
func (fp *filterParser) or() (hrpc.Filter, error) {
	f, err := fp.and()
	if err != nil {
		return nil, err
	}
	list := []hrpc.Filter{f}
	for fp.peekWord("OR") {
		fp.p++
		g, err := fp.and()
		if err != nil {
			return nil, err
		}
		list = append(list, g)
	}
	if len(list) == 1 {
		return f, nil
	}
	return hrpc.NewFilterList(hrpc.MustPassOne, list...), nil
}

func (fp *filterParser) and() (hrpc.Filter, error) {
	f, err := fp.unary()
	if err != nil {
		return nil, err
	}
	list := []hrpc.Filter{f}
	for fp.peekWord("AND") {
		fp.p++
		g, err := fp.unary()
		if err != nil {
			return nil, err
		}
		list = append(list, g)
	}
	if len(list) == 1 {
		return f, nil
	}
	return hrpc.NewFilterList(hrpc.MustPassAll, list...), nil
}

func (fp *filterParser) unary() (hrpc.Filter, error) {
	switch {
	case fp.peekWord("SKIP"):
		fp.p++
		f, err := fp.unary()
		if err != nil {
			return nil, err
		}
		return hrpc.SkipFilter{Filter: f}, nil
	case fp.peekWord("WHILE"):
		fp.p++
		f, err := fp.unary()
		if err != nil {
			return nil, err
		}
		return hrpc.WhileMatchFilter{Filter: f}, nil
	}
	return fp.primary()
}

func (fp *filterParser) primary() (hrpc.Filter, error) {
	if fp.p >= len(fp.toks) {
		return nil, fmt.Errorf("filter: %q ends where a filter should be", fp.src)
	}
	t := fp.toks[fp.p]
	fp.p++
	if t.kind == '(' {
		f, err := fp.or()
		if err != nil {
			return nil, err
		}
		if fp.p >= len(fp.toks) || fp.toks[fp.p].kind != ')' {
			return nil, fmt.Errorf("filter: unbalanced parenthesis at column %d of %q", t.pos+1, fp.src)
		}
		fp.p++
		return f, nil
	}
	if t.kind != 'w' {
		return nil, fmt.Errorf("filter: want a filter name at column %d of %q, got %q", t.pos+1, fp.src, t.text)
	}
	if fp.p >= len(fp.toks) || fp.toks[fp.p].kind != '(' {
		return nil, fmt.Errorf("filter: %s at column %d needs its arguments in parentheses, e.g. %s()", t.text, t.pos+1, t.text)
	}
	fp.p++
	var args []filterTok
	for fp.p < len(fp.toks) && fp.toks[fp.p].kind != ')' {
		a := fp.toks[fp.p]
		if a.kind == '(' || a.kind == ',' {
			return nil, fmt.Errorf("filter: unexpected %q at column %d of %q", a.text, a.pos+1, fp.src)
		}
		args = append(args, a)
		fp.p++
		if fp.p < len(fp.toks) && fp.toks[fp.p].kind == ',' {
			fp.p++
		}
	}
	if fp.p >= len(fp.toks) {
		return nil, fmt.Errorf("filter: unbalanced parenthesis after %s in %q", t.text, fp.src)
	}
	fp.p++
	f, err := buildFilter(t.text, args)
	if err != nil {
		return nil, fmt.Errorf("filter %s: %v", t.text, err)
	}
	return f, nil
}

// filterNames are the filters the language has, as ParseFilter registers them.
var filterNames = []string{
	"ColumnCountGetFilter", "ColumnPaginationFilter", "ColumnPrefixFilter", "ColumnRangeFilter",
	"ColumnValueFilter", "DependentColumnFilter", "FamilyFilter", "FirstKeyOnlyFilter",
	"InclusiveStopFilter", "KeyOnlyFilter", "MultipleColumnPrefixFilter", "PageFilter",
	"PrefixFilter", "QualifierFilter", "RowFilter", "SingleColumnValueExcludeFilter",
	"SingleColumnValueFilter", "TimestampsFilter", "ValueFilter",
}

// filterBuilder makes one named filter from its arguments.
type filterBuilder func(args filterArgs) (hrpc.Filter, error)

func buildFilter(name string, args []filterTok) (hrpc.Filter, error) {
	build := filterBuilderFor(name)
	if build == nil {
		return nil, fmt.Errorf("unknown filter: the filter language has %s", strings.Join(filterNames, ", "))
	}
	return build(filterArgs(args))
}

// filterBuilderFor is a switch rather than a map so that no package-level table can be
// changed at run time; it returns nil for a name the language does not have.
func filterBuilderFor(name string) filterBuilder {
	switch name {
	case "KeyOnlyFilter":
		return keyOnlyFilter
	case "FirstKeyOnlyFilter":
		return firstKeyOnlyFilter
	case "PrefixFilter":
		return bytesFilter(func(b []byte) hrpc.Filter { return hrpc.PrefixFilter{Prefix: b} })
	case "ColumnPrefixFilter":
		return bytesFilter(func(b []byte) hrpc.Filter { return hrpc.ColumnPrefixFilter{Prefix: b} })
	case "InclusiveStopFilter":
		return bytesFilter(func(b []byte) hrpc.Filter { return hrpc.InclusiveStopFilter{StopRow: b} })
	case "MultipleColumnPrefixFilter":
		return multipleColumnPrefixFilter
	case "PageFilter":
		return countFilter(func(n int64) hrpc.Filter { return hrpc.PageFilter{PageSize: n} })
	case "ColumnCountGetFilter":
		return countFilter(func(n int64) hrpc.Filter { return hrpc.ColumnCountGetFilter{Limit: int32(n)} })
	case "ColumnPaginationFilter":
		return columnPaginationFilter
	case "TimestampsFilter":
		return timestampsFilter
	case "RowFilter":
		return compareFilter(func(o hrpc.CompareOp, c hrpc.Comparator) hrpc.Filter { return hrpc.RowFilter{Op: o, Comparator: c} })
	case "FamilyFilter":
		return compareFilter(func(o hrpc.CompareOp, c hrpc.Comparator) hrpc.Filter { return hrpc.FamilyFilter{Op: o, Comparator: c} })
	case "QualifierFilter":
		return compareFilter(func(o hrpc.CompareOp, c hrpc.Comparator) hrpc.Filter {
			return hrpc.QualifierFilter{Op: o, Comparator: c}
		})
	case "ValueFilter":
		return compareFilter(func(o hrpc.CompareOp, c hrpc.Comparator) hrpc.Filter { return hrpc.ValueFilter{Op: o, Comparator: c} })
	case "ColumnRangeFilter":
		return columnRangeFilter
	case "SingleColumnValueFilter":
		return singleColumnValueFilter
	case "SingleColumnValueExcludeFilter":
		return singleColumnValueExcludeFilter
	case "ColumnValueFilter":
		return columnValueFilter
	case "DependentColumnFilter":
		return dependentColumnFilter
	}
	return nil
}

func keyOnlyFilter(args filterArgs) (hrpc.Filter, error) {
	if err := args.want(0, 1); err != nil {
		return nil, err
	}
	f := hrpc.KeyOnlyFilter{}
	if len(args) == 1 {
		b, err := args.boolean(0)
		if err != nil {
			return nil, err
		}
		f.LenAsValue = b
	}
	return f, nil
}

func firstKeyOnlyFilter(args filterArgs) (hrpc.Filter, error) {
	if err := args.want(0); err != nil {
		return nil, err
	}
	return hrpc.FirstKeyOnlyFilter{}, nil
}

// bytesFilter builds the filters whose one argument is a row or column prefix or key.
func bytesFilter(build func([]byte) hrpc.Filter) filterBuilder {
	return func(args filterArgs) (hrpc.Filter, error) {
		if err := args.want(1); err != nil {
			return nil, err
		}
		b, err := args.str(0)
		if err != nil {
			return nil, err
		}
		return build(b), nil
	}
}

// multipleColumnPrefixFilter takes any number of prefixes, none included.
func multipleColumnPrefixFilter(args filterArgs) (hrpc.Filter, error) {
	f := hrpc.MultipleColumnPrefixFilter{}
	for i := range args {
		b, err := args.str(i)
		if err != nil {
			return nil, err
		}
		f.Prefixes = append(f.Prefixes, b)
	}
	return f, nil
}

// countFilter builds the filters whose one argument is a limit.
func countFilter(build func(int64) hrpc.Filter) filterBuilder {
	return func(args filterArgs) (hrpc.Filter, error) {
		if err := args.want(1); err != nil {
			return nil, err
		}
		n, err := args.num(0)
		if err != nil {
			return nil, err
		}
		return build(n), nil
	}
}

func columnPaginationFilter(args filterArgs) (hrpc.Filter, error) {
	if err := args.want(2); err != nil {
		return nil, err
	}
	limit, err := args.num(0)
	if err != nil {
		return nil, err
	}
	offset, err := args.num(1)
	if err != nil {
		return nil, err
	}
	return hrpc.ColumnPaginationFilter{Limit: int32(limit), Offset: int32(offset)}, nil
}

// timestampsFilter takes any number of timestamps, none included.
func timestampsFilter(args filterArgs) (hrpc.Filter, error) {
	f := hrpc.TimestampsFilter{}
	for i := range args {
		n, err := args.num(i)
		if err != nil {
			return nil, err
		}
		f.Timestamps = append(f.Timestamps, n)
	}
	return f, nil
}

// compareFilter builds the filters of an operator and a comparator (RowFilter and its kin).
func compareFilter(build func(hrpc.CompareOp, hrpc.Comparator) hrpc.Filter) filterBuilder {
	return func(args filterArgs) (hrpc.Filter, error) {
		if err := args.want(2); err != nil {
			return nil, err
		}
		o, err := args.op(0)
		if err != nil {
			return nil, err
		}
		c, err := args.comparator(1, o)
		if err != nil {
			return nil, err
		}
		return build(o, c), nil
	}
}

func columnRangeFilter(args filterArgs) (hrpc.Filter, error) {
	if err := args.want(4); err != nil {
		return nil, err
	}
	minCol, err := args.str(0)
	if err != nil {
		return nil, err
	}
	minIncl, err := args.boolean(1)
	if err != nil {
		return nil, err
	}
	maxCol, err := args.str(2)
	if err != nil {
		return nil, err
	}
	maxIncl, err := args.boolean(3)
	if err != nil {
		return nil, err
	}
	f := hrpc.ColumnRangeFilter{MinInclusive: minIncl, MaxInclusive: maxIncl}
	// An empty quoted bound means "unbounded", which the filter says with a nil slice.
	if len(minCol) > 0 {
		f.Min = minCol
	}
	if len(maxCol) > 0 {
		f.Max = maxCol
	}
	return f, nil
}

// columnCompare is the family, qualifier, operator and comparator that the column value
// filters all begin with.
type columnCompare struct {
	family, qualifier []byte
	op                hrpc.CompareOp
	comparator        hrpc.Comparator
}

func (args filterArgs) columnCompare() (columnCompare, error) {
	var cc columnCompare
	var err error
	if cc.family, err = args.str(0); err != nil {
		return cc, err
	}
	if cc.qualifier, err = args.str(1); err != nil {
		return cc, err
	}
	if cc.op, err = args.op(2); err != nil {
		return cc, err
	}
	cc.comparator, err = args.comparator(3, cc.op)
	return cc, err
}

func columnValueFilter(args filterArgs) (hrpc.Filter, error) {
	if err := args.want(4); err != nil {
		return nil, err
	}
	cc, err := args.columnCompare()
	if err != nil {
		return nil, err
	}
	return hrpc.ColumnValueFilter{Family: cc.family, Qualifier: cc.qualifier, Op: cc.op, Comparator: cc.comparator}, nil
}

func singleColumnValueExcludeFilter(args filterArgs) (hrpc.Filter, error) {
	f, err := singleColumnValue(args)
	if err != nil {
		return nil, err
	}
	return hrpc.SingleColumnValueExcludeFilter(f), nil
}

func singleColumnValueFilter(args filterArgs) (hrpc.Filter, error) {
	f, err := singleColumnValue(args)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// singleColumnValue reads the arguments SingleColumnValueFilter and its Exclude variant share:
// a column compare, then optionally filterIfMissing and latestVersionOnly.
func singleColumnValue(args filterArgs) (hrpc.SingleColumnValueFilter, error) {
	if err := args.want(4, 6); err != nil {
		return hrpc.SingleColumnValueFilter{}, err
	}
	cc, err := args.columnCompare()
	if err != nil {
		return hrpc.SingleColumnValueFilter{}, err
	}
	f := hrpc.SingleColumnValueFilter{Family: cc.family, Qualifier: cc.qualifier, Op: cc.op, Comparator: cc.comparator}
	if len(args) == 6 {
		if f.FilterIfMissing, err = args.boolean(4); err != nil {
			return hrpc.SingleColumnValueFilter{}, err
		}
		latestOnly, err := args.boolean(5)
		if err != nil {
			return hrpc.SingleColumnValueFilter{}, err
		}
		f.AllVersions = !latestOnly
	}
	return f, nil
}

func dependentColumnFilter(args filterArgs) (hrpc.Filter, error) {
	if err := args.want(2, 3, 5); err != nil {
		return nil, err
	}
	fam, err := args.str(0)
	if err != nil {
		return nil, err
	}
	qual, err := args.str(1)
	if err != nil {
		return nil, err
	}
	f := hrpc.DependentColumnFilter{Family: fam, Qualifier: qual}
	if len(args) >= 3 {
		if f.DropDependentColumn, err = args.boolean(2); err != nil {
			return nil, err
		}
	}
	if len(args) == 5 {
		if f.Op, err = args.op(3); err != nil {
			return nil, err
		}
		if f.Comparator, err = args.comparator(4, f.Op); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// filterArgs are a filter's arguments; its methods read one argument as a given type, with
// an error that names the argument by its 1-based position, as the user counts them.
type filterArgs []filterTok

func (args filterArgs) want(counts ...int) error {
	for _, n := range counts {
		if len(args) == n {
			return nil
		}
	}
	ns := make([]string, len(counts))
	for i, n := range counts {
		ns[i] = strconv.Itoa(n)
	}
	return fmt.Errorf("want %s arguments, got %d", strings.Join(ns, " or "), len(args))
}

func (args filterArgs) str(i int) ([]byte, error) {
	if args[i].kind != 's' {
		return nil, fmt.Errorf("argument %d: want a quoted string, got %s", i+1, args[i].text)
	}
	return []byte(args[i].text), nil
}

func (args filterArgs) num(i int) (int64, error) {
	if args[i].kind != 'n' {
		return 0, fmt.Errorf("argument %d: want a number, got %q", i+1, args[i].text)
	}
	n, err := strconv.ParseInt(args[i].text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("argument %d: want an integer, got %q", i+1, args[i].text)
	}
	return n, nil
}

func (args filterArgs) boolean(i int) (bool, error) {
	if args[i].kind == 'w' {
		switch strings.ToLower(args[i].text) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return false, fmt.Errorf("argument %d: want true or false, got %q", i+1, args[i].text)
}

func (args filterArgs) op(i int) (hrpc.CompareOp, error) {
	if args[i].kind == 'o' {
		switch args[i].text {
		case "<":
			return hrpc.Less, nil
		case "<=":
			return hrpc.LessOrEqual, nil
		case "=":
			return hrpc.Equal, nil
		case "!=":
			return hrpc.NotEqual, nil
		case ">":
			return hrpc.Greater, nil
		case ">=":
			return hrpc.GreaterOrEqual, nil
		}
	}
	return 0, fmt.Errorf("argument %d: want a compare operator (<, <=, =, !=, >, >=), got %q", i+1, args[i].text)
}

// comparator reads a 'type:value' argument; o is the filter's operator, because HBase
// refuses a regexstring or substring comparator with any operator but = and !=.
func (args filterArgs) comparator(i int, o hrpc.CompareOp) (hrpc.Comparator, error) {
	b, err := args.str(i)
	if err != nil {
		return nil, err
	}
	kind, operand, ok := strings.Cut(string(b), ":")
	if !ok {
		return nil, fmt.Errorf("argument %d: want a comparator 'type:value' (binary, binaryprefix, regexstring or substring), got '%s'", i+1, b)
	}
	var c hrpc.Comparator
	switch strings.ToLower(kind) {
	case "binary":
		c = hrpc.BinaryComparator{Value: []byte(operand)}
	case "binaryprefix":
		c = hrpc.BinaryPrefixComparator{Value: []byte(operand)}
	case "regexstring":
		c = hrpc.RegexStringComparator{Pattern: operand}
	case "substring":
		c = hrpc.SubstringComparator{Substr: operand}
	default:
		return nil, fmt.Errorf("argument %d: unknown comparator %q: want binary, binaryprefix, regexstring or substring", i+1, kind)
	}
	if (strings.EqualFold(kind, "regexstring") || strings.EqualFold(kind, "substring")) && o != hrpc.Equal && o != hrpc.NotEqual {
		return nil, fmt.Errorf("a %s comparator goes only with = or !=", kind)
	}
	return c, nil
}
