package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-hbase/hbase/admin"
)

// The quota listings: list_quotas, list_quota_table_sizes and list_quota_snapshots.

// quotaRowsOut is list_quotas' table: one row a setting, as the shell prints them.
type quotaRowsOut struct {
	Quotas []quotaRowOut `json:"quotas"`
}

type quotaRowOut struct {
	Owner  string `json:"owner"`
	Quotas string `json:"quotas"`
}

func (r *quotaRowsOut) shellText(w io.Writer) (int64, error) {
	rows := make([][]string, len(r.Quotas))
	for i, x := range r.Quotas {
		rows[i] = []string{x.Owner, x.Quotas}
	}
	return int64(len(rows)), writeTable(w, []string{"OWNER", "QUOTAS"}, rows)
}

func prepareListQuotas(st statement) (action, error) {
	q, err := newQuotaArgs(st.args, "list_quotas")
	if err != nil {
		return nil, err
	}
	var f admin.QuotaFilter
	for _, x := range []struct {
		key string
		dst *string
	}{{"USER", &f.User}, {"TABLE", &f.Table}, {"NAMESPACE", &f.Namespace}} {
		if *x.dst, _, err = q.str(x.key); err != nil {
			return nil, err
		}
	}
	limit := int64(-1)
	if v, ok := q["LIMIT"]; ok {
		delete(q, "LIMIT")
		if limit, err = intVal(v, "LIMIT"); err != nil {
			return nil, err
		}
	}
	if err := q.rest(); err != nil {
		return nil, err
	}
	return quotaAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		qs, err := a.Quotas(ctx, f)
		if err != nil {
			return nil, err
		}
		out := &quotaRowsOut{Quotas: quotaRows(qs)}
		if limit > 0 && int64(len(out.Quotas)) > limit {
			out.Quotas = out.Quotas[:limit]
		}
		return out, nil
	}), nil
}

// quotaRows are the settings of qs as the Java client's QuotaSettings print them: each
// throttle, the bypass and the space quota a row.
func quotaRows(qs []admin.Quota) []quotaRowOut {
	out := []quotaRowOut{}
	for _, q := range qs {
		owner := quotaOwner(q.Target)
		for _, th := range q.Throttles {
			out = append(out, quotaRowOut{owner, throttleText(th)})
		}
		if q.BypassGlobals {
			out = append(out, quotaRowOut{owner, "GLOBAL_BYPASS => true"})
		}
		if q.Space != nil {
			s := "TYPE => SPACE"
			if q.Target.Table != "" {
				s += ", TABLE => " + q.Target.Table
			}
			if q.Target.Namespace != "" {
				s += ", NAMESPACE => " + q.Target.Namespace
			}
			s += fmt.Sprintf(", LIMIT => %s, VIOLATION_POLICY => %v", sizeText(q.Space.Limit), q.Space.Policy)
			out = append(out, quotaRowOut{owner, s})
		}
	}
	return out
}

// quotaOwner is the shell's OWNER column: USER => u, TABLE => t, NAMESPACE => ns.
func quotaOwner(t admin.QuotaTarget) string {
	var parts []string
	for _, p := range [...]struct{ key, v string }{{"USER", t.User}, {"TABLE", t.Table}, {"NAMESPACE", t.Namespace}, {"REGIONSERVER", t.RegionServer}} {
		if p.v != "" {
			parts = append(parts, p.key+" => "+p.v)
		}
	}
	return strings.Join(parts, ", ")
}

func throttleText(th admin.Throttle) string {
	limit := strconv.FormatUint(th.Limit, 10) + "req"
	switch th.Type {
	case admin.RequestSize, admin.WriteSize, admin.ReadSize:
		limit = sizeText(th.Limit)
	case admin.RequestCapacityUnit, admin.WriteCapacityUnit, admin.ReadCapacityUnit:
		limit = strconv.FormatUint(th.Limit, 10) + "CU"
	}
	per := map[time.Duration]string{time.Second: "sec", time.Minute: "min", time.Hour: "hour", 24 * time.Hour: "day"}[th.Per]
	if per == "" {
		per = th.Per.String()
	}
	scope := "MACHINE"
	if th.ClusterWide {
		scope = "CLUSTER"
	}
	return fmt.Sprintf("TYPE => THROTTLE, THROTTLE_TYPE => %v, LIMIT => %s/%s, SCOPE => %s", th.Type, limit, per, scope)
}

