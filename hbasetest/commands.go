package hbasetest

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// do sends one command built from words and returns the words of the OK answer.
func (c *Cluster) do(ctx context.Context, words ...string) ([]string, error) {
	ans, err := c.Command(ctx, strings.Join(words, " "))
	if err != nil {
		return nil, err
	}
	return strings.Fields(ans), nil
}

// Status reports the master and every region server slot.
func (c *Cluster) Status(ctx context.Context) (*Status, error) {
	w, err := c.do(ctx, "status")
	if err != nil {
		return nil, err
	}
	return parseStatus(w)
}

// Regions lists the regions of table as hbase:meta records them, ordered by start key; an
// empty table lists the regions of every table, hbase:meta included. It lists the primaries
// (replica 0) alone; Replicas lists every replica.
func (c *Cluster) Regions(ctx context.Context, table string) ([]Region, error) {
	words := []string{"regions"}
	if table != "" {
		words = append(words, table)
	}
	w, err := c.do(ctx, words...)
	if err != nil {
		return nil, err
	}
	return parseRegions(w)
}

// Replicas lists every replica of every region of table (hbase:meta's replicas too), ordered
// by start key then replica id: where hbase:meta says each is, the master's state of it, and
// the region server that serves it (Replica). Regions lists the primaries alone. The launcher
// reads hbase:meta afresh (its RegionLocator's getAllRegionLocations) and the master's and the
// region servers' state in its own JVM, so a test may poll it during a balance or a move.
func (c *Cluster) Replicas(ctx context.Context, table string) ([]Replica, error) {
	if table == "" {
		return nil, errors.New("hbasetest: replicas: no table")
	}
	w, err := c.do(ctx, "replicas", table)
	if err != nil {
		return nil, err
	}
	return parseReplicas(w)
}

// CreateTable creates table with the given column families, pre-split at splitKeys.
func (c *Cluster) CreateTable(ctx context.Context, table string, families []string, splitKeys [][]byte) error {
	return c.CreateTableWith(ctx, table, families, splitKeys, TableOptions{})
}

// CreateTableWith is CreateTable with the options o. A table of region replication n > 1
// returns once every replica of every region is open (Replicas lists where); the master
// places the replicas of one region on distinct servers when it has enough of them. Whether
// secondaries follow their primary's writes closely is the cluster's configuration
// (hbase.region.replica.replication.enabled in Options.Conf).
func (c *Cluster) CreateTableWith(ctx context.Context, table string, families []string, splitKeys [][]byte, o TableOptions) error {
	if len(families) == 0 {
		return fmt.Errorf("hbasetest: create %s: no column family", table)
	}
	if o.RegionReplication < 0 || o.RegionReplication > 0xffff {
		return fmt.Errorf("hbasetest: create %s: region replication %d is not 0 to 65535", table, o.RegionReplication)
	}
	fams := make([]string, len(families))
	for i, f := range families {
		fams[i] = encodeBytes([]byte(f))
	}
	words := []string{"create", table, strings.Join(fams, ",")}
	if o.RegionReplication > 1 {
		words = append(words, "replication="+strconv.Itoa(o.RegionReplication))
	}
	for _, k := range splitKeys {
		words = append(words, encodeBytes(k))
	}
	_, err := c.do(ctx, words...)
	return err
}

// DropTable disables (when needed) and deletes table.
func (c *Cluster) DropTable(ctx context.Context, table string) error {
	_, err := c.do(ctx, "drop", table)
	return err
}

// DisableTable disables table.
func (c *Cluster) DisableTable(ctx context.Context, table string) error {
	_, err := c.do(ctx, "disable", table)
	return err
}

// EnableTable enables table.
func (c *Cluster) EnableTable(ctx context.Context, table string) error {
	_, err := c.do(ctx, "enable", table)
	return err
}

// TruncateTable removes every row of table, keeping its region boundaries.
func (c *Cluster) TruncateTable(ctx context.Context, table string) error {
	_, err := c.do(ctx, "truncate", table)
	return err
}

// Put writes one cell with the launcher's Java client.
func (c *Cluster) Put(ctx context.Context, table string, row, family, qualifier, value []byte) error {
	_, err := c.do(ctx, "put", table, encodeBytes(row), encodeBytes(family), encodeBytes(qualifier), encodeBytes(value))
	return err
}

