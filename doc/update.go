package doc

import (
	"fmt"
	"math"
	"strings"

	"github.com/go-hbase/hbase/hberr"
)

// Op is one change of an Update: Set, Remove, Increment or Append at a path (ParsePath's
// syntax). The ops of one Update apply in order, all or none, in one atomic row mutation.
type Op struct {
	kind   opKind
	path   string
	value  any
	values []any
}

type opKind uint8

const (
	opSet opKind = iota + 1
	opRemove
	opIncrement
	opAppend
)

func (k opKind) String() string {
	return [...]string{"", "Set", "Remove", "Increment", "Append"}[k]
}

// Set sets the value at path, replacing what was there (a whole subtree). Missing objects on
// the way are created; an array index may name an existing element or the one after the last
// (the array grows by one). A path through a scalar or an index past that fails with
// hberr.ErrInvalidUpdate.
func Set(path string, value any) Op { return Op{kind: opSet, path: path, value: value} }

// Remove removes the value at path: an object's member, or an array's element (the elements
// after it move down by one). Removing what is not there does nothing.
func Remove(path string) Op { return Op{kind: opRemove, path: path} }

// Increment adds delta (an integer or a float of any Go type) to the number at path, or sets
// it to delta when there is none. int64 + int64 stays an int64 and fails with
// hberr.ErrInvalidUpdate past the int64 range; a float on either side makes a float.
func Increment(path string, delta any) Op { return Op{kind: opIncrement, path: path, value: delta} }

// Append adds values at the end of the array at path, creating it when there is none.
func Append(path string, values ...any) Op { return Op{kind: opAppend, path: path, values: values} }

// parsedOp is an Op checked and converted: its segments, its qualifier, its canonical values.
type parsedOp struct {
	Op
	segs []segment
	q    string
}

// parseOps checks ops and converts their values.
func (c *Collection) parseOps(ops []Op) ([]parsedOp, error) {
	if len(ops) == 0 {
		return nil, fmt.Errorf("%w: no ops", hberr.ErrInvalidUpdate)
	}
	out := make([]parsedOp, len(ops))
	for i, op := range ops {
		if op.kind == 0 {
			return nil, fmt.Errorf("%w: op %d is the zero Op", hberr.ErrInvalidUpdate, i)
		}
		segs, err := parsePath(op.path)
		if err != nil {
			return nil, err
		}
		if segs[0].isIndex() {
			return nil, opError(op, "a document is an object: its paths start with a key")
		}
		p := parsedOp{Op: op, segs: segs, q: formatPath(segs)}
		if len(segs) > c.lim.MaxDepth {
			return nil, &hberr.DocLimitError{Limit: "depth", Path: p.q, Size: len(segs), Max: c.lim.MaxDepth}
		}
		switch op.kind {
		case opSet:
			if p.value, err = c.canonicalValue(op.value, p.q, len(segs)); err != nil {
				return nil, err
			}
		case opIncrement:
			if p.value, err = c.canonicalValue(op.value, p.q, len(segs)); err != nil {
				return nil, err
			}
			switch p.value.(type) {
			case int64, float64:
			default:
				return nil, opError(op, "the delta is %s, not a number", kindName(p.value))
			}
		case opAppend:
			p.values = make([]any, len(op.values))
			for j, v := range op.values {
				if p.values[j], err = c.canonicalValue(v, p.q, len(segs)+1); err != nil {
					return nil, err
				}
			}
		}
		out[i] = p
	}
	return out, nil
}

func opError(op Op, format string, args ...any) error {
	return fmt.Errorf("%w: %s %s: %s", hberr.ErrInvalidUpdate, op.kind, op.path, fmt.Sprintf(format, args...))
}

