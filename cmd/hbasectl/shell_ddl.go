package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hrpc"
)

// The shell's table commands (its ddl group).

func ddlVerbs() []*shellVerb {
	return []*shellVerb{
		{name: "create", group: "ddl", prepare: prepareCreate, usage: `create 'table', 'family1', 'family2'
create 'ns:table', {NAME => 'f', VERSIONS => 5, TTL => 86400, COMPRESSION => 'GZ'}, {NAME => 'g'}
create 'table', 'f', SPLITS => ['a', 'm', 'x']
create 'table', 'f', {NUMREGIONS => 8, SPLITALGO => 'HexStringSplit'}
create 'table', 'f', MAX_FILESIZE => '10737418240', METADATA => {'team' => 'search'}

Creates a table with its column families (a name, or a hash of the family's settings), and
pre-splits it at SPLITS keys (or the lines of SPLITS_FILE) or into NUMREGIONS regions.`},
		{name: "alter", group: "ddl", prepare: prepareAlter, usage: `alter 'table', NAME => 'f', VERSIONS => 5
alter 'table', 'new_family'
alter 'table', NAME => 'f', METHOD => 'delete'
alter 'table', 'delete' => 'f'
alter 'table', MAX_FILESIZE => '134217728', READONLY => false
alter 'table', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'
alter 'table', {NAME => 'f', IN_MEMORY => true}, {NAME => 'g', METHOD => 'delete'}

Changes a table: adds a family, changes the settings given of an existing one (the others
stay), deletes one, sets or unsets table attributes. The changes go in one request, and the
command returns when the regions have reopened with them.`},
		{name: "alter_async", group: "ddl", prepare: prepareAlter, usage: `alter_async 'table', NAME => 'f', VERSIONS => 5

As alter. The client library waits until the regions have reopened, so this returns then too.`},
		{name: "describe", group: "ddl", prepare: prepareDescribe, usage: `describe 'table'
desc 'table'

Prints the table's state, attributes and each family's settings.`},
		{name: "disable", group: "ddl", prepare: prepareTableSwitch("disable"), usage: `disable 'table'

Disables a table: its regions close and it takes no reads or writes.`},
		{name: "enable", group: "ddl", prepare: prepareTableSwitch("enable"), usage: `enable 'table'

Enables a disabled table.`},
		{name: "drop", group: "ddl", prepare: prepareTableSwitch("drop"), usage: `drop 'table'

Deletes a disabled table and its data.`},
		{name: "disable_all", group: "ddl", prepare: prepareAll_("disable"), usage: `disable_all 'regex'

Disables every table whose name matches the Java regular expression.`},
		{name: "enable_all", group: "ddl", prepare: prepareAll_("enable"), usage: `enable_all 'regex'

Enables every table whose name matches the Java regular expression.`},
		{name: "drop_all", group: "ddl", prepare: prepareAll_("drop"), usage: `drop_all 'regex'

Drops every disabled table whose name matches the Java regular expression.`},
		{name: "exists", group: "ddl", prepare: prepareTableQuestion("exists"), usage: `exists 'table'

Says whether the table exists.`},
		{name: "is_enabled", group: "ddl", prepare: prepareTableQuestion("is_enabled"), usage: `is_enabled 'table'

Prints true when the table is enabled.`},
		{name: "is_disabled", group: "ddl", prepare: prepareTableQuestion("is_disabled"), usage: `is_disabled 'table'

Prints true when the table is disabled.`},
		{name: "list", group: "ddl", prepare: prepareList, usage: `list
list 'regex'
list 'ns:.*'

Lists the user tables, or those whose full name matches the Java regular expression.`},
		{name: "list_regions", group: "ddl", prepare: prepareListRegions, usage: `list_regions 'table'
list_regions 'table', 'host,port,startcode'

Lists the table's regions (or those on one server) with their server, keys, store file size
in MB, request count and data locality.`},
		{name: "locate_region", group: "ddl", prepare: prepareLocateRegion, usage: `locate_region 'table', 'row'

Prints the region holding the row and the server it is on.`},
		{name: "show_filters", group: "ddl", prepare: prepareShowFilters, usage: `show_filters

Lists the filters of HBase's filter language, which FILTER => "..." takes.`},
		{name: "clone_table_schema", group: "ddl", prepare: prepareCloneSchema, usage: `clone_table_schema 'table', 'new_table'
clone_table_schema 'table', 'new_table', false

Creates a table with the schema of another and, unless the third argument is false, the same
region boundaries. No data is copied.`},
	}
}

