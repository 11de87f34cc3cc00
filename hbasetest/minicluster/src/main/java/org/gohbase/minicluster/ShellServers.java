package org.gohbase.minicluster;

import java.util.List;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;

/**
 * The Java calls of the HBase shell's region server commands whose effect a table's state
 * shows, for hbasectl's corpus ("shell-java truncate-region T I", as ShellEquivalent's other
 * operations).
 */
final class ShellServers {
  private ShellServers() {}

  /** Runs shell-java operation w[1]; null when it is not one of these. */
  static String run(Connection conn, String[] w) throws Exception {
    if (w.length < 2 || !w[1].equals("truncate-region")) {
      return null;
    }
    // truncate-region T I: Admin.truncateRegion of the region at index I (key order) of T.
    if (w.length != 4) {
      throw new Commands.UsageException("shell-java truncate-region TABLE INDEX");
    }
    List<HRegionLocation> locs;
    try (RegionLocator rl = conn.getRegionLocator(TableName.valueOf(w[2]))) {
      locs = rl.getAllRegionLocations();
    }
    try (Admin admin = conn.getAdmin()) {
      admin.truncateRegion(locs.get(Integer.parseInt(w[3])).getRegion().getRegionName());
    }
    return "";
  }
}
