package org.gohbase.minicluster;

/** The protocol's byte-string words: lower-case hex, "-" for the empty string. */
final class Hex {
  private static final char[] DIGITS = "0123456789abcdef".toCharArray();

  private Hex() {}

  static String encode(byte[] b) {
    if (b == null || b.length == 0) {
      return "-";
    }
    char[] out = new char[b.length * 2];
    for (int i = 0; i < b.length; i++) {
      out[2 * i] = DIGITS[(b[i] >> 4) & 0xf];
      out[2 * i + 1] = DIGITS[b[i] & 0xf];
    }
    return new String(out);
  }

  static byte[] decode(String s) {
    if (s.equals("-")) {
      return new byte[0];
    }
    if (s.length() % 2 != 0) {
      throw new IllegalArgumentException("odd-length hex word " + abbreviate(s));
    }
    byte[] out = new byte[s.length() / 2];
    for (int i = 0; i < out.length; i++) {
      int hi = Character.digit(s.charAt(2 * i), 16);
      int lo = Character.digit(s.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) {
        throw new IllegalArgumentException("bad hex word " + abbreviate(s));
      }
      out[i] = (byte) ((hi << 4) | lo);
    }
    return out;
  }

  static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }
}
