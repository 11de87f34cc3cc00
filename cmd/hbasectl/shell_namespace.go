package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/go-hbase/hbase/hrpc"
)

// The shell's namespace commands.

func namespaceVerbs() []*shellVerb {
	return []*shellVerb{
		{name: "create_namespace", group: "namespace", prepare: prepareCreateNamespace, usage: `create_namespace 'ns'
create_namespace 'ns', {'hbase.namespace.quota.maxtables' => '10'}

Creates a namespace, with properties.`},
		{name: "drop_namespace", group: "namespace", prepare: prepareNamespaceName("drop_namespace"), usage: `drop_namespace 'ns'

Deletes an empty namespace.`},
		{name: "alter_namespace", group: "namespace", prepare: prepareAlterNamespace, usage: `alter_namespace 'ns', {METHOD => 'set', 'key' => 'value'}
alter_namespace 'ns', {METHOD => 'unset', NAME => 'key'}

Sets or removes properties of a namespace.`},
		{name: "describe_namespace", group: "namespace", prepare: prepareNamespaceName("describe_namespace"), usage: `describe_namespace 'ns'

Prints a namespace's properties.`},
		{name: "list_namespace", group: "namespace", prepare: prepareListNamespace, usage: `list_namespace
list_namespace 'regex'

Lists the namespaces, or those whose name matches the regular expression.`},
		{name: "list_namespace_tables", group: "namespace", prepare: prepareNamespaceName("list_namespace_tables"), usage: `list_namespace_tables 'ns'

Lists the tables of a namespace.`},
	}
}

func namespaceText(ns *hrpc.NamespaceDescriptor) string {
	parts := []string{"NAME => '" + ns.Name + "'"}
	for _, k := range sortedKeys(ns.Properties) {
		parts = append(parts, fmt.Sprintf("'%s' => '%s'", k, ns.Properties[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// namespaceOutShell is describe_namespace's output.
type namespaceOutShell struct {
	Name       string            `json:"name"`
	Properties map[string]string `json:"properties,omitempty"`
}

func (r *namespaceOutShell) shellText(w io.Writer) (int64, error) {
	fmt.Fprintln(w, "DESCRIPTION")
	_, err := fmt.Fprintln(w, namespaceText(&hrpc.NamespaceDescriptor{Name: r.Name, Properties: r.Properties}))
	return 1, err
}

func prepareCreateNamespace(st statement) (action, error) {
	if err := wantArgs(st.args, 1, 2, "create_namespace 'ns'[, {'key' => 'value'}]"); err != nil {
		return nil, err
	}
	name, err := strVal(st.args[0], "namespace")
	if err != nil {
		return nil, err
	}
	var opts []hrpc.NamespaceOption
	if len(st.args) == 2 {
		props, err := stringMap(st.args[1], "properties")
		if err != nil {
			return nil, err
		}
		for _, k := range sortedKeys(props) {
			opts = append(opts, hrpc.NamespaceProperty(k, props[k]))
		}
	}
	desc, err := hrpc.NewNamespace(name, opts...)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		if err := admin.CreateNamespace(ctx, desc); err != nil {
			return nil, err
		}
		return done("Created namespace %s", name), nil
	}, nil
}

func prepareNamespaceName(verb string) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if err := wantArgs(st.args, 1, 1, verb+" 'ns'"); err != nil {
			return nil, err
		}
		name, err := strVal(st.args[0], "namespace")
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, sh *shell) (shellResult, error) {
			admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
			if err != nil {
				return nil, err
			}
			defer cancel()
			switch verb {
			case "drop_namespace":
				if err := admin.DeleteNamespace(ctx, name); err != nil {
					return nil, err
				}
				return done("Dropped namespace %s", name), nil
			case "describe_namespace":
				ns, err := admin.DescribeNamespace(ctx, name)
				if err != nil {
					return nil, err
				}
				return &namespaceOutShell{Name: ns.Name, Properties: ns.Properties}, nil
			}
			if _, err := admin.DescribeNamespace(ctx, name); err != nil {
				return nil, err
			}
			tables, err := admin.ListTables(ctx, hrpc.InNamespace(name))
			if err != nil {
				return nil, err
			}
			out := &listOut{Header: "TABLE", Names: []string{}}
			for _, t := range tables {
				// The shell lists the tables' names within the namespace.
				if _, q, ok := strings.Cut(t, ":"); ok {
					t = q
				}
				out.Names = append(out.Names, t)
			}
			return out, nil
		}, nil
	}
}

func prepareAlterNamespace(st statement) (action, error) {
	if err := wantArgs(st.args, 2, 2, "alter_namespace 'ns', {METHOD => 'set', 'key' => 'value'}"); err != nil {
		return nil, err
	}
	name, err := strVal(st.args[0], "namespace")
	if err != nil {
		return nil, err
	}
	set, unset, err := setUnsetHash(st.args[1])
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		ns, err := admin.DescribeNamespace(ctx, name)
		if err != nil {
			return nil, err
		}
		ns = ns.Clone()
		if ns.Properties == nil {
			ns.Properties = map[string]string{}
		}
		for k, v := range set {
			ns.Properties[k] = v
		}
		for _, k := range unset {
			delete(ns.Properties, k)
		}
		if err := admin.ModifyNamespace(ctx, ns); err != nil {
			return nil, err
		}
		return done("Altered namespace %s: %s", name, namespaceText(ns)), nil
	}, nil
}

