package doc

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// Cond is a condition on a document's paths, for Find. Build it with Eq, Lt, Le, Gt, Ge,
// Between, HasPrefix, Exists, Contains, And and Or; the zero Cond matches every document.
// Comparisons are of scalars of one type: numbers with numbers (an int64 and a float64 compare
// by value, exactly), strings with strings (by bytes), booleans (false before true) and null;
// a document whose value at the path is of another type, a container or missing does not
// match. Find pushes conditions down to the servers as filters where HBase's filters can say
// them, and checks every document it returns itself.
type Cond struct {
	kind   condKind
	path   string
	lo, hi any // range bounds (lo for Eq, HasPrefix's string, Contains' value)
	loInc  bool
	hiInc  bool
	hasLo  bool
	hasHi  bool
	subs   []Cond
}

type condKind uint8

const (
	condAll condKind = iota
	condRange
	condPrefix
	condExists
	condContains
	condAnd
	condOr
)

// Eq matches documents whose value at path equals v (a scalar).
func Eq(path string, v any) Cond {
	return Cond{kind: condRange, path: path, lo: v, hi: v, loInc: true, hiInc: true, hasLo: true, hasHi: true}
}

// Lt matches documents whose value at path is below v (of v's type).
func Lt(path string, v any) Cond { return Cond{kind: condRange, path: path, hi: v, hasHi: true} }

// Le matches documents whose value at path is at most v (of v's type).
func Le(path string, v any) Cond {
	return Cond{kind: condRange, path: path, hi: v, hasHi: true, hiInc: true}
}

// Gt matches documents whose value at path is above v (of v's type).
func Gt(path string, v any) Cond { return Cond{kind: condRange, path: path, lo: v, hasLo: true} }

// Ge matches documents whose value at path is at least v (of v's type).
func Ge(path string, v any) Cond {
	return Cond{kind: condRange, path: path, lo: v, hasLo: true, loInc: true}
}

// Between matches documents whose value at path is in [lo, hi] (both of one type).
func Between(path string, lo, hi any) Cond {
	return Cond{kind: condRange, path: path, lo: lo, hi: hi, hasLo: true, hasHi: true, loInc: true, hiInc: true}
}

// HasPrefix matches documents whose value at path is a string starting with prefix.
func HasPrefix(path, prefix string) Cond { return Cond{kind: condPrefix, path: path, lo: prefix} }

// Exists matches documents that have a value at path (null included).
func Exists(path string) Cond { return Cond{kind: condExists, path: path} }

// Contains matches documents whose value at path is an array with an element equal to v (a
// scalar). An index on path serves it (an array's scalar elements are its keys).
func Contains(path string, v any) Cond { return Cond{kind: condContains, path: path, lo: v} }

// And matches documents that every condition matches.
func And(conds ...Cond) Cond { return Cond{kind: condAnd, subs: conds} }

// Or matches documents that any condition matches.
func Or(conds ...Cond) Cond { return Cond{kind: condOr, subs: conds} }

// cond is a Cond checked: its path's segments and qualifier, its bounds as keys (scalarKey)
// and as cell values (for filters).
type cond struct {
	kind         condKind
	q            string
	segs         []segment
	lo, hi       any
	loKey, hiKey []byte // scalarKey of the bounds (nil: open)
	tag          byte   // the type of the bounds
	loInc, hiInc bool
	prefix       string
	subs         []*cond
}

