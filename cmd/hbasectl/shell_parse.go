package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

type valueKind int

const (
	vString valueKind = iota
	vInt
	vFloat
	vBool
	vNil
	vHash
	vArray
	vConst // one of the shell's constants; s holds its name, which is also its value
)

// value is one argument of a shell command, or an element of an array or hash in it.
type value struct {
	kind valueKind
	s    string
	i    int64
	f    float64
	b    bool
	hash []hashEntry
	arr  []value
	pos  int
}

type hashEntry struct {
	key    string
	keyPos int
	val    value
}

// statement is one command of a runbook: its verb and arguments, and its text for messages.
type statement struct {
	verb string
	args []value
	text string
	line int // 1-based line of the input where it starts
}

// shellConstants are the upper-case names the HBase shell defines (HConstants, the
// descriptors' attribute names, the shell's own option keys). In the shell each is the
// string of its own name, as here; any other upper-case word is refused.
var shellConstants = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`
		NAME VERSIONS MIN_VERSIONS TTL COMPRESSION COMPRESSION_COMPACT BLOOMFILTER BLOCKSIZE
		BLOCKCACHE IN_MEMORY IN_MEMORY_COMPACTION KEEP_DELETED_CELLS DATA_BLOCK_ENCODING
		REPLICATION_SCOPE CACHE_DATA_ON_WRITE CACHE_INDEX_ON_WRITE CACHE_BLOOMS_ON_WRITE
		EVICT_BLOCKS_ON_CLOSE PREFETCH_BLOCKS_ON_OPEN ENCRYPTION ENCRYPTION_KEY IS_MOB
		MOB_THRESHOLD MOB_COMPACT_PARTITION_POLICY DFS_REPLICATION STORAGE_POLICY
		NEW_VERSION_BEHAVIOR
		SPLITS SPLITS_FILE NUMREGIONS SPLITALGO REGION_REPLICATION REGION_MEMSTORE_REPLICATION
		MAX_FILESIZE READONLY MEMSTORE_FLUSHSIZE DURABILITY NORMALIZATION_ENABLED
		NORMALIZER_TARGET_REGION_COUNT NORMALIZER_TARGET_REGION_SIZE NORMALIZER_TARGET_REGION_SIZE_MB
		COMPACTION_ENABLED SPLIT_ENABLED MERGE_ENABLED SPLIT_POLICY OWNER PRIORITY FLUSH_POLICY
		METADATA CONFIGURATION METHOD TABLE_ATT_REGEX
		COLUMN COLUMNS STARTROW STOPROW ROWPREFIXFILTER FILTER TIMERANGE TIMESTAMP LIMIT RAW
		CONSISTENCY REGION_REPLICA_ID CACHE CACHE_BLOCKS REVERSED ATTRIBUTES AUTHORIZATIONS
		VISIBILITY ACL MAXLENGTH FORMATTER FORMATTER_CLASS BATCH MAXRESULTSIZE ALL_METRICS METRICS
		INTERVAL ISOLATION_LEVEL START_ROW STOP_ROW
		TYPE USER GROUP TABLE NAMESPACE REGIONSERVER LIMIT POLICY SPACE THROTTLE GLOBAL_BYPASS
		CLUSTER_KEY ENDPOINT_CLASSNAME DATA TABLE_CFS NAMESPACES STATE SERIAL BANDWIDTH
		REPLICATE_ALL EXCLUDE_NAMESPACES EXCLUDE_TABLE_CFS REMOTE_WALDIR REMOTE_WAL_DIR CONFIG
		SKIP_FLUSH MAX_RESULT_SIZE REGION_REPLICA_ID ONLINE
		STRONG TIMELINE
		TABLE_NAMES REGEX
		THROTTLE_TYPE REQUEST READ WRITE SCOPE CLUSTER MACHINE NONE NO_INSERTS NO_WRITES
		NO_WRITES_COMPACTIONS DISABLE READ_NUMBER READ_SIZE WRITE_NUMBER WRITE_SIZE REQUEST_NUMBER
		REQUEST_SIZE REQUEST_CAPACITY_UNIT WRITE_CAPACITY_UNIT READ_CAPACITY_UNIT`) {
		m[n] = true
	}
	return m
}()

// parseError is bad input in a command: it is never sent.
type parseError struct {
	msg string
}

func (e *parseError) Error() string { return e.msg }

type parser struct {
	src  string
	toks []token
	p    int
}

