// Command fakehbase runs package fakehbase's in-memory HBase as a server of its own, for the
// command line and local development: no JVM, ready in milliseconds, its data gone when it
// stops.
//
//	go run github.com/go-hbase/hbase/cmd/fakehbase -table 'users info' -put 'users alice info:email alice@example.com'
//
// When it is ready it prints a shell-sourceable line on stdout, HBASE_BOOTSTRAP=127.0.0.1:PORT:
// the server a client bootstraps from, without ZooKeeper (hbase.WithBootstrapServers; hbasectl
// and hbase-bench read $HBASE_BOOTSTRAP), and on stderr how to connect. It serves until
// Ctrl-C or SIGTERM.
//
// -table 'NAME FAMILY[,FAMILY...] [SPLIT[,SPLIT...]]' creates a table (NAME is "ns:t" or "t";
// a namespace other than default is created with it), split at the keys given. -put 'TABLE
// ROW FAMILY:QUALIFIER VALUE' writes a cell; VALUE is the rest of the line, spaces included.
// Both may be repeated; tables are created before cells are written.
//
// It is a fake: what it serves and what it does not is package fakehbase's documentation.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/go-hbase/hbase/fakehbase"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// list is a repeatable flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, "; ") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

// run serves until ctx ends and returns the exit code: 2 for bad usage, 1 when the server
// cannot start or be seeded.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fakehbase", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var tables, puts list
	fs.Var(&tables, "table", "create a table: 'NAME FAMILY[,FAMILY...] [SPLIT[,SPLIT...]]' (repeatable)")
	fs.Var(&puts, "put", "write a cell: 'TABLE ROW FAMILY:QUALIFIER VALUE' (repeatable)")
	servers := fs.Int("regionservers", 1, "number of region servers (1 to 16)")
	envFile := fs.String("env", "", "also write the HBASE_BOOTSTRAP line to this file, once the server is ready")
	verbose := fs.Bool("v", false, "log connections and failed requests to stderr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: fakehbase [-table 'NAME FAMILIES [SPLITS]']... [-put 'TABLE ROW FAMILY:QUALIFIER VALUE']...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "fakehbase: unexpected arguments %q\n", fs.Args())
		return 2
	}
	specs, err := parseTables(tables)
	if err == nil {
		var cells []cellSpec
		if cells, err = parsePuts(puts); err == nil {
			return serve(ctx, specs, cells, *servers, *envFile, *verbose, stdout, stderr)
		}
	}
	fmt.Fprintln(stderr, "fakehbase:", err)
	return 2
}

func serve(ctx context.Context, tables []tableSpec, cells []cellSpec, servers int, envFile string, verbose bool,
	stdout, stderr io.Writer) int {
	opts := []fakehbase.Option{fakehbase.WithRegionServers(servers)}
	if verbose {
		opts = append(opts, fakehbase.WithLogger(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	}
	srv, err := fakehbase.Start(opts...)
	if err != nil {
		fmt.Fprintln(stderr, "fakehbase:", err)
		return 1
	}
	defer srv.Close()
	if err := seed(srv, tables, cells); err != nil {
		fmt.Fprintln(stderr, "fakehbase:", err)
		return 1
	}
	env := "HBASE_BOOTSTRAP=" + srv.Addr() + "\n"
	if envFile != "" {
		// Written whole, then renamed: a script waiting for the file never reads half of it.
		tmp := envFile + ".tmp"
		err := os.WriteFile(tmp, []byte(env), 0o644)
		if err == nil {
			err = os.Rename(tmp, envFile)
		}
		if err != nil {
			fmt.Fprintln(stderr, "fakehbase:", err)
			return 1
		}
	}
	fmt.Fprint(stdout, env)
	fmt.Fprintf(stderr, "fakehbase: ready, %d region server(s), %d table(s), %d cell(s) written; connect with\n", servers, len(tables), len(cells))
	fmt.Fprintf(stderr, "  hbase.NewClient(\"\", hbase.WithBootstrapServers(%q))\n", srv.Addr())
	fmt.Fprintf(stderr, "  hbasectl -bootstrap %s list   (or export HBASE_BOOTSTRAP=%s)\n", srv.Addr(), srv.Addr())
	fmt.Fprintln(stderr, "fakehbase: serving until interrupted (Ctrl-C)")
	<-ctx.Done()
	fmt.Fprintln(stderr, "fakehbase: stopping")
	return 0
}

// seed creates the tables, with their namespaces, then writes the cells.
func seed(srv *fakehbase.Server, tables []tableSpec, cells []cellSpec) error {
	namespaces := map[string]bool{}
	for _, t := range tables {
		if ns, _, ok := strings.Cut(t.name, ":"); ok && ns != "default" && !namespaces[ns] {
			if err := srv.CreateNamespace(ns); err != nil {
				return err
			}
			namespaces[ns] = true
		}
		if err := srv.CreateTable(t.name, t.families, t.splits...); err != nil {
			return err
		}
	}
	for _, c := range cells {
		if err := srv.Put(c.table, c.row, c.family, c.qualifier, c.value); err != nil {
			return err
		}
	}
	return nil
}

type tableSpec struct {
	name     string
	families []string
	splits   [][]byte
}

func parseTables(specs []string) ([]tableSpec, error) {
	var out []tableSpec
	for _, s := range specs {
		f := strings.Fields(s)
		if len(f) < 2 || len(f) > 3 {
			return nil, fmt.Errorf("-table %q: want 'NAME FAMILY[,FAMILY...] [SPLIT[,SPLIT...]]'", s)
		}
		t := tableSpec{name: f[0], families: strings.Split(f[1], ",")}
		if len(f) == 3 {
			for _, k := range strings.Split(f[2], ",") {
				t.splits = append(t.splits, []byte(k))
			}
		}
		out = append(out, t)
	}
	return out, nil
}

type cellSpec struct{ table, row, family, qualifier, value string }

func parsePuts(specs []string) ([]cellSpec, error) {
	var out []cellSpec
	for _, s := range specs {
		f := strings.SplitN(strings.TrimLeft(s, " "), " ", 4)
		if len(f) < 4 {
			return nil, fmt.Errorf("-put %q: want 'TABLE ROW FAMILY:QUALIFIER VALUE'", s)
		}
		fam, qual, ok := strings.Cut(f[2], ":")
		if !ok || fam == "" {
			return nil, fmt.Errorf("-put %q: %q is not FAMILY:QUALIFIER", s, f[2])
		}
		out = append(out, cellSpec{table: f[0], row: f[1], family: fam, qualifier: qual, value: f[3]})
	}
	return out, nil
}