// compile checks a Cond and converts its values.
func (c *Collection) compile(k Cond) (*cond, error) {
	out := &cond{kind: k.kind, loInc: k.loInc, hiInc: k.hiInc}
	switch k.kind {
	case condAll:
		return out, nil
	case condAnd, condOr:
		for _, s := range k.subs {
			cs, err := c.compile(s)
			if err != nil {
				return nil, err
			}
			out.subs = append(out.subs, cs)
		}
		return out, nil
	}
	segs, err := parsePath(k.path)
	if err != nil {
		return nil, err
	}
	out.segs, out.q = segs, formatPath(segs)
	scalar := func(v any, what string) (any, error) {
		s, err := c.canonicalValue(v, out.q, 0)
		if err != nil {
			return nil, err
		}
		switch s.(type) {
		case map[string]any, []any:
			return nil, fmt.Errorf("%w: %s: %s is %s, not a scalar", hberr.ErrInvalidQuery, out.q, what, kindName(s))
		}
		return s, nil
	}
	switch k.kind {
	case condRange:
		if k.hasLo {
			if out.lo, err = scalar(k.lo, "the bound"); err != nil {
				return nil, err
			}
			out.loKey = scalarKey(nil, out.lo)
			out.tag = out.loKey[0]
		}
		if k.hasHi {
			if out.hi, err = scalar(k.hi, "the bound"); err != nil {
				return nil, err
			}
			out.hiKey = scalarKey(nil, out.hi)
			if k.hasLo && typeClass(out.hiKey[0]) != typeClass(out.tag) {
				return nil, fmt.Errorf("%w: %s: bounds of two types (%s and %s)", hberr.ErrInvalidQuery, out.q, kindName(out.lo), kindName(out.hi))
			}
			out.tag = out.hiKey[0]
		}
		if !k.hasLo && !k.hasHi {
			return nil, fmt.Errorf("%w: %s: a range without bounds", hberr.ErrInvalidQuery, out.q)
		}
	case condPrefix:
		s, ok := k.lo.(string)
		if !ok {
			return nil, fmt.Errorf("%w: %s: prefix of %T", hberr.ErrInvalidQuery, out.q, k.lo)
		}
		if _, err := scalar(s, "the prefix"); err != nil {
			return nil, err
		}
		out.prefix = s
	case condContains:
		if out.lo, err = scalar(k.lo, "the element"); err != nil {
			return nil, err
		}
		out.loKey = scalarKey(nil, out.lo)
	}
	return out, nil
}

// typeClass puts false and true in one class (booleans compare with each other).
func typeClass(tag byte) byte {
	if tag == tagTrue {
		return tagFalse
	}
	return tag
}

// match evaluates the condition on a document's fields.
func (k *cond) match(fields map[string]any) bool {
	switch k.kind {
	case condAll:
		return true
	case condAnd:
		for _, s := range k.subs {
			if !s.match(fields) {
				return false
			}
		}
		return true
	case condOr:
		for _, s := range k.subs {
			if s.match(fields) {
				return true
			}
		}
		return false
	}
	v, ok := lookup(fields, k.segs)
	if !ok {
		return false
	}
	switch k.kind {
	case condExists:
		return true
	case condPrefix:
		s, ok := v.(string)
		return ok && strings.HasPrefix(s, k.prefix)
	case condContains:
		a, ok := v.([]any)
		if !ok {
			return false
		}
		for _, e := range a {
			switch e.(type) {
			case map[string]any, []any:
				continue
			}
			if bytes.Equal(scalarKey(nil, e), k.loKey) {
				return true
			}
		}
		return false
	case condRange:
		switch v.(type) {
		case map[string]any, []any:
			return false
		}
		return k.inRange(scalarKey(nil, v))
	}
	return false
}

// inRange compares a scalar's key with the bounds: same type class, within them.
func (k *cond) inRange(key []byte) bool {
	if typeClass(key[0]) != typeClass(k.tag) {
		return false
	}
	if k.loKey != nil {
		c := bytes.Compare(key, k.loKey)
		if c < 0 || c == 0 && !k.loInc {
			return false
		}
	}
	if k.hiKey != nil {
		c := bytes.Compare(key, k.hiKey)
		if c > 0 || c == 0 && !k.hiInc {
			return false
		}
	}
	return true
}

// paths lists the qualifiers a condition reads.
func (k *cond) paths(out []string) []string {
	if k.q != "" {
		out = append(out, k.q)
	}
	for _, s := range k.subs {
		out = s.paths(out)
	}
	return out
}

// cellBound is a bound as a cell value compares with it: a number's ordering part (with 0xff
// after it, when the bound must be past every kind byte), a string's tag and bytes, a boolean's
// or null's tag.
func cellBound(v any, pastKinds bool) []byte {
	switch x := v.(type) {
	case string:
		return append([]byte{tagString}, x...)
	case int64, float64:
		b := scalarKey(nil, x)
		if pastKinds {
			b = append(b, 0xff)
		}
		return b
	}
	return appendScalar(nil, v)
}

