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

  /** The krb5.conf for clients (with the short ticket lifetime once one is set). */
  File krb5conf() {
    return clientKrb5conf != null ? clientKrb5conf : kdc.getKrb5conf();
  }

  /**
   * Short-lived tickets for the clients from now on. It is applied once the cluster is up, not
   * at KDC start: the servers of the cluster share one JVM login, and tickets that expire
   * during a startup would only test Hadoop's relogin, not a client's renewal.
   *
   * Kerby 1.0.1 applies its maximum lifetime only to requests without an end time, and gokrb5
   * and MIT clients always send one (krb5.conf's ticket_lifetime, a day by default). So this
   * both caps the KDC (Kerby reads the setting on each request; MiniKdc keeps its server in a
   * private field) and writes a krb5.conf with ticket_lifetime for the clients, which
   * krb5conf() then returns. The JVM's own Kerberos keeps MiniKdc's file.
   */
  void setMaxTicketLifetime(long seconds) throws Exception {
    java.lang.reflect.Field f = MiniKdc.class.getDeclaredField("simpleKdc");
    f.setAccessible(true);
    org.apache.kerby.kerberos.kerb.server.SimpleKdcServer server =
      (org.apache.kerby.kerberos.kerb.server.SimpleKdcServer) f.get(kdc);
    server.getKdcConfig().setLong(
      org.apache.kerby.kerberos.kerb.server.KdcConfigKey.MAXIMUM_TICKET_LIFETIME, seconds);
    String conf = new String(
      java.nio.file.Files.readAllBytes(kdc.getKrb5conf().toPath()), java.nio.charset.StandardCharsets.UTF_8);
    String marker = "[libdefaults]";
    int i = conf.indexOf(marker);
    if (i < 0) {
      throw new IllegalStateException(kdc.getKrb5conf() + " has no [libdefaults] section");
    }
    i += marker.length();
    conf = conf.substring(0, i) + "\n    ticket_lifetime = " + seconds + "s" + conf.substring(i);
    File client = new File(kdc.getKrb5conf().getParentFile(), "krb5-client.conf");
    java.nio.file.Files.write(client.toPath(), conf.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    clientKrb5conf = client;
  }

  /** The krb5.conf for clients when setMaxTicketLifetime wrote one. */
  private File clientKrb5conf;

  void stop() {
    kdc.stop();
  }
}
