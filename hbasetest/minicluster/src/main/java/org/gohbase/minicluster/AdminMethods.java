package org.gohbase.minicluster;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.TreeMap;

/**
 * Prints the public methods of the Java Admin interfaces (org.apache.hadoop.hbase.client.Admin
 * and AsyncAdmin, or the classes named), one line each: "Interface method deprecated|current",
 * overloads once, deprecated only when every overload is. It needs no cluster.
 */
public final class AdminMethods {
  private AdminMethods() {}

  public static void main(String[] args) throws Exception {
    String[] classes = args.length > 0 ? args
      : new String[] { "org.apache.hadoop.hbase.client.Admin", "org.apache.hadoop.hbase.client.AsyncAdmin" };
    for (String name : classes) {
      Class<?> c = Class.forName(name);
      TreeMap<String, Boolean> deprecated = new TreeMap<>();
      for (Method m : c.getMethods()) {
        if (m.getDeclaringClass() == Object.class || Modifier.isStatic(m.getModifiers())
          || m.getDeclaringClass() == AutoCloseable.class || m.getDeclaringClass() == java.io.Closeable.class) {
          continue;
        }
        boolean dep = m.isAnnotationPresent(Deprecated.class);
        deprecated.merge(m.getName(), dep, (a, b) -> a && b);
      }
      String simple = c.getSimpleName();
      deprecated.forEach((m, dep) -> System.out.println(simple + " " + m + " " + (dep ? "deprecated" : "current")));
    }
  }
}