// sizeText is a size as the Java client's QuotaSettings print it: 10.00M.
func sizeText(n uint64) string {
	for _, u := range []struct {
		shift  uint
		suffix string
	}{{50, "P"}, {40, "T"}, {30, "G"}, {20, "M"}, {10, "K"}} {
		if n >= 1<<u.shift {
			return fmt.Sprintf("%.2f%s", float64(n)/float64(uint64(1)<<u.shift), u.suffix)
		}
	}
	return fmt.Sprintf("%.2fB", float64(n))
}

// tableSizesOut is list_quota_table_sizes' table.
type tableSizesOut struct {
	Tables []tableSizeOut `json:"tables"`
}

type tableSizeOut struct {
	Table string `json:"table"`
	Size  uint64 `json:"size"`
}

func (r *tableSizesOut) shellText(w io.Writer) (int64, error) {
	rows := make([][]string, len(r.Tables))
	for i, x := range r.Tables {
		rows[i] = []string{x.Table, strconv.FormatUint(x.Size, 10)}
	}
	return int64(len(rows)), writeTable(w, []string{"TABLE", "SIZE"}, rows)
}

func prepareQuotaTableSizes(st statement) (action, error) {
	if len(st.args) > 0 {
		return nil, fmt.Errorf("takes no arguments")
	}
	return quotaAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		sizes, err := a.SpaceQuotaTableSizes(ctx)
		if err != nil {
			return nil, err
		}
		out := &tableSizesOut{Tables: []tableSizeOut{}}
		for t, n := range sizes {
			out.Tables = append(out.Tables, tableSizeOut{t, n})
		}
		slices.SortFunc(out.Tables, func(x, y tableSizeOut) int { return strings.Compare(x.Table, y.Table) })
		return out, nil
	}), nil
}

// quotaSnapshotsOut is list_quota_snapshots' table.
type quotaSnapshotsOut struct {
	Snapshots []quotaSnapshotOut `json:"snapshots"`
}

type quotaSnapshotOut struct {
	Table       string `json:"table"`
	Usage       uint64 `json:"usage"`
	Limit       uint64 `json:"limit"`
	InViolation bool   `json:"in_violation"`
	Policy      string `json:"policy"`
}

func (r *quotaSnapshotsOut) shellText(w io.Writer) (int64, error) {
	rows := make([][]string, len(r.Snapshots))
	for i, x := range r.Snapshots {
		rows[i] = []string{x.Table, strconv.FormatUint(x.Usage, 10), strconv.FormatUint(x.Limit, 10), strconv.FormatBool(x.InViolation), x.Policy}
	}
	return int64(len(rows)), writeTable(w, []string{"TABLE", "USAGE", "LIMIT", "IN_VIOLATION", "POLICY"}, rows)
}

func prepareQuotaSnapshots(st statement) (action, error) {
	q, err := newQuotaArgs(st.args, "list_quota_snapshots")
	if err != nil {
		return nil, err
	}
	table, _, err := q.str("TABLE")
	if err != nil {
		return nil, err
	}
	ns, _, err := q.str("NAMESPACE")
	if err != nil {
		return nil, err
	}
	server, _, err := q.str("REGIONSERVER")
	if err != nil {
		return nil, err
	}
	if err := q.rest(); err != nil {
		return nil, err
	}
	return quotaAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		var us []admin.SpaceQuotaUsage
		var err error
		if server != "" {
			us, err = a.RegionServerSpaceQuotaUsages(ctx, server)
		} else {
			us, err = a.SpaceQuotaUsages(ctx)
		}
		if err != nil {
			return nil, err
		}
		return quotaSnapshots(us, table, ns), nil
	}), nil
}

// quotaSnapshots are the tables' usages selected by table (its name without the namespace)
// and ns, as the shell selects them; the namespaces' own usages are not rows of the shell.
func quotaSnapshots(us []admin.SpaceQuotaUsage, table, ns string) *quotaSnapshotsOut {
	out := &quotaSnapshotsOut{Snapshots: []quotaSnapshotOut{}}
	for _, u := range us {
		if u.Target.Table == "" {
			continue
		}
		space, qualifier, found := strings.Cut(u.Target.Table, ":")
		if !found {
			space, qualifier = "default", u.Target.Table
		}
		if table != "" && qualifier != table || ns != "" && space != ns {
			continue
		}
		policy := "None"
		if u.InViolation {
			policy = u.Policy.String()
		}
		out.Snapshots = append(out.Snapshots, quotaSnapshotOut{u.Target.Table, u.Usage, u.Limit, u.InViolation, policy})
	}
	slices.SortFunc(out.Snapshots, func(x, y quotaSnapshotOut) int { return strings.Compare(x.Table, y.Table) })
	return out
}
