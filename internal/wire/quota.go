package wire

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// The quota requests to the master (MasterService.SetQuota, the switches, the space quota
// views) and the reading of hbase:quota's rows, as HBase 2.6's QuotaSettingsFactory and
// QuotaTableUtil write and read them.

// Methods of MasterService and AdminService the quota calls use.
const (
	MethodSetQuota                  = "SetQuota"
	MethodGetQuotaStates            = "GetQuotaStates"
	MethodGetSpaceQuotaRegionSizes  = "GetSpaceQuotaRegionSizes"
	MethodSwitchRpcThrottle         = "SwitchRpcThrottle"
	MethodIsRpcThrottleEnabled      = "IsRpcThrottleEnabled"
	MethodSwitchExceedThrottleQuota = "SwitchExceedThrottleQuota"
	MethodGetSpaceQuotaSnapshots    = "GetSpaceQuotaSnapshots" // AdminService
)

// QuotaTable is the system table the master keeps quotas in.
const QuotaTable = "hbase:quota"

// QuotaSettingsFamily is hbase:quota's family of settings (its other family, "u", holds the
// space quotas' usage).
const QuotaSettingsFamily = "q"

// RegionServerQuotaAll is the one region server name HBase 2.x applies a region server
// throttle to: every region server ("r.all" in hbase:quota).
const RegionServerQuotaAll = "all"

// QuotaSubject is what a quota applies to: a user alone or on one table or namespace, a
// table, a namespace, or the region servers.
type QuotaSubject struct {
	User, Table, Namespace, RegionServer string
}

// String names the subject as an error names it ("user \"bob\" on table \"t\"").
func (s QuotaSubject) String() string {
	var parts []string
	if s.User != "" {
		parts = append(parts, fmt.Sprintf("user %q", s.User))
	}
	if s.Table != "" {
		parts = append(parts, fmt.Sprintf("table %q", s.Table))
	}
	if s.Namespace != "" {
		parts = append(parts, fmt.Sprintf("namespace %q", s.Namespace))
	}
	if s.RegionServer != "" {
		parts = append(parts, fmt.Sprintf("region server %q", s.RegionServer))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " on ")
}

func badQuota(format string, args ...any) error {
	return fmt.Errorf("%w: %s", hberr.ErrBadRequest, fmt.Sprintf(format, args...))
}

// check accepts the subjects HBase has: a user (alone, or with a table or a namespace), a
// table, a namespace, or a region server, each name checked.
func (s QuotaSubject) check() error {
	n := 0
	for _, v := range []string{s.Table, s.Namespace, s.RegionServer} {
		if v != "" {
			n++
		}
	}
	switch {
	case n > 1, s.User != "" && s.RegionServer != "":
		return badQuota("a quota is for a user (alone, or on one table or one namespace), a table, a namespace or the region servers, not for %s", s)
	case n == 0 && s.User == "":
		return badQuota("a quota names no user, table, namespace or region server")
	}
	if s.User != "" {
		if err := checkQuotaName("user", s.User); err != nil {
			return err
		}
	}
	if s.Table != "" {
		if err := CheckTableName(s.Table); err != nil {
			return err
		}
	}
	if s.Namespace != "" {
		if err := CheckNamespaceName(s.Namespace); err != nil {
			return err
		}
	}
	if s.RegionServer != "" {
		return checkQuotaName("region server", s.RegionServer)
	}
	return nil
}

// checkQuotaName refuses names HBase would store but nobody could mean: empty, not UTF-8, or
// with control characters.
func checkQuotaName(what, name string) error {
	if !utf8.ValidString(name) {
		return badQuota("%s name %q is not UTF-8", what, name)
	}
	for i, r := range name {
		if r < ' ' || r == 0x7f {
			return badQuota("%s name %q: control character %q at %d", what, name, r, i)
		}
	}
	if len(name) > maxNameLen {
		return badQuota("%s name of %d bytes is longer than %d", what, len(name), maxNameLen)
	}
	return nil
}

// quotaRequest is the SetQuotaRequest naming s.
func quotaRequest(s QuotaSubject) (*pb.SetQuotaRequest, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	req := &pb.SetQuotaRequest{}
	if s.User != "" {
		req.UserName = proto.String(s.User)
	}
	if s.Table != "" {
		tn, err := TableNameProto(s.Table)
		if err != nil {
			return nil, err
		}
		req.TableName = tn
	}
	if s.Namespace != "" {
		req.Namespace = proto.String(s.Namespace)
	}
	if s.RegionServer != "" {
		req.RegionServer = proto.String(s.RegionServer)
	}
	return req, nil
}

