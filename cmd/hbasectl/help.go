package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

const helpIntro = `hbasectl: an operator and developer tool for HBase on go-hbase, for when the HBase shell is not installed.

Usage:
  hbasectl [flags]                          the HBase shell's commands, interactively on a terminal
  hbasectl [flags] -f runbook.hb            the HBase shell's commands of a file (- for stdin)
  hbasectl [flags] -e "get 't1', 'r1'"      the HBase shell's commands given here
  hbasectl [flags] <command> [command flags] [arguments]
  hbasectl help <command>

Examples:
  hbasectl -zk 127.0.0.1:2181 list
  hbasectl put users alice info:email alice@example.com
  hbasectl -json scan -limit 10 users
  hbasectl locality -threshold 0.9 -watch 30s

`

const helpOutro = `
Byte strings (rows, qualifiers, values, split keys) are read and printed as the HBase shell
does: printable ASCII as it is, any other byte as \xNN (so a backslash is \x5C).

Exit status: 0 on success; 2 for bad input, with one line on stderr: a bad flag or argument,
an unknown command, an unreachable cluster, a table, family or namespace that does not exist;
1 for any other failure.
`

// help writes the whole documentation: every command and every flag.
func (c *cli) help(getenv func(string) string) {
	w := c.stdout
	io.WriteString(w, helpIntro)
	io.WriteString(w, "Commands:\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, cmd := range commands() {
		fmt.Fprintf(tw, "  %s\t%s\n", cmd.name, cmd.summary)
	}
	tw.Flush()
	io.WriteString(w, "\nFlags (-json and -timeout may also follow the command):\n")
	fs := flag.NewFlagSet("hbasectl", flag.ContinueOnError)
	fs.SetOutput(w)
	(&cli{}).globalFlags(fs, getenv)
	fs.PrintDefaults()
	io.WriteString(w, "\nCommand arguments and flags (flags before or after the arguments; -- ends the flags):\n")
	for _, cmd := range commands() {
		writeCommandFlags(w, cmd, "  ")
	}
	io.WriteString(w, helpOutro)
}

// commandHelp writes the documentation of one command.
func (c *cli) commandHelp(cmd *command) {
	fmt.Fprintf(c.stdout, "%s\n\n", cmd.summary)
	writeCommandFlags(c.stdout, cmd, "")
	fmt.Fprintf(c.stdout, "\nThe global flags (hbasectl -h) go before the command; -json and -timeout may also follow it.\n")
}

func writeCommandFlags(w io.Writer, cmd *command, indent string) {
	fmt.Fprintf(w, "%s%s\n", indent, strings.TrimSpace("hbasectl "+cmd.name+" "+cmd.args))
	fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	cmd.setup(fs)
	var sb strings.Builder
	fs.SetOutput(&sb)
	fs.PrintDefaults()
	for _, line := range strings.SplitAfter(sb.String(), "\n") {
		if line != "" {
			io.WriteString(w, indent+line)
		}
	}
}
