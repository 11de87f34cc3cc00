package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/go-hbase/hbase/doc"
	"github.com/go-hbase/hbase/hberr"
)

// The doc command: JSON documents in HBase rows (package doc), one per row of a table's
// family, with secondary indexes named on the command line.

// docOut is one document in the output.
type docOut struct {
	ID      string          `json:"id"`
	Version uint64          `json:"version"`
	Doc     json.RawMessage `json:"doc"`
}

func newDocOut(d *doc.Document) (docOut, error) {
	b, err := d.JSON()
	if err != nil {
		return docOut{}, err
	}
	return docOut{ID: d.ID, Version: d.Version, Doc: b}, nil
}

// docResult is what doc get prints: the document, indented JSON under a line of its id and
// version.
type docResult struct{ docOut }

func (r *docResult) writeText(w io.Writer) error {
	pretty, err := indentJSON(r.Doc)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s (version %d)\n%s\n", formatBinary([]byte(r.ID)), r.Version, pretty)
	return err
}

func indentJSON(raw json.RawMessage) ([]byte, error) {
	m, err := doc.ParseJSON(raw)
	if err != nil {
		return nil, err
	}
	return doc.MarshalJSONIndent(m, "", "  ")
}

// docsResult is what doc query prints: one document per line (id, version, JSON), or with
// -json their list.
type docsResult struct {
	Plan      string   `json:"plan,omitempty"`
	Documents []docOut `json:"documents"`
	Count     int      `json:"count"`
}

func (r *docsResult) writeText(w io.Writer) error {
	if r.Plan != "" {
		if _, err := fmt.Fprintf(w, "plan: %s\n", r.Plan); err != nil {
			return err
		}
	}
	for _, d := range r.Documents {
		if _, err := fmt.Fprintf(w, "%s\tv%d\t%s\n", formatBinary([]byte(d.ID)), d.Version, d.Doc); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "%s\n", plural(int64(r.Count), "document"))
	return err
}

// docWriteResult is what doc put, update and delete print.
type docWriteResult struct {
	Action  string `json:"action"`
	ID      string `json:"id"`
	Version uint64 `json:"version,omitempty"`
}

func (r *docWriteResult) writeText(w io.Writer) error {
	v := "-"
	if r.Version > 0 {
		v = fmt.Sprint(r.Version)
	}
	return writeTable(w, []string{"ACTION", "ID", "VERSION"}, [][]string{{r.Action, formatBinary([]byte(r.ID)), v}})
}

// docRepairResult is what doc repair prints.
type docRepairResult struct {
	Index     string   `json:"index"`
	Rows      int      `json:"rows"`
	Documents int      `json:"documents"`
	Removed   int      `json:"removed"`
	Added     int      `json:"added"`
	Young     int      `json:"young"`
	DryRun    bool     `json:"dryRun,omitempty"`
	Examples  []string `json:"examples,omitempty"`
}

func (r *docRepairResult) writeText(w io.Writer) error {
	rows := [][]string{{r.Index, fmt.Sprint(r.Rows), fmt.Sprint(r.Documents), fmt.Sprint(r.Removed), fmt.Sprint(r.Added), fmt.Sprint(r.Young)}}
	if err := writeTable(w, []string{"INDEX", "ROWS", "DOCUMENTS", "REMOVED", "ADDED", "YOUNG"}, rows); err != nil {
		return err
	}
	for _, e := range r.Examples {
		if _, err := fmt.Fprintln(w, "  "+e); err != nil {
			return err
		}
	}
	if r.DryRun {
		_, err := fmt.Fprintln(w, "dry run: nothing written")
		return err
	}
	return nil
}

// listFlag collects a repeatable flag's values.
type listFlag []string

func (f *listFlag) String() string     { return strings.Join(*f, ",") }
func (f *listFlag) Set(v string) error { *f = append(*f, v); return nil }

// docFlags are the doc command's flags; each subcommand takes some of them (docFlagsOf).
type docFlags struct {
	family, indexTable      string
	indexes, paths, where   listFlag
	set, remove, inc, apnd  listFlag
	or, explain, noIndex    bool
	insert, replace, dryRun bool
	limit                   int
	start, stop             string
	ifVersion               uint64
}

// docFlagsOf lists the flags each subcommand takes, besides -family, -index-table, -index.
var docFlagsOf = map[string][]string{
	"get":    {"path"},
	"put":    {"insert", "replace", "if-version"},
	"update": {"set", "remove", "inc", "append", "if-version"},
	"delete": {"if-version"},
	"query":  {"where", "or", "path", "limit", "start", "stop", "explain", "no-index"},
	"repair": {"dry-run"},
}

