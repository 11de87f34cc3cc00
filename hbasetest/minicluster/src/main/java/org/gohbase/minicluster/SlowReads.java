package org.gohbase.minicluster;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;

/**
 * A region observer, loaded on every region of every region server the launcher starts, that
 * delays a share of the Gets (single or in a multi) of the region servers the slow-reads command
 * names: one slow server that every client meets alike, for the hedged-read benchmarks. The
 * region servers of a mini cluster share this JVM, so the settings are kept per server name.
 * With no server named, a Get costs one map lookup. It also counts the Gets that secondary
 * replicas serve, on every server: the hedges of Timeline reads that reached a server, whichever
 * client sent them (the Java client reports no count of its own).
 */
public final class SlowReads implements RegionCoprocessor, RegionObserver {
  /** A server's delay and the share of Gets it applies to. */
  record Slow(long delayNanos, double share) {}

  private static final Map<ServerName, Slow> SLOW = new ConcurrentHashMap<>();
  private static final LongAdder SECONDARY_GETS = new LongAdder();

  /** The Gets secondary replicas have served (begun) since the cluster started. */
  static long secondaryGets() {
    return SECONDARY_GETS.sum();
  }

  /** Delays share (0 to 1) of the Gets of server by delayNanos; a share of 0 ends it. */
  static void set(ServerName server, long delayNanos, double share) {
    if (share <= 0 || delayNanos <= 0) {
      SLOW.remove(server);
    } else {
      SLOW.put(server, new Slow(delayNanos, Math.min(share, 1)));
    }
  }

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void preGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get, List<Cell> result) {
    if (c.getEnvironment().getRegionInfo().getReplicaId() != 0) {
      SECONDARY_GETS.increment();
    }
    if (SLOW.isEmpty()) {
      return;
    }
    Slow s = SLOW.get(c.getEnvironment().getServerName());
    if (s == null || ThreadLocalRandom.current().nextDouble() >= s.share()) {
      return;
    }
    try {
      TimeUnit.NANOSECONDS.sleep(s.delayNanos());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