// parseScript reads every command of src. Nothing runs before the whole input has parsed.
func parseScript(src string) ([]statement, error) {
	toks, err := lex(src)
	if err != nil {
		le := err.(*lexError)
		return nil, &parseError{fmt.Sprintf("line %d: %s", lineOf(src, le.pos), le.msg)}
	}
	ps := &parser{src: src, toks: toks}
	var out []statement
	for {
		for ps.peek().kind == tokSemi {
			ps.p++
		}
		if ps.peek().kind == tokEOF {
			return out, nil
		}
		st, err := ps.statement()
		if err != nil {
			return nil, &parseError{fmt.Sprintf("line %d: %s", lineOf(src, ps.peek().pos), err.Error())}
		}
		out = append(out, st)
	}
}

func lineOf(src string, pos int) int {
	return strings.Count(src[:min(pos, len(src))], "\n") + 1
}

func (ps *parser) peek() token { return ps.toks[ps.p] }

func (ps *parser) next() token {
	t := ps.toks[ps.p]
	if t.kind != tokEOF {
		ps.p++
	}
	return t
}

// describeTok names a token in a message.
func (ps *parser) describeTok(t token) string {
	switch t.kind {
	case tokEOF:
		return "the end of the input"
	case tokSemi:
		return "the end of the command"
	case tokString:
		return strconv.Quote(t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

// rubyRest is the text of the input from t to the end of its line, to name an expression.
func (ps *parser) rubyRest(t token) string {
	end := strings.IndexByte(ps.src[t.pos:], '\n')
	if end < 0 {
		end = len(ps.src) - t.pos
	}
	s := strings.TrimSpace(ps.src[t.pos : t.pos+end])
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

func (ps *parser) notTaken(t token) error {
	return fmt.Errorf("%q is a Ruby expression the shell language here does not take (it takes quoted strings, numbers, true/false/nil, the shell's constants, [arrays] and {hashes})", ps.rubyRest(t))
}

func (ps *parser) statement() (statement, error) {
	start := ps.peek()
	if start.kind != tokIdent {
		return statement{}, fmt.Errorf("want a command name, got %s", ps.describeTok(start))
	}
	ps.next()
	st := statement{verb: start.text, line: lineOf(ps.src, start.pos)}
	// A Ruby assignment or method call on the first word (t = get_table 't'; t.scan) is not
	// a shell command.
	if k := ps.peek().kind; k == tokOther {
		return statement{}, ps.notTaken(start)
	}
	var err error
	if ps.peek().kind == tokLParen && ps.peek().pos == start.pos+len(start.text) {
		ps.next()
		st.args, err = ps.args(tokRParen)
		if err == nil {
			if t := ps.next(); t.kind != tokRParen {
				err = fmt.Errorf("want ) after the arguments of %s, got %s", st.verb, ps.describeTok(t))
			}
		}
	} else {
		st.args, err = ps.args(tokSemi)
	}
	if err != nil {
		return statement{}, err
	}
	if t := ps.peek(); t.kind != tokSemi && t.kind != tokEOF {
		if t.kind == tokOther || t.kind == tokIdent {
			return statement{}, ps.notTaken(t)
		}
		return statement{}, fmt.Errorf("unexpected %s after the arguments of %s (arguments are separated by commas)", ps.describeTok(t), st.verb)
	}
	end := len(ps.src)
	if t := ps.peek(); t.kind != tokEOF {
		end = t.pos
	}
	st.text = strings.TrimSpace(ps.src[start.pos:end])
	return st, nil
}

// args reads comma-separated arguments up to end (not consumed). Trailing KEY => value pairs
// without braces are one hash, as in Ruby.
func (ps *parser) args(end tokenKind) ([]value, error) {
	var out []value
	atEnd := func() bool {
		k := ps.peek().kind
		return k == end || k == tokEOF || k == tokSemi && end == tokSemi
	}
	if atEnd() {
		return nil, nil
	}
	for {
		v, err := ps.value()
		if err != nil {
			return nil, err
		}
		if ps.peek().kind == tokArrow {
			h, err := ps.hashBody(v, end)
			if err != nil {
				return nil, err
			}
			return append(out, h), nil
		}
		out = append(out, v)
		if ps.peek().kind != tokComma {
			return out, nil
		}
		ps.next()
	}
}

// hashBody reads `key => value, ...` whose first key is already read, up to end.
func (ps *parser) hashBody(first value, end tokenKind) (value, error) {
	h := value{kind: vHash, pos: first.pos}
	key := first
	for {
		if key.kind != vString && key.kind != vConst {
			return value{}, fmt.Errorf("a hash key must be a quoted string or a constant, got %s", key.describe())
		}
		if t := ps.next(); t.kind != tokArrow {
			return value{}, fmt.Errorf("want => after %s, got %s", key.describe(), ps.describeTok(t))
		}
		v, err := ps.value()
		if err != nil {
			return value{}, err
		}
		for _, e := range h.hash {
			if e.key == key.s {
				return value{}, fmt.Errorf("%s is given twice in one hash", key.s)
			}
		}
		h.hash = append(h.hash, hashEntry{key: key.s, keyPos: key.pos, val: v})
		if ps.peek().kind != tokComma {
			return h, nil
		}
		ps.next()
		if k := ps.peek().kind; k == end || k == tokRBrace && end == tokRBrace {
			return h, nil // a trailing comma
		}
		if key, err = ps.value(); err != nil {
			return value{}, err
		}
	}
}

func (ps *parser) value() (value, error) {
	t := ps.next()
	switch t.kind {
	case tokString:
		return value{kind: vString, s: t.text, pos: t.pos}, nil
	case tokInt:
		return value{kind: vInt, i: t.i, pos: t.pos}, nil
	case tokFloat:
		return value{kind: vFloat, f: t.f, pos: t.pos}, nil
	case tokColon:
		name := ps.next()
		return value{kind: vString, s: name.text, pos: t.pos}, nil
	case tokIdent:
		if k := ps.peek().kind; k == tokOther || k == tokLParen && ps.peek().pos == t.pos+len(t.text) {
			return value{}, ps.notTaken(t)
		}
		switch t.text {
		case "true", "false":
			return value{kind: vBool, b: t.text == "true", pos: t.pos}, nil
		case "nil":
			return value{kind: vNil, pos: t.pos}, nil
		}
		if shellConstants[t.text] {
			return value{kind: vConst, s: t.text, pos: t.pos}, nil
		}
		if strings.ToUpper(t.text) == t.text && isIdentStart(t.text[0]) {
			return value{}, fmt.Errorf("unknown constant %s (quote it if it is a name: '%s')", t.text, t.text)
		}
		return value{}, ps.notTaken(t)
	case tokLBracket:
		arr := value{kind: vArray, pos: t.pos, arr: []value{}}
		for ps.peek().kind != tokRBracket {
			v, err := ps.value()
			if err != nil {
				return value{}, err
			}
			arr.arr = append(arr.arr, v)
			if ps.peek().kind != tokComma {
				break
			}
			ps.next()
		}
		if t := ps.next(); t.kind != tokRBracket {
			return value{}, fmt.Errorf("want ] or , in an array, got %s", ps.describeTok(t))
		}
		return arr, nil
	case tokLBrace:
		if ps.peek().kind == tokRBrace {
			ps.next()
			return value{kind: vHash, pos: t.pos}, nil
		}
		first, err := ps.value()
		if err != nil {
			return value{}, err
		}
		h, err := ps.hashBody(first, tokRBrace)
		if err != nil {
			return value{}, err
		}
		if t := ps.next(); t.kind != tokRBrace {
			return value{}, fmt.Errorf("want } or , in a hash, got %s", ps.describeTok(t))
		}
		h.pos = t.pos
		return h, nil
	case tokOther:
		return value{}, ps.notTaken(t)
	}
	return value{}, fmt.Errorf("want a value, got %s", ps.describeTok(t))
}

// describe names a value in a message as the user wrote it, roughly.
func (v value) describe() string {
	switch v.kind {
	case vString:
		return "'" + formatBinary([]byte(v.s)) + "'"
	case vInt:
		return strconv.FormatInt(v.i, 10)
	case vFloat:
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	case vBool:
		return strconv.FormatBool(v.b)
	case vNil:
		return "nil"
	case vConst:
		return v.s
	case vArray:
		return "an array"
	case vHash:
		return "a hash"
	}
	return "?"
}

// get returns the entry key of a hash.
func (v value) get(key string) (value, bool) {
	for _, e := range v.hash {
		if e.key == key {
			return e.val, true
		}
	}
	return value{}, false
}

// checkKeys refuses any key of h not in allowed.
func checkKeys(verb string, h value, allowed ...string) error {
	for _, e := range h.hash {
		if !slices.Contains(allowed, e.key) {
			return fmt.Errorf("%s does not take %s (it takes %s)", verb, e.key, strings.Join(allowed, ", "))
		}
	}
	return nil
}
