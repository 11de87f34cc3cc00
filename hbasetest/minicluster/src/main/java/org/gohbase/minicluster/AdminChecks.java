package org.gohbase.minicluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.CoprocessorDescriptor;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.master.RegionState;
import org.apache.hadoop.hbase.master.locking.LockManager;
import org.apache.hadoop.hbase.procedure2.LockType;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.wal.AbstractFSWALProvider;
import org.apache.hadoop.hbase.wal.WAL;

/**
 * What the Java Admin says about the cluster, for the Go admin's tests to compare with (the
 * "admin-..." commands). Each answer is a list of words "key=hexvalue", or of such lists.
 */
final class AdminChecks {
  private AdminChecks() {}

  /** Runs an "admin-..." command; null for any other command. */
  static String dispatch(MiniCluster mc, String[] w) throws Exception {
    switch (w[0]) {
      case "admin-describe":
        // admin-describe TABLE: the Java Admin's getDescriptor, raw and through its getters.
        need(w, 2);
        return describe(mc, TableName.valueOf(w[1]));
      case "admin-procedures":
        // admin-procedures: getProcedures' JSON, hex.
        need(w, 1);
        try (Admin admin = mc.adminConn.getAdmin()) {
          return Hex.encode(admin.getProcedures().getBytes(StandardCharsets.UTF_8));
        }
      case "admin-locks":
        need(w, 1);
        try (Admin admin = mc.adminConn.getAdmin()) {
          return Hex.encode(admin.getLocks().getBytes(StandardCharsets.UTF_8));
        }
      case "admin-snapshots":
        // admin-snapshots: every snapshot, name/table/type/owner/ttl/creation, each hex.
        need(w, 1);
        return snapshots(mc);
      case "admin-server-regions":
        // admin-server-regions HOST,PORT,STARTCODE: the Java Admin's getRegions(server), the
        // full region names, hex.
        need(w, 2);
        try (Admin admin = mc.adminConn.getAdmin()) {
          List<String> out = new ArrayList<>();
          for (RegionInfo ri : admin.getRegions(ServerName.valueOf(w[1]))) {
            out.add(Hex.encode(ri.getRegionName()));
          }
          return String.join(" ", out);
        }
      case "admin-split-keys":
        // admin-split-keys START END N: the split keys of createTable(desc, START, END, N).
        need(w, 4);
        return splitKeys(Hex.decode(w[1]), Hex.decode(w[2]), Integer.parseInt(w[3]));
      case "admin-state":
        // admin-state [TABLE]: the switches, the decommissioned servers, and a table's
        // compaction state and last major compaction.
        if (w.length > 2) {
          throw new IllegalArgumentException("admin-state: wrong number of arguments");
        }
        return state(mc, w.length > 1 ? TableName.valueOf(w[1]) : null);
      case "admin-security-capabilities":
        // admin-security-capabilities: the Java Admin's getSecurityCapabilities, by name.
        need(w, 1);
        try (Admin admin = mc.adminConn.getAdmin()) {
          List<String> out = new ArrayList<>();
          for (org.apache.hadoop.hbase.client.security.SecurityCapability c : admin.getSecurityCapabilities()) {
            out.add(c.name());
          }
          return String.join(" ", out);
        }
      case "admin-archived-files":
        // admin-archived-files TABLE: how many files the table's directory of the HFile
        // archive holds (the files a drop moved there until the cleaner deletes them).
        need(w, 2);
        return Long.toString(archivedFiles(mc, TableName.valueOf(w[1])));
      case "live-site":
        // live-site KEY [VALUE]: sets (or removes) KEY in the configuration file the servers
        // read again on updateConfiguration (LiveSite).
        if (w.length != 2 && w.length != 3) {
          throw new IllegalArgumentException("live-site: wrong number of arguments");
        }
        LiveSite.set(w[1], w.length > 2 ? new String(Hex.decode(w[2]), StandardCharsets.UTF_8) : "");
        return "";
      case "server-conf":
        // server-conf SLOT|master KEY: KEY in the server's live configuration, hex ("-" unset).
        need(w, 3);
        return serverConf(mc, w[1], w[2]);
      case "server-wals":
        // server-wals SLOT: the file names of the region server's current WALs, hex.
        need(w, 2);
        return serverWALs(mc, w[1]);
      case "region-state":
        // region-state ENCODED: the active master's state of the region and its server, hex
        // ("-" when the master does not know it).
        need(w, 2);
        return regionState(mc, w[1]);
      case "hold-table-lock":
        // hold-table-lock TABLE: the master takes an exclusive lock of the table (a
        // LockProcedure, as HBase's lock service does) and keeps it until release-table-lock.
        need(w, 2);
        holdTableLock(mc, w[1]);
        return "";
      case "release-table-lock":
        need(w, 2);
        LockManager.MasterLock lock = HELD.remove(w[1]);
        if (lock == null) {
          throw new IllegalArgumentException("release-table-lock: no lock held on " + w[1]);
        }
        lock.release();
        return "";
      default:
        return null;
    }
  }

