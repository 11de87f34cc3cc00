package main

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hberr"
)

// The shell's quotas group: throttles, space quotas, the global bypass and their listings,
// over package admin's quota calls. The request and balancer logs of the tools group are in
// shell_requestlogs.go; quotasVerbs lists both for the dispatcher.

func quotasVerbs() []*shellVerb {
	return append(quotaVerbs(), requestLogVerbs()...)
}

func quotaVerbs() []*shellVerb {
	return []*shellVerb{
		{name: "set_quota", group: "quotas", prepare: prepareSetQuota, usage: `set_quota TYPE => THROTTLE, USER => 'u1', LIMIT => '10req/sec'
set_quota TYPE => THROTTLE, THROTTLE_TYPE => READ, USER => 'u1', TABLE => 't1', LIMIT => '10M/sec'
set_quota TYPE => THROTTLE, THROTTLE_TYPE => WRITE, NAMESPACE => 'ns1', LIMIT => '5CU/min', SCOPE => CLUSTER
set_quota TYPE => THROTTLE, TABLE => 't1', LIMIT => NONE
set_quota TYPE => THROTTLE, THROTTLE_TYPE => READ_NUMBER, USER => 'u1', LIMIT => NONE
set_quota TYPE => THROTTLE, REGIONSERVER => 'all', LIMIT => '30000req/sec'
set_quota USER => 'u1', GLOBAL_BYPASS => true
set_quota TYPE => SPACE, TABLE => 't1', LIMIT => '1G', POLICY => NO_INSERTS
set_quota TYPE => SPACE, NAMESPACE => 'ns1', LIMIT => NONE

Sets or removes a quota. A throttle limits requests (req), bytes (B, K, M, G, T, P) or capacity
units (CU) per sec, min, hour or day, of reads, writes or both (THROTTLE_TYPE REQUEST, the
default), for a user (alone, on a table or on a namespace), a table, a namespace or every region
server ('all'); each region server applies it (SCOPE => MACHINE, the default) or they share it
(SCOPE => CLUSTER). LIMIT => NONE removes the target's throttles, or those of one THROTTLE_TYPE
(READ_NUMBER, WRITE_SIZE, REQUEST_CAPACITY_UNIT ...). A space quota limits a table's or a
namespace's size on the file system, with the policy applied when it is over: NO_INSERTS,
NO_WRITES, NO_WRITES_COMPACTIONS or DISABLE. GLOBAL_BYPASS lets a user pass every throttle.
The region servers apply a change at their next quota refresh.`},
		{name: "list_quotas", group: "quotas", prepare: prepareListQuotas, usage: `list_quotas
list_quotas USER => 'bob.*'
list_quotas USER => 'bob.*', TABLE => 't1'
list_quotas USER => 'bob.*', NAMESPACE => 'ns.*'
list_quotas TABLE => 'myTable'
list_quotas NAMESPACE => 'ns.*', LIMIT => 10

Lists the quotas set, one setting a row, those of the users, tables or namespaces whose names
match the regular expressions given (a user's on a table or namespace with USER and TABLE or
NAMESPACE); LIMIT caps the rows.`},
		{name: "list_quota_table_sizes", group: "quotas", prepare: prepareQuotaTableSizes, usage: `list_quota_table_sizes

Lists the size of each table as the master last heard it from the region servers, the sizes
space quotas are checked against.`},
		{name: "list_quota_snapshots", group: "quotas", prepare: prepareQuotaSnapshots, usage: `list_quota_snapshots
list_quota_snapshots({TABLE => 'table1'})
list_quota_snapshots({NAMESPACE => 'org1'})
list_quota_snapshots({REGIONSERVER => 'host,16020,1483482894742'})

Lists the state of the space quotas: each table's usage, limit and whether it is over it (and
the policy then in force), as the master holds them or as one region server last read them. A
TABLE (its name without the namespace) or NAMESPACE selects the tables shown.`},
		{name: "enable_rpc_throttle", group: "quotas", prepare: prepareQuotaSwitch(true, false), usage: `enable_rpc_throttle

Switches the region servers' RPC throttling on (the throttles set are enforced); prints the
previous state.`},
		{name: "disable_rpc_throttle", group: "quotas", prepare: prepareQuotaSwitch(false, false), usage: `disable_rpc_throttle

Switches the region servers' RPC throttling off: the throttles stay set but nothing is refused;
prints the previous state.`},
		{name: "enable_exceed_throttle_quota", group: "quotas", prepare: prepareQuotaSwitch(true, true), usage: `enable_exceed_throttle_quota

Lets users, tables and namespaces exceed their throttles while the region server's own throttle
has room (the region servers need a throttle first: set_quota ... REGIONSERVER => 'all');
prints the previous state.`},
		{name: "disable_exceed_throttle_quota", group: "quotas", prepare: prepareQuotaSwitch(false, true), usage: `disable_exceed_throttle_quota

Holds users, tables and namespaces to their throttles again; prints the previous state.`},
	}
}

