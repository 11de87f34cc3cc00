package org.gohbase.minicluster;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Watches, every millisecond, the moments a region move or split passes as the servers
 * themselves see them: the region stops taking requests on its old server, a region opens and
 * takes requests on its new server, and hbase:meta records it open there. It reads the region
 * servers' online regions and the hbase:meta region in this JVM, without RPCs, so the watch
 * does not slow what it watches. The moments are wall-clock microseconds since the epoch, the
 * clock the Go side reads too.
 */
final class ReopenWatch implements AutoCloseable {
  /** A condition polled until it first holds. */
  @FunctionalInterface
  interface Cond {
    boolean holds() throws Exception;
  }

  private final List<Cond> conds = new ArrayList<>();
  private final long[] at;
  private final Thread thread;
  private volatile boolean stop;

  ReopenWatch(Cond... cs) {
    conds.addAll(List.of(cs));
    at = new long[cs.length];
    thread = new Thread(this::run, "reopen-watch");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (!stop) {
      boolean all = true;
      for (int i = 0; i < at.length; i++) {
        if (at[i] != 0) {
          continue;
        }
        boolean ok;
        try {
          ok = conds.get(i).holds();
        } catch (Exception e) {
          ok = false; // a region between states; looked at again next time
        }
        if (ok) {
          synchronized (this) {
            at[i] = nowMicros();
          }
        } else {
          all = false;
        }
      }
      if (all) {
        return;
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  static long nowMicros() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  }

  /**
   * Waits up to ms for every condition to have held once, then stops watching and returns when
   * each first held (0: not seen).
   */
  long[] finish(long ms) throws InterruptedException {
    thread.join(ms);
    stop = true;
    thread.join();
    synchronized (this) {
      return at.clone();
    }
  }

  @Override
  public void close() {
    stop = true;
  }

  /** The region is no longer taking requests on rs (closing, closed or gone). */
  static Cond closedOn(HRegionServer rs, String encoded) {
    return () -> {
      HRegion r = rs.getRegion(encoded);
      return r == null || !r.isAvailable();
    };
  }

  /** The region is open and taking requests on rs. */
  static Cond openOn(HRegionServer rs, String encoded) {
    return () -> {
      HRegion r = rs.getRegion(encoded);
      return r != null && r.isAvailable();
    };
  }

  /**
   * The region's row in hbase:meta says OPEN on server (any server when null). For a secondary
   * replica that is the primary's row, with the replica's own columns (info:server_000N...).
   */
  static Cond openInMeta(MiniCluster mc, RegionInfo[] ri, ServerName server) {
    return () -> {
      if (ri[0] == null) {
        return false;
      }
      HRegion meta = metaRegion(mc);
      if (meta == null) {
        return false;
      }
      int id = ri[0].getReplicaId();
      byte[] row = RegionReplicaUtil.getRegionInfoForDefaultReplica(ri[0]).getRegionName();
      Result r = meta.get(new Get(row).addFamily(HConstants.CATALOG_FAMILY));
      byte[] state = r.getValue(HConstants.CATALOG_FAMILY, Replicas.metaColumn(HConstants.STATE_QUALIFIER_STR, id));
      byte[] addr = r.getValue(HConstants.CATALOG_FAMILY, Replicas.metaColumn(HConstants.SERVER_QUALIFIER_STR, id));
      byte[] code = r.getValue(HConstants.CATALOG_FAMILY, Replicas.metaColumn(HConstants.STARTCODE_QUALIFIER_STR, id));
      if (state == null || !Bytes.toString(state).equals("OPEN") || addr == null || code == null) {
        return false;
      }
      return server == null || (Bytes.toString(addr).equals(server.getAddress().toString())
        && Bytes.toLong(code) == server.getStartcode());
    };
  }

  private static HRegion metaRegion(MiniCluster mc) {
    String encoded = RegionInfoBuilder.FIRST_META_REGIONINFO.getEncodedName();
    for (int i = 0; i < mc.slots(); i++) {
      HRegionServer rs = mc.regionServer(i);
      if (rs != null) {
        HRegion r = rs.getRegion(encoded);
        if (r != null && r.isAvailable()) {
          return r;
        }
      }
    }
    return null;
  }

  /**
   * A region of ri[0]'s table with the given boundaries open and taking requests on a live
   * server; sets ri[0] to it when found.
   */
  static Cond openAnywhere(MiniCluster mc, org.apache.hadoop.hbase.TableName tn, byte[] start, byte[] end,
    RegionInfo[] ri) {
    return () -> {
      for (int i = 0; i < mc.slots(); i++) {
        HRegionServer rs = mc.regionServer(i);
        if (rs == null) {
          continue;
        }
        for (HRegion r : rs.getRegions(tn)) {
          RegionInfo info = r.getRegionInfo();
          if (Bytes.equals(info.getStartKey(), start) && Bytes.equals(info.getEndKey(), end) && r.isAvailable()) {
            ri[0] = info;
            return true;
          }
        }
      }
      return false;
    };
  }
}