// selectionOf is what the ops and the indexes need read: each op's parents (their markers
// say what they are), the subtree an op replaces or removes (the parent array's whole
// subtree for an element's removal, whose followers move), the exact cell an op changes in
// place, and each index's subtree.
func (c *Collection) selectionOf(ops []parsedOp) selection {
	var sel selection
	for _, op := range ops {
		sel.addAncestors(op.segs)
		switch op.kind {
		case opSet:
			sel.addSubtree(op.q)
		case opRemove:
			if last := op.segs[len(op.segs)-1]; last.isIndex() {
				sel.addSubtree(formatPath(op.segs[:len(op.segs)-1]))
			} else {
				sel.addSubtree(op.q)
			}
		case opIncrement, opAppend:
			sel.addExact(op.q)
		}
	}
	for _, ix := range c.indexes {
		sel.addSubtree(ix.q)
	}
	return sel
}

// applier applies ops to the cells read (a selection that holds everything they touch).
type applier struct {
	c   *Collection
	cur cells
}

// subtree lists the qualifiers of q's subtree in the cells, q included.
func (a *applier) subtree(q string) []string {
	var out []string
	dot, bracket := subtreePrefixes(q)
	for k := range a.cur {
		if k == q || strings.HasPrefix(k, dot) || strings.HasPrefix(k, bracket) {
			out = append(out, k)
		}
	}
	return out
}

func (a *applier) removeSubtree(q string) {
	for _, k := range a.subtree(q) {
		delete(a.cur, k)
	}
}

// parents checks (and, with create, makes) the containers above op's last segment; ok is
// false when one is missing and not made. The last segment's container must be an object for
// a key, an array for an index (at most its length with create, below it without).
func (a *applier) parents(op parsedOp, create bool) (ok bool, err error) {
	var q []byte
	for i, seg := range op.segs {
		last := i == len(op.segs)-1
		parent := string(q)
		if i > 0 {
			v, ok := a.cur[parent]
			if !ok {
				if !create {
					return false, nil
				}
				if seg.isIndex() {
					return false, opError(op.Op, "no array at %s to hold [%d]", parent, seg.index)
				}
				a.cur[parent] = markerObject
				v = markerObject
			}
			switch v[0] {
			case tagObject:
				if seg.isIndex() {
					return false, opError(op.Op, "%s is an object, not an array", parent)
				}
			case tagArray:
				if !seg.isIndex() {
					return false, opError(op.Op, "%s is an array, not an object", parent)
				}
				n, err := decodeArrayLen(parent, v)
				if err != nil {
					return false, err
				}
				if seg.index > n || !create && seg.index == n {
					if !create {
						return false, nil
					}
					return false, opError(op.Op, "index %d past the end of %s (%d elements)", seg.index, parent, n)
				}
				if seg.index == n && !last {
					return false, opError(op.Op, "no element %s[%d] to hold what follows", parent, seg.index)
				}
			default:
				return false, opError(op.Op, "%s is %s, not a container", parent, kindOfCell(v))
			}
		} else if seg.isIndex() {
			return false, opError(op.Op, "a document is an object: its paths start with a key")
		}
		q = appendSegment(q, seg)
	}
	return true, nil
}

// kindOfCell names what a cell holds, for messages.
func kindOfCell(v []byte) string {
	switch v[0] {
	case tagNull:
		return "null"
	case tagFalse, tagTrue:
		return "a boolean"
	case tagNumber:
		return "a number"
	case tagString:
		return "a string"
	case tagObject:
		return "an object"
	case tagArray:
		return "an array"
	}
	return "unknown"
}

// grow sets the length of the array holding op's last segment to cover it.
func (a *applier) grow(op parsedOp) error {
	last := op.segs[len(op.segs)-1]
	if !last.isIndex() {
		return nil
	}
	parent := formatPath(op.segs[:len(op.segs)-1])
	n, err := decodeArrayLen(parent, a.cur[parent])
	if err != nil {
		return err
	}
	if last.index == n {
		a.cur[parent] = appendArrayMarker(nil, n+1)
	}
	return nil
}

