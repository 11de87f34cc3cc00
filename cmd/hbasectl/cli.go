package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/cmd/internal/connflags"
	"github.com/go-hbase/hbase/hberr"
)

// cli is one run of the program: its global flags, its surroundings and, once a command
// needs it, the client.
type cli struct {
	conn           connflags.Flags
	json           bool
	timeout        time.Duration
	connectTimeout time.Duration
	verbose        bool

	stdout, stderr io.Writer
	log            *slog.Logger

	// The shell language: -f runbook, -e commands, or standard input (a runbook, or the
	// interactive mode on a terminal).
	file     string
	exprs    []string
	stdin    io.Reader
	terminal bool // stdin and stdout are a terminal

	client   *hbase.Client
	closeAll func() error
}

// command is one subcommand. setup defines the command's own flags on fs and returns the
// function that runs it with the positional arguments, whose count is already checked.
type command struct {
	name    string
	args    string // the positional arguments, for the help
	summary string
	minArgs int
	maxArgs int // -1: no limit
	setup   func(fs *flag.FlagSet) runFunc
}

type runFunc func(ctx context.Context, c *cli, args []string) error

// commands are the subcommands in the order the help lists them.
func commands() []*command {
	return []*command{
		statusCmd(), localityCmd(),
		listCmd(), describeCmd(), createCmd(), dropCmd(),
		switchTableCmd(true), switchTableCmd(false), truncateCmd(), flushCmd(), compactCmd(), namespaceCmd(),
		getCmd(), putCmd(), scanCmd(), countCmd(),
		splitCmd(), mergeCmd(), moveCmd(), balanceCmd(), snapshotCmd(),
		docCmd(),
	}
}

func findCommand(name string) *command {
	for _, cmd := range commands() {
		if cmd.name == name {
			return cmd
		}
	}
	return nil
}

// usageError is bad input on the command line; it exits with status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// unreachableError is a cluster the client could not talk to; it exits with status 2.
type unreachableError struct {
	where  string
	within time.Duration
	err    error
}

func (e *unreachableError) Error() string {
	return fmt.Sprintf("cannot reach the cluster (%s) within %v (-connect-timeout): %v", e.where, e.within, e.err)
}

func (e *unreachableError) Unwrap() error { return e.err }

// run is the whole program with its surroundings passed in, so tests can drive it. Without
// standard input, a command line without a command is bad input.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	return runWith(ctx, args, getenv, nil, false, stdout, stderr)
}

// runWith is run with standard input: a command line without a command reads the shell
// language from it, interactively when it is a terminal.
func runWith(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, terminal bool, stdout, stderr io.Writer) int {
	c := &cli{stdout: stdout, stderr: stderr, stdin: stdin, terminal: terminal}
	err := c.main(ctx, args, getenv)
	if c.closeAll != nil {
		if cerr := c.closeAll(); cerr != nil && err == nil {
			err = cerr
		}
	}
	code := exitCode(err)
	if code != 0 {
		fmt.Fprintf(stderr, "hbasectl: %s\n", oneLine(err.Error()))
	}
	return code
}

// exitCode is 0 for success and help, 2 for bad input (usage, unreachable cluster, a table,
// family or namespace that does not exist, a request the client refuses to build), 1 else.
func exitCode(err error) int {
	var ue *usageError
	var unreach *unreachableError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue), errors.As(err, &unreach), hberr.IsNotFound(err),
		errors.Is(err, hberr.ErrBadRequest), isStepError(err):
		return 2
	}
	// What the user named is not there, or already is, or cannot be: bad input too.
	for _, e := range []error{hberr.ErrTableExists, hberr.ErrTableNotDisabled, hberr.ErrNamespaceExists,
		hberr.ErrNamespaceNotEmpty, hberr.ErrInvalidName, hberr.ErrSnapshotNotFound, hberr.ErrSnapshotExists,
		hberr.ErrRegionNotFound, hberr.ErrServerNotFound, hberr.ErrTableDisabled,
		hberr.ErrRSGroupNotFound, hberr.ErrRSGroupExists, hberr.ErrPeerNotFound, hberr.ErrPeerExists} {
		if errors.Is(err, e) {
			return 2
		}
	}
	return 1
}

// oneLine keeps an error message on one line, as the exit status contract promises.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}

func (c *cli) globalFlags(fs *flag.FlagSet, getenv func(string) string) {
	c.conn.Register(fs, getenv)
	c.outputFlags(fs)
	fs.DurationVar(&c.connectTimeout, "connect-timeout", 10*time.Second, "how long to wait for the cluster to answer at all (else exit status 2)")
	fs.BoolVar(&c.verbose, "v", false, "log the client's debug messages to stderr")
	fs.StringVar(&c.file, "f", "", "run the HBase shell commands of this file (- for standard input), every one checked before the first runs")
	fs.Func("e", "run these HBase shell commands (repeatable; ; or newlines between commands)", func(s string) error {
		c.exprs = append(c.exprs, s)
		return nil
	})
}

