package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"strconv"
	"strings"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// isRegionName tells a region's name from a table's: a full region name has commas
// ("table,start,id.encoded."), an encoded one is 32 hex digits; table names have neither.
func isRegionName(s string) bool {
	if strings.Contains(s, ",") {
		return true
	}
	if len(s) != 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if _, ok := unhex(s[i]); !ok {
			return false
		}
	}
	return true
}

// regionsResult is what split and merge print: the table's regions afterwards.
type regionsResult struct {
	Table   string      `json:"table"`
	Regions []regionOut `json:"regions"`
}

func (r *regionsResult) writeText(w io.Writer) error {
	return writeRegions(w, r.Regions)
}

// tableOfRegion finds the table of a region named in full or encoded, and the server it is on,
// in hbase:meta. A region hbase:meta does not hold gives no table and no error: the command
// itself then reports what the master says about the name.
func tableOfRegion(ctx context.Context, admin *admin.Admin, name string) (table, server string, err error) {
	r, err := admin.Region(ctx, []byte(name))
	if errors.Is(err, hberr.ErrRegionNotFound) {
		return "", "", nil
	}
	if err != nil {
		return "", "", err
	}
	if r.Server.Host != "" {
		server = r.Server.Addr()
	}
	return r.Table, server, nil
}

func emitRegions(ctx context.Context, c *cli, admin *admin.Admin, table string) error {
	regions, err := admin.Regions(ctx, table)
	if err != nil {
		return err
	}
	return c.emit(&regionsResult{Table: table, Regions: regionsOf(regions)})
}

func splitCmd() *command {
	return &command{
		name: "split", args: "<table>|<region> [<key>]",
		summary: "split a table's region holding key at key, or a region at key or its midpoint; prints the table's regions", minArgs: 1, maxArgs: 2,
		setup: func(fs *flag.FlagSet) runFunc {
			return func(ctx context.Context, c *cli, args []string) error {
				var key []byte
				if len(args) == 2 {
					var err error
					if key, err = binaryArg("key", args[1]); err != nil {
						return err
					}
					if len(key) == 0 {
						return usagef("split: empty key")
					}
				} else if !isRegionName(args[0]) {
					return usagef("split: a table splits at a key: want split <table> <key> (or split <region> to split a region at its midpoint)")
				}
				admin, ctx, cancel, err := c.adminWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				table := args[0]
				if isRegionName(args[0]) {
					if table, _, err = tableOfRegion(ctx, admin, args[0]); err != nil {
						return err
					}
					err = admin.SplitRegion(ctx, []byte(args[0]), key)
				} else {
					err = admin.SplitTable(ctx, args[0], key)
				}
				if err != nil {
					return err
				}
				if table == "" {
					return c.emit(&regionsResult{Regions: []regionOut{}})
				}
				return emitRegions(ctx, c, admin, table)
			}
		},
	}
}

func mergeCmd() *command {
	return &command{
		name: "merge", args: "<region> <region> [<region> ...]",
		summary: "merge adjacent regions (encoded or full names) of one table; prints the table's regions", minArgs: 2, maxArgs: -1,
		setup: func(fs *flag.FlagSet) runFunc {
			force := fs.Bool("force", false, "merge regions that are not adjacent")
			return func(ctx context.Context, c *cli, args []string) error {
				names := make([][]byte, len(args))
				for i, a := range args {
					if !isRegionName(a) {
						return usagef("merge: %q is not a region name (encoded, 32 hex digits, or full)", a)
					}
					names[i] = []byte(a)
				}
				admin, ctx, cancel, err := c.adminWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				table, _, err := tableOfRegion(ctx, admin, args[0])
				if err != nil {
					return err
				}
				if err := admin.MergeRegions(ctx, *force, names...); err != nil {
					return err
				}
				if table == "" {
					return c.emit(&regionsResult{Regions: []regionOut{}})
				}
				return emitRegions(ctx, c, admin, table)
			}
		},
	}
}

// moveResult is what move prints.
type moveResult struct {
	Region string `json:"region"`
	Table  string `json:"table"`
	From   string `json:"from"`
	To     string `json:"to"`
}

func (r *moveResult) writeText(w io.Writer) error {
	return writeTable(w, []string{"REGION", "TABLE", "FROM", "TO"}, [][]string{{r.Region, orDash(r.Table), orDash(r.From), orDash(r.To)}})
}

func moveCmd() *command {
	return &command{
		name: "move", args: "<region> [<host:port>]",
		summary: "move a region (encoded or full name) to a server, or to one the master picks", minArgs: 1, maxArgs: 2,
		setup: func(fs *flag.FlagSet) runFunc {
			return func(ctx context.Context, c *cli, args []string) error {
				if !isRegionName(args[0]) {
					return usagef("move: %q is not a region name (encoded, 32 hex digits, or full)", args[0])
				}
				dest := ""
				if len(args) == 2 {
					dest = args[1]
				}
				admin, ctx, cancel, err := c.adminWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				table, from, err := tableOfRegion(ctx, admin, args[0])
				if err != nil {
					return err
				}
				if err := admin.MoveRegion(ctx, []byte(args[0]), dest); err != nil {
					return err
				}
				out := &moveResult{Region: hrpc.EncodedRegionName([]byte(args[0])), Table: table, From: from, To: dest}
				if table != "" {
					regions, err := admin.Regions(ctx, table)
					if err != nil {
						return err
					}
					for _, r := range regions {
						if r.Encoded == out.Region && r.Server.Host != "" {
							out.To = r.Server.Addr()
						}
					}
				}
				return c.emit(out)
			}
		},
	}
}

// balanceResult is what balance prints.
type balanceResult struct {
	BalancerOn bool  `json:"balancer_on"`
	WasOn      *bool `json:"was_on,omitempty"` // balance on|off: the state before
	Ran        *bool `json:"ran,omitempty"`    // balance: whether the balancer ran
}

func (r *balanceResult) writeText(w io.Writer) error {
	header, row := []string{"BALANCER"}, []string{onOff(r.BalancerOn)}
	if r.WasOn != nil {
		header, row = append(header, "WAS"), append(row, onOff(*r.WasOn))
	}
	if r.Ran != nil {
		header, row = append(header, "RAN"), append(row, strconv.FormatBool(*r.Ran))
	}
	return writeTable(w, header, [][]string{row})
}

func balanceCmd() *command {
	return &command{
		name: "balance", args: "[on|off|status]",
		summary: "run the balancer once (it runs only while on), switch it on or off, or show its state", minArgs: 0, maxArgs: 1,
		setup: func(fs *flag.FlagSet) runFunc {
			return func(ctx context.Context, c *cli, args []string) error {
				action := "run"
				if len(args) == 1 {
					action = args[0]
				}
				if action != "run" && action != "on" && action != "off" && action != "status" {
					return usagef("balance: want on, off or status, got %q", action)
				}
				admin, ctx, cancel, err := c.adminWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				out := &balanceResult{}
				switch action {
				case "on", "off":
					was, err := admin.SetBalancer(ctx, action == "on")
					if err != nil {
						return err
					}
					out.WasOn, out.BalancerOn = &was, action == "on"
					return c.emit(out)
				case "run":
					ran, err := admin.Balance(ctx)
					if err != nil {
						return err
					}
					out.Ran = &ran
				}
				if out.BalancerOn, err = admin.BalancerEnabled(ctx); err != nil {
					return err
				}
				return c.emit(out)
			}
		},
	}
}