func prepareCreate(st statement) (action, error) {
	if len(st.args) < 2 {
		return nil, fmt.Errorf("want create 'table', 'family'[, ...][, {OPTIONS}]")
	}
	spec, err := readCreate(st.args)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		if err := admin.CreateTable(ctx, spec.desc, spec.opts...); err != nil {
			return nil, err
		}
		regions, err := admin.Regions(ctx, spec.desc.Name)
		if err != nil {
			return nil, err
		}
		return done("Created table %s with %d region(s)", spec.desc.Name, len(regions)), nil
	}, nil
}

// alterStep is one change alter makes to the descriptor.
type alterStep func(t *hrpc.TableDescriptor) (string, error)

func prepareAlter(st statement) (action, error) {
	if len(st.args) < 2 {
		return nil, fmt.Errorf("want alter 'table', {NAME => 'family', ...}[, ...]")
	}
	table, err := tableName(st.args, 0)
	if err != nil {
		return nil, err
	}
	var steps []alterStep
	for _, a := range st.args[1:] {
		s, err := alterStepOf(a)
		if err != nil {
			return nil, err
		}
		steps = append(steps, s)
	}
	// Dry run on a descriptor with every family the steps name, so bad values are refused
	// before anything is sent; the real run applies them to the table's descriptor.
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		desc, err := admin.DescribeTable(ctx, table)
		if err != nil {
			return nil, err
		}
		var did []string
		for _, s := range steps {
			what, err := s(desc)
			if err != nil {
				return nil, &stepError{err}
			}
			did = append(did, what)
		}
		if err := admin.ModifyTable(ctx, desc); err != nil {
			return nil, err
		}
		return &textResult{Lines: did, Message: fmt.Sprintf("Altered table %s: its regions have reopened", table)}, nil
	}, nil
}

// stepError is an alter that does not fit the table (a family to delete that it lacks): bad
// input found after reading the table, before changing it.
type stepError struct{ err error }

func (e *stepError) Error() string { return e.err.Error() }

// alterStepOf reads one argument of alter after the table name: a family name, or a hash
// that changes a family, deletes one, or sets or unsets table attributes.
func alterStepOf(a value) (alterStep, error) {
	switch a.kind {
	case vString:
		return resetFamilyStep(a.s)
	case vHash:
		return alterHashStep(a)
	}
	return nil, fmt.Errorf("want a family name or a hash, got %s", a.describe())
}

// alterHashStep reads a hash argument of alter; its METHOD says what kind of change it is.
func alterHashStep(a value) (alterStep, error) {
	method := ""
	if mv, ok := a.get("METHOD"); ok {
		m, err := strVal(mv, "METHOD")
		if err != nil {
			return nil, err
		}
		method = m
	}
	// 'delete' => 'family' is the shell's other way to write a family delete.
	if dv, ok := a.get("delete"); ok && len(a.hash) == 1 {
		name, err := strVal(dv, "delete")
		if err != nil {
			return nil, err
		}
		return deleteFamilyStep(name), nil
	}
	nv, hasName := a.get("NAME")
	switch method {
	case "delete":
		if !hasName {
			return nil, fmt.Errorf("METHOD => 'delete' needs NAME => 'family'")
		}
		name, err := strVal(nv, "NAME")
		if err != nil {
			return nil, err
		}
		return deleteFamilyStep(name), nil
	case "table_att_unset":
		if !hasName {
			return nil, fmt.Errorf("METHOD => 'table_att_unset' needs NAME => 'ATTRIBUTE'")
		}
		return unsetTableAttrStep(nv)
	case "", "table_att":
	default:
		return nil, fmt.Errorf("METHOD: want 'delete', 'table_att' or 'table_att_unset', got %s", quoteShell(method))
	}
	if hasName && method == "" {
		return changeFamilyStep(nv, a)
	}
	return setTableAttrStep(a)
}

