package main

import (
	"fmt"
	"math"
	"time"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/visibility"
)

// The cell security options of the shell's writes and reads: VISIBILITY, TTL and ACL of put
// (VISIBILITY of delete, deleteall, incr and append), AUTHORIZATIONS of get and scan.

// withCellSecurity appends to opts the options of h's VISIBILITY, TTL and ACL (ACL users in
// key order). As in withAttributes, O is the request's option type: an option the request
// does not take is an error naming the key (checkKeys lets only the keys a verb takes in).
func withCellSecurity[O any](opts []O, h value) ([]O, error) {
	var add []any
	if v, ok := h.get("VISIBILITY"); ok {
		expr, err := strVal(v, "VISIBILITY")
		if err != nil {
			return nil, err
		}
		add = append(add, hrpc.CellVisibility(expr))
	}
	if v, ok := h.get("TTL"); ok {
		ms, err := intVal(v, "TTL")
		if err != nil {
			return nil, err
		}
		if ms < 1 || ms > math.MaxInt64/int64(time.Millisecond) {
			return nil, fmt.Errorf("TTL: want milliseconds, from 1 to %d, got %d", math.MaxInt64/int64(time.Millisecond), ms)
		}
		add = append(add, hrpc.CellTTL(time.Duration(ms)*time.Millisecond))
	}
	if v, ok := h.get("ACL"); ok {
		acl, err := cellACL(v)
		if err != nil {
			return nil, err
		}
		add = append(add, acl...)
	}
	for _, a := range add {
		o, ok := a.(O)
		if !ok {
			return nil, fmt.Errorf("this request takes no such cell option (%T)", a)
		}
		opts = append(opts, o)
	}
	return opts, nil
}

// cellACL reads ACL => {'user' => 'RW', '@group' => 'R'}: the rights a cell's ACL gives,
// which are only read (R) and write (W).
func cellACL(v value) ([]any, error) {
	m, err := stringMap(v, "ACL")
	if err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("ACL: want {'user' => 'RW'}, got an empty hash")
	}
	var out []any
	for _, user := range sortedKeys(m) {
		var access hrpc.CellAccess
		for i := 0; i < len(m[user]); i++ {
			switch m[user][i] {
			case 'R':
				access |= hrpc.CellRead
			case 'W':
				access |= hrpc.CellWrite
			default:
				return nil, fmt.Errorf("ACL %s => %s: a cell's rights are R (read) and W (write)", quoteShell(user), quoteShell(m[user]))
			}
		}
		if user == "" || access == 0 {
			return nil, fmt.Errorf("ACL %s => %s: want a user and R, W or RW", quoteShell(user), quoteShell(m[user]))
		}
		out = append(out, hrpc.CellACL(user, access))
	}
	return out, nil
}

// readAuthorizations reads AUTHORIZATIONS => ['label', ...] (or one label) of get and scan.
func (s *readSpec) readAuthorizations(h value) error {
	v, ok := h.get("AUTHORIZATIONS")
	if !ok {
		return nil
	}
	labels, err := strList(v, "AUTHORIZATIONS")
	if err != nil {
		return err
	}
	for _, l := range labels {
		if !visibility.ValidLabel(l) {
			return fmt.Errorf("AUTHORIZATIONS: label %s: a label is letters, digits, '_', '-', ':', '/' and '.'", quoteShell(l))
		}
	}
	s.auths = &labels
	return nil
}
