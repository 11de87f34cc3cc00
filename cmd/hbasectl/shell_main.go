package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"os"
	"strings"
)

func isStepError(err error) bool {
	var se *stepError
	return errors.As(err, &se)
}

// shellMain runs the HBase shell's language: -e commands, a -f runbook, a runbook on standard
// input, or the interactive mode when standard input is a terminal.
func (c *cli) shellMain(ctx context.Context, fs *flag.FlagSet) error {
	rest := fs.Args()
	if len(rest) > 0 && rest[0] == "shell" {
		rest = rest[1:]
	}
	if len(rest) > 0 {
		return usagef("unexpected argument %q: with -f, -e or shell, the commands come from the file, -e or standard input", rest[0])
	}
	if c.file != "" && len(c.exprs) > 0 {
		return usagef("-f and -e do not go together")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	// The connection is checked after the runbook: its syntax needs no cluster.
	checkConn := func() error {
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
		return nil
	}
	sh := &shell{c: c, out: c.stdout}

	var src string
	switch {
	case len(c.exprs) > 0:
		src = strings.Join(c.exprs, "\n")
	case c.file == "-" || c.file == "" && !c.terminal:
		if c.stdin == nil {
			return usagef("no standard input to read commands from")
		}
		b, err := io.ReadAll(c.stdin)
		if err != nil {
			return err
		}
		src = string(b)
	case c.file != "":
		b, err := os.ReadFile(c.file)
		if err != nil {
			return usagef("-f: %v", err)
		}
		src = string(b)
	default:
		if err := checkConn(); err != nil {
			return err
		}
		return c.interactive(ctx, sh)
	}
	ps, err := prepareAll(src, shellVerbs())
	if err != nil {
		return err
	}
	if err := checkConn(); err != nil {
		return err
	}
	return sh.runAll(ctx, ps)
}