// resetFamilyStep is alter 'table', 'family': it adds the family, or gives an existing one
// the default settings.
func resetFamilyStep(name string) (alterStep, error) {
	if _, err := hrpc.NewFamily(name); err != nil {
		return nil, err
	}
	return func(t *hrpc.TableDescriptor) (string, error) {
		if f := t.Family(name); f != nil {
			*f = hrpc.FamilyDescriptor{Name: name}
			return "Reset family " + quoteShell(name) + " to the default settings", nil
		}
		t.Families = append(t.Families, hrpc.FamilyDescriptor{Name: name})
		return "Added family " + quoteShell(name), nil
	}, nil
}

// unsetTableAttrStep removes the table attributes NAME names (one or a list).
func unsetTableAttrStep(nv value) (alterStep, error) {
	names, err := strList(nv, "NAME")
	if err != nil {
		return nil, err
	}
	return func(t *hrpc.TableDescriptor) (string, error) {
		for _, n := range names {
			if !t.UnsetAttribute(n) {
				return "", fmt.Errorf("table has no attribute %s to unset", n)
			}
		}
		return "Unset " + strings.Join(names, ", "), nil
	}, nil
}

// changeFamilyStep sets the keys of hash a on the family NAME (nv) names, adding the family
// if the table lacks it. The keys are first applied to a probe family, so that a bad value
// is refused before anything is sent.
func changeFamilyStep(nv, a value) (alterStep, error) {
	name, err := strVal(nv, "NAME")
	if err != nil {
		return nil, err
	}
	probe := hrpc.FamilyDescriptor{Name: name}
	if err := applyFamily(&probe, a); err != nil {
		return nil, fmt.Errorf("family %s: %v", quoteShell(name), err)
	}
	if _, err := hrpc.NewFamily(name); err != nil {
		return nil, err
	}
	return func(t *hrpc.TableDescriptor) (string, error) {
		if f := t.Family(name); f != nil {
			if err := applyFamily(f, a); err != nil {
				return "", err
			}
			return "Changed family " + quoteShell(name), nil
		}
		f := hrpc.FamilyDescriptor{Name: name}
		if err := applyFamily(&f, a); err != nil {
			return "", err
		}
		t.Families = append(t.Families, f)
		return "Added family " + quoteShell(name), nil
	}, nil
}

// setTableAttrStep sets the table attributes of hash a, which are first applied to a probe
// descriptor so that a bad one is refused before anything is sent.
func setTableAttrStep(a value) (alterStep, error) {
	probe := &hrpc.TableDescriptor{}
	var keys []string
	for _, e := range a.hash {
		if e.key == "METHOD" {
			continue
		}
		if _, ok := tableAttrKeys[e.key]; !ok && e.key != "METADATA" && e.key != "CONFIGURATION" {
			return nil, fmt.Errorf("alter does not take %s as a table attribute", e.key)
		}
		if err := applyTableAttr(probe, e.key, e.val); err != nil {
			return nil, err
		}
		keys = append(keys, e.key)
	}
	return func(t *hrpc.TableDescriptor) (string, error) {
		for _, e := range a.hash {
			if e.key != "METHOD" {
				if err := applyTableAttr(t, e.key, e.val); err != nil {
					return "", err
				}
			}
		}
		return "Set " + strings.Join(keys, ", "), nil
	}, nil
}

func deleteFamilyStep(name string) alterStep {
	return func(t *hrpc.TableDescriptor) (string, error) {
		for i := range t.Families {
			if t.Families[i].Name == name {
				if len(t.Families) == 1 {
					return "", fmt.Errorf("family %s is the table's only one: a table needs at least one", quoteShell(name))
				}
				t.Families = append(t.Families[:i], t.Families[i+1:]...)
				return "Deleted family " + quoteShell(name), nil
			}
		}
		return "", fmt.Errorf("the table has no family %s", quoteShell(name))
	}
}

// describeOut is what describe prints.
type describeOut struct {
	Table         string            `json:"table"`
	Enabled       bool              `json:"enabled"`
	Attributes    map[string]string `json:"attributes,omitempty"`
	Configuration map[string]string `json:"configuration,omitempty"`
	Families      []familyOut       `json:"families"`
	fams          []hrpc.FamilyDescriptor
}

