package main

// HBase's PerformanceEvaluation (PE, hbase-diagnostics' PerformanceEvaluation.java) lays its
// table out as: table TestTable, family info0 (info + family index), qualifier 0, row keys
// of 26 zero-padded decimal digits, values of 1000 bytes, 1 GiB of rows per client
// (1048576), and with --presplit=N split keys at multiples of rows/N. -pe takes that layout,
// so hbase-bench reads a table PE wrote and PE reads one hbase-bench wrote.
const (
	peTable     = "TestTable"
	peFamily    = "info0"
	peQualifier = "0"
	peValueSize = 1000
	peRows      = 1024 * 1024 * 1000 / peValueSize // PE's DEFAULT_ROWS_PER_GB
)

// PE's CAS tests write to a column named after the test class, in family info0.
var (
	incrementQualifier      = []byte("IncrementTest")
	checkAndMutateQualifier = []byte("CheckAndMutateTest")
)

// peDefaults applies PE's layout to the flags the command line did not set.
func peDefaults(c *config, set map[string]bool) {
	if !set["table"] {
		c.Table = peTable
	}
	if !set["family"] {
		c.Family = peFamily
	}
	if !set["qualifier"] {
		c.Qualifier = peQualifier
	}
	if !set["value-size"] {
		c.ValueSize = peValueSize
	}
	if !set["rows"] {
		c.Rows = peRows
	}
}

// peSplitKeys is PE's getSplits: regions-1 keys at jump, 2*jump, ... with jump = rows/regions.
func peSplitKeys(rows int64, regions, keySize int) [][]byte {
	jump := rows / int64(regions)
	keys := make([][]byte, 0, regions-1)
	for i := range int64(regions - 1) {
		keys = append(keys, appendKey(nil, uint64(jump*(i+1)), keySize))
	}
	return keys
}

// tableSplits is where a table this run creates (-local, -create) is split.
func (c *config) tableSplits() ([][]byte, error) {
	if c.PE && c.Regions > 1 {
		return peSplitKeys(c.Rows, c.Regions, c.KeySize), nil
	}
	return splitKeys(c.Rows, c.Regions, c.KeySize)
}