// docArgs is how many positional arguments each subcommand takes, its name included.
var docArgs = map[string]struct {
	n     int
	usage string
}{
	"get":    {3, "doc get <table> <id>"},
	"put":    {4, "doc put <table> <id> <json|@file|->"},
	"update": {3, "doc update <table> <id> -set path=json ..."},
	"delete": {3, "doc delete <table> <id>"},
	"query":  {2, "doc query <table> [-where 'path op json' ...]"},
	"repair": {3, "doc repair <table> <index> (with -index index=path)"},
}

func docCmd() *command {
	return &command{
		name: "doc", args: "get|put|update|delete|query|repair <table> [<id>|<index>] [<json>]",
		summary: "JSON documents, one per row of a family: read, write, update paths, query (with indexes), repair an index",
		minArgs: 2, maxArgs: 4,
		setup: func(fs *flag.FlagSet) runFunc {
			var f docFlags
			fs.StringVar(&f.family, "family", "d", "the column family holding the documents")
			fs.StringVar(&f.indexTable, "index-table", "", "the table of the index rows (default <table>_index, same family)")
			fs.Var(&f.indexes, "index", "an index of the collection, name=path (repeatable); every writer must name the same ones")
			fs.Var(&f.paths, "path", "get, query: read only this path (repeatable): a projection")
			fs.Var(&f.where, "where", `query: a condition 'path op json' with op one of == < <= > >= ^= (string prefix) contains, or 'exists path' (repeatable: all must hold, or any with -or)`)
			fs.BoolVar(&f.or, "or", false, "query: any -where condition, not all")
			fs.BoolVar(&f.explain, "explain", false, "query: print how the query reads (an index or a filtered scan) first")
			fs.BoolVar(&f.noIndex, "no-index", false, "query: scan the collection even when an index could serve")
			fs.IntVar(&f.limit, "limit", 0, "query: at most this many documents (0: all)")
			fs.StringVar(&f.start, "start", "", "query: the first id (inclusive)")
			fs.StringVar(&f.stop, "stop", "", "query: the id to stop before")
			fs.Var(&f.set, "set", "update: set path=json (repeatable)")
			fs.Var(&f.remove, "remove", "update: remove path (repeatable)")
			fs.Var(&f.inc, "inc", "update: add to the number at path=number (repeatable)")
			fs.Var(&f.apnd, "append", "update: append to the array at path=json (repeatable)")
			fs.BoolVar(&f.insert, "insert", false, "put: fail if the document exists (default: insert or replace)")
			fs.BoolVar(&f.replace, "replace", false, "put: fail if the document does not exist")
			fs.Uint64Var(&f.ifVersion, "if-version", 0, "put, update, delete: only if the document is at this version")
			fs.BoolVar(&f.dryRun, "dry-run", false, "repair: count what is wrong, write nothing")
			return func(ctx context.Context, c *cli, args []string) error {
				sub := args[0]
				want, ok := docArgs[sub]
				if !ok {
					return usagef("doc: want get, put, update, delete, query or repair, got %q", sub)
				}
				if len(args) != want.n {
					return usagef("doc %s: want %s", sub, want.usage)
				}
				var bad []string
				fs.Visit(func(fl *flag.Flag) {
					switch fl.Name {
					case "family", "index-table", "index", "json", "timeout":
						return
					}
					for _, ok := range docFlagsOf[sub] {
						if ok == fl.Name {
							return
						}
					}
					bad = append(bad, "-"+fl.Name)
				})
				if len(bad) > 0 {
					return usagef("doc %s: %s does not go with it (hbasectl help doc)", sub, strings.Join(bad, ", "))
				}
				return docExit(c.runDoc(ctx, sub, args[1:], &f))
			}
		},
	}
}

// collection opens the collection of table with the flags' family and indexes.
func (c *cli) collection(ctx context.Context, table string, f *docFlags) (*doc.Collection, error) {
	opts := []doc.Option{}
	for _, ix := range f.indexes {
		name, path, ok := strings.Cut(ix, "=")
		if !ok {
			return nil, usagef("-index: want name=path, got %q", ix)
		}
		opts = append(opts, doc.WithIndex(name, path))
	}
	if f.indexTable != "" {
		opts = append(opts, doc.WithIndexTable(f.indexTable, f.family))
	}
	client, err := c.connect(ctx)
	if err != nil {
		return nil, err
	}
	coll, err := doc.Open(client, table, f.family, opts...)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return coll, nil
}

