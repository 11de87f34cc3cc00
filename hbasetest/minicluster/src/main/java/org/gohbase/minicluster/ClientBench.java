package org.gohbase.minicluster;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The standard HBase client as a benchmark peer: a JVM of its own that runs blocks of
 * sequential Gets or Puts when asked on stdin, so that a Go benchmark can interleave it with
 * go-hbase against the same cluster. Rows are "row%05d" of (start + i) mod 500, cells f:q.
 * Takes ClientArgs' command line, prints "READY" once connected, then answers each line:
 *
 * <pre>
 * get TABLE START N             -> OK nanos nanos ...   (one latency per Get, in order)
 * put TABLE START N VALUELEN    -> OK nanos nanos ...
 * anything that fails           -> ERR reason
 * </pre>
 *
 * It exits when stdin ends.
 */
public final class ClientBench {
  private ClientBench() {}

  public static void main(String[] argv) throws Exception {
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    ClientArgs args = new ClientArgs(argv);
    args.run(() -> {
      try (Connection conn = ConnectionFactory.createConnection(args.conf)) {
        out.println("READY");
        out.flush();
        serve(conn, out);
      }
      return null;
    });
    System.exit(0);
  }

  private static void serve(Connection conn, PrintStream out) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    byte[] f = Bytes.toBytes("f");
    byte[] q = Bytes.toBytes("q");
    for (String line; (line = in.readLine()) != null; ) {
      try {
        String[] w = line.trim().split(" ");
        if (w.length < 4) {
          throw new IllegalArgumentException("want: get|put TABLE START N [VALUELEN], got " + line);
        }
        int start = Integer.parseInt(w[2]);
        int n = Integer.parseInt(w[3]);
        long[] nanos = new long[n];
        try (Table t = conn.getTable(TableName.valueOf(w[1]))) {
          switch (w[0]) {
            case "get":
              for (int i = 0; i < n; i++) {
                byte[] row = row(start + i);
                long t0 = System.nanoTime();
                t.get(new Get(row));
                nanos[i] = System.nanoTime() - t0;
              }
              break;
            case "put":
              byte[] value = new byte[Integer.parseInt(w[4])];
              java.util.Arrays.fill(value, (byte) 'v');
              for (int i = 0; i < n; i++) {
                byte[] row = row(start + i);
                long t0 = System.nanoTime();
                t.put(new Put(row).addColumn(f, q, value));
                nanos[i] = System.nanoTime() - t0;
              }
              break;
            default:
              throw new IllegalArgumentException("unknown command " + w[0]);
          }
        }
        StringBuilder sb = new StringBuilder(8 + n * 7).append("OK");
        for (long d : nanos) {
          sb.append(' ').append(d);
        }
        out.println(sb);
      } catch (Exception e) {
        out.println("ERR " + Launcher.oneLine(e));
      }
      out.flush();
    }
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row%05d", i % 500));
  }
}