// TimeUnitOf is the time unit of a throttle counted per d: a second, a minute, an hour or a
// day, the units HBase's limiters take.
func TimeUnitOf(d time.Duration) (pb.TimeUnit, bool) {
	switch d {
	case time.Second:
		return pb.TimeUnit_SECONDS, true
	case time.Minute:
		return pb.TimeUnit_MINUTES, true
	case time.Hour:
		return pb.TimeUnit_HOURS, true
	case 24 * time.Hour:
		return pb.TimeUnit_DAYS, true
	}
	return 0, false
}

// DurationOf is the duration of a time unit (0 for one a throttle cannot have).
func DurationOf(u pb.TimeUnit) time.Duration {
	switch u {
	case pb.TimeUnit_NANOSECONDS:
		return time.Nanosecond
	case pb.TimeUnit_MICROSECONDS:
		return time.Microsecond
	case pb.TimeUnit_MILLISECONDS:
		return time.Millisecond
	case pb.TimeUnit_SECONDS:
		return time.Second
	case pb.TimeUnit_MINUTES:
		return time.Minute
	case pb.TimeUnit_HOURS:
		return time.Hour
	case pb.TimeUnit_DAYS:
		return 24 * time.Hour
	}
	return 0
}

// SetThrottleRequest builds the request setting s's throttle of type typ to limit (requests,
// bytes or capacity units) per time unit; cluster shares the limit out among the region
// servers instead of applying it on each.
func SetThrottleRequest(s QuotaSubject, typ pb.ThrottleType, limit uint64, per time.Duration, cluster bool) (*pb.SetQuotaRequest, error) {
	if pb.ThrottleType_name[int32(typ)] == "" {
		return nil, badQuota("throttle of %s: unknown throttle type %d", s, typ)
	}
	if limit == 0 {
		return nil, badQuota("throttle of %s: a limit of 0 (HBase takes 1 or more; remove the throttle instead)", s)
	}
	if limit > 1<<63-1 {
		return nil, badQuota("throttle of %s: limit %d is over HBase's largest (2^63-1)", s, limit)
	}
	unit, ok := TimeUnitOf(per)
	if !ok {
		return nil, badQuota("throttle of %s: per %v (want a second, a minute, an hour or 24 hours)", s, per)
	}
	if s.RegionServer != "" && cluster {
		return nil, badQuota("throttle of %s: a region server throttle is per machine, not cluster-wide", s)
	}
	req, err := quotaRequest(s)
	if err != nil {
		return nil, err
	}
	scope := pb.QuotaScope_MACHINE
	if cluster {
		scope = pb.QuotaScope_CLUSTER
	}
	req.Throttle = &pb.ThrottleRequest{Type: &typ, TimedQuota: &pb.TimedQuota{TimeUnit: &unit, SoftLimit: &limit, Scope: &scope}}
	return req, nil
}

// RemoveThrottleRequest builds the request removing s's throttle of type typ, or all of s's
// throttles when all is set.
func RemoveThrottleRequest(s QuotaSubject, typ pb.ThrottleType, all bool) (*pb.SetQuotaRequest, error) {
	if !all && pb.ThrottleType_name[int32(typ)] == "" {
		return nil, badQuota("throttle of %s: unknown throttle type %d", s, typ)
	}
	req, err := quotaRequest(s)
	if err != nil {
		return nil, err
	}
	req.Throttle = &pb.ThrottleRequest{}
	if !all {
		req.Throttle.Type = &typ
	}
	return req, nil
}

// BypassGlobalsRequest builds the request letting user's calls bypass (or not) the table and
// namespace throttles, held to the user's own throttles only.
func BypassGlobalsRequest(user string, bypass bool) (*pb.SetQuotaRequest, error) {
	if user == "" {
		return nil, badQuota("bypassing the global throttles needs a user")
	}
	req, err := quotaRequest(QuotaSubject{User: user})
	if err != nil {
		return nil, err
	}
	req.BypassGlobals = &bypass
	return req, nil
}

// SpaceQuotaRequest builds the request limiting the file system space of a table or a
// namespace to limit bytes, with policy applied once it is over.
func SpaceQuotaRequest(s QuotaSubject, limit uint64, policy pb.SpaceViolationPolicy) (*pb.SetQuotaRequest, error) {
	if err := checkSpaceSubject(s); err != nil {
		return nil, err
	}
	if pb.SpaceViolationPolicy_name[int32(policy)] == "" {
		return nil, badQuota("space quota of %s: unknown violation policy %d", s, policy)
	}
	if limit > 1<<63-1 {
		return nil, badQuota("space quota of %s: limit %d is over HBase's largest (2^63-1)", s, limit)
	}
	req, err := quotaRequest(s)
	if err != nil {
		return nil, err
	}
	req.SpaceLimit = &pb.SpaceLimitRequest{Quota: &pb.SpaceQuota{SoftLimit: &limit, ViolationPolicy: &policy}}
	return req, nil
}