func (a *applier) apply(op parsedOp) error {
	switch op.kind {
	case opSet:
		if _, err := a.parents(op, true); err != nil {
			return err
		}
		if err := a.grow(op); err != nil {
			return err
		}
		a.removeSubtree(op.q)
		return flattenAt(a.c.lim, a.cur, op.q, len(op.segs), op.value)
	case opRemove:
		ok, err := a.parents(op, false)
		if err != nil || !ok {
			return err
		}
		last := op.segs[len(op.segs)-1]
		if !last.isIndex() {
			a.removeSubtree(op.q)
			return nil
		}
		return a.removeElement(op, last.index)
	case opIncrement:
		if _, err := a.parents(op, true); err != nil {
			return err
		}
		if err := a.grow(op); err != nil {
			return err
		}
		v, ok := a.cur[op.q]
		if !ok {
			a.cur[op.q] = appendScalar(nil, op.value)
			return nil
		}
		if v[0] != tagNumber {
			return opError(op.Op, "%s is %s, not a number", op.q, kindOfCell(v))
		}
		n, err := decodeScalar(op.q, v)
		if err != nil {
			return err
		}
		sum, err := add(n, op.value)
		if err != nil {
			return opError(op.Op, "%v", err)
		}
		a.cur[op.q] = appendScalar(nil, sum)
		return nil
	case opAppend:
		if _, err := a.parents(op, true); err != nil {
			return err
		}
		if err := a.grow(op); err != nil {
			return err
		}
		v, ok := a.cur[op.q]
		n := 0
		if ok {
			if v[0] != tagArray {
				return opError(op.Op, "%s is %s, not an array", op.q, kindOfCell(v))
			}
			var err error
			if n, err = decodeArrayLen(op.q, v); err != nil {
				return err
			}
		}
		if n+len(op.values) > maxIndex {
			return opError(op.Op, "array of %d elements cannot grow by %d", n, len(op.values))
		}
		a.cur[op.q] = appendArrayMarker(nil, n+len(op.values))
		for i, e := range op.values {
			q := string(appendIndex([]byte(op.q), n+i))
			if err := flattenAt(a.c.lim, a.cur, q, len(op.segs)+1, e); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("%w: unknown op", hberr.ErrInvalidUpdate)
}

// removeElement removes element i of the array holding op's path: the elements after it move
// down by one (their cells get new qualifiers), and the array's length drops by one.
func (a *applier) removeElement(op parsedOp, i int) error {
	parent := formatPath(op.segs[:len(op.segs)-1])
	n, err := decodeArrayLen(parent, a.cur[parent])
	if err != nil {
		return err
	}
	if i >= n {
		return nil
	}
	a.removeSubtree(string(appendIndex([]byte(parent), i)))
	for j := i + 1; j < n; j++ {
		from := string(appendIndex([]byte(parent), j))
		to := string(appendIndex([]byte(parent), j-1))
		for _, k := range a.subtree(from) {
			a.cur[to+k[len(from):]] = a.cur[k]
			delete(a.cur, k)
		}
	}
	a.cur[parent] = appendArrayMarker(nil, n-1)
	return nil
}

// add is Increment's sum.
func add(n, delta any) (any, error) {
	switch x := n.(type) {
	case int64:
		if d, ok := delta.(int64); ok {
			s := x + d
			if (d > 0 && s < x) || (d < 0 && s > x) {
				return nil, fmt.Errorf("%d + %d is past the int64 range", x, d)
			}
			return s, nil
		}
		return checkFloat(float64(x) + delta.(float64))
	case float64:
		switch d := delta.(type) {
		case int64:
			return checkFloat(x + float64(d))
		case float64:
			return checkFloat(x + d)
		}
	}
	return nil, fmt.Errorf("not a number")
}

func checkFloat(f float64) (any, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, fmt.Errorf("the sum is past the float64 range")
	}
	return f, nil
}
