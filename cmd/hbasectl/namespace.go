package main

import (
	"context"
	"flag"
	"io"
	"strings"

	"github.com/go-hbase/hbase/hrpc"
)

// namespaceOut is one namespace in the output.
type namespaceOut struct {
	Name       string            `json:"name"`
	Properties map[string]string `json:"properties,omitempty"`
}

// namespacesResult is what namespace prints: the namespaces after the action.
type namespacesResult struct {
	Action     string         `json:"action"`
	Namespaces []namespaceOut `json:"namespaces"`
}

func (r *namespacesResult) writeText(w io.Writer) error {
	rows := make([][]string, len(r.Namespaces))
	for i, ns := range r.Namespaces {
		props := make([]string, 0, len(ns.Properties))
		for _, k := range sortedKeys(ns.Properties) {
			props = append(props, k+"="+ns.Properties[k])
		}
		rows[i] = []string{ns.Name, orDash(strings.Join(props, " "))}
	}
	return writeTable(w, []string{"NAMESPACE", "PROPERTIES"}, rows)
}

// propsFlag collects repeated -prop key=value flags.
type propsFlag []hrpc.NamespaceOption

func (f *propsFlag) String() string { return "" }

func (f *propsFlag) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return usagef("-prop: want key=value, got %q", v)
	}
	*f = append(*f, hrpc.NamespaceProperty(k, val))
	return nil
}

func namespaceCmd() *command {
	return &command{
		name: "namespace", args: "create <name> | delete <name> | describe <name> | list",
		summary: "create (with -prop key=value ...), delete (when empty), describe or list namespaces", minArgs: 1, maxArgs: 2,
		setup: func(fs *flag.FlagSet) runFunc {
			var props propsFlag
			fs.Var(&props, "prop", "with create: a namespace property key=value (e.g. hbase.namespace.quota.maxtables=10); repeatable")
			return func(ctx context.Context, c *cli, args []string) error {
				want := map[string]int{"create": 2, "delete": 2, "describe": 2, "list": 1}
				n, ok := want[args[0]]
				switch {
				case !ok:
					return usagef("namespace: want create, delete, describe or list, got %q", args[0])
				case len(args) != n:
					return usagef("namespace %s: want namespace %s", args[0], map[string]string{
						"create": "create <name>", "delete": "delete <name>", "describe": "describe <name>", "list": "list"}[args[0]])
				case len(props) > 0 && args[0] != "create":
					return usagef("namespace %s: -prop goes with create only", args[0])
				}
				var desc *hrpc.NamespaceDescriptor
				if args[0] == "create" {
					var err error
					if desc, err = hrpc.NewNamespace(args[1], props...); err != nil {
						return usagef("namespace create: %v", err)
					}
				}
				admin, ctx, cancel, err := c.adminWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				out := &namespacesResult{Action: args[0], Namespaces: []namespaceOut{}}
				var list []*hrpc.NamespaceDescriptor
				switch args[0] {
				case "create":
					err = admin.CreateNamespace(ctx, desc)
				case "delete":
					err = admin.DeleteNamespace(ctx, args[1])
				case "describe":
					var ns *hrpc.NamespaceDescriptor
					if ns, err = admin.DescribeNamespace(ctx, args[1]); err == nil {
						list = append(list, ns)
					}
				}
				if err != nil {
					return err
				}
				if args[0] != "describe" {
					if list, err = admin.ListNamespaces(ctx); err != nil {
						return err
					}
				}
				for _, ns := range list {
					out.Namespaces = append(out.Namespaces, namespaceOut{Name: ns.Name, Properties: ns.Properties})
				}
				return c.emit(out)
			}
		},
	}
}
