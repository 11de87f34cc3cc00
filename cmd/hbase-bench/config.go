package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/go-hbase/hbase/cmd/internal/connflags"
)

// errUsage marks a bad command line; main exits with status 2 for it.
var errUsage = errors.New("usage")

// config is the validated command line.
type config struct {
	// connflags.Flags are the connection and security flags shared with hbasectl (-zk,
	// -znode, -bootstrap, -site, -kerberos and the rest): c.ZKQuorum, c.Security ...
	connflags.Flags

	Table     string
	Family    string
	Qualifier string
	PE        bool // PerformanceEvaluation's table and key layout
	Workloads []workloadKind
	Rows      int64
	KeySize   int
	ValueSize int
	ScanRows  int
	Caching   int     // rows per scan RPC of scan, scanRangeN and filterScan
	ReadRatio float64 // mixed: the share of Gets
	Rate      float64 // operations per second offered (0: as fast as the workers go)
	// Buffered: randomWrite and sequentialWrite write through a bufwriter.Writer per worker
	// (PE's --autoFlush=false), flushing WriteBuffer bytes at a time.
	Buffered    bool
	WriteBuffer int64
	Interval    time.Duration
	Progress    time.Duration // plain progress lines when stderr is no terminal (0: none at all)
	Plot        string        // -plot: SVG file of p50/p95/p99 over time
	Compare     []string      // -compare: JSON reports to compare instead of running
	Concurrency int
	Duration    time.Duration // 0: bounded by Ops alone
	Ops         int64         // per workload; 0: bounded by Duration alone
	OpTimeout   time.Duration
	Rounds      int
	Warmup      time.Duration // unmeasured run of each workload in each mode first
	Load        bool          // write every row once, unmeasured, before the workloads
	Seed        uint64

	Local         bool
	Create        bool // without -local: create the table through the admin API if it is missing
	RegionServers int
	Regions       int
	StartTimeout  time.Duration

	CompareSecurity bool

	JSON    bool
	Verbose bool
	// CPUProfile is where to write a CPU profile of the whole run (-cpuprofile); "" for none.
	CPUProfile string

	// serverCPU, when set (-local), reads the CPU time the cluster's JVM has used, so that
	// each run also reports the server's CPU per operation.
	serverCPU func() (time.Duration, error)
	// progress, when set, shows each window of a measured run (the progress line).
	progress func(progressUpdate)
}

// securityFlags are the Kerberos and TLS settings of one mode, passed through to the client's
// security options.
type securityFlags = connflags.Security

const maxKeySize = 1 << 10

// defaultCompareWarmup is -warmup's default with -compare-security.
const defaultCompareWarmup = 3 * time.Second
const maxValueSize = 64 << 20

