package main

import (
	"strings"

	"github.com/go-hbase/hbase/doc"
)

// jsonValue reads a JSON value as package doc stores it (integers as int64).
func jsonValue(what, s string) (any, error) {
	m, err := doc.ParseJSON([]byte(`{"v":` + s + `}`))
	if err != nil {
		return nil, usagef("%s: %q is not a JSON value (strings take double quotes)", what, s)
	}
	return m["v"], nil
}

// whereOps are the operators of -where, longest first where one starts another.
var whereOps = []string{" contains ", " == ", " <= ", " >= ", " ^= ", " < ", " > "}

// whereCond reads the -where conditions: 'path op json' or 'exists path', all of them (any
// with or). None matches every document.
func whereCond(where []string, or bool) (doc.Cond, error) {
	var conds []doc.Cond
	for _, w := range where {
		k, err := parseWhere(strings.TrimSpace(w))
		if err != nil {
			return doc.Cond{}, err
		}
		conds = append(conds, k)
	}
	switch {
	case len(conds) == 0:
		return doc.Cond{}, nil
	case len(conds) == 1:
		return conds[0], nil
	case or:
		return doc.Or(conds...), nil
	}
	return doc.And(conds...), nil
}

func parseWhere(w string) (doc.Cond, error) {
	if p, ok := strings.CutPrefix(w, "exists "); ok {
		return doc.Exists(strings.TrimSpace(p)), nil
	}
	for _, op := range whereOps {
		i := strings.Index(w, op)
		if i < 0 {
			continue
		}
		path, lit := strings.TrimSpace(w[:i]), strings.TrimSpace(w[i+len(op):])
		v, err := jsonValue("-where "+w, lit)
		if err != nil {
			return doc.Cond{}, err
		}
		switch strings.TrimSpace(op) {
		case "==":
			return doc.Eq(path, v), nil
		case "<":
			return doc.Lt(path, v), nil
		case "<=":
			return doc.Le(path, v), nil
		case ">":
			return doc.Gt(path, v), nil
		case ">=":
			return doc.Ge(path, v), nil
		case "contains":
			return doc.Contains(path, v), nil
		case "^=":
			s, ok := v.(string)
			if !ok {
				return doc.Cond{}, usagef("-where %s: ^= takes a string", w)
			}
			return doc.HasPrefix(path, s), nil
		}
	}
	return doc.Cond{}, usagef("-where %q: want 'path op json' with op one of == < <= > >= ^= contains (spaces around it), or 'exists path'", w)
}

// updateOps reads update's -set, -remove, -inc and -append, in that order.
func updateOps(f *docFlags) ([]doc.Op, error) {
	var ops []doc.Op
	pathValue := func(flag, s string) (string, any, error) {
		p, lit, ok := strings.Cut(s, "=")
		if !ok || p == "" {
			return "", nil, usagef("-%s: want path=json, got %q", flag, s)
		}
		v, err := jsonValue("-"+flag+" "+s, lit)
		return p, v, err
	}
	for _, s := range f.set {
		p, v, err := pathValue("set", s)
		if err != nil {
			return nil, err
		}
		ops = append(ops, doc.Set(p, v))
	}
	for _, p := range f.remove {
		ops = append(ops, doc.Remove(p))
	}
	for _, s := range f.inc {
		p, v, err := pathValue("inc", s)
		if err != nil {
			return nil, err
		}
		ops = append(ops, doc.Increment(p, v))
	}
	for _, s := range f.apnd {
		p, v, err := pathValue("append", s)
		if err != nil {
			return nil, err
		}
		ops = append(ops, doc.Append(p, v))
	}
	if len(ops) == 0 {
		return nil, usagef("doc update: no -set, -remove, -inc or -append")
	}
	return ops, nil
}
