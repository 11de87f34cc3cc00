package admin

import (
	"fmt"
	"strings"
	"time"
)

// QuotaTarget is what a quota applies to: a user alone, a user on one table or one namespace,
// a table, a namespace, or the region servers. Set the fields of one of those and leave the
// others empty; a table is "ns:name", or "name" in the default namespace.
//
// HBase 2.x applies a region server throttle only under the name "all" (every region server,
// each on its own calls); it stores others without using them.
type QuotaTarget struct {
	User         string
	Table        string
	Namespace    string
	RegionServer string
}

// String names the target as the quota calls' errors do: `user "bob" on table "t"`.
func (t QuotaTarget) String() string {
	var parts []string
	if t.User != "" {
		parts = append(parts, fmt.Sprintf("user %q", t.User))
	}
	if t.Table != "" {
		parts = append(parts, fmt.Sprintf("table %q", t.Table))
	}
	if t.Namespace != "" {
		parts = append(parts, fmt.Sprintf("namespace %q", t.Namespace))
	}
	if t.RegionServer != "" {
		parts = append(parts, fmt.Sprintf("region server %q", t.RegionServer))
	}
	if len(parts) == 0 {
		return "no target"
	}
	return strings.Join(parts, " on ")
}

// name is the target as an *hberr.AdminError names it (which quotes it whole): "user bob on
// table t".
func (t QuotaTarget) name() string {
	var parts []string
	for _, p := range [...]struct{ what, v string }{{"user", t.User}, {"table", t.Table}, {"namespace", t.Namespace}, {"region server", t.RegionServer}} {
		if p.v != "" {
			parts = append(parts, p.what+" "+p.v)
		}
	}
	return strings.Join(parts, " on ")
}

// ThrottleType is what a throttle counts. Reads are Gets and Scans, writes are Puts, Deletes,
// Appends and Increments; sizes are in bytes; a capacity unit is a read or write of up to
// hbase.quota.read.capacity.unit (hbase.quota.write.capacity.unit) bytes, 1 KiB by default.
type ThrottleType int

// The throttle types, numbered as HBase numbers them.
const (
	RequestNumber       ThrottleType = iota + 1 // requests of any kind
	RequestSize                                 // bytes of requests of any kind
	WriteNumber                                 // write requests
	WriteSize                                   // bytes written
	ReadNumber                                  // read requests
	ReadSize                                    // bytes read
	RequestCapacityUnit                         // capacity units of requests of any kind
	WriteCapacityUnit                           // capacity units written
	ReadCapacityUnit                            // capacity units read
)

var throttleTypeNames = [...]string{"", "REQUEST_NUMBER", "REQUEST_SIZE", "WRITE_NUMBER", "WRITE_SIZE",
	"READ_NUMBER", "READ_SIZE", "REQUEST_CAPACITY_UNIT", "WRITE_CAPACITY_UNIT", "READ_CAPACITY_UNIT"}

// String is HBase's name of the type (REQUEST_NUMBER...).
func (t ThrottleType) String() string {
	if t > 0 && int(t) < len(throttleTypeNames) {
		return throttleTypeNames[t]
	}
	return fmt.Sprintf("ThrottleType(%d)", int(t))
}

// Throttle is a limit on the rate of a target's calls: Limit requests, bytes or capacity units
// (by Type) per Per, which is a second, a minute, an hour or 24 hours.
type Throttle struct {
	Type  ThrottleType
	Limit uint64
	Per   time.Duration
	// ClusterWide shares Limit out among the region servers (HBase's CLUSTER scope: each gets
	// its share, by the regions of the table it serves for a table or namespace throttle);
	// without it each region server applies the whole limit to the calls it serves (MACHINE
	// scope).
	ClusterWide bool
}

// String is the throttle as HBase's shell prints a limit: "REQUEST_NUMBER 10req/sec".
func (t Throttle) String() string {
	unit := "req"
	switch t.Type {
	case RequestSize, WriteSize, ReadSize:
		unit = "B"
	case RequestCapacityUnit, WriteCapacityUnit, ReadCapacityUnit:
		unit = "CU"
	}
	per := t.Per.String()
	switch t.Per {
	case time.Second:
		per = "sec"
	case time.Minute:
		per = "min"
	case time.Hour:
		per = "hour"
	case 24 * time.Hour:
		per = "day"
	}
	s := fmt.Sprintf("%v %d%s/%s", t.Type, t.Limit, unit, per)
	if t.ClusterWide {
		s += " cluster-wide"
	}
	return s
}

// SpaceViolationPolicy is what the region servers do to a table (or every table of a
// namespace) once it uses more space than its space quota allows.
type SpaceViolationPolicy int

// The violation policies, numbered as HBase numbers them.
const (
	// SpaceDisable disables the table.
	SpaceDisable SpaceViolationPolicy = iota + 1
	// SpaceNoWritesCompactions refuses writes, bulk loads and compactions.
	SpaceNoWritesCompactions
	// SpaceNoWrites refuses writes and bulk loads.
	SpaceNoWrites
	// SpaceNoInserts refuses Puts, Appends, Increments and bulk loads; Deletes pass.
	SpaceNoInserts
)

var spacePolicyNames = [...]string{"", "DISABLE", "NO_WRITES_COMPACTIONS", "NO_WRITES", "NO_INSERTS"}

// String is HBase's name of the policy (NO_WRITES...).
func (p SpaceViolationPolicy) String() string {
	if p > 0 && int(p) < len(spacePolicyNames) {
		return spacePolicyNames[p]
	}
	return fmt.Sprintf("SpaceViolationPolicy(%d)", int(p))
}

// SpaceQuota limits the file system space of a table or a namespace (its store files, after
// replication by HDFS is not counted) to Limit bytes, with Policy enforced while it is over.
type SpaceQuota struct {
	Limit  uint64
	Policy SpaceViolationPolicy
}

// Quota is what hbase:quota holds for one target: its throttles (in ThrottleType order),
// whether the user bypasses the table and namespace throttles, and its space quota.
type Quota struct {
	Target        QuotaTarget
	Throttles     []Throttle
	BypassGlobals bool
	Space         *SpaceQuota // nil: none
}

// QuotaFilter selects the quotas Quotas returns, as the Java QuotaFilter does: each field is a
// regular expression (Go's syntax) that must match a whole name, and an empty one does not
// filter. With User set, the users' quotas only: of the namespaces Namespace matches and the
// tables Table matches when either is set, else all of theirs. Otherwise, with Table set, the
// tables' quotas; else with Namespace set, the namespaces'; else with RegionServer set, the
// region servers'. The zero filter selects every quota.
type QuotaFilter struct {
	User, Table, Namespace, RegionServer string
}

// SpaceQuotaUsage is a table's or a namespace's space quota as the master or a region server
// last computed it: the space used and the limit, in bytes, and whether it is in violation
// and under which policy.
type SpaceQuotaUsage struct {
	Target      QuotaTarget // a table or a namespace
	Usage       uint64
	Limit       uint64
	InViolation bool
	Policy      SpaceViolationPolicy // the policy in force when in violation, else 0
}
