package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/visibility"
)

// The shell's visibility labels group: the VisibilityController's labels and users'
// authorizations (package visibility).

func visibilityVerbs() []*shellVerb {
	return []*shellVerb{
		{name: "add_labels", group: "visibility labels", prepare: prepareAddLabels, usage: `add_labels 'label'
add_labels ['label1', 'label2']

Defines visibility labels (letters, digits and _-:./), for the cells' visibility expressions
and the users' authorizations.`},
		{name: "set_auths", group: "visibility labels", prepare: prepareAuths("set_auths"), usage: `set_auths 'user', 'label'
set_auths '@group', ['label1', 'label2']

Gives a user or a group the authorization of defined labels: its reads see the cells whose
visibility expression those labels satisfy.`},
		{name: "clear_auths", group: "visibility labels", prepare: prepareAuths("clear_auths"), usage: `clear_auths 'user', 'label'
clear_auths '@group', ['label1', 'label2']

Takes authorizations from a user or a group; it must have each of them.`},
		{name: "get_auths", group: "visibility labels", prepare: prepareGetAuths, usage: `get_auths 'user'
get_auths '@group'

Lists the labels a user or group is authorized for.`},
		{name: "list_labels", group: "visibility labels", prepare: prepareListLabels, usage: `list_labels
list_labels 'regex'

Lists the visibility labels defined, or those the regular expression matches as a whole.`},
		{name: "set_visibility", group: "visibility labels", prepare: prepareSetVisibility, usage: `set_visibility 'table', 'secret | public', {COLUMNS => ['f:q', 'f2']}
set_visibility 'table', 'secret & !intern', {ROWPREFIXFILTER => 'row', TIMERANGE => [from_ms, to_ms]}
set_visibility 'table', 'secret', {STARTROW => 'a', STOPROW => 'm', FILTER => "ValueFilter(=, 'binary:v')"}

Writes the cells a scan of these options finds again, same timestamp and value, with the
visibility expression; prints the number of rows. The cells written before stay under the new
ones (a reader whose labels do not satisfy the expression may see them again where the family
keeps several versions): a command for trying the labels out, as in the HBase shell.`},
	}
}

