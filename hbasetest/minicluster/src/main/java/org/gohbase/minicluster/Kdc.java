package org.gohbase.minicluster;

import java.io.File;
import java.util.Properties;
import org.apache.hadoop.minikdc.MiniKdc;

/** The embedded KDC of a secure cluster and the principals it issues. */
final class Kdc {
  static final String SERVER_PRINCIPAL = "hbase/localhost";
  static final String CLIENT_PRINCIPAL = "client";

  final MiniKdc kdc;
  final File serverKeytab;
  final File clientKeytab;

  Kdc(File dir) throws Exception {
    File work = new File(dir, "kdc");
    if (!work.mkdirs() && !work.isDirectory()) {
      throw new IllegalStateException("cannot create " + work);
    }
    Properties conf = MiniKdc.createConf();
    conf.setProperty(MiniKdc.KDC_BIND_ADDRESS, "localhost");
    conf.setProperty(MiniKdc.TRANSPORT, "TCP");
    kdc = new MiniKdc(conf, work);
    kdc.start(); // also points java.security.krb5.conf at its krb5.conf
    serverKeytab = new File(dir, "hbase.keytab");
    clientKeytab = new File(dir, "client.keytab");
    kdc.createPrincipal(serverKeytab, SERVER_PRINCIPAL);
    kdc.createPrincipal(clientKeytab, CLIENT_PRINCIPAL);
  }

  String realm() {
    return kdc.getRealm();
  }

  String serverPrincipal() {
    return SERVER_PRINCIPAL + "@" + realm();
  }

  String clientPrincipal() {
    return CLIENT_PRINCIPAL + "@" + realm();
  }

  File krb5conf() {
    return kdc.getKrb5conf();
  }

  void stop() {
    kdc.stop();
  }
}
