package main

import (
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
)

// workloadHelp describes each workload for -h, in allWorkloads' order.
var workloadHelp = map[workloadKind]string{
	seqWrite:       "Put of rows 0, 1, 2, ... (all workers share the sequence, wrapping at -rows); alias seqwrite",
	randWrite:      "Put of a random row; alias randwrite",
	randRead:       "Get of a random row; alias randread",
	scanRange10:    "scan from a random row r to r+10 (stop row excluded), as PE: 10 rows, fewer near the end",
	scanRange100:   "the same, 100 rows",
	scanRange1000:  "the same, 1000 rows",
	seqScan:        "sequential scan: each worker scans its share of the rows (-caching rows per RPC), one row per operation, and starts over at its end",
	increment:      "Increment family:IncrementTest by 1 on rows 0, 1, 2, ... in every worker at once (workers contend, as PE)",
	checkAndMutate: "Put family:CheckAndMutateTest=<row>, then CheckAndMutate: if it equals <row>, Put it again (one operation, two RPCs, as PE)",
	mixed:          "Get (-read-ratio of the operations) or Put of a random row",
	filterScan:     "scan of the whole table with a SingleColumnValueFilter for a random value (the servers read every row, return none), as PE",
	randomSeekScan: "-scan-rows rows from a random row (hbase-bench's scan before it took PE's names)",
}

// printUsage is -h: what the command does, examples, every flag, every workload.
func printUsage(fs *flag.FlagSet, out io.Writer) {
	fmt.Fprintf(out, `hbase-bench: load an HBase table with HBase PerformanceEvaluation's workloads and report
latency percentiles, throughput, client CPU and allocations per operation.

  hbase-bench -local -workload randomWrite,randomRead,scanRange100 -duration 20s
  hbase-bench -zk 127.0.0.1:2181 -pe -workload randomRead,scanRange100 -duration 30s   # a table PE loaded
  hbase-bench -zk 127.0.0.1:2181 -table t -create -workload randomRead -rate 5000 -json > run.json
  hbase-bench -compare -plot runs.svg before.json after.json
  hbase-bench -local -compare-security -duration 20s
  hbase-bench -local -workload randomWrite -buffered -write-buffer 2MiB   # PE's --autoFlush=false

Exit status: 0 when every operation succeeded; 1 when some failed or the run broke off;
2 for a bad command line, an unreachable cluster, a missing table or unreadable -compare files.

Flags:
`)
	fs.SetOutput(out)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	fmt.Fprintf(out, "\nWorkloads (-workload; PerformanceEvaluation's names, case-insensitive):\n")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, w := range allWorkloads {
		fmt.Fprintf(tw, "  %s\t%s\n", w, workloadHelp[w])
	}
	tw.Flush()
}
