package admin

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
)

// TestQuotasAndRSGroupsOff: on a cluster without quotas and without region server groups
// (this package's), their calls fail with hberr.ErrNotSupported saying how to switch them on;
// the slow log, off too, is empty.
func TestQuotasAndRSGroupsOff(t *testing.T) {
	a := New(newTestClient(t))
	ctx := testContext(t, time.Minute)
	for _, tc := range []struct {
		name string
		call func() error
		says string
	}{
		{"SetThrottle", func() error {
			return a.SetThrottle(ctx, QuotaTarget{User: "u"}, Throttle{Type: ReadNumber, Limit: 1, Per: time.Second})
		}, "hbase.quota.enabled"},
		{"Quotas", func() error { _, err := a.Quotas(ctx, QuotaFilter{}); return err }, "hbase.quota.enabled"},
		{"RSGroups", func() error { _, err := a.RSGroups(ctx); return err }, "RSGroupAdminEndpoint"},
		{"AddRSGroup", func() error { return a.AddRSGroup(ctx, "g") }, "RSGroupAdminEndpoint"},
		{"ClearSlowLogs", func() error { return a.ClearSlowLogs(ctx) }, "hbase.regionserver.slowlog.buffer.enabled"},
	} {
		err := tc.call()
		if !errors.Is(err, hberr.ErrNotSupported) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v; want hberr.ErrNotSupported naming %s", tc.name, err, tc.says)
		} else {
			t.Logf("%s: %v", tc.name, err)
		}
	}
	if recs, err := a.SlowLogs(ctx, LogQuery{}); err != nil || len(recs) != 0 {
		t.Errorf("SlowLogs with the slow log off = %v, %v; want none", recs, err)
	}
}