func (c *cli) runDoc(ctx context.Context, sub string, args []string, f *docFlags) error {
	var body json.RawMessage
	if sub == "put" {
		b, err := readDocArg(args[2])
		if err != nil {
			return err
		}
		body = b
	}
	var ops []doc.Op
	if sub == "update" {
		var err error
		if ops, err = updateOps(f); err != nil {
			return err
		}
	}
	var cond doc.Cond
	if sub == "query" {
		var err error
		if cond, err = whereCond(f.where, f.or); err != nil {
			return err
		}
		if f.limit < 0 {
			return usagef("doc query: -limit must not be negative, got %d", f.limit)
		}
	}
	coll, err := c.collection(ctx, args[0], f)
	if err != nil {
		return err
	}
	ctx, cancel := c.withTimeout(ctx)
	defer cancel()
	var wopts []doc.WriteOption
	if f.ifVersion > 0 {
		wopts = append(wopts, doc.IfVersion(f.ifVersion))
	}
	switch sub {
	case "get":
		d, err := coll.Get(ctx, args[1], doc.Project(f.paths...))
		if err != nil {
			return err
		}
		out, err := newDocOut(d)
		if err != nil {
			return err
		}
		return c.emit(&docResult{out})
	case "put":
		var v uint64
		action := "upsert"
		switch {
		case f.insert && f.replace:
			return usagef("doc put: -insert and -replace do not go together")
		case f.insert:
			action = "insert"
			v, err = coll.Insert(ctx, args[1], body, wopts...)
		case f.replace:
			action = "replace"
			v, err = coll.Replace(ctx, args[1], body, wopts...)
		default:
			v, err = coll.Upsert(ctx, args[1], body, wopts...)
		}
		if err != nil {
			return err
		}
		return c.emit(&docWriteResult{Action: action, ID: args[1], Version: v})
	case "update":
		v, err := coll.Update(ctx, args[1], ops, wopts...)
		if err != nil {
			return err
		}
		return c.emit(&docWriteResult{Action: "update", ID: args[1], Version: v})
	case "delete":
		if err := coll.Delete(ctx, args[1], wopts...); err != nil {
			return err
		}
		return c.emit(&docWriteResult{Action: "delete", ID: args[1]})
	case "query":
		return c.query(ctx, coll, cond, f)
	case "repair":
		var ropts []doc.RepairOption
		if f.dryRun {
			ropts = append(ropts, doc.RepairDryRun())
		}
		rep, err := coll.RepairIndex(ctx, args[1], ropts...)
		if err != nil {
			return err
		}
		return c.emit(&docRepairResult{Index: rep.Index, Rows: rep.Rows, Documents: rep.Documents, Removed: rep.Removed,
			Added: rep.Added, Young: rep.Young, DryRun: rep.DryRun, Examples: rep.Examples})
	}
	return nil
}

func (c *cli) query(ctx context.Context, coll *doc.Collection, cond doc.Cond, f *docFlags) error {
	var opts []doc.FindOption
	if len(f.paths) > 0 {
		opts = append(opts, doc.Project(f.paths...))
	}
	if f.limit > 0 {
		opts = append(opts, doc.Limit(f.limit))
	}
	if f.start != "" || f.stop != "" {
		opts = append(opts, doc.IDRange(f.start, f.stop))
	}
	if f.noIndex {
		opts = append(opts, doc.WithoutIndex())
	}
	out := &docsResult{Documents: []docOut{}}
	if f.explain {
		plan, err := coll.Explain(cond, opts...)
		if err != nil {
			return usageOf(err)
		}
		out.Plan = plan
	}
	for d, err := range coll.Find(ctx, cond, opts...) {
		if err != nil {
			return usageOf(err)
		}
		o, err := newDocOut(d)
		if err != nil {
			return err
		}
		out.Documents = append(out.Documents, o)
	}
	out.Count = len(out.Documents)
	return c.emit(out)
}

// docExit makes the document layer's refusals bad input (exit status 2): what the user named
// is not there, already is, has changed, or cannot be.
func docExit(err error) error {
	for _, e := range []error{hberr.ErrDocumentNotFound, hberr.ErrDocumentExists, hberr.ErrVersionConflict,
		hberr.ErrDocumentLimit, hberr.ErrInvalidDocument, hberr.ErrInvalidPath, hberr.ErrInvalidUpdate,
		hberr.ErrInvalidQuery, hberr.ErrIndexNotFound} {
		if errors.Is(err, e) {
			return usagef("%v", err)
		}
	}
	return err
}

// usageOf makes a query the layer refuses a usage error (exit status 2).
func usageOf(err error) error {
	for _, e := range []error{hberr.ErrInvalidQuery, hberr.ErrInvalidPath, hberr.ErrIndexNotFound} {
		if errors.Is(err, e) {
			return usagef("doc query: %v", err)
		}
	}
	return err
}

// readDocArg reads a document argument: JSON text, @file, or - for stdin.
func readDocArg(a string) (json.RawMessage, error) {
	var b []byte
	var err error
	switch {
	case a == "-":
		b, err = io.ReadAll(os.Stdin)
	case strings.HasPrefix(a, "@"):
		b, err = os.ReadFile(a[1:])
	default:
		b = []byte(a)
	}
	if err != nil {
		return nil, usagef("doc put: %v", err)
	}
	if _, err := doc.ParseJSON(b); err != nil {
		return nil, usagef("doc put: %v", err)
	}
	return b, nil
}
