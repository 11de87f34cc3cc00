package org.gohbase.minicluster;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.master.RegionState;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Where every replica of a table's regions is (the replicas command), seen three ways: the
 * server hbase:meta names in the primary's row (info:server, info:server_000N for replica N),
 * which is what clients read, through the launcher's RegionLocator (a fresh scan of
 * hbase:meta); the master's assignment state of the replica and the server it names; and the
 * live region server on which the replica is open, read in this JVM, with whether it serves
 * reads there (a secondary refuses them until it has seen a flush of its primary).
 */
final class Replicas {
  private Replicas() {}

  /** HRegion's private writestate and its readsEnabled flag: no public getter in HBase 2.x. */
  private static final Field WRITE_STATE;
  private static final Field READS_ENABLED;

  static {
    try {
      WRITE_STATE = HRegion.class.getDeclaredField("writestate");
      WRITE_STATE.setAccessible(true);
      READS_ENABLED = WRITE_STATE.getType().getDeclaredField("readsEnabled");
      READS_ENABLED.setAccessible(true);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The hbase:meta qualifier base (server, serverstartcode, state) of replica id. */
  static byte[] metaColumn(String base, int replicaId) {
    return Bytes.toBytes(replicaId == 0 ? base : String.format("%s_%04X", base, replicaId));
  }

  /**
   * One record per replica of every region of tn (split parents left out), ordered by start
   * key then replica id:
   * replica=table,encoded,name,start,end,id,metaSlot,metaAddr,metaStartcode,state,stateSlot,servingSlot,reads.
   */
  static String list(MiniCluster mc, TableName tn) throws Exception {
    List<RegionInfo> primaries = new ArrayList<>();
    Map<String, HRegionLocation> inMeta = new HashMap<>(); // by the replica's encoded name
    int replication;
    try (Admin admin = mc.adminConn.getAdmin(); RegionLocator l = mc.adminConn.getRegionLocator(tn)) {
      replication = admin.getDescriptor(tn).getRegionReplication();
      List<HRegionLocation> locs = tn.equals(TableName.META_TABLE_NAME)
        ? l.getRegionLocations(HConstants.EMPTY_START_ROW, true)
        : l.getAllRegionLocations();
      for (HRegionLocation loc : locs) {
        RegionInfo ri = loc == null ? null : loc.getRegion();
        if (ri == null || ri.isOffline() || ri.isSplit()) {
          continue;
        }
        replication = Math.max(replication, ri.getReplicaId() + 1);
        if (ri.getReplicaId() == RegionInfo.DEFAULT_REPLICA_ID) {
          primaries.add(ri);
        }
        if (loc.getServerName() != null) {
          inMeta.put(ri.getEncodedName(), loc);
        }
      }
    }
    primaries.sort((a, b) -> Bytes.compareTo(a.getStartKey(), b.getStartKey()));
    HMaster m = mc.master();
    StringBuilder b = new StringBuilder();
    for (RegionInfo p : primaries) {
      for (int id = 0; id < replication; id++) {
        RegionInfo ri = RegionReplicaUtil.getRegionInfoForReplica(p, id);
        String encoded = ri.getEncodedName();
        HRegionLocation loc = inMeta.get(encoded);
        ServerName sn = loc == null ? null : loc.getServerName();
        RegionState st = m == null ? null : m.getAssignmentManager().getRegionStates().getRegionState(ri);
        int serving = -1;
        boolean reads = false;
        for (int i = 0; i < mc.slots() && serving < 0; i++) {
          HRegionServer rs = mc.regionServer(i);
          HRegion r = rs == null ? null : rs.getRegion(encoded);
          if (r != null && r.isAvailable()) {
            serving = i;
            reads = readsEnabled(r);
          }
        }
        if (b.length() > 0) {
          b.append(' ');
        }
        b.append("replica=").append(tn.getNameAsString()).append(',').append(encoded)
          .append(',').append(Hex.encode(ri.getRegionName()))
          .append(',').append(Hex.encode(ri.getStartKey()))
          .append(',').append(Hex.encode(ri.getEndKey()))
          .append(',').append(id)
          .append(',').append(mc.slotOf(sn))
          .append(',').append(sn == null ? "-" : sn.getAddress().toString())
          .append(',').append(sn == null ? 0 : sn.getStartcode())
          .append(',').append(st == null ? "-" : st.getState().name())
          .append(',').append(st == null ? -1 : mc.slotOf(st.getServerName()))
          .append(',').append(serving)
          .append(',').append(reads ? "reads" : "-");
      }
    }
    return b.toString();
  }

  private static boolean readsEnabled(HRegion r) throws IllegalAccessException {
    return READS_ENABLED.getBoolean(WRITE_STATE.get(r));
  }

  /** Every replica of every region of tn is open on a live server, as the master sees it. */
  static boolean allOpen(MiniCluster mc, TableName tn, int replication) throws Exception {
    HMaster m = mc.master();
    if (m == null) {
      return false;
    }
    int primaries = 0;
    int open = 0;
    for (RegionInfo ri : m.getAssignmentManager().getRegionStates().getRegionsOfTable(tn)) {
      RegionState st = m.getAssignmentManager().getRegionStates().getRegionState(ri);
      if (st == null || !st.isOpened() || mc.slotOf(st.getServerName()) < 0) {
        return false;
      }
      open++;
      if (ri.getReplicaId() == RegionInfo.DEFAULT_REPLICA_ID) {
        primaries++;
      }
    }
    return primaries > 0 && open == primaries * replication;
  }
}