// parseConfig parses and validates args (without the program name). getenv supplies the
// defaults that come from the environment (HBASE_ZK and friends, as cmd/hbase-local prints
// them). Help goes to out.
func parseConfig(args []string, getenv func(string) string, out io.Writer) (*config, error) {
	c := &config{}
	var raw rawFlags
	fs := newFlagSet(c, &raw, getenv)
	set, err := parseFlags(fs, args, out)
	if err != nil {
		return nil, err
	}
	if raw.compare {
		return compareConfig(c, fs.Args(), set)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if c.PE {
		peDefaults(c, set)
	}
	if err := c.parseRawFlags(&raw, set); err != nil {
		return nil, err
	}
	c.fillDefaults(set)
	if err := c.validate(set); err != nil {
		return nil, err
	}
	return c, nil
}

// rawFlags are the flags whose values parseConfig turns into config fields itself.
type rawFlags struct {
	workloads   string // -workload
	compare     bool   // -compare
	writeBuffer string // -write-buffer
	load        string // -load
}

// newFlagSet is hbase-bench's flag set, which parses into c and raw. It prints nothing: the
// flag package prints errors and the whole usage itself, but a bad command line is one line
// from run instead, and only -h prints the usage.
func newFlagSet(c *config, raw *rawFlags, getenv func(string) string) *flag.FlagSet {
	fs := flag.NewFlagSet("hbase-bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	c.Flags.Register(fs, getenv)
	registerRunFlags(fs, c, raw)
	registerClusterFlags(fs, c)
	registerOutputFlags(fs, c, raw)
	return fs
}

// registerRunFlags registers the flags that shape the table's layout and the workloads.
func registerRunFlags(fs *flag.FlagSet, c *config, raw *rawFlags) {
	fs.StringVar(&c.Table, "table", "hbase-bench", "table to use; with -local it is created (-pe: TestTable)")
	fs.StringVar(&c.Family, "family", "f", "column family (-pe: info0)")
	fs.StringVar(&c.Qualifier, "qualifier", "q", "column of each row's value, family:qualifier (-pe: 0)")
	fs.BoolVar(&c.PE, "pe", false, "HBase PerformanceEvaluation's layout, to compare with PE on the same table: -table TestTable -family info0 -qualifier 0 -value-size 1000 -rows 1048576 (PE's 1 GiB for one client), split keys as PE's --presplit; flags given override")
	fs.StringVar(&raw.workloads, "workload", "randomWrite,randomRead", "comma list of workloads, run in this order (see Workloads below)")
	fs.Int64Var(&c.Rows, "rows", 100000, "key space: rows 0 .. rows-1 (against a table PE loaded: PE's --rows times its clients)")
	fs.IntVar(&c.KeySize, "key-size", defaultKeySize, "row key length in bytes (zero-padded decimal row number, 26 as in PE)")
	fs.IntVar(&c.ValueSize, "value-size", 100, "value length in bytes (-pe: 1000)")
	fs.IntVar(&c.ScanRows, "scan-rows", 100, "rows read by one randomSeekScan operation")
	fs.IntVar(&c.Caching, "caching", 30, "rows per scan RPC of scan, scanRange10/100/1000 and filterScan (PE's --caching, default 30)")
	fs.Float64Var(&c.ReadRatio, "read-ratio", 0.5, "mixed: the share of operations that are Gets (the rest are Puts), 0 .. 1")
	fs.IntVar(&c.Concurrency, "concurrency", 16, "goroutines issuing requests (PE's nclients)")
	fs.DurationVar(&c.Duration, "duration", 10*time.Second, "how long each workload runs (with -ops and no -duration: no time limit)")
	fs.Int64Var(&c.Ops, "ops", 0, "operations per workload (0: run for -duration); the first limit reached ends a workload")
	fs.Float64Var(&c.Rate, "rate", 0, "offer this many operations per second across all -concurrency callers, latency measured from each operation's due time (no coordinated omission); 0: as fast as they go")
	fs.DurationVar(&c.OpTimeout, "op-timeout", 10*time.Second, "deadline of each request (scan: of each scanner's rows as a whole run)")
	fs.IntVar(&c.Rounds, "rounds", 0, "split each workload into this many interleaved rounds and merge them (0: 1, or 20 with -compare-security)")
	fs.DurationVar(&c.Warmup, "warmup", 0, "run each workload (in each mode) this long unmeasured before measuring it (default 0, or 3s with -compare-security)")
	fs.BoolVar(&c.Buffered, "buffered", false, "randomWrite and sequentialWrite through a buffered writer per -concurrency caller (PE's --autoFlush=false with a BufferedMutator per thread): an operation is one Write, which blocks only while the writer is full; each caller's writer is closed (flushed) at the end of the run, within its time")
	fs.StringVar(&raw.writeBuffer, "write-buffer", "2MiB", "with -buffered: flush this many bytes at a time (Java's writeBufferSize, hbase.client.write.buffer); the writer holds at most twice that, one flush being sent while the next fills. Bytes, or with KiB or MiB")
	fs.StringVar(&raw.load, "load", "auto", "write every row once before the workloads, unmeasured: true, false, or auto (with -local when a workload reads)")
	fs.Uint64Var(&c.Seed, "seed", 0, "random seed for keys (0: from the clock)")
}

// registerClusterFlags registers the flags of the local cluster and of the table's creation.
func registerClusterFlags(fs *flag.FlagSet, c *config) {
	fs.BoolVar(&c.Local, "local", false, "start a local HBase mini cluster (package hbasetest), create the table, run, stop")
	fs.IntVar(&c.RegionServers, "regionservers", 1, "region servers of the -local cluster")
	fs.IntVar(&c.Regions, "regions", 8, "pre-split the -local (or -create) table into this many regions")
	fs.BoolVar(&c.Create, "create", false, "without -local: create the table (family -family, pre-split into -regions regions) through the admin API when it does not exist")
	fs.DurationVar(&c.StartTimeout, "start-timeout", 5*time.Minute, "how long the -local cluster may take to start (the first run builds the launcher)")

	fs.BoolVar(&c.CompareSecurity, "compare-security", false, "with -local: run randomRead,randomWrite (or -workload) against one secure cluster with no encryption, privacy by GSS wrap, privacy by AES and native TLS (Kerberos authentication inside), and compare them")
}

// registerOutputFlags registers the flags of what the run prints and writes.
func registerOutputFlags(fs *flag.FlagSet, c *config, raw *rawFlags) {
	fs.DurationVar(&c.Interval, "interval", time.Second, "width of the windows of the time series (-json's series, -plot) and how often the live progress line on a terminal is redrawn")
	fs.DurationVar(&c.Progress, "progress", 10*time.Second, "when stderr is not a terminal, print a progress line this often; 0: no progress output, on a terminal either")
	fs.StringVar(&c.Plot, "plot", "", "write a chart of p50/p95/p99 over time, a panel per workload, to this .svg (or .png) file (with -compare: the runs compared)")
	fs.BoolVar(&raw.compare, "compare", false, "compare the -json reports named as arguments (hbase-bench -compare [-plot f.svg] a.json b.json ...): a table of each run against the first, and with -plot one chart; connects to nothing")
	fs.BoolVar(&c.JSON, "json", false, "print results as JSON instead of a table (with the time series)")
	fs.BoolVar(&c.Verbose, "v", false, "log debug messages to stderr")
	fs.StringVar(&c.CPUProfile, "cpuprofile", "", "write a CPU profile of the run (go tool pprof) to this file; with -local it covers the cluster's start too, which costs this process little")
}

// parseFlags parses args with fs and returns the names of the flags given; -h prints the
// usage to out.
func parseFlags(fs *flag.FlagSet, args []string, out io.Writer) (map[string]bool, error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(fs, out)
			return nil, err
		}
		return nil, fmt.Errorf("%w: %v (hbase-bench -h lists the flags)", errUsage, err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set, nil
}

// parseRawFlags parses the flags of raw into c: the workloads, the write buffer and -load.
func (c *config) parseRawFlags(raw *rawFlags, set map[string]bool) error {
	var err error
	if c.Workloads, err = parseWorkloads(raw.workloads); err != nil {
		return usageErr("-workload: %v", err)
	}
	if c.WriteBuffer, err = parseBytes(raw.writeBuffer); err != nil {
		return usageErr("-write-buffer: %v", err)
	}
	switch {
	case set["write-buffer"] && !c.Buffered:
		return usageErr("-write-buffer goes with -buffered")
	case c.Buffered && !slices.ContainsFunc(c.Workloads, buffers):
		return usageErr("-buffered: no workload writes through a buffer (randomWrite, sequentialWrite)")
	case c.Buffered && (c.Rate > 0 || c.CompareSecurity):
		return usageErr("-buffered does not go with -rate or -compare-security")
	}
	c.Load, err = parseLoad(raw.load, c)
	return err
}

// fillDefaults sets what depends on the other flags: the seed from the clock, no time limit
// for -ops alone, the rounds.
func (c *config) fillDefaults(set map[string]bool) {
	if c.Seed == 0 {
		c.Seed = uint64(time.Now().UnixNano())
	}
	if set["ops"] && !set["duration"] {
		c.Duration = 0
	}
	if c.Rounds == 0 {
		c.Rounds = 1
		if c.CompareSecurity {
			c.Rounds = 20
		}
	}
}

func usageErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

func parseLoad(v string, c *config) (bool, error) {
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "auto":
		return false, nil // decided in validate, once -local is known
	}
	return false, usageErr("-load: want true, false or auto, got %q", v)
}

// validate checks the flags' values and combinations, and fills the defaults that depend
// on -local and -compare-security.
func (c *config) validate(set map[string]bool) error {
	if err := c.checkRanges(); err != nil {
		return err
	}
	var err error
	if c.Local {
		err = c.validateLocal(set)
	} else {
		err = c.validateRemote(set)
	}
	if err != nil {
		return err
	}
	if err := c.checkSecurityFlags(set); err != nil {
		return err
	}
	if c.CompareSecurity {
		return c.compareSecurityDefaults(set)
	}
	return nil
}

// checkRanges checks each flag's value on its own.
func (c *config) checkRanges() error {
	switch {
	case c.Rows < 1 || c.Rows > 1e12:
		return usageErr("-rows: want 1 .. 1e12, got %d", c.Rows)
	case c.KeySize < minKeySize(c.Rows) || c.KeySize > maxKeySize:
		return usageErr("-key-size: %d rows need keys of %d .. %d bytes, got %d", c.Rows, minKeySize(c.Rows), maxKeySize, c.KeySize)
	case c.ValueSize < 0 || c.ValueSize > maxValueSize:
		return usageErr("-value-size: want 0 .. %d, got %d", maxValueSize, c.ValueSize)
	case c.ScanRows < 1 || c.ScanRows > 1e6:
		return usageErr("-scan-rows: want 1 .. 1000000, got %d", c.ScanRows)
	case c.Concurrency < 1 || c.Concurrency > 10000:
		return usageErr("-concurrency: want 1 .. 10000, got %d", c.Concurrency)
	case c.Ops < 0:
		return usageErr("-ops: must not be negative, got %d", c.Ops)
	case c.Duration < 0:
		return usageErr("-duration: must not be negative, got %v", c.Duration)
	case c.Duration == 0 && c.Ops == 0:
		return usageErr("a run must be bounded: give -duration or -ops")
	case c.Ops > 0 && c.Ops < int64(c.Rounds):
		return usageErr("-ops %d cannot be split into %d rounds", c.Ops, c.Rounds)
	case c.Warmup < 0:
		return usageErr("-warmup: must not be negative, got %v", c.Warmup)
	case c.OpTimeout <= 0 || c.OpTimeout > maxOpTimeout:
		return usageErr("-op-timeout: want more than 0 and at most %v, got %v", maxOpTimeout, c.OpTimeout)
	case c.Rounds < 1 || c.Rounds > 100:
		return usageErr("-rounds: want 1 .. 100, got %d", c.Rounds)
	case c.Table == "" || strings.ContainsAny(c.Table, " \t\n:"):
		return usageErr("-table: want a table name without spaces or ':', got %q", c.Table)
	case c.Family == "" || strings.ContainsAny(c.Family, " \t\n:"):
		return usageErr("-family: want a family name without spaces or ':', got %q", c.Family)
	case c.Caching < 1 || c.Caching > 100000:
		return usageErr("-caching: want 1 .. 100000, got %d", c.Caching)
	case !(c.ReadRatio >= 0 && c.ReadRatio <= 1):
		return usageErr("-read-ratio: want 0 .. 1, got %v", c.ReadRatio)
	case !(c.Rate >= 0 && c.Rate <= 1e7):
		return usageErr("-rate: want 0 (unpaced) .. 10000000 operations per second, got %v", c.Rate)
	case c.Interval <= 0 || c.Interval > time.Minute:
		return usageErr("-interval: want more than 0 and at most 1m, got %v", c.Interval)
	case c.Progress < 0:
		return usageErr("-progress: must not be negative, got %v", c.Progress)
	case c.Plot != "" && !plotFile(c.Plot):
		return usageErr("-plot: want a file name ending in .svg or .png, got %q", c.Plot)
	}
	return nil
}

// validateLocal checks the flags of a run against a local cluster, and loads the table
// before a workload that reads it unless -load says otherwise.
func (c *config) validateLocal(set map[string]bool) error {
	if c.Create {
		return usageErr("-create does not go with -local: the local cluster's table is always created")
	}
	if anySet(set, connflags.ClusterFlags) {
		return usageErr("-zk, -znode, -bootstrap and -site do not go with -local: the local cluster brings its own")
	}
	if !slices.Contains(connflags.Protections, c.Security.Protection) {
		return usageErr("-protection: want one of %s, got %q", strings.Join(connflags.Protections, ", "), c.Security.Protection)
	}
	if c.RegionServers < 1 || c.RegionServers > 10 {
		return usageErr("-regionservers: want 1 .. 10, got %d", c.RegionServers)
	}
	if c.Regions < 1 || c.Regions > 1000 || int64(c.Regions) > c.Rows {
		return usageErr("-regions: want 1 .. min(1000, -rows), got %d", c.Regions)
	}
	if anySet(set, connflags.CredentialFlags) {
		return usageErr("-principal, -keytab, -ccache, -krb5conf, -server-principal, -proxy-user and the -tls flags do not go with -local: the local secure cluster makes its own")
	}
	if c.StartTimeout <= 0 {
		return usageErr("-start-timeout: must be positive, got %v", c.StartTimeout)
	}
	// A fresh table has nothing to read: fill it unless told not to.
	if !set["load"] && slices.ContainsFunc(c.Workloads, readsTable) {
		c.Load = true
	}
	return nil
}

// validateRemote checks the flags of a run against a running cluster.
func (c *config) validateRemote(set map[string]bool) error {
	if err := c.Flags.Check(set); err != nil {
		return usageErr("%v", err)
	}
	if set["regionservers"] || set["start-timeout"] {
		return usageErr("-regionservers and -start-timeout need -local")
	}
	if set["regions"] && !c.Create {
		return usageErr("-regions needs -local or -create: it shapes a table the benchmark creates")
	}
	if c.Create && (c.Regions < 1 || c.Regions > 1000 || int64(c.Regions) > c.Rows) {
		return usageErr("-regions: want 1 .. min(1000, -rows), got %d", c.Regions)
	}
	if c.CompareSecurity {
		return usageErr("-compare-security needs -local: it starts a secure cluster that accepts every protection")
	}
	return nil
}

// checkSecurityFlags checks that -protection and -aes come with -kerberos, and that
// -compare-security, which sets all three per mode, comes with none of them.
func (c *config) checkSecurityFlags(set map[string]bool) error {
	if !c.Security.Kerberos && !c.CompareSecurity && (set["protection"] || set["aes"]) {
		return usageErr("-protection and -aes need -kerberos")
	}
	if c.CompareSecurity && (set["kerberos"] || set["protection"] || set["aes"]) {
		return usageErr("-compare-security sets -kerberos, -protection and -aes itself, once per mode")
	}
	return nil
}

// compareSecurityDefaults checks -compare-security's workloads and fills its defaults: Get
// and Put on a loaded table, each mode warmed up.
func (c *config) compareSecurityDefaults(set map[string]bool) error {
	for _, w := range c.Workloads {
		if w != randRead && w != randWrite {
			return usageErr("-compare-security measures Get and Put: -workload may hold randomRead and randomWrite, got %s", w)
		}
	}
	if !set["workload"] {
		c.Workloads = []workloadKind{randRead, randWrite}
	}
	if !set["load"] {
		c.Load = true
	}
	// Each mode opens fresh connections, and without -rounds interleaving (one cluster per
	// protection) a fresh server JVM too: give both time to warm up before measuring.
	if !set["warmup"] {
		c.Warmup = defaultCompareWarmup
	}
	return nil
}

// anySet reports whether any of the flags names was given.
func anySet(set map[string]bool, names []string) bool {
	for _, n := range names {
		if set[n] {
			return true
		}
	}
	return false
}
