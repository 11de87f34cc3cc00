package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/go-hbase/hbase/hrpc"
)

// serverOut is one region server in status' output.
type serverOut struct {
	Server         string `json:"server"` // host,port,startcode
	State          string `json:"state"`  // live or dead
	Regions        int    `json:"regions"`
	RequestsPerSec uint64 `json:"requests_per_sec"`
	TotalRequests  uint64 `json:"total_requests"`
	UsedHeapMB     uint32 `json:"used_heap_mb"`
	MaxHeapMB      uint32 `json:"max_heap_mb"`
}

// regionLoadOut is one region's figures in status -regions and locality.
type regionLoadOut struct {
	Region        string   `json:"region"` // encoded name
	Table         string   `json:"table"`
	Server        string   `json:"server"`
	ReadRequests  uint64   `json:"read_requests"`
	WriteRequests uint64   `json:"write_requests"`
	StoreFiles    uint32   `json:"store_files"`
	StoreFileMB   uint32   `json:"store_file_mb"`
	MemStoreMB    uint32   `json:"memstore_mb"`
	Locality      *float64 `json:"locality"` // null: the region has no store files
}

// statusResult is what status prints.
type statusResult struct {
	ClusterID           string          `json:"cluster_id"`
	Version             string          `json:"version"`
	Master              string          `json:"master"`
	BackupMasters       []string        `json:"backup_masters"`
	Servers             []serverOut     `json:"servers"`
	LiveServers         int             `json:"live_servers"`
	DeadServers         int             `json:"dead_servers"`
	Regions             int             `json:"regions"`
	RegionsInTransition int             `json:"regions_in_transition"`
	BalancerOn          bool            `json:"balancer_on"`
	RegionLoads         []regionLoadOut `json:"region_loads,omitempty"` // with -regions
}

func (r *statusResult) writeText(w io.Writer) error {
	backups := "none"
	if len(r.BackupMasters) > 0 {
		backups = fmt.Sprint(r.BackupMasters)
	}
	fmt.Fprintf(w, "cluster %s, version %s, master %s, backup masters %s\n", r.ClusterID, r.Version, r.Master, backups)
	fmt.Fprintf(w, "%d live, %d dead servers; %s, %d in transition; balancer %s\n\n",
		r.LiveServers, r.DeadServers, plural(int64(r.Regions), "region"), r.RegionsInTransition, onOff(r.BalancerOn))
	rows := make([][]string, len(r.Servers))
	for i, s := range r.Servers {
		rows[i] = []string{s.Server, s.State, strconv.Itoa(s.Regions), strconv.FormatUint(s.RequestsPerSec, 10),
			strconv.FormatUint(s.TotalRequests, 10), fmt.Sprintf("%d/%d", s.UsedHeapMB, s.MaxHeapMB)}
		if s.State == "dead" {
			rows[i] = []string{s.Server, s.State, "-", "-", "-", "-"}
		}
	}
	if err := writeTable(w, []string{"SERVER", "STATE", "REGIONS", "REQUESTS/S", "REQUESTS", "HEAP MB"}, rows); err != nil {
		return err
	}
	if len(r.RegionLoads) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	return writeRegionLoads(w, r.RegionLoads)
}

func writeRegionLoads(w io.Writer, loads []regionLoadOut) error {
	rows := make([][]string, len(loads))
	for i, l := range loads {
		rows[i] = []string{l.Region, l.Table, l.Server, strconv.FormatUint(l.ReadRequests, 10), strconv.FormatUint(l.WriteRequests, 10),
			strconv.FormatUint(uint64(l.StoreFiles), 10), strconv.FormatUint(uint64(l.StoreFileMB), 10), strconv.FormatUint(uint64(l.MemStoreMB), 10), formatLocality(l.Locality)}
	}
	return writeTable(w, []string{"REGION", "TABLE", "SERVER", "READS", "WRITES", "STOREFILES", "STOREFILE MB", "MEMSTORE MB", "LOCALITY"}, rows)
}

