package org.gohbase.minicluster;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;

/**
 * Every thread of the launcher's JVM (the whole mini cluster: master, region servers, ZooKeeper)
 * with its full stack and the locks it holds and waits for, as jstack prints them. For a test
 * that finds the cluster stalled: the moment's picture of what the servers' handlers, readers
 * and responders are doing. ThreadInfo.toString stops at 8 frames, so the frames are printed
 * here.
 */
final class ThreadDump {
  private ThreadDump() {}

  /** Writes the dump to f and answers how many threads it holds. */
  static int write(File f) throws IOException {
    ThreadInfo[] threads = ManagementFactory.getThreadMXBean().dumpAllThreads(true, true);
    try (PrintWriter w = new PrintWriter(f, StandardCharsets.UTF_8)) {
      for (ThreadInfo ti : threads) {
        print(w, ti);
      }
    }
    return threads.length;
  }

  private static void print(PrintWriter w, ThreadInfo ti) {
    w.printf("\"%s\" #%d %s%s%n", ti.getThreadName(), ti.getThreadId(), ti.getThreadState(),
      ti.isSuspended() ? " (suspended)" : "");
    if (ti.getLockName() != null) {
      w.printf("   waiting on %s%s%n", ti.getLockName(),
        ti.getLockOwnerName() != null ? " held by \"" + ti.getLockOwnerName() + "\"" : "");
    }
    StackTraceElement[] frames = ti.getStackTrace();
    MonitorInfo[] monitors = ti.getLockedMonitors();
    for (int i = 0; i < frames.length; i++) {
      w.printf("\tat %s%n", frames[i]);
      for (MonitorInfo m : monitors) {
        if (m.getLockedStackDepth() == i) {
          w.printf("\t- locked %s%n", m);
        }
      }
    }
    LockInfo[] syncs = ti.getLockedSynchronizers();
    if (syncs.length > 0) {
      w.printf("   locked synchronizers:%n");
      for (LockInfo l : syncs) {
        w.printf("\t- %s%n", l);
      }
    }
    w.println();
  }
}
