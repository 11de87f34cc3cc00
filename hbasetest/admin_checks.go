package hbasetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// What the standard Java Admin says about a cluster, for tests comparing an admin client with
// it: the same question asked through HBase's own client in the launcher's JVM.

// JavaDescribe returns the Java Admin's getDescriptor of table: "T:KEY" for each value of the
// table descriptor, "F:family:KEY" for each value of a family's, and what the descriptors'
// getters give, "TG:Getter" and "FG:family:Getter" (MaxFileSize, ReadOnly, Durability,
// Coprocessors as "jar|class|priority|{k=v}" joined by ';'...; for families MaxVersions,
// TimeToLive, KeepDeletedCells, BlockCache, Scope, Mob...), in Java's formatting.
func (c *Cluster) JavaDescribe(ctx context.Context, table string) (map[string]string, error) {
	return c.javaKV(ctx, "admin-describe", table)
}

// JavaAdminState returns the Java Admin's switches ("split", "merge", "catalogJanitor",
// "cleanerChore", "normalizer", "snapshotCleanup": "true" or "false"), its decommissioned
// servers ("decommissioned": "host,port,startcode" joined by ';'), and, when table is not
// empty, the table's "compactionState" (NONE, MINOR, MAJOR, MAJOR_AND_MINOR) and
// "lastMajorCompaction" (milliseconds since the epoch, 0 for none).
func (c *Cluster) JavaAdminState(ctx context.Context, table string) (map[string]string, error) {
	if table == "" {
		return c.javaKV(ctx, "admin-state")
	}
	return c.javaKV(ctx, "admin-state", table)
}

// javaKV runs a command answering "key=hexvalue" words.
func (c *Cluster) javaKV(ctx context.Context, words ...string) (map[string]string, error) {
	w, err := c.do(ctx, words...)
	if err != nil {
		return nil, err
	}
	return kvWords(words[0], w)
}

// kvWords reads a command's "key=hexvalue" words.
func kvWords(cmd string, w []string) (map[string]string, error) {
	out := make(map[string]string, len(w))
	for _, kv := range w {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("hbasetest: %s: bad word %q", cmd, truncate(kv, 40))
		}
		b, err := decodeBytes(v)
		if err != nil {
			return nil, fmt.Errorf("hbasetest: %s: %s: %w", cmd, k, err)
		}
		out[k] = string(b)
	}
	return out, nil
}

// JavaSecurityCapabilities returns the Java Admin's getSecurityCapabilities: the names of
// the security features the cluster runs with (SIMPLE_AUTHENTICATION, AUTHORIZATION...).
func (c *Cluster) JavaSecurityCapabilities(ctx context.Context) ([]string, error) {
	return c.do(ctx, "admin-security-capabilities")
}

// ArchivedFiles returns how many files the HFile archive holds for table: those a drop (or a
// compaction) moved there, until the master's cleaner deletes them (Admin.RunCleanerChore).
func (c *Cluster) ArchivedFiles(ctx context.Context, table string) (int, error) {
	w, err := c.do(ctx, "admin-archived-files "+table)
	if err != nil {
		return 0, err
	}
	if len(w) != 1 {
		return 0, fmt.Errorf("hbasetest: admin-archived-files: %d words, want 1", len(w))
	}
	return strconv.Atoi(w[0])
}

// JavaProcedures returns the Java Admin's getProcedures: the JSON it makes of the master's
// procedures.
func (c *Cluster) JavaProcedures(ctx context.Context) (string, error) {
	return c.javaText(ctx, "admin-procedures")
}

// JavaLocks returns the Java Admin's getLocks: the JSON it makes of the master's locks.
func (c *Cluster) JavaLocks(ctx context.Context) (string, error) {
	return c.javaText(ctx, "admin-locks")
}

func (c *Cluster) javaText(ctx context.Context, cmd string) (string, error) {
	w, err := c.do(ctx, cmd)
	if err != nil {
		return "", err
	}
	if len(w) != 1 {
		return "", fmt.Errorf("hbasetest: %s: %d words, want 1", cmd, len(w))
	}
	b, err := decodeBytes(w[0])
	return string(b), err
}