// labelArgs reads labels given as strings, arrays of strings or both, as the shell flattens
// them.
func labelArgs(args []value) ([]string, error) {
	var out []string
	for _, v := range args {
		ls, err := strList(v, "label")
		if err != nil {
			return nil, err
		}
		out = append(out, ls...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no label given")
	}
	return out, nil
}

// clientAction runs f with the client, bounded by -timeout.
func clientAction(f func(ctx context.Context, c *hbase.Client) (shellResult, error)) action {
	return func(ctx context.Context, sh *shell) (shellResult, error) {
		c, ctx, cancel, err := sh.c.clientWithTimeout(ctx)
		if err != nil {
			return nil, err
		}
		defer cancel()
		return f(ctx, c)
	}
}

func prepareAddLabels(st statement) (action, error) {
	labels, err := labelArgs(st.args)
	if err != nil {
		return nil, fmt.Errorf("want add_labels 'label' or add_labels ['label', ...]: %v", err)
	}
	for _, l := range labels {
		if !visibility.ValidLabel(l) {
			return nil, fmt.Errorf("label %s: a label is letters, digits, '_', '-', ':', '/' and '.'", quoteShell(l))
		}
	}
	return clientAction(func(ctx context.Context, c *hbase.Client) (shellResult, error) {
		if err := visibility.AddLabels(ctx, c, labels...); err != nil {
			return nil, err
		}
		return done("Added label(s) %s", strings.Join(labels, ", ")), nil
	}), nil
}

func prepareAuths(verb string) func(statement) (action, error) {
	return func(st statement) (action, error) {
		if len(st.args) < 2 {
			return nil, fmt.Errorf("want %s 'user', 'label' or %s 'user', ['label', ...]", verb, verb)
		}
		user, err := userArg(st.args[0])
		if err != nil {
			return nil, err
		}
		labels, err := labelArgs(st.args[1:])
		if err != nil {
			return nil, err
		}
		return clientAction(func(ctx context.Context, c *hbase.Client) (shellResult, error) {
			if verb == "set_auths" {
				if err := visibility.SetAuths(ctx, c, user, labels...); err != nil {
					return nil, err
				}
				return done("Gave %s the label(s) %s", user, strings.Join(labels, ", ")), nil
			}
			if err := visibility.ClearAuths(ctx, c, user, labels...); err != nil {
				return nil, err
			}
			return done("Took the label(s) %s from %s", strings.Join(labels, ", "), user), nil
		}), nil
	}
}

func prepareGetAuths(st statement) (action, error) {
	if err := wantArgs(st.args, 1, 1, "get_auths 'user'"); err != nil {
		return nil, err
	}
	user, err := userArg(st.args[0])
	if err != nil {
		return nil, err
	}
	return clientAction(func(ctx context.Context, c *hbase.Client) (shellResult, error) {
		auths, err := visibility.Auths(ctx, c, user)
		if err != nil {
			return nil, err
		}
		return labelsList(auths), nil
	}), nil
}

func prepareListLabels(st statement) (action, error) {
	if err := wantArgs(st.args, 0, 1, "list_labels['regex']"); err != nil {
		return nil, err
	}
	re := ""
	if len(st.args) == 1 {
		var err error
		if re, err = strVal(st.args[0], "regular expression"); err != nil {
			return nil, err
		}
	}
	return clientAction(func(ctx context.Context, c *hbase.Client) (shellResult, error) {
		labels, err := visibility.ListLabels(ctx, c, re)
		if err != nil {
			return nil, err
		}
		return labelsList(labels), nil
	}), nil
}

// labelsList prints labels one a line, as toStringBinary writes them.
func labelsList(labels []string) *listOut {
	out := &listOut{Names: []string{}}
	for _, l := range labels {
		out.Names = append(out.Names, formatBinary([]byte(l)))
	}
	return out
}

// rewriteKeys are the scan options of set_visibility and of grant's cell form, as the shell's
// help gives them.
var rewriteKeys = []string{"TIMERANGE", "FILTER", "STARTROW", "STOPROW", "ROWPREFIXFILTER", "TIMESTAMP", "COLUMNS"}

func prepareSetVisibility(st statement) (action, error) {
	args, h := splitOpts(st.args)
	if len(args) != 2 {
		return nil, fmt.Errorf("want set_visibility 'table', 'expression'[, {COLUMNS => ..., FILTER => ...}]")
	}
	table, err := tableName(args, 0)
	if err != nil {
		return nil, err
	}
	expr, err := strVal(args[1], "visibility expression")
	if err != nil {
		return nil, err
	}
	return prepareRewrite("set_visibility", table, h, hrpc.CellVisibility(expr))
}

// prepareRewrite scans table with the options of h and writes each cell found again, same
// timestamp and value, with opts (the shell's set_visibility and grant on cells); the result
// counts the rows. The options are checked here, on a request that is never sent.
func prepareRewrite(verb, table string, h value, opts ...hrpc.PutOption) (action, error) {
	if err := checkKeys(verb, h, rewriteKeys...); err != nil {
		return nil, err
	}
	if _, err := hrpc.NewPut(table, []byte("r"), append([]hrpc.PutOption{hrpc.Value([]byte("f"), nil, nil)}, opts...)...); err != nil {
		return nil, err
	}
	spec, err := readOptsFrom(h, nil)
	if err != nil {
		return nil, err
	}
	sopts, err := scanRange(h)
	if err != nil {
		return nil, err
	}
	scan, err := hrpc.NewScan(table, append(sopts, spec.scanOptions()...)...)
	if err != nil {
		return nil, err
	}
	return clientAction(func(ctx context.Context, c *hbase.Client) (shellResult, error) {
		out := &countOut{Table: table}
		for res, err := range c.Scan(ctx, scan) {
			if err != nil {
				return nil, err
			}
			if len(res.Cells) == 0 {
				continue
			}
			popts := append([]hrpc.PutOption(nil), opts...)
			for _, cell := range res.Cells {
				popts = append(popts, hrpc.ValueAt(cell.Family, cell.Qualifier, cell.Timestamp, cell.Value))
			}
			put, err := hrpc.NewPut(table, res.Cells[0].Row, popts...)
			if err == nil {
				_, err = c.Put(ctx, put)
			}
			if err != nil {
				return nil, err
			}
			out.Rows++
		}
		return out, nil
	}), nil
}
