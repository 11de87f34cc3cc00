package org.gohbase.minicluster;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;

/**
 * A configuration file the servers read again when told to (Admin.updateConfiguration):
 * gohbase-live-site.xml, in a directory of the launcher's class path
 * (-Dhbasetest.live.site), is a default resource of every Configuration. It is empty at the
 * start, so the servers' configurations hold none of its keys, and a key written to it later
 * reaches a server at its next configuration reload, and only then.
 */
final class LiveSite {
  static final String NAME = "gohbase-live-site.xml";
  private static final Map<String, String> values = new TreeMap<>();

  private LiveSite() {}

  static void install() throws IOException {
    if (dir() == null) {
      return;
    }
    write();
    Configuration.addDefaultResource(NAME);
  }

  private static File dir() {
    String d = System.getProperty("hbasetest.live.site");
    return d == null || d.isEmpty() ? null : new File(d);
  }

  /** Sets key to value in the file (an empty value removes it). */
  static synchronized void set(String key, String value) throws IOException {
    if (dir() == null) {
      throw new IOException("no live site directory (-Dhbasetest.live.site)");
    }
    if (value.isEmpty()) {
      values.remove(key);
    } else {
      values.put(key, value);
    }
    write();
  }

  private static synchronized void write() throws IOException {
    File d = dir();
    if (!d.isDirectory() && !d.mkdirs()) {
      throw new IOException("cannot create " + d);
    }
    Configuration c = new Configuration(false);
    values.forEach(c::set);
    File tmp = new File(d, NAME + ".tmp");
    try (OutputStream out = new FileOutputStream(tmp)) {
      c.writeXml(out);
    }
    Files.move(tmp.toPath(), new File(d, NAME).toPath(), StandardCopyOption.REPLACE_EXISTING,
      StandardCopyOption.ATOMIC_MOVE);
  }
}
