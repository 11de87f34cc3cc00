package hbasetest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
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
// empty table lists the regions of every table, hbase:meta included.
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

// CreateTable creates table with the given column families, pre-split at splitKeys.
func (c *Cluster) CreateTable(ctx context.Context, table string, families []string, splitKeys [][]byte) error {
	if len(families) == 0 {
		return fmt.Errorf("hbasetest: create %s: no column family", table)
	}
	fams := make([]string, len(families))
	for i, f := range families {
		fams[i] = encodeBytes([]byte(f))
	}
	words := []string{"create", table, strings.Join(fams, ",")}
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
	w, err := c.do(ctx, "split", table, encodeBytes(splitKey))
	if err != nil {
		return "", "", err
	}
	if len(w) != 2 {
		return "", "", fmt.Errorf("hbasetest: split: unexpected answer %q", strings.Join(w, " "))
	}
	return w[0], w[1], nil
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
// there.
func (c *Cluster) Move(ctx context.Context, encodedName string, server int) error {
	_, err := c.do(ctx, "move", encodedName, strconv.Itoa(server))
	return err
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