// setUnsetHash reads the hash of alter_namespace and alter_rsgroup_config: METHOD => 'set'
// with 'key' => 'value' pairs, or METHOD => 'unset' with NAME => 'key' (or a list of keys).
func setUnsetHash(h value) (set map[string]string, unset []string, err error) {
	if h.kind != vHash {
		return nil, nil, fmt.Errorf("want a hash {METHOD => 'set', 'key' => 'value'}, got %s", h.describe())
	}
	mv, ok := h.get("METHOD")
	if !ok {
		return nil, nil, fmt.Errorf("want METHOD => 'set' or 'unset'")
	}
	method, err := strVal(mv, "METHOD")
	if err != nil {
		return nil, nil, err
	}
	set = map[string]string{}
	switch method {
	case "set":
		for _, e := range h.hash {
			if e.key == "METHOD" {
				continue
			}
			s, err := scalarText(e.val)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %v", e.key, err)
			}
			set[e.key] = s
		}
		if len(set) == 0 {
			return nil, nil, fmt.Errorf("METHOD => 'set' needs 'key' => 'value'")
		}
	case "unset":
		nv, ok := h.get("NAME")
		if !ok || len(h.hash) != 2 {
			return nil, nil, fmt.Errorf("METHOD => 'unset' takes NAME => 'key' only")
		}
		if unset, err = strList(nv, "NAME"); err != nil {
			return nil, nil, err
		}
	default:
		return nil, nil, fmt.Errorf("METHOD: want 'set' or 'unset', got %s", quoteShell(method))
	}
	return set, unset, nil
}

func prepareListNamespace(st statement) (action, error) {
	if err := wantArgs(st.args, 0, 1, "list_namespace[ 'regex']"); err != nil {
		return nil, err
	}
	re, err := optRegex(st.args, "^(?:%s)$")
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		admin, ctx, cancel, err := sh.c.adminWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		list, err := admin.ListNamespaces(ctx)
		if err != nil {
			return nil, err
		}
		out := &listOut{Header: "NAMESPACE", Names: []string{}}
		for _, ns := range list {
			if re == nil || re.MatchString(ns.Name) {
				out.Names = append(out.Names, ns.Name)
			}
		}
		return out, nil
	}, nil
}

// optRegex compiles a command's optional first argument, a regular expression placed in
// pattern (whole-name "^(?:%s)$" or anywhere "%s"); nil when there is none.
func optRegex(args []value, pattern string) (*regexp.Regexp, error) {
	if len(args) == 0 {
		return nil, nil
	}
	s, err := strVal(args[0], "regex")
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(fmt.Sprintf(pattern, s))
	if err != nil {
		return nil, fmt.Errorf("regex %s: %v", quoteShell(s), err)
	}
	return re, nil
}
