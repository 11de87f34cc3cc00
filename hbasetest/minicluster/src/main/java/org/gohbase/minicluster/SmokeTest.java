package org.gohbase.minicluster;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A stand-alone client that proves a running cluster works with the standard HBase client:
 * create a table, put, get, scan, increment, delete, drop. In secure mode it logs in from the
 * client keytab. Prints "SMOKE OK ..." and exits 0, or prints "SMOKE FAIL reason" and exits 1.
 *
 * <pre>
 * SmokeTest --zk 127.0.0.1:2181 [--znode /hbase]
 *           [--krb5 krb5.conf --principal client@EXAMPLE.COM --keytab client.keytab
 *            --server-principal hbase/localhost@EXAMPLE.COM --protection privacy|list [--aes]]
 * </pre>
 */
public final class SmokeTest {
  private SmokeTest() {}

  public static void main(String[] argv) {
    try {
      String summary = run(argv);
      System.out.println("SMOKE OK " + summary);
      System.exit(0);
    } catch (Throwable e) {
      e.printStackTrace();
      System.out.println("SMOKE FAIL " + Launcher.oneLine(e));
      System.exit(1);
    }
  }

  private static String run(String[] argv) throws Exception {
    ClientArgs args = new ClientArgs(argv);
    return args.run(() -> {
      try (Connection conn = ConnectionFactory.createConnection(args.conf)) {
        return exercise(conn);
      }
    });
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("check failed: " + what);
    }
  }

  private static String exercise(Connection conn) throws Exception {
    TableName tn = TableName.valueOf("smoke_" + System.currentTimeMillis());
    byte[] f = Bytes.toBytes("f");
    byte[] q = Bytes.toBytes("q");
    try (Admin admin = conn.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(tn)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(f)).build(), new byte[][] {Bytes.toBytes("m")});
      try (Table t = conn.getTable(tn)) {
        byte[] binary = new byte[256];
        for (int i = 0; i < 256; i++) {
          binary[i] = (byte) i;
        }
        t.put(new Put(Bytes.toBytes("a")).addColumn(f, q, Bytes.toBytes("va")));
        t.put(new Put(Bytes.toBytes("z")).addColumn(f, q, binary));
        Result r = t.get(new Get(Bytes.toBytes("a")));
        check(Bytes.equals(r.getValue(f, q), Bytes.toBytes("va")), "get a");
        r = t.get(new Get(Bytes.toBytes("z")));
        check(Bytes.equals(r.getValue(f, q), binary), "get z (binary value)");
        int rows = 0;
        try (ResultScanner s = t.getScanner(new Scan())) {
          for (Result ignored : s) {
            rows++;
          }
        }
        check(rows == 2, "scan saw " + rows + " rows, want 2");
        long v = 0;
        for (int i = 0; i < 3; i++) {
          v = t.incrementColumnValue(Bytes.toBytes("counter"), f, q, 5);
        }
        check(v == 15, "increment gave " + v + ", want 15");
        t.delete(new Delete(Bytes.toBytes("a")));
        check(t.get(new Get(Bytes.toBytes("a"))).isEmpty(), "row a still there after delete");
      } finally {
        admin.disableTable(tn);
        admin.deleteTable(tn);
      }
    }
    return "table=" + tn.getNameAsString() + " put get scan increment delete";
  }
}