// outputFlags are the flags every command takes too, before or after its name.
func (c *cli) outputFlags(fs *flag.FlagSet) {
	fs.BoolVar(&c.json, "json", false, "print JSON (one document per result) instead of aligned tables")
	fs.DurationVar(&c.timeout, "timeout", 60*time.Second, "deadline of the command (with -watch: of each round)")
}

func (c *cli) main(ctx context.Context, args []string, getenv func(string) string) error {
	fs := flag.NewFlagSet("hbasectl", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c.globalFlags(fs, getenv)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			c.help(getenv)
			return err
		}
		return usagef("%v (hbasectl -h lists the flags)", err)
	}
	if c.file != "" || len(c.exprs) > 0 || fs.NArg() == 0 && c.stdin != nil || fs.NArg() > 0 && fs.Arg(0) == "shell" {
		return c.shellMain(ctx, fs)
	}
	if fs.NArg() == 0 {
		return usagef("no command given: want one of %s (hbasectl -h for help)", strings.Join(commandNames(), ", "))
	}
	name, rest := fs.Arg(0), fs.Args()[1:]
	if name == "help" {
		if len(rest) == 1 && findCommand(rest[0]) != nil {
			c.commandHelp(findCommand(rest[0]))
		} else {
			c.help(getenv)
		}
		return flag.ErrHelp
	}
	cmd := findCommand(name)
	if cmd == nil {
		return usagef("unknown command %q: want one of %s", name, strings.Join(commandNames(), ", "))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	// The command's flag set defines -json and -timeout again, on the same variables, which
	// resets them to their defaults: keep the values given before the command name.
	json, timeout := c.json, c.timeout
	cfs := flag.NewFlagSet(name, flag.ContinueOnError)
	cfs.SetOutput(io.Discard)
	c.outputFlags(cfs)
	c.json, c.timeout = json, timeout
	runCmd := cmd.setup(cfs)
	pos, err := parseInterleaved(cfs, rest)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			c.commandHelp(cmd)
			return err
		}
		return usagef("%s: %v (hbasectl help %s)", name, err, name)
	}
	switch {
	case len(pos) < cmd.minArgs:
		return usagef("%s: missing arguments: want %s %s", name, name, cmd.args)
	case cmd.maxArgs >= 0 && len(pos) > cmd.maxArgs:
		return usagef("%s: unexpected argument %q: want %s %s", name, pos[cmd.maxArgs], name, cmd.args)
	}
	if err := c.conn.Check(set); err != nil {
		return usagef("%v", err)
	}
	switch {
	case c.timeout <= 0:
		return usagef("-timeout: must be positive, got %v", c.timeout)
	case c.connectTimeout <= 0:
		return usagef("-connect-timeout: must be positive, got %v", c.connectTimeout)
	}
	level := slog.LevelError
	if c.verbose {
		level = slog.LevelDebug
	}
	c.log = slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: level}))
	return runCmd(ctx, c, pos)
}

// parseInterleaved parses flags and positional arguments in any order (`scan t -limit 5`
// as well as `scan -limit 5 t`); after "--" everything is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func commandNames() []string {
	var names []string
	for _, cmd := range commands() {
		names = append(names, cmd.name)
	}
	return names
}

// connect returns the client, made on first use, after checking that the cluster answers
// (Client.Ping within -connect-timeout), so that a wrong address or a refused login is one
// clear error (exit status 2) instead of retries until -timeout.
func (c *cli) connect(ctx context.Context) (*hbase.Client, error) {
	if c.client != nil {
		return c.client, nil
	}
	client, closeAll, err := c.conn.NewClient(hbase.WithLogger(c.log))
	if err != nil {
		return nil, usagef("%v", err)
	}
	c.client, c.closeAll = client, closeAll
	pctx, cancel := context.WithTimeout(ctx, c.connectTimeout)
	defer cancel()
	if err := pingUntil(pctx, client); err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, &unreachableError{where: c.conn.Where(), within: c.connectTimeout, err: err}
	}
	return client, nil
}

// pingUntil pings until the cluster answers or ctx ends. Ping is one attempt, and one of its
// steps may give up before -connect-timeout (a ZooKeeper server silent for a second, as on a
// loaded machine); a connection failure is tried again, a configuration error is not.
func pingUntil(ctx context.Context, client *hbase.Client) error {
	const pause = 250 * time.Millisecond
	for {
		err := client.Ping(ctx)
		if err == nil || ctx.Err() != nil || errors.Is(err, hberr.ErrConfiguration) || !errors.Is(err, hberr.ErrConnection) {
			return err
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}

// withTimeout bounds one command (or one round of -watch) by -timeout.
func (c *cli) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.timeout)
}

// clientWithTimeout returns the client, connecting first, and ctx bounded by -timeout for the
// command's calls; the connect is bounded by -connect-timeout alone, as in adminWithTimeout.
func (c *cli) clientWithTimeout(ctx context.Context) (*hbase.Client, context.Context, context.CancelFunc, error) {
	client, err := c.connect(ctx)
	if err != nil {
		return nil, ctx, func() {}, err
	}
	ctx, cancel := c.withTimeout(ctx)
	return client, ctx, cancel, nil
}
