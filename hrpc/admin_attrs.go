package hrpc

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Flag is a yes/no attribute of a table or family descriptor whose default is HBase's:
// FlagDefault, the zero value, sends nothing, so the server's default applies (BLOCKCACHE
// and SPLIT_ENABLED are on by default, READONLY off...). DescribeTable reads FlagOn or
// FlagOff for every such attribute the master sends.
type Flag int8

// Flag values.
const (
	FlagDefault Flag = iota // not set: HBase's default
	FlagOn
	FlagOff
)

// flagOf is the Flag of on.
func flagOf(on bool) Flag {
	if on {
		return FlagOn
	}
	return FlagOff
}

// String is "true" or "false", as HBase writes the attribute, or "default".
func (f Flag) String() string {
	switch f {
	case FlagOn:
		return "true"
	case FlagOff:
		return "false"
	}
	return "default"
}

// typedAttr is one attribute of a descriptor D that D has a typed field for: format writes
// the field as HBase's attribute value (ok false: the field is unset and nothing is sent),
// parse reads the master's value into it (false: the value does not parse, and it stays in
// the descriptor's Attributes map), clear unsets the field.
type typedAttr[D any] struct {
	key    string
	format func(d *D) (string, bool)
	parse  func(d *D, v string) bool
	clear  func(d *D)
}

// intAttr is an integer attribute set when positive.
func intAttr[D any, N int | int64](key string, field func(*D) *N) typedAttr[D] {
	return typedAttr[D]{key: key,
		format: func(d *D) (string, bool) {
			n := *field(d)
			return strconv.FormatInt(int64(n), 10), n > 0
		},
		parse: func(d *D, v string) bool {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil || int64(N(n)) != n {
				return false
			}
			*field(d) = N(n)
			return true
		},
		clear: func(d *D) { *field(d) = 0 }}
}

// flagAttr is a yes/no attribute; HBase reads its value case-insensitively.
func flagAttr[D any](key string, field func(*D) *Flag) typedAttr[D] {
	return typedAttr[D]{key: key,
		format: func(d *D) (string, bool) {
			f := *field(d)
			return f.String(), f != FlagDefault
		},
		parse: func(d *D, v string) bool {
			switch {
			case strings.EqualFold(v, "true"):
				*field(d) = FlagOn
			case strings.EqualFold(v, "false"):
				*field(d) = FlagOff
			default:
				return false
			}
			return true
		},
		clear: func(d *D) { *field(d) = FlagDefault }}
}

// nameAttr is an attribute holding a name (an enum's, a class's, a user's), set when not
// empty. upper reads the value in upper case, as HBase reads its enums.
func nameAttr[D any, S ~string](key string, field func(*D) *S, upper bool) typedAttr[D] {
	return typedAttr[D]{key: key,
		format: func(d *D) (string, bool) {
			s := *field(d)
			return string(s), s != ""
		},
		parse: func(d *D, v string) bool {
			if upper {
				v = strings.ToUpper(v)
			}
			*field(d) = S(v)
			return true
		},
		clear: func(d *D) { *field(d) = "" }}
}

// conflict returns the key of a typed attribute that attrs also holds with another value
// than the typed field's, or "".
func conflict[D any](typed []typedAttr[D], d *D, attrs map[string]string) (key, field, attr string) {
	for _, ta := range typed {
		v, ok := ta.format(d)
		if !ok {
			continue
		}
		if old, in := attrs[ta.key]; in && old != v {
			return ta.key, v, old
		}
	}
	return "", "", ""
}

// withTyped returns attrs (cloned) with every set typed field of d written in.
func withTyped[D any](typed []typedAttr[D], d *D, attrs map[string]string) map[string]string {
	out := maps.Clone(attrs)
	if out == nil {
		out = make(map[string]string)
	}
	for _, ta := range typed {
		if v, ok := ta.format(d); ok {
			out[ta.key] = v
		}
	}
	return out
}

// readTyped reads the master's attribute k=v into d's typed field for k; false when d has
// none or the value does not parse.
func readTyped[D any](typed []typedAttr[D], d *D, k, v string) bool {
	for _, ta := range typed {
		if ta.key == k {
			return ta.parse(d, v)
		}
	}
	return false
}

// unsetTyped unsets d's typed field for k, if d has one and it is set.
func unsetTyped[D any](typed []typedAttr[D], d *D, k string) bool {
	for _, ta := range typed {
		if ta.key == k {
			if _, set := ta.format(d); set {
				ta.clear(d)
				return true
			}
			return false
		}
	}
	return false
}

// oneOf reports whether v is empty (unset) or one of the allowed values.
func oneOf[S ~string](v S, allowed ...S) bool { return v == "" || slices.Contains(allowed, v) }

// AllAttributes returns every attribute of the family as the master gets it, by HBase's name:
// Attributes with the typed fields written in.
func (f *FamilyDescriptor) AllAttributes() map[string]string {
	return withTyped(familyAttrs, f, f.Attributes)
}

// AllAttributes returns every attribute of the table as the master gets it, by HBase's name:
// Attributes with the typed fields and the coprocessors (coprocessor$N) written in.
func (t *TableDescriptor) AllAttributes() map[string]string { return t.attributes() }