// RemoveSpaceQuotaRequest builds the request removing the space quota of a table or a
// namespace.
func RemoveSpaceQuotaRequest(s QuotaSubject) (*pb.SetQuotaRequest, error) {
	if err := checkSpaceSubject(s); err != nil {
		return nil, err
	}
	req, err := quotaRequest(s)
	if err != nil {
		return nil, err
	}
	req.SpaceLimit = &pb.SpaceLimitRequest{Quota: &pb.SpaceQuota{Remove: proto.Bool(true)}}
	return req, nil
}

func checkSpaceSubject(s QuotaSubject) error {
	if s.User != "" || s.RegionServer != "" || (s.Table == "") == (s.Namespace == "") {
		return badQuota("a space quota is for a table or a namespace, not for %s", s)
	}
	return nil
}

// QuotaSetting is one cell of hbase:quota's settings: whose quotas, and what they are.
type QuotaSetting struct {
	Subject QuotaSubject
	Quotas  *pb.Quotas
}

// pbMagic starts every protobuf value HBase stores in its system tables.
var pbMagic = []byte("PBUF")

// Row key prefixes and qualifiers of hbase:quota.
var (
	quotaUserPrefix      = []byte("u.")
	quotaTablePrefix     = []byte("t.")
	quotaNamespacePrefix = []byte("n.")
	quotaServerPrefix    = []byte("r.")
	quotaSettings        = []byte("s")
	quotaSettingsPrefix  = []byte("s.")
)

// ParseQuotaCell reads one cell of hbase:quota's settings family: the subject from its row
// (and, for a user, its qualifier), the quotas from its value. ok is false for a cell that
// holds no quota settings (the exceed-throttle switch's row, a row or qualifier of a later
// HBase); an error is a cell that claims to hold settings and does not.
func ParseQuotaCell(row, qualifier, value []byte) (QuotaSetting, bool, error) {
	var s QuotaSubject
	switch {
	case bytes.HasPrefix(row, quotaUserPrefix):
		s.User = string(row[len(quotaUserPrefix):])
		switch {
		case bytes.Equal(qualifier, quotaSettings):
		case bytes.HasPrefix(qualifier, quotaSettingsPrefix) && len(qualifier) > len(quotaSettingsPrefix):
			name := string(qualifier[len(quotaSettingsPrefix):])
			if ns, ok := strings.CutSuffix(name, ":"); ok {
				s.Namespace = ns
			} else {
				s.Table = name
			}
		default:
			return QuotaSetting{}, false, nil
		}
	case bytes.HasPrefix(row, quotaTablePrefix):
		s.Table = string(row[len(quotaTablePrefix):])
	case bytes.HasPrefix(row, quotaNamespacePrefix):
		s.Namespace = string(row[len(quotaNamespacePrefix):])
	case bytes.HasPrefix(row, quotaServerPrefix):
		s.RegionServer = string(row[len(quotaServerPrefix):])
	default:
		return QuotaSetting{}, false, nil
	}
	if !bytes.HasPrefix(row, quotaUserPrefix) && !bytes.Equal(qualifier, quotaSettings) {
		return QuotaSetting{}, false, nil
	}
	q, err := ParseQuotas(value)
	if err != nil {
		return QuotaSetting{}, false, fmt.Errorf("hbase:quota row %q, column q:%q: %w", row, qualifier, err)
	}
	return QuotaSetting{Subject: s, Quotas: q}, true, nil
}

// ParseQuotas reads a Quotas value of hbase:quota ("PBUF" and the message).
func ParseQuotas(value []byte) (*pb.Quotas, error) {
	rest, ok := bytes.CutPrefix(value, pbMagic)
	if !ok {
		return nil, fmt.Errorf("a quota value without the PBUF prefix (%d bytes)", len(value))
	}
	q := &pb.Quotas{}
	if err := proto.Unmarshal(rest, q); err != nil {
		return nil, fmt.Errorf("a quota value that does not decode: %w", err)
	}
	return q, nil
}

// SwitchRPCThrottleRequest builds the request switching every throttle on or off.
func SwitchRPCThrottleRequest(on bool) *pb.SwitchRpcThrottleRequest {
	return &pb.SwitchRpcThrottleRequest{RpcThrottleEnabled: &on}
}

// SwitchExceedThrottleQuotaRequest builds the request letting user, table and namespace
// throttles be exceeded while the region server throttle has room (or not).
func SwitchExceedThrottleQuotaRequest(on bool) *pb.SwitchExceedThrottleQuotaRequest {
	return &pb.SwitchExceedThrottleQuotaRequest{ExceedThrottleQuotaEnabled: &on}
}