// Get reads the latest version of every cell of row with the launcher's Java client.
func (c *Cluster) Get(ctx context.Context, table string, row []byte) ([]Cell, error) {
	w, err := c.do(ctx, "get", table, encodeBytes(row))
	if err != nil {
		return nil, err
	}
	return parseCells(w)
}

// Scan reads every row of table (latest versions) with the launcher's Java client.
func (c *Cluster) Scan(ctx context.Context, table string) ([]Cell, error) {
	return c.ScanRange(ctx, table, nil, nil)
}

// ScanRange reads the rows in [start, stop) of table; nil means unbounded.
func (c *Cluster) ScanRange(ctx context.Context, table string, start, stop []byte) ([]Cell, error) {
	w, err := c.do(ctx, "scan", table, encodeBytes(start), encodeBytes(stop))
	if err != nil {
		return nil, err
	}
	return parseCells(w)
}

// Increment adds delta to the 8-byte counter in one cell and returns the new value.
func (c *Cluster) Increment(ctx context.Context, table string, row, family, qualifier []byte, delta int64) (int64, error) {
	w, err := c.do(ctx, "increment", table, encodeBytes(row), encodeBytes(family), encodeBytes(qualifier), strconv.FormatInt(delta, 10))
	if err != nil {
		return 0, err
	}
	if len(w) != 1 {
		return 0, fmt.Errorf("hbasetest: increment: unexpected answer %q", strings.Join(w, " "))
	}
	return strconv.ParseInt(w[0], 10, 64)
}

// Delete deletes a whole row (family nil), one family (qualifier nil) or every version of
// one column.
func (c *Cluster) Delete(ctx context.Context, table string, row, family, qualifier []byte) error {
	words := []string{"delete", table, encodeBytes(row)}
	if family != nil {
		words = append(words, encodeBytes(family))
		if qualifier != nil {
			words = append(words, encodeBytes(qualifier))
		}
	}
	_, err := c.do(ctx, words...)
	return err
}

// ThrottleTable limits table to perSecond requests a second on each region server (HBase's
// REQUEST_NUMBER throttle, QuotaSettingsFactory.throttleTable), or removes its throttle when
// perSecond is 0. The cluster must have been started with Options.Quotas. The master records
// the throttle at once; the region servers apply it when their quota caches next refresh
// (within about a second), and calls over it then fail with RpcThrottlingException naming how
// long to wait.
func (c *Cluster) ThrottleTable(ctx context.Context, table string, perSecond int) error {
	if perSecond < 0 {
		return fmt.Errorf("hbasetest: throttle %s: negative requests per second %d", table, perSecond)
	}
	_, err := c.do(ctx, "throttle", table, strconv.Itoa(perSecond))
	return err
}

// SlowReads delays share (0 to 1) of the Gets that region server index serves, single or in a
// multi, by delay each, on the server side (a region observer of the launcher): one slow
// server that every client meets alike, for hedged-read tests and benchmarks. A share or delay
// of 0 ends it. Scans are not delayed.
func (c *Cluster) SlowReads(ctx context.Context, index int, delay time.Duration, share float64) error {
	if delay < 0 || !(share >= 0 && share <= 1) {
		return fmt.Errorf("hbasetest: slow reads of region server %d: delay %v and share %v (want a delay of 0 or more, a share from 0 to 1)", index, delay, share)
	}
	_, err := c.do(ctx, "slow-reads", strconv.Itoa(index), strconv.FormatInt(delay.Milliseconds(), 10), strconv.FormatFloat(share, 'g', -1, 64))
	return err
}

// SecondaryGets is how many Gets (single or in a multi) secondary region replicas have begun
// to serve since the cluster started, on every region server, whichever client sent them:
// the hedges of Timeline reads that reached a server, for clients that count none themselves.
func (c *Cluster) SecondaryGets(ctx context.Context) (int64, error) {
	w, err := c.do(ctx, "secondary-gets")
	if err != nil {
		return 0, err
	}
	if len(w) != 1 {
		return 0, fmt.Errorf("hbasetest: secondary-gets answered %q", strings.Join(w, " "))
	}
	n, err := strconv.ParseInt(w[0], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("hbasetest: secondary-gets: %w", err)
	}
	return n, nil
}

