package org.gohbase.minicluster;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The smallest Java client program that does what one hbasectl run of the benchmark does, run
 * as a JVM of its own: the floor under any shell on the JVM.
 *
 * <pre>
 * ShellBench ZKHOST:PORT get TABLE ROW        one Get, its cells printed
 * ShellBench ZKHOST:PORT scan TABLE N         a Scan of the first N rows, printed
 * ShellBench ZKHOST:PORT runbook TABLE N      N/2 Puts of rows r0.. then N/2 Gets of them,
 *                                             one call each, as a runbook of N lines does
 * </pre>
 */
public final class ShellBench {
  private ShellBench() {}

  public static void main(String[] argv) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    int colon = argv[0].lastIndexOf(':');
    conf.set("hbase.zookeeper.quorum", argv[0].substring(0, colon));
    conf.set("hbase.zookeeper.property.clientPort", argv[0].substring(colon + 1));
    byte[] f = Bytes.toBytes("f");
    byte[] q = Bytes.toBytes("q");
    StringBuilder out = new StringBuilder();
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Table t = conn.getTable(TableName.valueOf(argv[2]))) {
      switch (argv[1]) {
        case "get":
          print(out, t.get(new Get(Bytes.toBytes(argv[3]))));
          break;
        case "scan":
          try (ResultScanner rs = t.getScanner(new Scan().setLimit(Integer.parseInt(argv[3])))) {
            for (Result r : rs) {
              print(out, r);
            }
          }
          break;
        case "runbook": {
          int n = Integer.parseInt(argv[3]) / 2;
          for (int i = 0; i < n; i++) {
            t.put(new Put(Bytes.toBytes("r" + i)).addColumn(f, q, Bytes.toBytes("v" + i)));
          }
          for (int i = 0; i < n; i++) {
            print(out, t.get(new Get(Bytes.toBytes("r" + i))));
          }
          break;
        }
        default:
          throw new IllegalArgumentException("want get, scan or runbook, not " + argv[1]);
      }
    }
    // The client's threads (ZooKeeper, netty) would keep the JVM a while; a program exits.
    System.exit(0);
  }

  private static void print(StringBuilder out, Result r) {
    out.setLength(0);
    for (Cell c : r.rawCells()) {
      out.append(' ').append(Bytes.toStringBinary(CellUtil.cloneRow(c))).append(" column=")
        .append(Bytes.toStringBinary(CellUtil.cloneFamily(c))).append(':')
        .append(Bytes.toStringBinary(CellUtil.cloneQualifier(c))).append(", timestamp=")
        .append(c.getTimestamp()).append(", value=")
        .append(Bytes.toStringBinary(CellUtil.cloneValue(c))).append('\n');
    }
    System.out.print(out);
    System.out.flush();
  }
}
