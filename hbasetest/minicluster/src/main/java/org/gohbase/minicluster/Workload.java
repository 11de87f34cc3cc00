package org.gohbase.minicluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Consistency;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * One block of a PerformanceEvaluation-shaped workload for ClientBench, on PE's table layout:
 * rows are PE's 26-digit zero-padded numbers, one cell info0:0 per row.
 *
 * <pre>
 * work OP TABLE ROWS RANGE SEED N THREADS VALUELEN [WRITEBUFFER] -> OK wallNanos rowsReturned nanos nanos ...
 * </pre>
 *
 * OP is randomRead (a Get of a random row), randomWrite (a Put of VALUELEN bytes into a random
 * row) or scanRange (a scan of the RANGE rows from a random one, as PE's scanRange100 for RANGE
 * 100). Operation i's row is splitmix64(SEED + i) mod ROWS (mod ROWS - RANGE for scanRange), so
 * a Go client given the same numbers does exactly the same work. THREADS threads of a pool kept
 * for the next block share the N operations, thread k taking k, k+THREADS, ..., each with a
 * Table of its own. wallNanos is the block's own time, from before the first operation to after
 * the last, without the exchange on stdin and stdout; rowsReturned counts the rows the reads
 * returned (a Get of a missing row or a short scan is an error: every row was loaded).
 *
 * <p>bufferedRandomWrite and bufferedSequentialWrite are PE's randomWrite and sequentialWrite
 * with --autoFlush=false: each thread writes through a BufferedMutator of its own with a write
 * buffer of WRITEBUFFER bytes (0: the client's default, hbase.client.write.buffer), and closes
 * it (a final flush) before the block ends, so wallNanos covers every Put applied. A nanos entry
 * is then the time of one mutate() call (it blocks only while the buffer is flushed).
 * bufferedSequentialWrite's operation i writes row (SEED + i) mod ROWS.
 *
 * <p>timelineRead is randomRead with Consistency.TIMELINE (the client's primaryCallTimeout,
 * hbase.client.primaryCallTimeout.get, from its configuration); its rowsReturned counts the
 * stale results instead of the rows.
 */
final class Workload {
  static final byte[] FAMILY = {'i', 'n', 'f', 'o', '0'};
  static final byte[] QUALIFIER = {'0'};
  static final int ROW_LENGTH = 26;

  private Workload() {}

  static String run(Connection conn, String[] w, IntFunction<ExecutorService> pools) throws Exception {
    if (w.length != 9 && w.length != 10) {
      throw new IllegalArgumentException("want: work OP TABLE ROWS RANGE SEED N THREADS VALUELEN [WRITEBUFFER]");
    }
    String op = w[1];
    if (!java.util.Set.of("randomRead", "timelineRead", "randomWrite", "scanRange", "bufferedRandomWrite", "bufferedSequentialWrite").contains(op)) {
      throw new IllegalArgumentException("unknown workload " + op);
    }
    long writeBuffer = w.length == 10 ? Long.parseLong(w[9]) : 0;
    TableName table = TableName.valueOf(w[2]);
    long rows = Long.parseLong(w[3]);
    int range = Integer.parseInt(w[4]);
    long seed = Long.parseLong(w[5]);
    int n = Integer.parseInt(w[6]);
    int threads = Math.max(1, Integer.parseInt(w[7]));
    byte[] value = new byte[Integer.parseInt(w[8])];
    java.util.Arrays.fill(value, (byte) 'v');
    long[] nanos = new long[n];
    AtomicLong returned = new AtomicLong();
    long t0 = System.nanoTime();
    if (op.startsWith("buffered")) {
      // The same shape, each part with a BufferedMutator of its own instead of a Table.
      boolean sequential = op.equals("bufferedSequentialWrite");
      List<Future<Void>> parts = new ArrayList<>();
      ExecutorService pool = threads == 1 ? null : pools.apply(threads);
      for (int k = 0; k < threads; k++) {
        int first = k;
        java.util.concurrent.Callable<Void> c = () -> {
          buffered(conn, table, sequential, rows, seed, value, writeBuffer, first, threads, nanos);
          return null;
        };
        if (pool == null) {
          c.call();
        } else {
          parts.add(pool.submit(c));
        }
      }
      for (Future<Void> f : parts) {
        f.get();
      }
    } else if (threads == 1) {
      returned.addAndGet(part(conn, table, op, rows, range, seed, value, 0, 1, nanos));
    } else {
      ExecutorService pool = pools.apply(threads);
      List<Future<Void>> parts = new ArrayList<>();
      for (int k = 0; k < threads; k++) {
        int first = k;
        parts.add(pool.submit(() -> {
          returned.addAndGet(part(conn, table, op, rows, range, seed, value, first, threads, nanos));
          return null;
        }));
      }
      for (Future<Void> f : parts) {
        f.get();
      }
    }
    long wall = System.nanoTime() - t0;
    StringBuilder sb = new StringBuilder(32 + n * 8).append("OK ").append(wall).append(' ').append(returned.get());
    for (long d : nanos) {
      sb.append(' ').append(d);
    }
    return sb.toString();
  }

  /** Runs operations first, first+step, ... of a block; returns the rows its reads returned. */
  private static long part(Connection conn, TableName table, String op, long rows, int range, long seed,
      byte[] value, int first, int step, long[] nanos) throws Exception {
    long returned = 0;
    try (Table t = conn.getTable(table)) {
      for (int i = first; i < nanos.length; i += step) {
        long t0 = System.nanoTime();
        switch (op) {
          case "randomRead": {
            Result r = t.get(new Get(key(Long.remainderUnsigned(mix(seed + i), rows))));
            if (r.isEmpty()) {
              throw new IllegalStateException("randomRead: row not found");
            }
            returned++;
            break;
          }
          case "timelineRead": {
            Get g = new Get(key(Long.remainderUnsigned(mix(seed + i), rows)));
            g.setConsistency(Consistency.TIMELINE);
            Result r = t.get(g);
            if (r.isEmpty()) {
              throw new IllegalStateException("timelineRead: row not found");
            }
            if (r.isStale()) {
              returned++;
            }
            break;
          }
          case "randomWrite":
            t.put(new Put(key(Long.remainderUnsigned(mix(seed + i), rows))).addColumn(FAMILY, QUALIFIER, value));
            break;
          default: {
            long start = Long.remainderUnsigned(mix(seed + i), rows - range);
            Scan scan = new Scan().withStartRow(key(start)).withStopRow(key(start + range));
            int got = 0;
            try (ResultScanner rs = t.getScanner(scan)) {
              for (Result r : rs) {
                got++;
              }
            }
            if (got != range) {
              throw new IllegalStateException("scanRange: " + got + " rows, want " + range);
            }
            returned += got;
          }
        }
        nanos[i] = System.nanoTime() - t0;
      }
    }
    return returned;
  }

  /** Writes operations first, first+step, ... of a block through a BufferedMutator of its own. */
  private static void buffered(Connection conn, TableName table, boolean sequential, long rows, long seed,
      byte[] value, long writeBuffer, int first, int step, long[] nanos) throws Exception {
    BufferedMutatorParams params = new BufferedMutatorParams(table);
    if (writeBuffer > 0) {
      params.writeBufferSize(writeBuffer);
    }
    try (BufferedMutator m = conn.getBufferedMutator(params)) {
      for (int i = first; i < nanos.length; i += step) {
        long row = sequential ? Long.remainderUnsigned(seed + i, rows) : Long.remainderUnsigned(mix(seed + i), rows);
        long t0 = System.nanoTime();
        m.mutate(new Put(key(row)).addColumn(FAMILY, QUALIFIER, value));
        nanos[i] = System.nanoTime() - t0;
      }
    }
  }

  /** splitmix64's finaliser: the same in Go (hbasetest.WorkloadRow). */
  static long mix(long x) {
    long z = x + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** PE's row key: the number in ROW_LENGTH decimal digits, zero-padded. */
  static byte[] key(long row) {
    byte[] b = new byte[ROW_LENGTH];
    for (int i = ROW_LENGTH - 1; i >= 0; i--) {
      b[i] = (byte) ('0' + row % 10);
      row /= 10;
    }
    return b;
  }
}