// ThreadDump writes the stack of every thread of the cluster's JVM (master, region servers,
// ZooKeeper), with the locks each holds and waits for, to the file at path (absolute,
// replaced), and returns how many threads it wrote. For a test that finds the cluster
// stalled: what the servers' handlers and readers were doing at that moment.
func (c *Cluster) ThreadDump(ctx context.Context, path string) (int, error) {
	if !filepath.IsAbs(path) {
		return 0, fmt.Errorf("hbasetest: thread dump to %q: the path must be absolute", path)
	}
	w, err := c.do(ctx, "thread-dump", encodeBytes([]byte(path)))
	if err != nil {
		return 0, err
	}
	if len(w) != 1 {
		return 0, fmt.Errorf("hbasetest: thread-dump answered %q", strings.Join(w, " "))
	}
	n, err := strconv.Atoi(w[0])
	if err != nil {
		return 0, fmt.Errorf("hbasetest: thread-dump: %w", err)
	}
	return n, nil
}

// Flush flushes the memstores of table.
func (c *Cluster) Flush(ctx context.Context, table string) error {
	_, err := c.do(ctx, "flush", table)
	return err
}

// Compact runs a minor compaction of table and waits for it.
func (c *Cluster) Compact(ctx context.Context, table string) error {
	_, err := c.do(ctx, "compact", table)
	return err
}

// MajorCompact runs a major compaction of table and waits for it.
func (c *Cluster) MajorCompact(ctx context.Context, table string) error {
	_, err := c.do(ctx, "major-compact", table)
	return err
}

// Split splits the region of table that holds splitKey at splitKey and waits until both
// daughters are open. It returns the daughters' encoded names.
func (c *Cluster) Split(ctx context.Context, table string, splitKey []byte) (left, right string, err error) {
	l, r, err := c.SplitTimed(ctx, table, splitKey)
	return l.EncodedName, r.EncodedName, err
}

// SplitTimed is Split, and tells when the parent stopped serving and when each daughter
// opened, as the servers saw it (Reopen).
func (c *Cluster) SplitTimed(ctx context.Context, table string, splitKey []byte) (left, right Reopen, err error) {
	w, err := c.do(ctx, "split", table, encodeBytes(splitKey))
	if err != nil {
		return Reopen{}, Reopen{}, err
	}
	if len(w) != 7 {
		return Reopen{}, Reopen{}, fmt.Errorf("hbasetest: split: unexpected answer %q", strings.Join(w, " "))
	}
	us, err := parseMicros("split", w[2:])
	if err != nil {
		return Reopen{}, Reopen{}, err
	}
	left = Reopen{EncodedName: w[0], Closed: us[0], Opened: us[1], InMeta: us[2]}
	right = Reopen{EncodedName: w[1], Closed: us[0], Opened: us[3], InMeta: us[4]}
	return left, right, nil
}

// parseMicros reads wall-clock microseconds since the epoch; 0 is the zero Time.
func parseMicros(cmd string, w []string) ([]time.Time, error) {
	out := make([]time.Time, len(w))
	for i, s := range w {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("hbasetest: %s: bad time %q", cmd, s)
		}
		if n > 0 {
			out[i] = time.UnixMicro(n)
		}
	}
	return out, nil
}

// Merge merges two adjacent regions, given by encoded name, and returns the encoded name of
// the merged region once it is open.
func (c *Cluster) Merge(ctx context.Context, encodedA, encodedB string) (string, error) {
	w, err := c.do(ctx, "merge", encodedA, encodedB)
	if err != nil {
		return "", err
	}
	if len(w) != 1 {
		return "", fmt.Errorf("hbasetest: merge: unexpected answer %q", strings.Join(w, " "))
	}
	return w[0], nil
}

// Move moves a region to the region server with the given index and waits until it is open
// there. encodedName may be a secondary replica's (Replica.EncodedName): that replica alone
// moves, and hbase:meta's column for it names the new server once it is open. HBase moves a
// replica where it is told, even onto a server that holds another replica of the region.
func (c *Cluster) Move(ctx context.Context, encodedName string, server int) error {
	_, err := c.MoveTimed(ctx, encodedName, server)
	return err
}

// MoveTimed is Move, and tells when the region stopped serving on its old server and when it
// opened on the new one, as the servers saw it (Reopen).
func (c *Cluster) MoveTimed(ctx context.Context, encodedName string, server int) (Reopen, error) {
	w, err := c.do(ctx, "move", encodedName, strconv.Itoa(server))
	if err != nil {
		return Reopen{}, err
	}
	if len(w) != 3 {
		return Reopen{}, fmt.Errorf("hbasetest: move: unexpected answer %q", strings.Join(w, " "))
	}
	us, err := parseMicros("move", w)
	if err != nil {
		return Reopen{}, err
	}
	return Reopen{EncodedName: encodedName, Closed: us[0], Opened: us[1], InMeta: us[2]}, nil
}

