package main

import (
	"context"
	"flag"
	"io"
	"time"
)

// snapshotOut is one snapshot in the output.
type snapshotOut struct {
	Name    string    `json:"name"`
	Table   string    `json:"table"`
	Created time.Time `json:"created"`
	Owner   string    `json:"owner,omitempty"`
	Type    string    `json:"type"`
}

// snapshotsResult is what snapshot prints: the snapshots after the action.
type snapshotsResult struct {
	Action    string        `json:"action"`
	Snapshots []snapshotOut `json:"snapshots"`
}

func (r *snapshotsResult) writeText(w io.Writer) error {
	rows := make([][]string, len(r.Snapshots))
	for i, s := range r.Snapshots {
		rows[i] = []string{s.Name, s.Table, s.Created.UTC().Format(time.RFC3339), orDash(s.Owner), s.Type}
	}
	return writeTable(w, []string{"SNAPSHOT", "TABLE", "CREATED", "OWNER", "TYPE"}, rows)
}

func snapshotCmd() *command {
	return &command{
		name: "snapshot", args: "create <table> <name> | list | delete <name> | restore <name> | clone <name> <table>",
		summary: "take, list, delete, restore (table disabled) or clone snapshots; prints the snapshots afterwards", minArgs: 1, maxArgs: 3,
		setup: func(fs *flag.FlagSet) runFunc {
			return func(ctx context.Context, c *cli, args []string) error {
				want := map[string]int{"create": 3, "list": 1, "delete": 2, "restore": 2, "clone": 3}
				n, ok := want[args[0]]
				switch {
				case !ok:
					return usagef("snapshot: want create, list, delete, restore or clone, got %q", args[0])
				case len(args) != n:
					return usagef("snapshot %s: want snapshot %s", args[0], map[string]string{
						"create": "create <table> <name>", "list": "list", "delete": "delete <name>",
						"restore": "restore <name>", "clone": "clone <name> <table>"}[args[0]])
				}
				admin, ctx, cancel, err := c.adminWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				switch args[0] {
				case "create":
					err = admin.Snapshot(ctx, args[2], args[1])
				case "delete":
					err = admin.DeleteSnapshot(ctx, args[1])
				case "restore":
					err = admin.RestoreSnapshot(ctx, args[1])
				case "clone":
					err = admin.CloneSnapshot(ctx, args[1], args[2])
				}
				if err != nil {
					return err
				}
				snaps, err := admin.ListSnapshots(ctx)
				if err != nil {
					return err
				}
				out := &snapshotsResult{Action: args[0], Snapshots: []snapshotOut{}}
				for _, s := range snaps {
					out.Snapshots = append(out.Snapshots, snapshotOut{Name: s.Name, Table: s.Table, Created: s.Created, Owner: s.Owner, Type: s.Type})
				}
				return c.emit(out)
			}
		},
	}
}
