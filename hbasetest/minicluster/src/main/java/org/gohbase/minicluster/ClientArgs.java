package org.gohbase.minicluster;

import java.security.PrivilegedExceptionAction;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The command line the stand-alone Java clients (SmokeTest, ClientBench) share: where the
 * cluster is and, in secure mode, who logs in and with which protection.
 *
 * <pre>
 * --zk 127.0.0.1:2181 [--znode /hbase]
 * [--krb5 krb5.conf --principal client@EXAMPLE.COM --keytab client.keytab
 *  --server-principal hbase/localhost@EXAMPLE.COM --protection privacy|list [--aes]]
 * [--conf key=value]...
 * </pre>
 *
 * Each --conf sets a client configuration key last (e.g. hbase.client.primaryCallTimeout.get).
 */
final class ClientArgs {
  private final String[] argv;
  final Configuration conf;
  final boolean secure;

  /** Parses argv into a client configuration; in secure mode it logs in from the keytab. */
  ClientArgs(String[] argv) throws Exception {
    this.argv = argv;
    String zk = arg("--zk", null);
    if (zk == null) {
      throw new IllegalArgumentException("--zk is required");
    }
    int colon = zk.lastIndexOf(':');
    conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", zk.substring(0, colon));
    conf.set("hbase.zookeeper.property.clientPort", zk.substring(colon + 1));
    conf.set("zookeeper.znode.parent", arg("--znode", "/hbase"));
    conf.setInt("hbase.client.retries.number", 10);
    conf.setInt("hbase.client.operation.timeout", 60_000);
    String principal = arg("--principal", null);
    secure = principal != null;
    if (secure) {
      System.setProperty("java.security.krb5.conf", arg("--krb5", null));
      String server = arg("--server-principal", "hbase/localhost@EXAMPLE.COM");
      conf.set("hadoop.security.authentication", "kerberos");
      conf.set("hbase.security.authentication", "kerberos");
      conf.set("hbase.master.kerberos.principal", server);
      conf.set("hbase.regionserver.kerberos.principal", server);
      // A list (the cluster's own setting) means: ask for the strongest QoP it offers.
      conf.set("hbase.rpc.protection", LauncherArgs.strongestProtection(arg("--protection", "privacy")));
      conf.setBoolean("hbase.rpc.crypto.encryption.aes.enabled", Arrays.asList(argv).contains("--aes"));
      UserGroupInformation.setConfiguration(conf);
      UserGroupInformation.loginUserFromKeytab(principal, arg("--keytab", null));
    }
    for (int i = 0; i + 1 < argv.length; i++) {
      if (argv[i].equals("--conf")) {
        int eq = argv[i + 1].indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException("--conf takes key=value, not " + argv[i + 1]);
        }
        conf.set(argv[i + 1].substring(0, eq), argv[i + 1].substring(eq + 1));
      }
    }
  }

  String arg(String name, String def) {
    for (int i = 0; i + 1 < argv.length; i++) {
      if (argv[i].equals(name)) {
        return argv[i + 1];
      }
    }
    return def;
  }

  /** Runs body as the logged-in user in secure mode, as the process's user otherwise. */
  <T> T run(PrivilegedExceptionAction<T> body) throws Exception {
    return secure ? UserGroupInformation.getLoginUser().doAs(body) : body.run();
  }
}