  /** The table locks hold-table-lock took, by table name. */
  private static final Map<String, LockManager.MasterLock> HELD = new ConcurrentHashMap<>();

  private static void holdTableLock(MiniCluster mc, String table) throws Exception {
    if (mc.master() == null) {
      throw new IllegalArgumentException("hold-table-lock: no active master");
    }
    if (HELD.containsKey(table)) {
      throw new IllegalArgumentException("hold-table-lock: " + table + " is held already");
    }
    LockManager.MasterLock lock = mc.master().getLockManager().createMasterLock(TableName.valueOf(table),
      LockType.EXCLUSIVE, "hbasetest hold-table-lock");
    if (!lock.tryAcquire(60000)) {
      throw new IllegalStateException("hold-table-lock: the lock of " + table + " was not granted in 60 s");
    }
    HELD.put(table, lock);
  }

  private static String regionState(MiniCluster mc, String encoded) {
    if (mc.master() == null) {
      throw new IllegalArgumentException("region-state: no active master");
    }
    RegionState st = mc.master().getAssignmentManager().getRegionStates().getRegionState(encoded);
    if (st == null) {
      return "-";
    }
    StringBuilder b = new StringBuilder();
    kv(b, "state", st.getState());
    kv(b, "server", st.getServerName() == null ? "" : st.getServerName().getServerName());
    return b.toString();
  }

  private static String serverWALs(MiniCluster mc, String slot) throws Exception {
    int i = Integer.parseInt(slot);
    if (i < 0 || i >= mc.slots() || mc.regionServer(i) == null) {
      throw new IllegalArgumentException("server-wals: region server " + slot + " is not running");
    }
    List<String> out = new ArrayList<>();
    for (WAL wal : mc.regionServer(i).getWALs()) {
      Path p = AbstractFSWALProvider.getCurrentFileName(wal);
      out.add(Hex.encode(Bytes.toBytes(p == null ? "" : p.getName())));
    }
    return String.join(" ", out);
  }

  private static String serverConf(MiniCluster mc, String server, String key) {
    org.apache.hadoop.conf.Configuration c;
    if (server.equals("master")) {
      if (mc.master() == null) {
        throw new IllegalArgumentException("server-conf: no active master");
      }
      c = mc.master().getConfiguration();
    } else {
      int i = Integer.parseInt(server);
      if (i < 0 || i >= mc.slots() || mc.regionServer(i) == null) {
        throw new IllegalArgumentException("server-conf: region server " + server + " is not running");
      }
      c = mc.regionServer(i).getConfiguration();
    }
    String v = c.get(key);
    return v == null ? "-" : Hex.encode(v.getBytes(StandardCharsets.UTF_8));
  }