// filter is the condition as a server-side filter that keeps every row the condition matches
// (and maybe more; nil: no filter can say it). A comparison is a SingleColumnValueFilter on
// the path's cell (rows without it dropped): its value within the bounds and within the
// bounds' type (the tags order the types).
func (k *cond) filter(family []byte) hrpc.Filter {
	scvf := func(op hrpc.CompareOp, cmp hrpc.Comparator) hrpc.Filter {
		return &hrpc.SingleColumnValueFilter{Family: family, Qualifier: []byte(k.q), Op: op,
			Comparator: cmp, FilterIfMissing: true}
	}
	switch k.kind {
	case condAll, condContains:
		return nil
	case condExists:
		return scvf(hrpc.NotEqual, hrpc.NullComparator{})
	case condPrefix:
		return scvf(hrpc.Equal, hrpc.BinaryPrefixComparator{Value: cellBound(k.prefix, false)})
	case condRange:
		if k.loKey != nil && k.hiKey != nil && k.loInc && k.hiInc && bytes.Equal(k.loKey, k.hiKey) {
			if k.tag == tagNumber {
				return scvf(hrpc.Equal, hrpc.BinaryPrefixComparator{Value: k.loKey})
			}
			return scvf(hrpc.Equal, hrpc.BinaryComparator{Value: cellBound(k.lo, false)})
		}
		var fs []hrpc.Filter
		if k.loKey != nil {
			if k.loInc {
				fs = append(fs, scvf(hrpc.GreaterOrEqual, hrpc.BinaryComparator{Value: cellBound(k.lo, false)}))
			} else {
				fs = append(fs, scvf(hrpc.Greater, hrpc.BinaryComparator{Value: cellBound(k.lo, true)}))
			}
		} else {
			fs = append(fs, scvf(hrpc.GreaterOrEqual, hrpc.BinaryComparator{Value: []byte{typeClass(k.tag)}}))
		}
		if k.hiKey != nil {
			if k.hiInc {
				fs = append(fs, scvf(hrpc.LessOrEqual, hrpc.BinaryComparator{Value: cellBound(k.hi, true)}))
			} else {
				fs = append(fs, scvf(hrpc.Less, hrpc.BinaryComparator{Value: cellBound(k.hi, false)}))
			}
		} else {
			next := k.tag + 1
			if k.tag == tagFalse {
				next = tagTrue + 1
			}
			fs = append(fs, scvf(hrpc.Less, hrpc.BinaryComparator{Value: []byte{next}}))
		}
		return hrpc.NewFilterList(hrpc.MustPassAll, fs...)
	case condAnd:
		var fs []hrpc.Filter
		for _, s := range k.subs {
			if f := s.filter(family); f != nil {
				fs = append(fs, f)
			}
		}
		switch len(fs) {
		case 0:
			return nil
		case 1:
			return fs[0]
		}
		return hrpc.NewFilterList(hrpc.MustPassAll, fs...)
	case condOr:
		if len(k.subs) == 0 {
			return nil
		}
		var fs []hrpc.Filter
		for _, s := range k.subs {
			f := s.filter(family)
			if f == nil {
				return nil
			}
			fs = append(fs, f)
		}
		return hrpc.NewFilterList(hrpc.MustPassOne, fs...)
	}
	return nil
}

// String writes the condition back, for Explain.
func (k *cond) String() string {
	switch k.kind {
	case condAll:
		return "all"
	case condAnd, condOr:
		op := " and "
		if k.kind == condOr {
			op = " or "
		}
		parts := make([]string, len(k.subs))
		for i, s := range k.subs {
			parts[i] = s.String()
		}
		return "(" + strings.Join(parts, op) + ")"
	case condExists:
		return "exists(" + k.q + ")"
	case condPrefix:
		return k.q + " has prefix " + string(appendQuoted(nil, k.prefix))
	case condContains:
		return k.q + " contains " + jsonText(k.lo)
	}
	if k.loKey != nil && k.hiKey != nil && k.loInc && k.hiInc && bytes.Equal(k.loKey, k.hiKey) {
		return k.q + " == " + jsonText(k.lo)
	}
	var parts []string
	if k.loKey != nil {
		op := " > "
		if k.loInc {
			op = " >= "
		}
		parts = append(parts, k.q+op+jsonText(k.lo))
	}
	if k.hiKey != nil {
		op := " < "
		if k.hiInc {
			op = " <= "
		}
		parts = append(parts, k.q+op+jsonText(k.hi))
	}
	return strings.Join(parts, " and ")
}

func jsonText(v any) string {
	b, err := MarshalJSON(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