func (r *describeOut) shellText(w io.Writer) (int64, error) {
	state := "DISABLED"
	if r.Enabled {
		state = "ENABLED"
	}
	fmt.Fprintf(w, "Table %s is %s\n", r.Table, state)
	var attrs []string
	for _, k := range sortedKeys(r.Attributes) {
		attrs = append(attrs, fmt.Sprintf("%s => '%s'", k, r.Attributes[k]))
	}
	if len(r.Configuration) > 0 {
		var conf []string
		for _, k := range sortedKeys(r.Configuration) {
			conf = append(conf, fmt.Sprintf("'%s' => '%s'", k, r.Configuration[k]))
		}
		attrs = append(attrs, "CONFIGURATION => {"+strings.Join(conf, ", ")+"}")
	}
	if len(attrs) > 0 {
		fmt.Fprintf(w, "%s, {TABLE_ATTRIBUTES => {%s}}\n", r.Table, strings.Join(attrs, ", "))
	} else {
		fmt.Fprintln(w, r.Table)
	}
	fmt.Fprintln(w, "COLUMN FAMILIES DESCRIPTION")
	for i := range r.fams {
		fmt.Fprintln(w, familyText(&r.fams[i]))
	}
	return int64(len(r.fams)), nil
}

// familyText is a family as the shell's describe prints it.
func familyText(f *hrpc.FamilyDescriptor) string {
	ttl := "FOREVER"
	if f.TTL > 0 {
		ttl = fmt.Sprintf("%d SECONDS", int64(f.TTL/time.Second))
	}
	kv := map[string]string{
		"VERSIONS": strconv.Itoa(f.MaxVersions), "MIN_VERSIONS": strconv.Itoa(f.MinVersions), "TTL": ttl,
		"COMPRESSION": string(f.Compression), "BLOOMFILTER": string(f.BloomFilter), "BLOCKSIZE": strconv.Itoa(f.BlockSize),
		"IN_MEMORY": strconv.FormatBool(f.InMemory), "DATA_BLOCK_ENCODING": string(f.Encoding),
	}
	// The other attributes as the master has them, typed fields (BLOCKCACHE,
	// KEEP_DELETED_CELLS...) written in: the shell prints them too.
	for k, v := range f.AllAttributes() {
		if _, shown := kv[k]; !shown {
			kv[k] = v
		}
	}
	parts := []string{"NAME => '" + f.Name + "'"}
	for _, k := range sortedKeys(kv) {
		parts = append(parts, fmt.Sprintf("%s => '%s'", k, kv[k]))
	}
	if len(f.Configuration) > 0 {
		var conf []string
		for _, k := range sortedKeys(f.Configuration) {
			conf = append(conf, fmt.Sprintf("'%s' => '%s'", k, f.Configuration[k]))
		}
		parts = append(parts, "CONFIGURATION => {"+strings.Join(conf, ", ")+"}")
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func prepareDescribe(st statement) (action, error) {
	if err := wantArgs(st.args, 1, 1, "describe 'table'"); err != nil {
		return nil, err
	}
	table, err := tableName(st.args, 0)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		desc, err := admin.DescribeTable(ctx, table)
		if err != nil {
			return nil, err
		}
		enabled, err := admin.TableEnabled(ctx, table)
		if err != nil {
			return nil, err
		}
		out := &describeOut{Table: desc.Name, Enabled: enabled, Attributes: desc.AllAttributes(), Configuration: desc.Configuration,
			Families: []familyOut{}, fams: desc.Families}
		for i := range desc.Families {
			out.Families = append(out.Families, familyOf(&desc.Families[i]))
		}
		return out, nil
	}, nil
}

func prepareTableSwitch(verb string) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if err := wantArgs(st.args, 1, 1, verb+" 'table'"); err != nil {
			return nil, err
		}
		table, err := tableName(st.args, 0)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, sh *shell) (shellResult, error) {
			admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
			if err != nil {
				return nil, err
			}
			defer cancel()
			return tableSwitch(ctx, admin, verb, table)
		}, nil
	}
}

