package doc

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
)

// The reference model of updates: the same ops applied to a canonical document in memory,
// written from the package documentation of Set, Remove, Increment and Append, independently
// of the cell-level implementation.

// errModel is the model's refusal of an update (the layer's hberr.ErrInvalidUpdate).
type errModel string

func (e errModel) Error() string { return string(e) }

// deepCopy copies a canonical value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = deepCopy(e)
		}
		return a
	}
	return v
}

// modelApply applies ops to a copy of doc and returns it, or the refusal.
func modelApply(doc map[string]any, ops []Op) (map[string]any, error) {
	root := deepCopy(doc).(map[string]any)
	for _, op := range ops {
		segs, err := parsePath(op.path)
		if err != nil {
			return nil, err
		}
		if err := modelOp(root, segs, op); err != nil {
			return nil, err
		}
	}
	return root, nil
}

// slot is where a value lives: a map's key or an array's element, with a way to grow the
// array in its own parent.
type slot struct {
	get func() (any, bool)
	set func(any)
}

// modelWalk finds the slot of segs' last segment, creating missing objects on the way when
// create is set. ok is false when a container on the way is missing (and not created) or an
// index is past the end.
func modelWalk(root map[string]any, segs []segment, create bool) (s slot, ok bool, err error) {
	var cur any = root
	var setCur func(any) // replaces cur where it lives
	for i, seg := range segs {
		last := i == len(segs)-1
		switch c := cur.(type) {
		case map[string]any:
			if seg.isIndex() {
				return slot{}, false, errModel("index into an object")
			}
			key := seg.key
			if last {
				return slot{get: func() (any, bool) { v, ok := c[key]; return v, ok }, set: func(v any) { c[key] = v }}, true, nil
			}
			next, ok := c[key]
			if !ok {
				if !create {
					return slot{}, false, nil
				}
				if segs[i+1].isIndex() {
					return slot{}, false, errModel("no array to index")
				}
				next = map[string]any{}
				c[key] = next
			}
			setCur = func(v any) { c[key] = v }
			cur = next
		case []any:
			if !seg.isIndex() {
				return slot{}, false, errModel("key of an array")
			}
			idx := seg.index
			switch {
			case idx < len(c):
			case idx == len(c) && last && create:
				arr, set := c, setCur
				return slot{get: func() (any, bool) { return nil, false }, set: func(v any) { set(append(arr, v)) }}, true, nil
			case !create:
				return slot{}, false, nil
			default:
				return slot{}, false, errModel("index past the end")
			}
			if last {
				return slot{get: func() (any, bool) { return c[idx], true }, set: func(v any) { c[idx] = v }}, true, nil
			}
			setCur = func(v any) { c[idx] = v }
			cur = c[idx]
		default:
			return slot{}, false, errModel("through a scalar")
		}
	}
	panic("unreachable")
}

func modelOp(root map[string]any, segs []segment, op Op) error {
	switch op.kind {
	case opSet:
		s, _, err := modelWalk(root, segs, true)
		if err != nil {
			return err
		}
		v, err := Canonical(map[string]any{"v": op.value})
		if err != nil {
			return err
		}
		s.set(v["v"])
	case opRemove:
		parent := segs[:len(segs)-1]
		last := segs[len(segs)-1]
		if !last.isIndex() {
			s, ok, err := modelWalk(root, segs, false)
			if err != nil || !ok {
				return err
			}
			if _, there := s.get(); !there {
				return nil
			}
			// delete the key from its object
			var obj map[string]any
			if len(parent) == 0 {
				obj = root
			} else {
				p, ok, err := modelWalk(root, parent, false)
				if err != nil || !ok {
					return err
				}
				v, _ := p.get()
				obj = v.(map[string]any)
			}
			delete(obj, last.key)
			return nil
		}
		p, ok, err := modelWalk(root, parent, false)
		if err != nil || !ok {
			return err
		}
		v, there := p.get()
		if !there {
			return nil
		}
		a, isArr := v.([]any)
		if !isArr {
			return errModel("index into a non-array")
		}
		if last.index >= len(a) {
			return nil
		}
		p.set(slices.Delete(slices.Clone(a), last.index, last.index+1))
	case opIncrement:
		s, _, err := modelWalk(root, segs, true)
		if err != nil {
			return err
		}
		d, err := Canonical(map[string]any{"v": op.value})
		if err != nil {
			return err
		}
		delta := d["v"]
		v, there := s.get()
		if !there {
			s.set(delta)
			return nil
		}
		switch x := v.(type) {
		case int64:
			if di, ok := delta.(int64); ok {
				if di > 0 && x > math.MaxInt64-di || di < 0 && x < math.MinInt64-di {
					return errModel("overflow")
				}
				s.set(x + di)
				return nil
			}
			f := float64(x) + delta.(float64)
			if math.IsInf(f, 0) {
				return errModel("overflow")
			}
			s.set(f)
		case float64:
			var f float64
			if di, ok := delta.(int64); ok {
				f = x + float64(di)
			} else {
				f = x + delta.(float64)
			}
			if math.IsInf(f, 0) {
				return errModel("overflow")
			}
			s.set(f)
		default:
			return errModel("increment of a non-number")
		}
	case opAppend:
		s, _, err := modelWalk(root, segs, true)
		if err != nil {
			return err
		}
		vs, err := Canonical(map[string]any{"v": op.values})
		if err != nil {
			return err
		}
		add := vs["v"].([]any)
		v, there := s.get()
		if !there {
			s.set(add)
			return nil
		}
		a, ok := v.([]any)
		if !ok {
			return errModel("append to a non-array")
		}
		s.set(append(slices.Clone(a), add...))
	default:
		return fmt.Errorf("model: op %v", op.kind)
	}
	return nil
}

