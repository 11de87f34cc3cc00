package conformance

import (
	"slices"
	"strings"

	"github.com/go-hbase/hbase/hrpc"
)

// The calls package doc (the document layer) makes, in its shapes: the version cell as a
// CheckAndMutate's condition (absent, or equal to exact binary bytes) over a Delete of columns
// or of the family below the write's timestamp and a Put at it; selections of qualifiers
// (an OR of exact qualifiers and of a MultipleColumnPrefixFilter, whose prefixes never nest);
// conditions as SingleColumnValueFilters with FilterIfMissing over binary values, binary
// prefixes and NullComparator, ANDed with a selection; index rows deleted up to a timestamp
// and put again above and below it, in batches and alone; batches of Gets with filters.
// Qualifiers and values hold the layer's punctuation and tag bytes.

// docMeta is a version cell: state, then 32 bytes.
func docMeta(state, n byte) []byte {
	v := make([]byte, 33)
	v[0] = state
	v[8], v[16] = n, n
	return v
}

// docNum is a number's cell value: tag 0x04, eight ordered bytes, two residual bytes, the kind.
func docNum(hi byte, kind byte) []byte {
	return []byte{0x04, hi, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, kind}
}

func docStr(s string) []byte { return append([]byte{0x05}, s...) }

// selectionOf is the layer's filter of exact qualifiers and subtrees: a
// MultipleColumnPrefixFilter of the version cell and the subtrees' paths, none a prefix of
// another (each also lets through the siblings whose keys start like it), ORed with a
// QualifierFilter per exact qualifier no prefix covers.
func selectionOf(exact []string, subtrees []string) hrpc.Filter {
	all := append([]string{"#v"}, subtrees...)
	slices.Sort(all)
	var prefixes [][]byte
	last := ""
	for _, p := range all {
		if len(prefixes) > 0 && strings.HasPrefix(p, last) {
			continue
		}
		prefixes = append(prefixes, b(p))
		last = p
	}
	mcpf := &hrpc.MultipleColumnPrefixFilter{Prefixes: prefixes}
	var fs []hrpc.Filter
	for _, q := range exact {
		if !slices.ContainsFunc(prefixes, func(p []byte) bool { return strings.HasPrefix(q, string(p)) }) {
			fs = append(fs, &hrpc.QualifierFilter{Op: hrpc.Equal, Comparator: bin(q)})
		}
	}
	if len(fs) == 0 {
		return mcpf
	}
	return hrpc.NewFilterList(hrpc.MustPassOne, append(fs, mcpf)...)
}

// docRow writes a document's cells at ts 10: version cell, an object, an array of three, a
// quoted key, a string and numbers.
func (e *env) docRow(row string, state byte) {
	e.put(row, hrpc.Timestamp(10),
		hrpc.Value(f, b("#v"), docMeta(state, 1)),
		hrpc.Value(f, b(".a"), []byte{0x06}),
		hrpc.Value(f, b(".a.b"), docNum(0xc0, 1)),
		hrpc.Value(f, b(".a.bc"), docStr("x")),
		hrpc.Value(f, b(".a b"), docStr("y")),
		hrpc.Value(f, b(".l"), []byte{0x07, 3}),
		hrpc.Value(f, b(".l[0]"), docStr("p")),
		hrpc.Value(f, b(".l[1]"), []byte{0x06}),
		hrpc.Value(f, b(".l[1].k"), []byte{0x01}),
		hrpc.Value(f, b(".l[2]"), docNum(0x40, 0)),
		hrpc.Value(f, b(`.["a.b"]`), docStr("quoted\x00nul")),
		hrpc.Value(f, b(".s"), docStr("abc")))
}