// quotaAction is adminAction for the quota and log calls. Their refusal when the cluster keeps
// no quotas or logs is hberr.ErrNotSupported, which for a listing also wraps the missing
// hbase:quota table: that is the cluster's refusal (exit 1), not a table the user named.
func quotaAction(f func(ctx context.Context, a *admin.Admin) (shellResult, error)) action {
	act := adminAction(f)
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		res, err := act(ctx, sh)
		if errors.Is(err, hberr.ErrNotSupported) {
			return nil, notSupportedError{err}
		}
		return res, err
	}
}

// notSupportedError is a refusal of the cluster for want of a feature; it is only
// hberr.ErrNotSupported to errors.Is.
type notSupportedError struct{ err error }

func (e notSupportedError) Error() string { return e.err.Error() }
func (e notSupportedError) Unwrap() error { return hberr.ErrNotSupported }

// quotaArgs is a command's hash of options, taken one key at a time; what is left is refused.
type quotaArgs map[string]value

func newQuotaArgs(args []value, verb string) (quotaArgs, error) {
	if len(args) == 0 {
		return quotaArgs{}, nil
	}
	if len(args) > 1 || args[0].kind != vHash {
		return nil, fmt.Errorf("want %s KEY => value[, KEY => value]", verb)
	}
	m := quotaArgs{}
	for _, e := range args[0].hash {
		if _, dup := m[e.key]; dup {
			return nil, fmt.Errorf("%s given twice", e.key)
		}
		m[e.key] = e.val
	}
	return m, nil
}

// str takes key's string value; ok is false when key is absent.
func (q quotaArgs) str(key string) (s string, ok bool, err error) {
	v, ok := q[key]
	if !ok {
		return "", false, nil
	}
	delete(q, key)
	s, err = strVal(v, key)
	if err == nil && s == "" {
		err = fmt.Errorf("%s: empty", key)
	}
	return s, true, err
}

// word takes key's value written as a constant or a string (the shell takes both), upper-cased.
func (q quotaArgs) word(key string) (string, bool, error) {
	v, ok := q[key]
	if !ok {
		return "", false, nil
	}
	delete(q, key)
	if v.kind != vConst && v.kind != vString {
		return "", true, fmt.Errorf("%s: want a constant, got %s", key, v.describe())
	}
	return strings.ToUpper(v.s), true, nil
}

// rest refuses the keys left.
func (q quotaArgs) rest() error {
	if len(q) == 0 {
		return nil
	}
	var keys []string
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return fmt.Errorf("unexpected arguments: %s", strings.Join(keys, ", "))
}

// isNone is LIMIT => NONE (or 'NONE').
func isNone(v value) bool {
	return (v.kind == vConst || v.kind == vString) && strings.EqualFold(v.s, "NONE")
}

