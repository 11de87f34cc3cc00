package org.gohbase.minicluster;

import java.nio.ByteBuffer;
import org.apache.hbase.thirdparty.io.netty.buffer.AbstractByteBufAllocator;
import org.apache.hbase.thirdparty.io.netty.buffer.ByteBuf;
import org.apache.hbase.thirdparty.io.netty.buffer.UnpooledDirectByteBuf;
import org.apache.hbase.thirdparty.io.netty.buffer.UnpooledHeapByteBuf;

/**
 * A Netty allocator for the RPC servers (hbase.netty.rpcserver.allocator) that overwrites a
 * buffer's bytes with {@link #POISON} when the buffer is released. With the default pooled
 * allocator a released request buffer is soon reused for another connection's request, so a
 * server that still reads a request's bytes after releasing them sends whatever request came
 * next, rarely and unpredictably. With this allocator it sends the poison, every time, so the
 * use-after-release can be shown on demand and told apart from a client bug by its bytes.
 *
 * <p>Diagnostic only, no pooling. A released direct buffer is poisoned but not freed: the JVM
 * frees it once nothing refers to it, so a server reading it after release reads the poison,
 * never unmapped memory. (Direct buffers because the epoll transport reads into those.)
 */
public final class PoisonReleasedBuffers extends AbstractByteBufAllocator {
  /** What a released buffer holds afterwards (repeated). */
  static final byte[] POISON = "<released>".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  public PoisonReleasedBuffers() {
    super(true); // direct by default: the epoll transport reads into direct buffers
  }

  @Override
  protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
    return new PoisonedHeapBuf(this, initialCapacity, maxCapacity);
  }

  @Override
  protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
    return new PoisonedDirectBuf(this, initialCapacity, maxCapacity);
  }

  @Override
  public boolean isDirectBufferPooled() {
    return false;
  }

  private static final class PoisonedHeapBuf extends UnpooledHeapByteBuf {
    PoisonedHeapBuf(PoisonReleasedBuffers alloc, int initialCapacity, int maxCapacity) {
      super(alloc, initialCapacity, maxCapacity);
    }

    @Override
    protected void freeArray(byte[] array) {
      for (int i = 0; i < array.length; i++) {
        array[i] = POISON[i % POISON.length];
      }
    }
  }

  private static final class PoisonedDirectBuf extends UnpooledDirectByteBuf {
    PoisonedDirectBuf(PoisonReleasedBuffers alloc, int initialCapacity, int maxCapacity) {
      super(alloc, initialCapacity, maxCapacity);
    }

    @Override
    protected void freeDirect(ByteBuffer buffer) {
      for (int i = 0; i < buffer.capacity(); i++) {
        buffer.put(i, POISON[i % POISON.length]);
      }
    }
  }
}
