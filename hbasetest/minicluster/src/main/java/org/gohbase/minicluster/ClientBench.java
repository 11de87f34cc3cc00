package org.gohbase.minicluster;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 * The standard HBase client as a benchmark peer: a JVM of its own that runs blocks of
 * sequential Gets or Puts when asked on stdin, so that a Go benchmark can interleave it with
 * go-hbase against the same cluster. Rows are "row%05d" of (start + i) mod 500, cells f:q.
 * Takes ClientArgs' command line, prints "READY" once connected, then answers each line:
 *
 * <pre>
 * get TABLE START N THREADS            -> OK nanos nanos ...   (one latency per Get, in order)
 * put TABLE START N THREADS VALUELEN   -> OK nanos nanos ...
 * scan TABLE BATCH MAXRESULTSIZE ALLOWPARTIAL -> OK row:cells[+] ...   (one per Result)
 * work OP TABLE ROWS RANGE SEED N THREADS VALUELEN -> OK wallNanos rows nanos ...  (Workload)
 * pscan TABLE THREADS CACHING          -> OK wallNanos rows   (every region scanned, THREADS at once)
 * anything that fails                  -> ERR reason
 * </pre>
 *
 * With THREADS above 1, that many threads of a pool kept for the next block share the N
 * operations, thread k taking operations k, k+THREADS, ..., each with a Table of its own
 * (Table instances are not thread-safe).
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
    Map<Integer, ExecutorService> pools = new HashMap<>();
    for (String line; (line = in.readLine()) != null; ) {
      try {
        String[] w = line.trim().split(" ");
        if (w[0].equals("scan")) {
          out.println(scanShapes(conn, w));
          out.flush();
          continue;
        }
        if (w[0].equals("pscan")) {
          out.println(parallelScan(conn, w, k -> pools.computeIfAbsent(k, Executors::newFixedThreadPool)));
          out.flush();
          continue;
        }
        if (w[0].equals("work")) {
          out.println(Workload.run(conn, w, k -> pools.computeIfAbsent(k, Executors::newFixedThreadPool)));
          out.flush();
          continue;
        }
        boolean put = w[0].equals("put");
        if (!(put || w[0].equals("get")) || w.length != (put ? 6 : 5)) {
          throw new IllegalArgumentException("want: get TABLE START N THREADS | put TABLE START N THREADS VALUELEN, got " + line);
        }
        TableName table = TableName.valueOf(w[1]);
        int start = Integer.parseInt(w[2]);
        int n = Integer.parseInt(w[3]);
        int threads = Integer.parseInt(w[4]);
        byte[] value = new byte[put ? Integer.parseInt(w[5]) : 0];
        java.util.Arrays.fill(value, (byte) 'v');
        long[] nanos = new long[n];
        if (threads <= 1) {
          run(conn, table, put, value, start, 0, 1, nanos);
        } else {
          ExecutorService pool = pools.computeIfAbsent(threads, Executors::newFixedThreadPool);
          List<Future<Void>> parts = new ArrayList<>();
          for (int k = 0; k < threads; k++) {
            int first = k;
            parts.add(pool.submit(() -> {
              run(conn, table, put, value, start, first, threads, nanos);
              return null;
            }));
          }
          for (Future<Void> f : parts) {
            f.get();
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

  /**
   * Scans a whole table with Scan.setBatch(BATCH) (0: none), setMaxResultSize(MAXRESULTSIZE)
   * (0: the default) and setAllowPartialResults(ALLOWPARTIAL) and describes each Result the
   * client returned as row:cells, with "+" when it may have more cells of its row: the shapes
   * a Go client must reproduce.
   */
  private static String scanShapes(Connection conn, String[] w) throws Exception {
    if (w.length != 5) {
      throw new IllegalArgumentException("want: scan TABLE BATCH MAXRESULTSIZE ALLOWPARTIAL");
    }
    Scan scan = new Scan();
    int batch = Integer.parseInt(w[2]);
    long maxResultSize = Long.parseLong(w[3]);
    if (batch > 0) {
      scan.setBatch(batch);
    }
    if (maxResultSize > 0) {
      scan.setMaxResultSize(maxResultSize);
    }
    scan.setAllowPartialResults(Boolean.parseBoolean(w[4]));
    StringBuilder sb = new StringBuilder("OK");
    try (Table t = conn.getTable(TableName.valueOf(w[1])); ResultScanner rs = t.getScanner(scan)) {
      for (Result r : rs) {
        sb.append(' ').append(Bytes.toStringBinary(r.getRow())).append(':').append(r.size());
        if (r.mayHaveMoreCellsInRow()) {
          sb.append('+');
        }
      }
    }
    return sb.toString();
  }

  /**
   * Scans a whole table as a batch job does with the Java client: one scan per region (its
   * start and end keys from the table's RegionLocator), THREADS of them at a time on a pool,
   * each with setCaching(CACHING) (0: the default) and a Table of its own, rows counted.
   * Answers the wall time from the region list to the last row, and the rows.
   */
  private static String parallelScan(Connection conn, String[] w,
      java.util.function.IntFunction<ExecutorService> pools) throws Exception {
    if (w.length != 4) {
      throw new IllegalArgumentException("want: pscan TABLE THREADS CACHING");
    }
    TableName table = TableName.valueOf(w[1]);
    int threads = Integer.parseInt(w[2]);
    int caching = Integer.parseInt(w[3]);
    ExecutorService pool = pools.apply(threads);
    long t0 = System.nanoTime();
    org.apache.hadoop.hbase.util.Pair<byte[][], byte[][]> keys;
    try (org.apache.hadoop.hbase.client.RegionLocator loc = conn.getRegionLocator(table)) {
      keys = loc.getStartEndKeys();
    }
    List<Future<Long>> parts = new ArrayList<>();
    for (int i = 0; i < keys.getFirst().length; i++) {
      byte[] start = keys.getFirst()[i];
      byte[] end = keys.getSecond()[i];
      parts.add(pool.submit(() -> {
        Scan scan = new Scan().withStartRow(start).withStopRow(end);
        if (caching > 0) {
          scan.setCaching(caching);
        }
        long rows = 0;
        try (Table t = conn.getTable(table); ResultScanner rs = t.getScanner(scan)) {
          for (Result r = rs.next(); r != null; r = rs.next()) {
            rows++;
          }
        }
        return rows;
      }));
    }
    long rows = 0;
    for (Future<Long> f : parts) {
      rows += f.get();
    }
    return "OK " + (System.nanoTime() - t0) + " " + rows;
  }

  /** Runs operations first, first+step, ... of a block, writing their latencies into nanos. */
  private static void run(Connection conn, TableName table, boolean put, byte[] value, int start,
      int first, int step, long[] nanos) throws Exception {
    byte[] f = Bytes.toBytes("f");
    byte[] q = Bytes.toBytes("q");
    try (Table t = conn.getTable(table)) {
      for (int i = first; i < nanos.length; i += step) {
        byte[] row = row(start + i);
        long t0 = System.nanoTime();
        if (put) {
          t.put(new Put(row).addColumn(f, q, value));
        } else {
          t.get(new Get(row));
        }
        nanos[i] = System.nanoTime() - t0;
      }
    }
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row%05d", i % 500));
  }
}