// quotaTarget takes the subject of a throttle: USER (alone or with TABLE or NAMESPACE),
// TABLE, NAMESPACE or REGIONSERVER.
func (q quotaArgs) quotaTarget() (admin.QuotaTarget, error) {
	var t admin.QuotaTarget
	var err error
	var ok bool
	if t.User, _, err = q.str("USER"); err != nil {
		return t, err
	}
	if t.Table, ok, err = q.str("TABLE"); err != nil || ok {
		return t, err
	}
	if t.Namespace, ok, err = q.str("NAMESPACE"); err != nil || ok || t.User != "" {
		return t, err
	}
	if t.RegionServer, ok, err = q.str("REGIONSERVER"); err != nil {
		return t, err
	}
	if !ok {
		return t, fmt.Errorf("one of USER, TABLE, NAMESPACE or REGIONSERVER must be given")
	}
	if t.RegionServer != "all" {
		return t, fmt.Errorf("REGIONSERVER: want 'all' (HBase applies a region server throttle to every region server)")
	}
	return t, nil
}

func prepareSetQuota(st statement) (action, error) {
	q, err := newQuotaArgs(st.args, "set_quota")
	if err != nil {
		return nil, err
	}
	typ, hasType, err := q.word("TYPE")
	if err != nil {
		return nil, err
	}
	var set func(ctx context.Context, a *admin.Admin) (string, error)
	switch {
	case hasType && typ == "THROTTLE":
		set, err = throttleSetter(q)
	case hasType && typ == "SPACE":
		set, err = spaceSetter(q)
	case hasType:
		err = fmt.Errorf("TYPE: want THROTTLE or SPACE, got %s", typ)
	default:
		set, err = bypassSetter(q)
	}
	if err == nil {
		err = q.rest()
	}
	if err != nil {
		return nil, err
	}
	return quotaAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		msg, err := set(ctx, a)
		if err != nil {
			return nil, err
		}
		return done("%s", msg), nil
	}), nil
}

var throttleLimit = regexp.MustCompile(`^(\d+)(req|cu|[bkmgtp])/(sec|min|hour|day)$`)

// throttleSetter reads a throttle, or its removal with LIMIT => NONE.
func throttleSetter(q quotaArgs) (func(context.Context, *admin.Admin) (string, error), error) {
	limit, ok := q["LIMIT"]
	if !ok {
		return nil, fmt.Errorf("LIMIT: missing (a limit such as '10req/sec', or NONE)")
	}
	delete(q, "LIMIT")
	if isNone(limit) {
		return unthrottleSetter(q)
	}
	kind, hasKind, err := q.word("THROTTLE_TYPE")
	if err != nil {
		return nil, err
	}
	if !hasKind {
		kind = "REQUEST"
	}
	scope, hasScope, err := q.word("SCOPE")
	if err != nil {
		return nil, err
	}
	if hasScope && scope != "MACHINE" && scope != "CLUSTER" {
		return nil, fmt.Errorf("SCOPE: want MACHINE or CLUSTER, got %s", scope)
	}
	s, err := strVal(limit, "LIMIT")
	if err != nil {
		return nil, err
	}
	th, err := parseThrottle(kind, s)
	if err != nil {
		return nil, err
	}
	th.ClusterWide = scope == "CLUSTER"
	target, err := q.quotaTarget()
	if err != nil {
		return nil, err
	}
	if th.ClusterWide && target.RegionServer != "" {
		return nil, fmt.Errorf("SCOPE: a region server throttle is per machine: want MACHINE")
	}
	return func(ctx context.Context, a *admin.Admin) (string, error) {
		return fmt.Sprintf("Set the throttle %v of %v", th, target), a.SetThrottle(ctx, target, th)
	}, nil
}

