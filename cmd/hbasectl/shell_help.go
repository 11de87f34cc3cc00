package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"sort"
	"strings"
)

// readme is the tool's README: its table of the HBase shell's commands, with each one's
// status here, is what help and the errors for a command not taken say.
//
//go:embed README.md
var readme string

// shellCommandStatus is one row of the README's table.
type shellCommandStatus struct {
	group, name, status string
}

// shellCommandTable reads the README's table of the HBase shell's commands: rows of
// "| group | `command` | status |".
func shellCommandTable() []shellCommandStatus {
	var out []shellCommandStatus
	in := false
	for _, line := range strings.Split(readme, "\n") {
		if strings.HasPrefix(line, "| group | command | status") {
			in = true
			continue
		}
		if !in {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			if len(out) > 0 {
				break
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 3 || strings.HasPrefix(strings.TrimSpace(cells[0]), "---") {
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[1]), "`")
		out = append(out, shellCommandStatus{group: strings.TrimSpace(cells[0]), name: name, status: strings.TrimSpace(strings.Join(cells[2:], "|"))})
	}
	return out
}

// notTakenReason says why a command of the HBase shell is not taken, from the README.
func notTakenReason(name string) (string, bool) {
	for _, r := range shellCommandTable() {
		if r.name == name && !strings.HasPrefix(r.status, "supported") {
			return r.status, true
		}
	}
	return "", false
}

func prepareHelp(st statement, verbs map[string]*shellVerb) (action, error) {
	if len(st.args) > 1 {
		return nil, fmt.Errorf("want help or help 'command'")
	}
	topic := ""
	if len(st.args) == 1 {
		s, err := scalarText(st.args[0])
		if err != nil {
			return nil, fmt.Errorf("want help 'command'")
		}
		topic = s
	}
	return func(context.Context, *shell) (shellResult, error) {
		return &helpOut{topic: topic, verbs: verbs}, nil
	}, nil
}

type helpOut struct {
	topic string
	verbs map[string]*shellVerb
}

func (h *helpOut) MarshalJSON() ([]byte, error) {
	var sb strings.Builder
	h.write(&sb)
	return []byte(fmt.Sprintf("{\"help\": %q}", sb.String())), nil
}

func (h *helpOut) shellText(w io.Writer) (int64, error) {
	h.write(w)
	return -1, nil
}

func (h *helpOut) write(w io.Writer) {
	if v := h.verbs[h.topic]; v != nil {
		fmt.Fprintf(w, "%s (group %s)\n\n%s\n", v.name, v.group, v.usage)
		return
	}
	groups := map[string][]string{}
	for name, v := range h.verbs {
		groups[v.group] = append(groups[v.group], name)
	}
	if names, ok := groups[h.topic]; ok {
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(w, "%s\n\n", h.verbs[n].usage)
		}
		return
	}
	if reason, ok := notTakenReason(h.topic); ok {
		fmt.Fprintf(w, "%s is a command of the HBase shell that hbasectl does not take: %s\n", h.topic, reason)
		return
	}
	if h.topic != "" {
		fmt.Fprintf(w, "No command or group %s.\n\n", quoteShell(h.topic))
	}
	fmt.Fprintln(w, "hbasectl reads the HBase shell's commands: help 'command' shows one, help 'group' a group.")
	fmt.Fprintln(w)
	var names []string
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		sort.Strings(groups[g])
		fmt.Fprintf(w, "  %s: %s\n", g, strings.Join(groups[g], ", "))
	}
	fmt.Fprint(w, `
Arguments are quoted strings ('...' as typed; "..." with escapes such as \x00), numbers,
true/false/nil, the shell's constants (NAME, VERSIONS, COLUMNS, FILTER ...), [arrays] and
{KEY => value} hashes, separated by commas. Filters take HBase's filter language:
  scan 't', {FILTER => "PrefixFilter('a') AND ValueFilter(=, 'binary:x')"}
A hash may span lines; exit or Ctrl-D leaves; Ctrl-C stops a running command.
`)
}