  private static long archivedFiles(MiniCluster mc, TableName tn) throws Exception {
    org.apache.hadoop.conf.Configuration conf = mc.master().getConfiguration();
    Path dir = org.apache.hadoop.hbase.util.HFileArchiveUtil.getTableArchivePath(
        org.apache.hadoop.hbase.util.CommonFSUtils.getRootDir(conf), tn);
    org.apache.hadoop.fs.FileSystem fs = dir.getFileSystem(conf);
    if (!fs.exists(dir)) {
      return 0;
    }
    long n = 0;
    org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> it = fs.listFiles(dir, true);
    while (it.hasNext()) {
      it.next();
      n++;
    }
    return n;
  }

  private static void need(String[] w, int n) {
    if (w.length != n) {
      throw new IllegalArgumentException(w[0] + ": wrong number of arguments (" + (w.length - 1) + ")");
    }
  }

  private static void kv(StringBuilder b, String k, Object v) {
    if (b.length() > 0) {
      b.append(' ');
    }
    b.append(k).append('=').append(Hex.encode(String.valueOf(v).getBytes(StandardCharsets.UTF_8)));
  }

  private static String describe(MiniCluster mc, TableName tn) throws Exception {
    TableDescriptor d;
    try (Admin admin = mc.adminConn.getAdmin()) {
      d = admin.getDescriptor(tn);
    }
    StringBuilder b = new StringBuilder();
    d.getValues().forEach((k, v) -> kv(b, "T:" + Bytes.toString(k.get()), Bytes.toString(v.get())));
    kv(b, "TG:MaxFileSize", d.getMaxFileSize());
    kv(b, "TG:MemStoreFlushSize", d.getMemStoreFlushSize());
    kv(b, "TG:ReadOnly", d.isReadOnly());
    kv(b, "TG:CompactionEnabled", d.isCompactionEnabled());
    kv(b, "TG:SplitEnabled", d.isSplitEnabled());
    kv(b, "TG:MergeEnabled", d.isMergeEnabled());
    kv(b, "TG:NormalizationEnabled", d.isNormalizationEnabled());
    kv(b, "TG:Durability", d.getDurability());
    kv(b, "TG:RegionReplication", d.getRegionReplication());
    kv(b, "TG:RegionMemStoreReplication", d.hasRegionMemStoreReplication());
    kv(b, "TG:Priority", d.getPriority());
    kv(b, "TG:Owner", d.getOwnerString());
    kv(b, "TG:FlushPolicy", d.getFlushPolicyClassName());
    kv(b, "TG:SplitPolicy", d.getRegionSplitPolicyClassName());
    kv(b, "TG:NormalizerTargetRegionCount", d.getNormalizerTargetRegionCount());
    kv(b, "TG:NormalizerTargetRegionSize", d.getNormalizerTargetRegionSize());
    List<String> cps = new ArrayList<>();
    for (CoprocessorDescriptor c : d.getCoprocessorDescriptors()) {
      cps.add(c.getJarPath().orElse("") + "|" + c.getClassName() + "|" + c.getPriority() + "|"
        + new TreeMap<>(c.getProperties()));
    }
    kv(b, "TG:Coprocessors", String.join(";", cps));
    for (ColumnFamilyDescriptor f : d.getColumnFamilies()) {
      String p = f.getNameAsString();
      f.getValues().forEach((k, v) -> kv(b, "F:" + p + ":" + Bytes.toString(k.get()), Bytes.toString(v.get())));
      Map<String, String> conf = new TreeMap<>(f.getConfiguration());
      kv(b, "FG:" + p + ":Configuration", conf);
      kv(b, "FG:" + p + ":MaxVersions", f.getMaxVersions());
      kv(b, "FG:" + p + ":MinVersions", f.getMinVersions());
      kv(b, "FG:" + p + ":TimeToLive", f.getTimeToLive());
      kv(b, "FG:" + p + ":Compression", f.getCompressionType().getName());
      kv(b, "FG:" + p + ":CompactionCompression", f.getCompactionCompressionType().getName());
      kv(b, "FG:" + p + ":Bloom", f.getBloomFilterType());
      kv(b, "FG:" + p + ":BlockSize", f.getBlocksize());
      kv(b, "FG:" + p + ":InMemory", f.isInMemory());
      kv(b, "FG:" + p + ":Encoding", f.getDataBlockEncoding());
      kv(b, "FG:" + p + ":KeepDeletedCells", f.getKeepDeletedCells());
      kv(b, "FG:" + p + ":BlockCache", f.isBlockCacheEnabled());
      kv(b, "FG:" + p + ":CacheDataOnWrite", f.isCacheDataOnWrite());
      kv(b, "FG:" + p + ":CacheIndexesOnWrite", f.isCacheIndexesOnWrite());
      kv(b, "FG:" + p + ":CacheBloomsOnWrite", f.isCacheBloomsOnWrite());
      kv(b, "FG:" + p + ":EvictBlocksOnClose", f.isEvictBlocksOnClose());
      kv(b, "FG:" + p + ":PrefetchBlocksOnOpen", f.isPrefetchBlocksOnOpen());
      kv(b, "FG:" + p + ":CompressTags", f.isCompressTags());
      kv(b, "FG:" + p + ":NewVersionBehavior", f.isNewVersionBehavior());
      kv(b, "FG:" + p + ":Scope", f.getScope());
      kv(b, "FG:" + p + ":DFSReplication", f.getDFSReplication());
      kv(b, "FG:" + p + ":StoragePolicy", f.getStoragePolicy());
      kv(b, "FG:" + p + ":InMemoryCompaction", f.getInMemoryCompaction());
      kv(b, "FG:" + p + ":Mob", f.isMobEnabled());
      kv(b, "FG:" + p + ":MobThreshold", f.getMobThreshold());
      kv(b, "FG:" + p + ":MobCompactPartitionPolicy", f.getMobCompactPartitionPolicy());
    }
    return b.toString();
  }