// paths lists every path of a document (containers and scalars).
func allPaths(v any, prefix []byte, out []string) []string {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			p := appendKey(slices.Clone(prefix), k)
			out = append(out, string(p))
			out = allPaths(x[k], p, out)
		}
	case []any:
		for i, e := range x {
			p := appendIndex(slices.Clone(prefix), i)
			out = append(out, string(p))
			out = allPaths(e, p, out)
		}
	}
	return out
}

// randomOps makes 1 to 3 ops on doc: mostly on paths it has (containers, scalars, an index at
// or past an array's end), some on new keys, some bound to fail.
func randomOps(r *rand.Rand, doc map[string]any) []Op {
	paths := allPaths(doc, nil, nil)
	pick := func() string {
		if len(paths) == 0 || r.IntN(4) == 0 {
			return string(appendKey(nil, nastyKeys[r.IntN(len(nastyKeys))]))
		}
		p := paths[r.IntN(len(paths))]
		segs, _ := parsePath(p)
		v, _ := lookup(doc, segs)
		switch x := v.(type) {
		case map[string]any:
			if r.IntN(2) == 0 {
				return p + string(appendKey(nil, nastyKeys[r.IntN(len(nastyKeys))]))
			}
		case []any:
			if r.IntN(2) == 0 {
				return p + fmt.Sprintf("[%d]", r.IntN(len(x)+2)) // past the end now and then
			}
		default:
			if r.IntN(10) == 0 {
				return p + ".under" // through a scalar: refused
			}
		}
		return p
	}
	n := 1
	switch k := r.IntN(10); {
	case k >= 9:
		n = 3
	case k >= 6:
		n = 2
	}
	ops := make([]Op, n)
	for i := range ops {
		p := pick()
		segs, _ := parsePath(p)
		cur, _ := lookup(doc, segs)
		kind := r.IntN(8)
		if r.IntN(4) != 0 { // mostly an op that fits what is there
			switch cur.(type) {
			case int64, float64, nil:
				kind = []int{0, 3, 4, 4}[r.IntN(4)]
			case []any:
				kind = []int{0, 3, 6, 6}[r.IntN(4)]
			default:
				kind = []int{0, 0, 3}[r.IntN(3)]
			}
		}
		switch kind {
		case 0, 1, 2:
			ops[i] = Set(p, randomValue(r, 2))
		case 3:
			ops[i] = Remove(p)
		case 4, 5:
			var d any = int64(r.IntN(7) - 3)
			if r.IntN(3) == 0 {
				d = 0.5
			}
			if r.IntN(20) == 0 {
				d = int64(math.MaxInt64)
			}
			ops[i] = Increment(p, d)
		default:
			vals := make([]any, 1+r.IntN(2))
			for j := range vals {
				vals[j] = randomValue(r, 1)
			}
			ops[i] = Append(p, vals...)
		}
	}
	return ops
}

// projected is what a projection of paths of doc holds: each path's value with the containers
// above it (arrays as long as the highest index projected, null elsewhere).
func projected(doc map[string]any, paths []string) map[string]any {
	out := map[string]any{}
	for _, p := range paths {
		segs, _ := parsePath(p)
		v, ok := lookup(doc, segs)
		if !ok {
			continue
		}
		var cur any = out
		var setCur func(any)
		for i, seg := range segs {
			last := i == len(segs)-1
			var next any
			if last {
				next = deepCopy(v)
			}
			switch c := cur.(type) {
			case map[string]any:
				if last {
					c[seg.key] = next
					break
				}
				n, ok := c[seg.key]
				if !ok {
					if segs[i+1].isIndex() {
						n = []any{}
					} else {
						n = map[string]any{}
					}
					c[seg.key] = n
				}
				key := seg.key
				setCur = func(v any) { c[key] = v }
				cur = n
			case []any:
				for len(c) <= seg.index {
					c = append(c, nil)
				}
				setCur(c)
				if last {
					c[seg.index] = next
					break
				}
				n := c[seg.index]
				if n == nil {
					if segs[i+1].isIndex() {
						n = []any{}
					} else {
						n = map[string]any{}
					}
					c[seg.index] = n
				}
				idx := seg.index
				setCur = func(v any) { c[idx] = v }
				cur = n
			}
		}
	}
	return out
}