// parseThrottle reads a limit such as '10req/sec', '5M/min' or '2CU/hour' of THROTTLE_TYPE
// kind (REQUEST, READ or WRITE).
func parseThrottle(kind, s string) (admin.Throttle, error) {
	var th admin.Throttle
	m := throttleLimit.FindStringSubmatch(strings.ToLower(s))
	if m == nil {
		return th, fmt.Errorf("LIMIT %s: want a count and a unit per time unit: '10req/sec', '5M/min', '2CU/hour'", quoteShell(s))
	}
	n, err := strconv.ParseUint(m[1], 10, 64)
	if err != nil || n == 0 {
		return th, fmt.Errorf("LIMIT %s: want a limit greater than 0", quoteShell(s))
	}
	unit := "_SIZE"
	switch m[2] {
	case "req":
		unit = "_NUMBER"
	case "cu":
		unit = "_CAPACITY_UNIT"
	default:
		if n, err = scaleSize(n, m[2]); err != nil {
			return th, fmt.Errorf("LIMIT %s: %v", quoteShell(s), err)
		}
	}
	typ, ok := throttleTypeNamed(kind + unit)
	if !ok || !slices.Contains([]string{"REQUEST", "READ", "WRITE"}, kind) {
		return th, fmt.Errorf("THROTTLE_TYPE: want REQUEST, READ or WRITE, got %s", kind)
	}
	per := map[string]time.Duration{"sec": time.Second, "min": time.Minute, "hour": time.Hour, "day": 24 * time.Hour}[m[3]]
	return admin.Throttle{Type: typ, Limit: n, Per: per}, nil
}

// scaleSize multiplies n by the size suffix (b, k, m, g, t, p: powers of 1024).
func scaleSize(n uint64, suffix string) (uint64, error) {
	shift := map[string]uint{"": 0, "b": 0, "k": 10, "m": 20, "g": 30, "t": 40, "p": 50}[suffix]
	if n > (1<<63-1)>>shift {
		return 0, fmt.Errorf("too large")
	}
	return n << shift, nil
}

// throttleTypeNamed is the ThrottleType of HBase's name for it (READ_NUMBER ...).
func throttleTypeNamed(name string) (admin.ThrottleType, bool) {
	for t := admin.RequestNumber; t <= admin.ReadCapacityUnit; t++ {
		if t.String() == name {
			return t, true
		}
	}
	return 0, false
}

func unthrottleSetter(q quotaArgs) (func(context.Context, *admin.Admin) (string, error), error) {
	kind, hasKind, err := q.word("THROTTLE_TYPE")
	if err != nil {
		return nil, err
	}
	typ, ok := throttleTypeNamed(kind)
	if hasKind && !ok {
		return nil, fmt.Errorf("THROTTLE_TYPE: with LIMIT => NONE want one of %s, got %s", throttleTypeList(), kind)
	}
	target, err := q.quotaTarget()
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, a *admin.Admin) (string, error) {
		if hasKind {
			return fmt.Sprintf("Removed the %v throttle of %v", typ, target), a.RemoveThrottle(ctx, target, typ)
		}
		return fmt.Sprintf("Removed the throttles of %v", target), a.RemoveThrottles(ctx, target)
	}, nil
}

func throttleTypeList() string {
	var names []string
	for t := admin.RequestNumber; t <= admin.ReadCapacityUnit; t++ {
		names = append(names, t.String())
	}
	return strings.Join(names, ", ")
}

var spaceLimit = regexp.MustCompile(`^(\d+)([bkmgtp]?)$`)

// spaceSetter reads a space quota of a table or a namespace, or its removal (LIMIT => NONE).
func spaceSetter(q quotaArgs) (func(context.Context, *admin.Admin) (string, error), error) {
	limit, ok := q["LIMIT"]
	if !ok {
		return nil, fmt.Errorf("LIMIT: missing (a size such as '1G', or NONE)")
	}
	delete(q, "LIMIT")
	var target admin.QuotaTarget
	var err error
	var hasTable, hasNS bool
	if target.Table, hasTable, err = q.str("TABLE"); err != nil {
		return nil, err
	}
	if target.Namespace, hasNS, err = q.str("NAMESPACE"); err != nil {
		return nil, err
	}
	if hasTable == hasNS {
		return nil, fmt.Errorf("one of TABLE or NAMESPACE must be given (not both)")
	}
	if isNone(limit) {
		return func(ctx context.Context, a *admin.Admin) (string, error) {
			return fmt.Sprintf("Removed the space quota of %v", target), a.RemoveSpaceQuota(ctx, target)
		}, nil
	}
	sq, err := parseSpaceQuota(limit, q)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, a *admin.Admin) (string, error) {
		return fmt.Sprintf("Set the space quota of %v to %d bytes, %v", target, sq.Limit, sq.Policy), a.SetSpaceQuota(ctx, target, sq)
	}, nil
}