func formatLocality(l *float64) string {
	if l == nil {
		return "-"
	}
	return strconv.FormatFloat(*l, 'f', 2, 64)
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// regionLoad reads one region's figures; locality is nil for a region without store files,
// which has no blocks to be local or not.
func regionLoad(server string, l *hrpc.RegionLoad) regionLoadOut {
	out := regionLoadOut{Region: l.Encoded, Table: l.Table, Server: server, ReadRequests: l.ReadRequests, WriteRequests: l.WriteRequests,
		StoreFiles: l.StoreFiles, StoreFileMB: l.StoreFileSizeMB, MemStoreMB: l.MemStoreSizeMB}
	if l.StoreFiles > 0 {
		loc := float64(l.DataLocality)
		out.Locality = &loc
	}
	return out
}

func statusOf(cs *hrpc.ClusterStatus, table string, withRegions bool) *statusResult {
	out := &statusResult{ClusterID: cs.ClusterID, Version: cs.Version, Master: cs.Master.String(), BackupMasters: []string{},
		Servers: []serverOut{}, LiveServers: len(cs.LiveServers), DeadServers: len(cs.DeadServers), Regions: cs.Regions(),
		RegionsInTransition: cs.RegionsInTransition, BalancerOn: cs.BalancerOn}
	for _, b := range cs.BackupMasters {
		out.BackupMasters = append(out.BackupMasters, b.String())
	}
	for _, s := range cs.LiveServers {
		out.Servers = append(out.Servers, serverOut{Server: s.Server.String(), State: "live", Regions: len(s.Regions),
			RequestsPerSec: s.RequestsPerSec, TotalRequests: s.TotalRequests, UsedHeapMB: s.UsedHeapMB, MaxHeapMB: s.MaxHeapMB})
		if !withRegions {
			continue
		}
		for i := range s.Regions {
			if table == "" || s.Regions[i].Table == table {
				out.RegionLoads = append(out.RegionLoads, regionLoad(s.Server.Addr(), &s.Regions[i]))
			}
		}
	}
	for _, d := range cs.DeadServers {
		out.Servers = append(out.Servers, serverOut{Server: d.String(), State: "dead"})
	}
	slices.SortFunc(out.RegionLoads, func(a, b regionLoadOut) int {
		if c := cmpStrings(a.Table, b.Table); c != 0 {
			return c
		}
		return cmpStrings(a.Region, b.Region)
	})
	return out
}

func cmpStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func statusCmd() *command {
	return &command{
		name: "status", args: "", summary: "masters, live and dead servers with their load; -regions adds every region's figures", minArgs: 0, maxArgs: 0,
		setup: func(fs *flag.FlagSet) runFunc {
			regions := fs.Bool("regions", false, "also list every region: requests, store files, sizes, locality")
			table := fs.String("table", "", "with -regions, only the regions of this table")
			return func(ctx context.Context, c *cli, _ []string) error {
				if *table != "" && !*regions {
					return usagef("status: -table needs -regions")
				}
				admin, ctx, cancel, err := c.adminWithTimeout(ctx)
				if err != nil {
					return err
				}
				defer cancel()
				cs, err := admin.ClusterStatus(ctx)
				if err != nil {
					return err
				}
				return c.emit(statusOf(cs, *table, *regions))
			}
		},
	}
}

// serverLocality is one server in locality's output.
type serverLocality struct {
	Server  string `json:"server"`
	Regions int    `json:"regions"`
	// Locality is the share of the server's store file blocks on its own data node, weighted
	// by size (by region when the server reports no weights); null when it has no store files.
	Locality *float64 `json:"locality"`
	Below    int      `json:"below"` // regions under the threshold
}

// localityResult is one round of locality.
type localityResult struct {
	Time      time.Time        `json:"time"`
	Threshold float64          `json:"threshold"`
	Servers   []serverLocality `json:"servers"`
	Below     []regionLoadOut  `json:"below"` // regions with store files under the threshold, lowest first
}

func (r *localityResult) writeText(w io.Writer) error {
	rows := make([][]string, len(r.Servers))
	for i, s := range r.Servers {
		rows[i] = []string{s.Server, strconv.Itoa(s.Regions), formatLocality(s.Locality), strconv.Itoa(s.Below)}
	}
	fmt.Fprintf(w, "%s  locality threshold %.2f\n", r.Time.UTC().Format(time.RFC3339), r.Threshold)
	if err := writeTable(w, []string{"SERVER", "REGIONS", "LOCALITY", "BELOW"}, rows); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if len(r.Below) == 0 {
		_, err := fmt.Fprintf(w, "no region below %.2f\n", r.Threshold)
		return err
	}
	return writeRegionLoads(w, r.Below)
}

// localityOf computes one round of locality from the cluster status.
func localityOf(cs *hrpc.ClusterStatus, threshold float64, table string, now time.Time) *localityResult {
	out := &localityResult{Time: now, Threshold: threshold, Servers: []serverLocality{}, Below: []regionLoadOut{}}
	for _, s := range cs.LiveServers {
		sl := serverLocality{Server: s.Server.Addr()}
		var local, total uint64
		var sum float64
		var withFiles int
		for i := range s.Regions {
			l := &s.Regions[i]
			if table != "" && l.Table != table {
				continue
			}
			sl.Regions++
			local += l.BlocksLocalWeight
			total += l.BlocksTotalWeight
			rl := regionLoad(s.Server.Addr(), l)
			if rl.Locality == nil {
				continue
			}
			withFiles++
			sum += *rl.Locality
			if *rl.Locality < threshold {
				sl.Below++
				out.Below = append(out.Below, rl)
			}
		}
		switch {
		case total > 0:
			v := float64(local) / float64(total)
			sl.Locality = &v
		case withFiles > 0:
			v := sum / float64(withFiles)
			sl.Locality = &v
		}
		out.Servers = append(out.Servers, sl)
	}
	slices.SortFunc(out.Servers, func(a, b serverLocality) int { return cmpStrings(a.Server, b.Server) })
	slices.SortStableFunc(out.Below, func(a, b regionLoadOut) int {
		switch {
		case *a.Locality < *b.Locality:
			return -1
		case *a.Locality > *b.Locality:
			return 1
		}
		return cmpStrings(a.Region, b.Region)
	})
	return out
}

func localityCmd() *command {
	return &command{
		name: "locality", args: "", summary: "data locality per server and the regions below -threshold, once or every -watch", minArgs: 0, maxArgs: 0,
		setup: func(fs *flag.FlagSet) runFunc {
			threshold := fs.Float64("threshold", 0.9, "list the regions (with store files) whose locality is below this, 0 to 1")
			table := fs.String("table", "", "only the regions of this table")
			watch := fs.Duration("watch", 0, "print again every interval until interrupted (the servers report every few seconds)")
			rounds := fs.Int("rounds", 0, "with -watch, stop after this many rounds (0: until interrupted)")
			return func(ctx context.Context, c *cli, _ []string) error {
				switch {
				case *threshold < 0 || *threshold > 1:
					return usagef("locality: -threshold: want 0 .. 1, got %v", *threshold)
				case *watch < 0:
					return usagef("locality: -watch must not be negative, got %v", *watch)
				case *rounds < 0 || *rounds > 0 && *watch == 0:
					return usagef("locality: -rounds needs -watch and must not be negative")
				}
				admin, err := c.admin(ctx)
				if err != nil {
					return err
				}
				for round := 1; ; round++ {
					rctx, cancel := c.withTimeout(ctx)
					cs, err := admin.ClusterStatus(rctx)
					cancel()
					if err != nil {
						return err
					}
					if err := c.emit(localityOf(cs, *threshold, *table, time.Now())); err != nil {
						return err
					}
					if *watch == 0 || round == *rounds {
						return nil
					}
					if !c.json {
						fmt.Fprintln(c.stdout)
					}
					select {
					case <-ctx.Done():
						return nil // interrupted: the rounds printed are the output
					case <-time.After(*watch):
					}
				}
			}
		},
	}
}
