package conformance

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// env is what a case works with: a client, its admin, its own table, and the outcome it
// records, one line per observation.
type env struct {
	t     testing.TB
	ctx   context.Context
	c     *hbase.Client
	admin *admin.Admin
	table string
	tb    string
	start time.Time
	out   []string
	mover func(ctx context.Context, table string, row []byte) error
	srv   server // the server side: fakehbase's seeding and reading, or a client of HBase
}

// move moves the region of the case's table holding row to the other region server, as a
// balancer would (the region closes, flushing, and opens there).
func (e *env) move(row string) { e.errf("move "+row, e.mover(e.ctx, e.table, b(row))) }

func (e *env) logf(format string, args ...any) { e.out = append(e.out, fmt.Sprintf(format, args...)) }

// b is a []byte of s.
func b(s string) []byte { return []byte(s) }

// The families of the cases' tables.
var f, g = b("f"), b("g")

// fams is a layout of families keeping one version each, split at splits.
func fams(names []string, splits ...string) *layout {
	l := &layout{splits: splits}
	for _, n := range names {
		l.families = append(l.families, famSpec{name: n})
	}
	return l
}

var (
	oneFamily   = fams([]string{"f"})
	twoFamilies = fams([]string{"f", "g"})
	threeVers   = &layout{families: []famSpec{{name: "f", versions: 3}}}
	splitAtM    = fams([]string{"f"}, "m")
)

// put writes a row; only a failure is recorded.
func (e *env) put(row string, opts ...hrpc.PutOption) {
	p, err := hrpc.NewPut(e.tb, b(row), opts...)
	if err == nil {
		_, err = e.c.Put(e.ctx, p)
	}
	if err != nil {
		e.logf("put %s: %s", show(b(row)), errText(err))
	}
}

// putAt writes family:qualifier=value at ts.
func (e *env) putAt(row string, fam []byte, qual string, ts uint64, value string) {
	e.put(row, hrpc.ValueAt(fam, b(qual), ts, b(value)))
}

// del deletes; only a failure is recorded.
func (e *env) del(row string, opts ...hrpc.DeleteOption) {
	d, err := hrpc.NewDelete(e.tb, b(row), opts...)
	if err == nil {
		_, err = e.c.Delete(e.ctx, d)
	}
	if err != nil {
		e.logf("delete %s: %s", show(b(row)), errText(err))
	}
}

// get records a Get's result.
func (e *env) get(label, row string, opts ...hrpc.GetOption) {
	g, err := hrpc.NewGet(e.tb, b(row), opts...)
	if err != nil {
		e.logf("%s: building: %v", label, err)
		return
	}
	res, err := e.c.Get(e.ctx, g)
	if err != nil {
		e.logf("%s: %s", label, errText(err))
		return
	}
	e.logf("%s: %s", label, e.result(res))
}

// scan records a scan's rows, one line each.
func (e *env) scan(label string, opts ...hrpc.ScanOption) {
	e.scanTable(label, e.tb, opts...)
}

func (e *env) scanTable(label, table string, opts ...hrpc.ScanOption) {
	s, err := hrpc.NewScan(table, opts...)
	if err != nil {
		e.logf("%s: building: %v", label, err)
		return
	}
	n := 0
	var lines []string
	for res, err := range e.c.Scan(e.ctx, s) {
		if err != nil {
			lines = append(lines, "  "+errText(err))
			break
		}
		n++
		lines = append(lines, "  "+e.result(res))
	}
	e.logf("%s: %d rows", label, n)
	e.out = append(e.out, lines...)
}

// result formats a result: its cells as row/family:qualifier@timestamp=value.
func (e *env) result(r *hrpc.Result) string {
	if r.Exists != nil {
		return fmt.Sprintf("exists=%v", *r.Exists)
	}
	if len(r.Cells) == 0 {
		return "(empty)"
	}
	var sb strings.Builder
	for i, c := range r.Cells {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(e.cell(&c))
	}
	return sb.String()
}

func (e *env) cell(c *hrpc.Cell) string {
	return fmt.Sprintf("%s/%s:%s@%s=%s", show(c.Row), c.Family, show(c.Qualifier), e.ts(c.Timestamp), show(c.Value))
}

// ts shows a timestamp, or "now" for one the server took from its clock during the case.
func (e *env) ts(ts uint64) string {
	t := time.UnixMilli(int64(ts))
	if !t.Before(e.start.Add(-2*time.Second)) && !t.After(time.Now().Add(2*time.Second)) {
		return "now"
	}
	return fmt.Sprint(ts)
}

// show quotes bytes, or sums them up when they are long.
func show(v []byte) string {
	if len(v) > 48 {
		sum := sha256.Sum256(v)
		return fmt.Sprintf("<%d bytes %x>", len(v), sum[:8])
	}
	return fmt.Sprintf("%q", v)
}

// errText classifies an error as a caller would: the sentinels it matches and the Java class
// of the server's exception. Messages are left out: they are the server's prose.
func errText(err error) string {
	if err == nil {
		return "ok"
	}
	kinds := []struct {
		name string
		err  error
	}{
		{"TableNotFound", hberr.ErrTableNotFound}, {"NoSuchFamily", hberr.ErrNoSuchFamily},
		{"TableDisabled", hberr.ErrTableDisabled}, {"NamespaceNotFound", hberr.ErrNamespaceNotFound},
		{"TableExists", hberr.ErrTableExists}, {"TableNotDisabled", hberr.ErrTableNotDisabled},
		{"NamespaceExists", hberr.ErrNamespaceExists}, {"NamespaceNotEmpty", hberr.ErrNamespaceNotEmpty},
		{"InvalidName", hberr.ErrInvalidName}, {"RegionUnavailable", hberr.ErrRegionUnavailable},
		{"FamilyExists", hberr.ErrFamilyExists}, {"LastFamily", hberr.ErrLastFamily},
		{"NamespaceReserved", hberr.ErrNamespaceReserved},
		{"Retryable", hberr.ErrRetryable}, {"DoNotRetry", hberr.ErrDoNotRetry},
		{"Timeout", context.DeadlineExceeded},
	}
	var names []string
	for _, k := range kinds {
		if errors.Is(err, k.err) {
			names = append(names, k.name)
		}
	}
	if len(names) == 0 {
		names = append(names, "other")
	}
	s := "error " + strings.Join(names, ",")
	if re, ok := errors.AsType[*hberr.RemoteError](err); ok {
		s += " (" + re.Class[strings.LastIndexByte(re.Class, '.')+1:] + ")"
	}
	return s
}

// errf records an error (or ok) under a label.
func (e *env) errf(label string, err error) { e.logf("%s: %s", label, errText(err)) }