// JavaSnapshot is a snapshot as the Java Admin's listSnapshots gives it.
type JavaSnapshot struct {
	Name, Table string
	Type        string // FLUSH, SKIPFLUSH, DISABLED
	Owner       string
	TTL         time.Duration
	Created     time.Time
}

// JavaSnapshots returns the Java Admin's listSnapshots.
func (c *Cluster) JavaSnapshots(ctx context.Context) ([]JavaSnapshot, error) {
	w, err := c.do(ctx, "admin-snapshots")
	if err != nil {
		return nil, err
	}
	var out []JavaSnapshot
	for _, s := range w {
		f := strings.Split(s, "/")
		if len(f) != 6 {
			return nil, fmt.Errorf("hbasetest: admin-snapshots: bad word %q", truncate(s, 40))
		}
		var b [3][]byte
		for i, j := range []int{0, 1, 3} {
			if b[i], err = decodeBytes(f[j]); err != nil {
				return nil, fmt.Errorf("hbasetest: admin-snapshots: %w", err)
			}
		}
		ttl, err1 := strconv.ParseInt(f[4], 10, 64)
		ms, err2 := strconv.ParseInt(f[5], 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("hbasetest: admin-snapshots: %w", err)
		}
		out = append(out, JavaSnapshot{Name: string(b[0]), Table: string(b[1]), Type: f[2], Owner: string(b[2]),
			TTL: time.Duration(ttl) * time.Second, Created: time.UnixMilli(ms)})
	}
	return out, nil
}

// JavaSplitKeys returns the split keys the Java Admin's createTable(desc, start, end, n)
// creates a table with (HBase's Bytes.split).
func (c *Cluster) JavaSplitKeys(ctx context.Context, start, end []byte, n int) ([][]byte, error) {
	w, err := c.do(ctx, "admin-split-keys", encodeBytes(start), encodeBytes(end), strconv.Itoa(n))
	if err != nil {
		return nil, err
	}
	out := make([][]byte, 0, len(w))
	for _, k := range w {
		b, err := decodeBytes(k)
		if err != nil {
			return nil, fmt.Errorf("hbasetest: admin-split-keys: %w", err)
		}
		out = append(out, b)
	}
	return out, nil
}

// JavaMethod is a public method of a Java client interface.
type JavaMethod struct {
	Interface  string // "Admin", "AsyncAdmin"
	Name       string // overloads are one method
	Deprecated bool   // every overload is @Deprecated
}

// JavaAdminMethods lists the public methods of HBase's Java Admin and AsyncAdmin interfaces
// (of hbaseVersion, empty for DefaultHBaseVersion) by reflection in a JVM of the launcher's
// class path. It starts no cluster, but builds the launcher when needed.
func JavaAdminMethods(ctx context.Context, hbaseVersion string) ([]JavaMethod, error) {
	o := Options{HBaseVersion: hbaseVersion}.withDefaults()
	l, err := buildLauncher(ctx, o.HBaseVersion, o.Logger)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, l.java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", l.classpath,
		"org.gohbase.minicluster.AdminMethods")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("hbasetest: listing the Java Admin's methods: %w\n%s", err, tailLines(stderr.String(), 20))
	}
	var out []JavaMethod
	for line := range strings.Lines(stdout.String()) {
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, fmt.Errorf("hbasetest: listing the Java Admin's methods: bad line %q", truncate(line, 80))
		}
		out = append(out, JavaMethod{Interface: f[0], Name: f[1], Deprecated: f[2] == "deprecated"})
	}
	if len(out) == 0 {
		return nil, errors.New("hbasetest: listing the Java Admin's methods: no method")
	}
	return out, nil
}