  private static String snapshots(MiniCluster mc) throws Exception {
    List<String> out = new ArrayList<>();
    try (Admin admin = mc.adminConn.getAdmin()) {
      for (SnapshotDescription s : admin.listSnapshots()) {
        out.add(String.join("/", Hex.encode(Bytes.toBytes(s.getName())), Hex.encode(Bytes.toBytes(s.getTableNameAsString())),
          s.getType().name(), Hex.encode(s.getOwner() == null ? new byte[0] : Bytes.toBytes(s.getOwner())),
          Long.toString(s.getTtl()), Long.toString(s.getCreationTime())));
      }
    }
    return String.join(" ", out);
  }

  private static String splitKeys(byte[] start, byte[] end, int n) {
    byte[][] keys = n == 3 ? new byte[][] { start, end } : Bytes.split(start, end, n - 3);
    List<String> out = new ArrayList<>();
    for (byte[] k : keys) {
      out.add(Hex.encode(k));
    }
    return String.join(" ", out);
  }

  private static String state(MiniCluster mc, TableName tn) throws Exception {
    StringBuilder b = new StringBuilder();
    try (Admin admin = mc.adminConn.getAdmin()) {
      kv(b, "split", admin.isSplitEnabled());
      kv(b, "merge", admin.isMergeEnabled());
      kv(b, "catalogJanitor", admin.isCatalogJanitorEnabled());
      kv(b, "cleanerChore", admin.isCleanerChoreEnabled());
      kv(b, "normalizer", admin.isNormalizerEnabled());
      kv(b, "snapshotCleanup", admin.isSnapshotCleanupEnabled());
      List<String> dec = new ArrayList<>();
      for (ServerName sn : admin.listDecommissionedRegionServers()) {
        dec.add(sn.getServerName());
      }
      kv(b, "decommissioned", String.join(";", dec));
      if (tn != null) {
        kv(b, "compactionState", admin.getCompactionState(tn));
        kv(b, "lastMajorCompaction", admin.getLastMajorCompactionTimestamp(tn));
      }
    }
    return b.toString();
  }
}