func tableSwitch(ctx context.Context, admin *admin.Admin, verb, table string) (shellResult, error) {
	switch verb {
	case "enable":
		if err := admin.EnableTable(ctx, table); err != nil {
			return nil, err
		}
		return done("Enabled table %s", table), nil
	case "disable":
		if err := admin.DisableTable(ctx, table); err != nil {
			return nil, err
		}
		return done("Disabled table %s", table), nil
	}
	if err := admin.DeleteTable(ctx, table); err != nil {
		return nil, err
	}
	return done("Dropped table %s", table), nil
}

// prepareAll_ is disable_all, enable_all and drop_all: the verb on every table matching a
// regular expression. The interactive mode asks first, as the shell does.
func prepareAll_(verb string) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if err := wantArgs(st.args, 1, 1, verb+"_all 'regex'"); err != nil {
			return nil, err
		}
		re, err := strVal(st.args[0], "regex")
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, sh *shell) (shellResult, error) {
			admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
			if err != nil {
				return nil, err
			}
			defer cancel()
			tables, err := admin.ListTables(ctx, hrpc.TableRegex(re))
			if err != nil {
				return nil, err
			}
			if len(tables) == 0 {
				return done("No table matches %s", quoteShell(re)), nil
			}
			if sh.confirm != nil && !sh.confirm(fmt.Sprintf("%s\n%s the above %d table(s) (y/n)? ", strings.Join(tables, "\n"), verb, len(tables))) {
				return done("Nothing done"), nil
			}
			out := &textResult{}
			for _, t := range tables {
				r, err := tableSwitch(ctx, admin, verb, t)
				if err != nil {
					return nil, err
				}
				out.Lines = append(out.Lines, r.(*textResult).Message)
			}
			out.Message = fmt.Sprintf("%d table(s) done", len(tables))
			return out, nil
		}, nil
	}
}

func prepareTableQuestion(verb string) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if err := wantArgs(st.args, 1, 1, verb+" 'table'"); err != nil {
			return nil, err
		}
		table, err := tableName(st.args, 0)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, sh *shell) (shellResult, error) {
			admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
			if err != nil {
				return nil, err
			}
			defer cancel()
			if verb == "exists" {
				ok, err := admin.TableExists(ctx, table)
				if err != nil {
					return nil, err
				}
				does := "does not exist"
				if ok {
					does = "does exist"
				}
				return &boolResult{Value: ok, text: "Table " + table + " " + does}, nil
			}
			enabled, err := admin.TableEnabled(ctx, table)
			if err != nil {
				return nil, err
			}
			return &boolResult{Value: enabled == (verb == "is_enabled")}, nil
		}, nil
	}
}

func prepareList(st statement) (action, error) {
	if err := wantArgs(st.args, 0, 1, "list or list 'regex'"); err != nil {
		return nil, err
	}
	var opts []hrpc.ListTablesOption
	if len(st.args) == 1 {
		re, err := strVal(st.args[0], "regex")
		if err != nil {
			return nil, err
		}
		opts = append(opts, hrpc.TableRegex(re))
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		tables, err := admin.ListTables(ctx, opts...)
		if err != nil {
			return nil, err
		}
		if tables == nil {
			tables = []string{}
		}
		return &listOut{Header: "TABLE", Names: tables}, nil
	}, nil
}

// regionRowsOut is list_regions' table.
type regionRowsOut struct {
	Regions []regionRowOut `json:"regions"`
}

type regionRowOut struct {
	Server   string  `json:"server"`
	Region   string  `json:"region"`
	Start    string  `json:"start_key"`
	End      string  `json:"end_key"`
	SizeMB   uint32  `json:"size_mb"`
	Requests uint64  `json:"requests"`
	Locality float32 `json:"locality"`
}

func (r *regionRowsOut) shellText(w io.Writer) (int64, error) {
	rows := make([][]string, len(r.Regions))
	for i, x := range r.Regions {
		rows[i] = []string{x.Server, x.Region, x.Start, x.End, strconv.Itoa(int(x.SizeMB)), strconv.FormatUint(x.Requests, 10), strconv.FormatFloat(float64(x.Locality), 'f', 2, 32)}
	}
	err := writeTable(w, []string{"SERVER_NAME", "REGION_NAME", "START_KEY", "END_KEY", "SIZE", "REQ", "LOCALITY"}, rows)
	return int64(len(rows)), err
}