// MoveAll moves every region off the region server with the given index.
func (c *Cluster) MoveAll(ctx context.Context, server int) error {
	_, err := c.do(ctx, "move-all", strconv.Itoa(server))
	return err
}

// MoveMeta moves hbase:meta to the region server with the given index; a negative index
// moves it to any other live server.
func (c *Cluster) MoveMeta(ctx context.Context, server int) error {
	words := []string{"move-meta"}
	if server >= 0 {
		words = append(words, strconv.Itoa(server))
	}
	_, err := c.do(ctx, words...)
	return err
}

// Balance runs the balancer once and reports whether it ran.
func (c *Cluster) Balance(ctx context.Context) (bool, error) {
	w, err := c.do(ctx, "balance")
	if err != nil {
		return false, err
	}
	return len(w) == 1 && w[0] == "true", nil
}

// KillRS aborts region server index, like a crash. When another region server is live it
// returns once the master has reassigned the dead server's regions.
func (c *Cluster) KillRS(ctx context.Context, index int) error {
	_, err := c.do(ctx, "kill-rs", strconv.Itoa(index))
	return err
}

// StopRS stops region server index cleanly (its regions move first when possible).
func (c *Cluster) StopRS(ctx context.Context, index int) error {
	_, err := c.do(ctx, "stop-rs", strconv.Itoa(index))
	return err
}

// StartRS starts region server index, which must not be running, on its port.
func (c *Cluster) StartRS(ctx context.Context, index int) (Server, error) {
	return c.serverCommand(ctx, index, "start-rs", strconv.Itoa(index))
}

// RestartRS stops region server index and starts it again on the same port with a new
// start code.
func (c *Cluster) RestartRS(ctx context.Context, index int) (Server, error) {
	return c.serverCommand(ctx, index, "restart-rs", strconv.Itoa(index))
}

// KillMaster aborts the master.
func (c *Cluster) KillMaster(ctx context.Context) error {
	_, err := c.do(ctx, "kill-master")
	return err
}

// StopZooKeeper stops the cluster's ZooKeeper while HBase goes on serving, for a while: for
// tests of clients that must not need ZooKeeper (the bootstrap registry). The cluster cannot
// change its topology any more; use it last, or alone. Stop then ends the JVM without
// shutting HBase down in order, which would wait on ZooKeeper.
func (c *Cluster) StopZooKeeper(ctx context.Context) error {
	_, err := c.do(ctx, "stop-zk")
	return err
}

// StartMaster starts a master (after KillMaster) and waits until it is active.
func (c *Cluster) StartMaster(ctx context.Context) (Server, error) {
	return c.serverCommand(ctx, -1, "start-master")
}

func (c *Cluster) serverCommand(ctx context.Context, index int, words ...string) (Server, error) {
	w, err := c.do(ctx, words...)
	if err != nil {
		return Server{}, err
	}
	if len(w) != 2 {
		return Server{}, fmt.Errorf("hbasetest: %s: unexpected answer %q", words[0], strings.Join(w, " "))
	}
	code, err := strconv.ParseInt(w[1], 10, 64)
	if err != nil {
		return Server{}, fmt.Errorf("hbasetest: %s: bad start code %q", words[0], w[1])
	}
	return Server{Index: index, Addr: w[0], StartCode: code, Live: true}, nil
}

// DefaultKDCClockSkew is the allowable clock skew of the secure cluster's KDC until
// SetKDCClockSkew changes it (Kerby's default, the same as MIT's).
const DefaultKDCClockSkew = 300 * time.Second

// KinitOptions shapes the TGT Kinit obtains.
type KinitOptions struct {
	// Lifetime of the TGT, rounded up to whole seconds; 0 means Options.TicketLifetime when
	// set, else a day. The KDC grants any lifetime of at least a few seconds as asked.
	Lifetime time.Duration
	// RenewFor is how long past its start the TGT may be renewed, rounded up to whole
	// seconds; 0 means the KDC's default (two days). Ignored when NotRenewable is set.
	RenewFor time.Duration
	// NotRenewable asks for a TGT that cannot be renewed (its renew-till is its start), so a
	// client holding it can only use it until it ends.
	NotRenewable bool
}

