package org.gohbase.minicluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.ipc.RpcCall;
import org.apache.hadoop.hbase.ipc.RpcServer;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;

/**
 * A region observer that records, for each Get, mutation and scan opened on the regions of the
 * tables it is loaded on (create-recorded), what the RPC carried as HBase 2.6 exposes it to
 * server-side code: the RequestHeader's priority, the priority the server gave the call, the
 * request attributes and the connection attributes (RpcServer.getCurrentCall()). The records
 * stay in this JVM until read with the recorded command.
 */
public final class RequestRecorder implements RegionCoprocessor, RegionObserver {
  /** Records per table, oldest first; at most MAX_RECORDS kept per table. */
  private static final Map<String, ConcurrentLinkedQueue<String>> RECORDS = new ConcurrentHashMap<>();

  private static final Map<String, AtomicInteger> SIZES = new ConcurrentHashMap<>();
  private static final int MAX_RECORDS = 10_000;

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void preGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get, List<Cell> result) {
    record(c, "Get", get.getRow());
  }

  @Override
  public void preBatchMutate(
      ObserverContext<RegionCoprocessorEnvironment> c,
      MiniBatchOperationInProgress<Mutation> batch) {
    for (int i = 0; i < batch.size(); i++) {
      Mutation m = batch.getOperation(i);
      record(c, m.getClass().getSimpleName(), m.getRow());
    }
  }

  @Override
  public void preScannerOpen(ObserverContext<RegionCoprocessorEnvironment> c, Scan scan) {
    record(c, "Scan", scan.getStartRow());
  }

  private static void record(ObserverContext<RegionCoprocessorEnvironment> c, String op, byte[] row) {
    String table = c.getEnvironment().getRegionInfo().getTable().getNameAsString();
    Optional<RpcCall> call = RpcServer.getCurrentCall();
    String rec;
    if (call.isPresent()) {
      RpcCall rc = call.get();
      int hdr = rc.getHeader().hasPriority() ? rc.getHeader().getPriority() : -1;
      rec = op + "/" + Hex.encode(row) + "/" + hdr + "/" + rc.getPriority() + "/"
          + attrs(attributes(rc, "getRequestAttributes")) + "/"
          + attrs(attributes(rc, "getConnectionAttributes"));
    } else {
      rec = op + "/" + Hex.encode(row) + "/-1/-1/./."; // not from an RPC (a server-side call)
    }
    ConcurrentLinkedQueue<String> q = RECORDS.computeIfAbsent(table, t -> new ConcurrentLinkedQueue<>());
    AtomicInteger n = SIZES.computeIfAbsent(table, t -> new AtomicInteger());
    q.add(rec);
    if (n.incrementAndGet() > MAX_RECORDS && q.poll() != null) {
      n.decrementAndGet();
    }
  }

  /**
   * rc's request or connection attributes, by the name of RpcCall's method that gives them;
   * null (recorded as none) on a server older than HBase 2.6, whose RpcCall has no such method.
   * Called by name so that the launcher also builds against those versions (make test-matrix).
   */
  @SuppressWarnings("unchecked")
  private static Map<String, byte[]> attributes(RpcCall rc, String method) {
    try {
      return (Map<String, byte[]>) RpcCall.class.getMethod(method).invoke(rc);
    } catch (ReflectiveOperationException e) {
      return null;
    }
  }

  /** name=value pairs in name order, both hex, joined by commas; "." when there are none. */
  private static String attrs(Map<String, byte[]> m) {
    if (m == null || m.isEmpty()) {
      return ".";
    }
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, byte[]> e : new TreeMap<>(m).entrySet()) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(Hex.encode(e.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8)))
          .append('=')
          .append(Hex.encode(e.getValue()));
    }
    return sb.toString();
  }

  /** The records of table, oldest first; clear drops them after reading. */
  static List<String> read(String table, boolean clear) {
    List<String> out = new ArrayList<>();
    ConcurrentLinkedQueue<String> q = RECORDS.get(table);
    if (q == null) {
      return out;
    }
    AtomicInteger n = SIZES.get(table);
    if (clear) {
      String r;
      while ((r = q.poll()) != null) {
        n.decrementAndGet();
        out.add(r);
      }
    } else {
      out.addAll(q);
    }
    return out;
  }
}
