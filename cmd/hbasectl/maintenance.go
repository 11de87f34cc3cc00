package main

import (
	"context"
	"flag"
	"io"
	"strconv"

	"github.com/go-hbase/hbase/admin"
)

// tableStateResult is what enable, disable and truncate print: the table's state afterwards.
type tableStateResult struct {
	Action  string `json:"action"`
	Table   string `json:"table"`
	Enabled bool   `json:"enabled"`
	Changed bool   `json:"changed"` // false when enable or disable found the table so already
}

func (r *tableStateResult) writeText(w io.Writer) error {
	return writeTable(w, []string{"TABLE", "ACTION", "ENABLED", "CHANGED"},
		[][]string{{r.Table, r.Action, strconv.FormatBool(r.Enabled), strconv.FormatBool(r.Changed)}})
}

// switchTableCmd is enable (on) or disable (!on). A table already in the wanted state is not
// an error: scripts run these to make sure of a state, as the shell's enable_all does.
func switchTableCmd(on bool) *command {
	name, summary := "disable", "disable a table (its regions close; reads and writes fail until enabled)"
	if on {
		name, summary = "enable", "enable a disabled table (its regions open again)"
	}
	return &command{
		name: name, args: "<table>", summary: summary, minArgs: 1, maxArgs: 1,
		setup: func(fs *flag.FlagSet) runFunc {
			return func(ctx context.Context, c *cli, args []string) error {
				admin, ctx, cancel, err := c.adminWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				enabled, err := admin.TableEnabled(ctx, args[0])
				if err != nil {
					return err
				}
				out := &tableStateResult{Action: name, Table: args[0], Enabled: enabled}
				if enabled != on {
					if on {
						err = admin.EnableTable(ctx, args[0])
					} else {
						err = admin.DisableTable(ctx, args[0])
					}
					if err != nil {
						return err
					}
					out.Enabled, out.Changed = on, true
				}
				return c.emit(out)
			}
		},
	}
}

func truncateCmd() *command {
	return &command{
		name: "truncate", args: "<table>", summary: "delete every row of a table (disabling it first when enabled), keeping its region boundaries unless -preserve-splits=false", minArgs: 1, maxArgs: 1,
		setup: func(fs *flag.FlagSet) runFunc {
			preserve := fs.Bool("preserve-splits", true, "keep the table's region boundaries")
			return func(ctx context.Context, c *cli, args []string) error {
				admin, ctx, cancel, err := c.adminWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				if _, err := disableIfEnabled(ctx, admin, args[0]); err != nil {
					return err
				}
				// The master leaves a truncated table enabled.
				if err := admin.TruncateTable(ctx, args[0], *preserve); err != nil {
					return err
				}
				return c.emit(&tableStateResult{Action: "truncate", Table: args[0], Enabled: true, Changed: true})
			}
		},
	}
}

// storeResult is what flush and compact print.
type storeResult struct {
	Action string `json:"action"`
	Target string `json:"target"` // the table or region named
	Major  bool   `json:"major,omitempty"`
}

func (r *storeResult) writeText(w io.Writer) error {
	return writeTable(w, []string{"ACTION", "TARGET", "MAJOR"}, [][]string{{r.Action, r.Target, strconv.FormatBool(r.Major)}})
}

// storeCmd is flush or compact, of every region of a table or of one region.
func storeCmd(name, summary string, run func(ctx context.Context, admin *admin.Admin, target string, region, major bool) error) *command {
	return &command{
		name: name, args: "<table>|<region>", summary: summary, minArgs: 1, maxArgs: 1,
		setup: func(fs *flag.FlagSet) runFunc {
			var major *bool
			if name == "compact" {
				major = fs.Bool("major", false, "a major compaction: rewrite every store file into one, dropping deleted and expired cells")
			}
			return func(ctx context.Context, c *cli, args []string) error {
				admin, ctx, cancel, err := c.adminWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				out := &storeResult{Action: name, Target: args[0], Major: major != nil && *major}
				if err := run(ctx, admin, args[0], isRegionName(args[0]), out.Major); err != nil {
					return err
				}
				return c.emit(out)
			}
		},
	}
}

func flushCmd() *command {
	return storeCmd("flush", "write a table's or a region's memstores to store files; returns when written",
		func(ctx context.Context, admin *admin.Admin, target string, region, _ bool) error {
			if region {
				return admin.FlushRegion(ctx, []byte(target))
			}
			return admin.FlushTable(ctx, target)
		})
}

func compactCmd() *command {
	return storeCmd("compact", "ask the servers to compact a table's or a region's store files; the compaction runs after the command returns",
		func(ctx context.Context, admin *admin.Admin, target string, region, major bool) error {
			if region {
				return admin.CompactRegion(ctx, []byte(target), major)
			}
			return admin.CompactTable(ctx, target, major)
		})
}
