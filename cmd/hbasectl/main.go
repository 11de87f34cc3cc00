// Command hbasectl is a small operator and developer tool for HBase on go-hbase's public API,
// for when the JRuby shell is not installed: cluster status and region locality, tables
// (list, describe, create, drop), data (get, put, scan, count) and regions (split, merge,
// move, balance), snapshots.
//
//	hbasectl -zk 127.0.0.1:2181 list
//	hbasectl put users alice info:email alice@example.com
//	hbasectl -json scan -limit 10 users
//	hbasectl locality -threshold 0.9 -watch 30s
//
// It takes the connection and security flags of hbase-bench (-zk, -bootstrap, -site,
// -kerberos ...), with the same defaults from the environment ($HBASE_ZK and the other lines
// cmd/hbase-local prints). Output is an aligned table, or JSON with -json. Byte strings (rows,
// qualifiers, values, split keys) are read and printed as the HBase shell does: printable
// ASCII as is, any other byte as \xNN.
//
// The exit status is 0 on success, 2 for bad input (a bad flag or argument, an unknown
// command, an unreachable cluster, a table or family that does not exist, a disabled table), with one line on
// stderr, and 1 for any other failure.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	terminal := term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stdout.Fd()))
	code := runWith(ctx, os.Args[1:], os.Getenv, os.Stdin, terminal, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
