package org.gohbase.minicluster;

import java.util.TimerTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task a region server runs when its abort has not finished within
 * hbase.regionserver.abort.timeout (hbase.regionserver.abort.timeout.task). HBase's default
 * halts the JVM, which in a mini cluster is every server and ZooKeeper at once; the tests kill
 * servers on purpose and restart them, so a late abort is only worth a line in the log.
 */
public final class LogAbortTimeout extends TimerTask {
  private static final Logger LOG = LoggerFactory.getLogger(LogAbortTimeout.class);

  public LogAbortTimeout() {}

  @Override
  public void run() {
    LOG.warn("a region server's abort timed out; the mini cluster keeps running");
  }
}