// liveSiteDir is the directory of the configuration file the cluster's servers read again on
// a configuration reload (SetLiveSite); it is on the launcher's class path.
func (c *Cluster) liveSiteDir() (string, error) {
	d := filepath.Join(c.Dir, "live-site")
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", fmt.Errorf("hbasetest: %w", err)
	}
	return d, nil
}

// SetLiveSite sets key to value ("" removes it) in a configuration file that every server of
// the cluster has among its configuration resources but reads again only when told to (an
// admin client's update_config, HBase's Admin.updateConfiguration): a test changes a setting
// there, then checks that the servers it reloaded, and only those, see it (ServerConf).
func (c *Cluster) SetLiveSite(ctx context.Context, key, value string) error {
	if key == "" || strings.ContainsAny(key, " \t\n") {
		return fmt.Errorf("hbasetest: live-site: bad key %q", key)
	}
	words := []string{"live-site", key}
	if value != "" {
		words = append(words, encodeBytes([]byte(value)))
	}
	_, err := c.do(ctx, words...)
	return err
}

// ServerConf returns key of the live configuration of region server index, or of the active
// master when index is -1, and whether it is set.
func (c *Cluster) ServerConf(ctx context.Context, index int, key string) (string, bool, error) {
	who := "master"
	if index >= 0 {
		who = strconv.Itoa(index)
	}
	w, err := c.do(ctx, "server-conf", who, key)
	if err != nil {
		return "", false, err
	}
	if len(w) != 1 {
		return "", false, fmt.Errorf("hbasetest: server-conf: %d words, want 1", len(w))
	}
	if w[0] == "-" {
		return "", false, nil
	}
	b, err := decodeBytes(w[0])
	return string(b), err == nil, err
}

// ServerWALs returns the file names of the current write-ahead logs of region server index:
// a WAL roll (an admin client's wal_roll) gives each a new one.
func (c *Cluster) ServerWALs(ctx context.Context, index int) ([]string, error) {
	w, err := c.do(ctx, "server-wals", strconv.Itoa(index))
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(w))
	for _, h := range w {
		b, err := decodeBytes(h)
		if err != nil {
			return nil, fmt.Errorf("hbasetest: server-wals: %w", err)
		}
		out = append(out, string(b))
	}
	return out, nil
}

// MasterRegionState returns the active master's state of a region (encoded name): "OPEN",
// "CLOSED", "OFFLINE"... and the server it puts the region on ("host,port,startcode", "" for
// none); known is false when the master has no state of the region.
func (c *Cluster) MasterRegionState(ctx context.Context, encoded string) (state, server string, known bool, err error) {
	w, err := c.do(ctx, "region-state", encoded)
	if err != nil {
		return "", "", false, err
	}
	if len(w) == 1 && w[0] == "-" {
		return "", "", false, nil
	}
	kv, err := kvWords("region-state", w)
	if err != nil {
		return "", "", false, err
	}
	return kv["state"], kv["server"], true, nil
}

// HoldTableLock has the active master take an exclusive lock of table (a LockProcedure, as
// HBase's lock service does) and keep it until ReleaseTableLock: the table's procedures wait
// for it meanwhile, listed among the lock's waiters.
func (c *Cluster) HoldTableLock(ctx context.Context, table string) error {
	_, err := c.do(ctx, "hold-table-lock", table)
	return err
}

// ReleaseTableLock releases the lock HoldTableLock took.
func (c *Cluster) ReleaseTableLock(ctx context.Context, table string) error {
	_, err := c.do(ctx, "release-table-lock", table)
	return err
}

// JavaServerRegions returns the Java Admin's getRegions of a region server
// ("host,port,startcode"): the full names of the regions it says it has open.
func (c *Cluster) JavaServerRegions(ctx context.Context, server string) ([][]byte, error) {
	w, err := c.do(ctx, "admin-server-regions", server)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, 0, len(w))
	for _, h := range w {
		b, err := decodeBytes(h)
		if err != nil {
			return nil, fmt.Errorf("hbasetest: admin-server-regions: %w", err)
		}
		out = append(out, b)
	}
	return out, nil
}