// Ticket describes a TGT that Kinit wrote.
type Ticket struct {
	Principal string    // the client principal, "user@REALM"
	End       time.Time // when the TGT expires
	RenewTill time.Time // until when it may be renewed (zero or at most its start: never)
}

// Kinit logs the cluster's client principal in from its keytab at the cluster's KDC, over
// the network like any client, and writes the TGT to the MIT credential cache file (format
// version 4, as kinit writes it) at ccachePath, replacing it. It needs a secure cluster; a
// relative path is made absolute first, as the launcher need not share the caller's working
// directory. It lets tests use credential-cache clients against the real KDC, with tickets
// as short as they need (a few seconds at least) without a cluster restart.
func (c *Cluster) Kinit(ctx context.Context, ccachePath string, o KinitOptions) (Ticket, error) {
	if o.Lifetime < 0 || o.RenewFor < 0 {
		return Ticket{}, fmt.Errorf("hbasetest: kinit: negative lifetime %v or renewal %v", o.Lifetime, o.RenewFor)
	}
	path, err := filepath.Abs(ccachePath)
	if err != nil {
		return Ticket{}, fmt.Errorf("hbasetest: kinit: %w", err)
	}
	renew := "-1" // Kerby's default
	switch {
	case o.NotRenewable:
		renew = "0"
	case o.RenewFor > 0:
		renew = strconv.FormatInt(ticketLifetimeSeconds(o.RenewFor), 10)
	}
	w, err := c.do(ctx, "kinit", encodeBytes([]byte(path)), strconv.FormatInt(ticketLifetimeSeconds(o.Lifetime), 10), renew)
	if err != nil {
		return Ticket{}, err
	}
	if len(w) != 3 {
		return Ticket{}, fmt.Errorf("hbasetest: kinit: unexpected answer %q", strings.Join(w, " "))
	}
	end, err1 := strconv.ParseInt(w[1], 10, 64)
	renewTill, err2 := strconv.ParseInt(w[2], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return Ticket{}, fmt.Errorf("hbasetest: kinit: unexpected answer %q: %w", strings.Join(w, " "), err)
	}
	t := Ticket{Principal: w[0], End: time.UnixMilli(end)}
	if renewTill > 0 {
		t.RenewTill = time.UnixMilli(renewTill)
	}
	return t, nil
}

// SetKDCClockSkew sets how far a client's clock may be from the KDC's (whole seconds) and
// returns the previous setting. The KDC applies it from its next request on. A negative skew
// makes the KDC reject every client timestamp: a TGS request (a service ticket, or a TGT
// renewal) gets KRB_AP_ERR_SKEW, as from a client whose clock is off. Kerby answers an
// AS request's pre-authentication timestamp outside the skew with KDC_ERR_PREAUTH_FAILED, not
// KRB_AP_ERR_SKEW, so a password or keytab login then fails as if the key were wrong.
//
// The cluster's own servers use the same KDC: while the skew is negative, any new service
// ticket they need fails too. Keep such a window short and restore DefaultKDCClockSkew (for
// example in t.Cleanup) before other tests use the cluster.
func (c *Cluster) SetKDCClockSkew(ctx context.Context, skew time.Duration) (time.Duration, error) {
	if skew%time.Second != 0 {
		return 0, fmt.Errorf("hbasetest: kdc-clockskew: %v is not whole seconds", skew)
	}
	w, err := c.do(ctx, "kdc-clockskew", strconv.FormatInt(int64(skew/time.Second), 10))
	if err != nil {
		return 0, err
	}
	return parseSeconds("kdc-clockskew", w)
}

// KDCClockSkew returns the KDC's allowable clock skew.
func (c *Cluster) KDCClockSkew(ctx context.Context) (time.Duration, error) {
	w, err := c.do(ctx, "kdc-clockskew")
	if err != nil {
		return 0, err
	}
	return parseSeconds("kdc-clockskew", w)
}

func parseSeconds(cmd string, w []string) (time.Duration, error) {
	if len(w) != 1 {
		return 0, fmt.Errorf("hbasetest: %s: unexpected answer %q", cmd, strings.Join(w, " "))
	}
	s, err := strconv.ParseInt(w[0], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("hbasetest: %s: unexpected answer %q", cmd, w[0])
	}
	return time.Duration(s) * time.Second, nil
}