func prepareListRegions(st statement) (action, error) {
	if err := wantArgs(st.args, 1, 3, "list_regions 'table'[, 'server']"); err != nil {
		return nil, err
	}
	table, err := tableName(st.args, 0)
	if err != nil {
		return nil, err
	}
	server := ""
	if len(st.args) >= 2 && st.args[1].kind == vString {
		server = st.args[1].s
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		regions, err := admin.Regions(ctx, table)
		if err != nil {
			return nil, err
		}
		cs, err := admin.ClusterStatus(ctx)
		if err != nil {
			return nil, err
		}
		loads := map[string]*hrpc.RegionLoad{}
		for i := range cs.LiveServers {
			for j := range cs.LiveServers[i].Regions {
				l := &cs.LiveServers[i].Regions[j]
				loads[l.Encoded] = l
			}
		}
		out := &regionRowsOut{Regions: []regionRowOut{}}
		for _, r := range regions {
			if server != "" && r.Server.String() != server && r.Server.Addr() != server && r.Server.Host != server {
				continue
			}
			row := regionRowOut{Server: r.Server.String(), Region: formatBinary(r.Name), Start: formatBinary(r.Start), End: formatBinary(r.End)}
			if l := loads[r.Encoded]; l != nil {
				row.SizeMB, row.Requests, row.Locality = l.StoreFileSizeMB, l.ReadRequests+l.WriteRequests, l.DataLocality
			}
			out.Regions = append(out.Regions, row)
		}
		return out, nil
	}, nil
}

func prepareLocateRegion(st statement) (action, error) {
	if err := wantArgs(st.args, 2, 2, "locate_region 'table', 'row'"); err != nil {
		return nil, err
	}
	table, err := tableName(st.args, 0)
	if err != nil {
		return nil, err
	}
	row, err := strVal(st.args[1], "row")
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		regions, err := admin.Regions(ctx, table)
		if err != nil {
			return nil, err
		}
		for _, r := range regions {
			if r.Contains([]byte(row)) {
				out := &regionRowsOut{Regions: []regionRowOut{{Server: r.Server.String(), Region: formatBinary(r.Name), Start: formatBinary(r.Start), End: formatBinary(r.End)}}}
				return out, nil
			}
		}
		return nil, fmt.Errorf("no region of %s holds row %s", table, quoteShell(row))
	}, nil
}

func prepareShowFilters(st statement) (action, error) {
	if len(st.args) > 0 {
		return nil, fmt.Errorf("takes no arguments")
	}
	return func(context.Context, *shell) (shellResult, error) {
		names := append([]string(nil), filterNames...)
		sort.Strings(names)
		return &listOut{Names: names}, nil
	}, nil
}

func prepareCloneSchema(st statement) (action, error) {
	if err := wantArgs(st.args, 2, 3, "clone_table_schema 'table', 'new_table'[, preserve_splits]"); err != nil {
		return nil, err
	}
	from, err := tableName(st.args, 0)
	if err != nil {
		return nil, err
	}
	to, err := tableName(st.args, 1)
	if err != nil {
		return nil, err
	}
	preserve := true
	if len(st.args) == 3 {
		if preserve, err = boolVal(st.args[2], "preserve_splits"); err != nil {
			return nil, err
		}
	}
	if _, err := hrpc.NewTableDescriptor(to, hrpc.WithFamily("f")); err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		desc, err := admin.DescribeTable(ctx, from)
		if err != nil {
			return nil, err
		}
		desc.Name = to
		var opts []hrpc.CreateTableOption
		if preserve {
			regions, err := admin.Regions(ctx, from)
			if err != nil {
				return nil, err
			}
			var keys [][]byte
			for _, r := range regions {
				if len(r.Start) > 0 {
					keys = append(keys, r.Start)
				}
			}
			if len(keys) > 0 {
				opts = append(opts, hrpc.SplitKeys(keys...))
			}
		}
		if err := admin.CreateTable(ctx, desc, opts...); err != nil {
			return nil, err
		}
		return done("Created table %s with the schema of %s", to, from), nil
	}, nil
}