var docCases = []kase{
	{"doc_selection_get", oneFamily, func(e *env) {
		e.docRow("d1", 0)
		e.get("subtrees .a and .l[1]", "d1", hrpc.Families(f), wf(selectionOf(nil, []string{".a", ".l[1]"})))
		e.get("subtrees .a.b and .a", "d1", hrpc.Families(f), wf(selectionOf(nil, []string{".a.b", ".a"})))
		e.get("subtree .l[1], exact .l and .a", "d1", hrpc.Families(f), wf(selectionOf([]string{".l", ".a"}, []string{".l[1]"})))
		e.get("quoted key", "d1", hrpc.Families(f), wf(selectionOf(nil, []string{`.["a.b"]`})))
		e.get("nothing there", "d1", hrpc.Families(f), wf(selectionOf(nil, []string{".zz"})))
		e.get("nested prefixes (the layer never sends them)", "d1", hrpc.Families(f),
			wf(&hrpc.MultipleColumnPrefixFilter{Prefixes: [][]byte{b(".l["), b(".l[1].")}}))
		e.get("columns", "d1", hrpc.Columns(f, b("#v"), b(".s"), b(".missing")))
		e.get("missing row", "d0", hrpc.Families(f), wf(selectionOf(nil, []string{".a"})))
	}},
	{"doc_version_writes", oneFamily, func(e *env) {
		put := func(ts uint64, n byte, opts ...hrpc.PutOption) hrpc.Mutation {
			return e.putMut("d1", append([]hrpc.PutOption{hrpc.Timestamp(ts), hrpc.Value(f, b("#v"), docMeta(0, n))}, opts...)...)
		}
		e.cam("insert", hrpc.IfNotExists(f, b("#v")), put(20, 1, hrpc.Value(f, b(".a"), docStr("1")), hrpc.Value(f, b(".b"), docStr("2"))))
		e.cam("insert again", hrpc.IfNotExists(f, b("#v")), put(21, 1))
		e.camRow("update at a stale version", hrpc.IfValue(f, b("#v"), hrpc.Equal, docMeta(0, 9)),
			e.delMut("d1", hrpc.Timestamp(21), hrpc.DeleteColumn(f, b(".a"))), put(22, 2))
		e.camRow("update", hrpc.IfValue(f, b("#v"), hrpc.Equal, docMeta(0, 1)),
			e.delMut("d1", hrpc.Timestamp(21), hrpc.DeleteColumn(f, b(".a"))), put(22, 2, hrpc.Value(f, b(".c"), docStr("3"))))
		e.get("after update", "d1")
		e.camRow("replace", hrpc.IfValue(f, b("#v"), hrpc.Equal, docMeta(0, 2)),
			e.delMut("d1", hrpc.Timestamp(22), hrpc.DeleteFamily(f)), put(23, 3, hrpc.Value(f, b(".c"), docStr("new"))))
		e.get("after replace", "d1")
		e.camRow("delete", hrpc.IfValue(f, b("#v"), hrpc.Equal, docMeta(0, 3)),
			e.delMut("d1", hrpc.Timestamp(23), hrpc.DeleteFamily(f)), e.putMut("d1", hrpc.Timestamp(24), hrpc.Value(f, b("#v"), docMeta(1, 4))))
		e.get("tombstone", "d1")
		e.camRow("insert over the tombstone", hrpc.IfValue(f, b("#v"), hrpc.Equal, docMeta(1, 4)),
			e.delMut("d1", hrpc.Timestamp(24), hrpc.DeleteFamily(f)), put(25, 5, hrpc.Value(f, b(".a"), docStr("again"))))
		e.get("inserted again", "d1")
	}},
	{"doc_query_filters", oneFamily, func(e *env) {
		e.docRow("d1", 0)
		e.docRow("d2", 1) // a tombstone's version cell with a document's cells: dropped by live
		e.put("d3", hrpc.Timestamp(10), hrpc.Value(f, b("#v"), docMeta(0, 1)), hrpc.Value(f, b(".a.b"), docNum(0xc0, 0)),
			hrpc.Value(f, b(".s"), docStr("abd")))
		e.put("d4", hrpc.Timestamp(10), hrpc.Value(f, b(".s"), docStr("abc"))) // no version cell
		live := &hrpc.SingleColumnValueFilter{Family: f, Qualifier: b("#v"), Op: hrpc.Less, Comparator: bin("\x01"), FilterIfMissing: true}
		scvf := func(q string, op hrpc.CompareOp, cmp hrpc.Comparator) hrpc.Filter {
			return &hrpc.SingleColumnValueFilter{Family: f, Qualifier: b(q), Op: op, Comparator: cmp, FilterIfMissing: true}
		}
		and := func(fs ...hrpc.Filter) hrpc.ReadOption { return wf(hrpc.NewFilterList(hrpc.MustPassAll, fs...)) }
		e.scan("live", hrpc.Families(f), and(live))
		e.scan("number equal, any kind", hrpc.Families(f), and(live, scvf(".a.b", hrpc.Equal, hrpc.BinaryPrefixComparator{Value: docNum(0xc0, 0)[:11]})))
		e.scan("number range", hrpc.Families(f), and(live,
			scvf(".a.b", hrpc.Greater, bin(string(append(docNum(0xbf, 0)[:11], 0xff)))),
			scvf(".a.b", hrpc.Less, bin("\x05"))))
		e.scan("string prefix", hrpc.Families(f), and(live, scvf(".s", hrpc.Equal, hrpc.BinaryPrefixComparator{Value: docStr("ab")})))
		e.scan("string range", hrpc.Families(f), and(live, scvf(".s", hrpc.GreaterOrEqual, bin("\x05abd")), scvf(".s", hrpc.LessOrEqual, bin("\x05abz"))))
		e.scan("exists", hrpc.Families(f), and(live, scvf(".l[1].k", hrpc.NotEqual, hrpc.NullComparator{})))
		e.scan("or", hrpc.Families(f), and(live, hrpc.NewFilterList(hrpc.MustPassOne,
			scvf(".s", hrpc.Equal, bin("\x05abd")), scvf(`.["a.b"]`, hrpc.Equal, hrpc.BinaryPrefixComparator{Value: docStr("quoted")}))))
		e.scan("condition and projection", hrpc.Families(f), and(live,
			scvf(".s", hrpc.Equal, hrpc.BinaryPrefixComparator{Value: docStr("ab")}),
			selectionOf(nil, []string{".s", ".l[1]"})))
		e.scan("id range", hrpc.Families(f), hrpc.StartRow(b("d2")), hrpc.StopRow(b("d4")), and(live))
	}},
	{"doc_index_rows", oneFamily, func(e *env) {
		row := func(key, id string) string { return "by-a\x00" + key + id }
		put := func(r string, ts uint64) hrpc.Batchable {
			p, _ := hrpc.NewPut(e.tb, b(r), hrpc.Timestamp(ts), hrpc.Value(f, b("i"), nil))
			return p
		}
		del := func(r string, ts uint64) hrpc.Batchable {
			d, _ := hrpc.NewDelete(e.tb, b(r), hrpc.Timestamp(ts))
			return d
		}
		e.batch("put rows", put(row("\x05x\x00\x01", "d1"), 10), put(row("\x05x\x00\xff\x00\x01", "d2"), 10),
			put(row("\x05y\x00\x01", "d1"), 10), put(row("\x04\xc0\x00\x00\x00\x00\x00\x00\x00\x80\x00", "d3"), 10))
		e.batch("remove x of d1 up to 10", del(row("\x05x\x00\x01", "d1"), 10))
		e.batch("a late removal of y up to 9", del(row("\x05y\x00\x01", "d1"), 9))
		e.batch("x of d1 again at 12, y of d9 at 8", put(row("\x05x\x00\x01", "d1"), 12), put(row("\x05y\x00\x01", "d9"), 8))
		e.batch("remove y of d9 up to 8", del(row("\x05y\x00\x01", "d9"), 8))
		// One mutation goes alone (Put or Delete, not a batch): z of d5 at 14, removed up to 13
		// (nothing), then up to 14.
		e.put(row("\x05z\x00\x01", "d5"), hrpc.Timestamp(14), hrpc.Value(f, b("i"), nil))
		e.del(row("\x05z\x00\x01", "d5"), hrpc.Timestamp(13))
		e.get("z of d5 after a removal below it", row("\x05z\x00\x01", "d5"), hrpc.Families(f))
		e.del(row("\x05z\x00\x01", "d5"), hrpc.Timestamp(14))
		e.get("z of d5 after a removal at it", row("\x05z\x00\x01", "d5"), hrpc.Families(f))
		e.scan("index", hrpc.Families(f), hrpc.Prefix(b("by-a\x00")))
		e.scan("value x", hrpc.Families(f), hrpc.Prefix(b(row("\x05x\x00\x01", ""))))
		e.scan("strings from x", hrpc.Families(f), hrpc.StartRow(b(row("\x05x", ""))), hrpc.StopRow(b("by-a\x00\x06")))
		e.batch("gets", e.getCall(row("\x05x\x00\x01", "d1"), hrpc.Families(f)), e.getCall(row("\x05z\x00\x01", "d1"), hrpc.Families(f)),
			e.getCall("d1", hrpc.Families(f), wf(selectionOf(nil, []string{".a"}))))
	}},
}
