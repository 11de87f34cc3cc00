package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// result is what a command prints: as JSON with -json (its exported fields), else as text.
type result interface {
	writeText(w io.Writer) error
}

// emit prints one result.
func (c *cli) emit(r result) error {
	if c.json {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return r.writeText(c.stdout)
}

// writeTable writes an aligned table: a header line, then the rows, columns separated by
// at least two spaces. Cells hold no tabs or newlines (byte strings come through
// formatBinary), so the alignment holds.
func writeTable(w io.Writer, header []string, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

// formatMillis prints a timestamp in milliseconds as UTC time with milliseconds.
func formatMillis(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}

// plural is "1 row", "2 rows".
func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// nonNil makes an absent list print as [] in -json, not null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