// parseSpaceQuota reads a space LIMIT (a number of bytes, or '10G') and the POLICY.
func parseSpaceQuota(limit value, q quotaArgs) (admin.SpaceQuota, error) {
	var sq admin.SpaceQuota
	switch limit.kind {
	case vInt:
		if limit.i <= 0 {
			return sq, fmt.Errorf("LIMIT: want a size greater than 0")
		}
		sq.Limit = uint64(limit.i)
	case vString:
		bad := fmt.Errorf("LIMIT %s: want a size greater than 0 such as '500M', '1G' or '2T'", quoteShell(limit.s))
		m := spaceLimit.FindStringSubmatch(strings.ToLower(limit.s))
		if m == nil {
			return sq, bad
		}
		n, err := strconv.ParseUint(m[1], 10, 64)
		if err != nil || n == 0 {
			return sq, bad
		}
		if sq.Limit, err = scaleSize(n, m[2]); err != nil {
			return sq, fmt.Errorf("LIMIT %s: %v", quoteShell(limit.s), err)
		}
	default:
		return sq, fmt.Errorf("LIMIT: want a size such as '1G', got %s", limit.describe())
	}
	policy, ok, err := q.word("POLICY")
	if err != nil {
		return sq, err
	}
	if !ok {
		return sq, fmt.Errorf("POLICY: missing (NO_INSERTS, NO_WRITES, NO_WRITES_COMPACTIONS or DISABLE)")
	}
	for p := admin.SpaceDisable; p <= admin.SpaceNoInserts; p++ {
		if p.String() == policy {
			sq.Policy = p
		}
	}
	if sq.Policy == 0 {
		return sq, fmt.Errorf("POLICY: want NO_INSERTS, NO_WRITES, NO_WRITES_COMPACTIONS or DISABLE, got %s", policy)
	}
	return sq, nil
}

func bypassSetter(q quotaArgs) (func(context.Context, *admin.Admin) (string, error), error) {
	v, ok := q["GLOBAL_BYPASS"]
	if !ok {
		return nil, fmt.Errorf("TYPE: missing (THROTTLE or SPACE), or GLOBAL_BYPASS")
	}
	delete(q, "GLOBAL_BYPASS")
	bypass, err := boolVal(v, "GLOBAL_BYPASS")
	if err != nil {
		return nil, err
	}
	user, ok, err := q.str("USER")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("GLOBAL_BYPASS: USER missing")
	}
	return func(ctx context.Context, a *admin.Admin) (string, error) {
		return fmt.Sprintf("Set the global bypass of user %s to %v", user, bypass), a.SetBypassGlobals(ctx, user, bypass)
	}, nil
}

func prepareQuotaSwitch(on, exceed bool) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if len(st.args) > 0 {
			return nil, fmt.Errorf("takes no arguments")
		}
		return quotaAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
			var prev bool
			var err error
			what := "rpc throttle state"
			if exceed {
				what = "exceed throttle quota enabled"
				prev, err = a.SetExceedThrottleQuota(ctx, on)
			} else {
				prev, err = a.SetRPCThrottle(ctx, on)
			}
			if err != nil {
				return nil, err
			}
			return &boolResult{Value: prev, text: "Previous " + what + " :"}, nil
		}), nil
	}
}
