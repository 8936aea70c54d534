// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Small kernels for the API tests, each with the Java reference the simulator runs, plus polling
 * helpers. The PTX only declares the entries: the simulator executes the Java references.
 */
final class KernelFixtures {

  private KernelFixtures() {}

  static final String PTX =
      """
      .version 9.0
      .target sm_90
      .address_size 64
      .visible .entry addOne(.param .u32 n, .param .u64 data) { ret; }
      .visible .entry copyInts(.param .u32 n, .param .u64 src, .param .u64 dst) { ret; }
      .visible .entry scalars(.param .u8 a, .param .u16 b, .param .u32 c, .param .u64 d, .param .f32 e, .param .f64 f, .param .u64 out) { ret; }
      .visible .entry outOfBounds(.param .u64 data) { ret; }
      .visible .entry publish(.param .u32 n, .param .u64 values, .param .u64 control, .param .u64 timeout) { ret; }
      """;

  static final KernelImage IMAGE =
      KernelImage.ptx(PTX)
          .withReference(
              "addOne",
              call -> {
                int n = call.i32(0);
                MemorySegment data = call.memory(1, 4L * n);
                for (int i = 0; i < n; i++) {
                  data.setAtIndex(
                      JAVA_INT_UNALIGNED, i, data.getAtIndex(JAVA_INT_UNALIGNED, i) + 1);
                }
              })
          .withReference("copyInts", KernelFixtures::copyInts)
          .withReference(
              "scalars",
              call -> {
                MemorySegment out = call.memory(6, 6 * 8);
                out.setAtIndex(JAVA_LONG_UNALIGNED, 0, call.i8(0));
                out.setAtIndex(JAVA_LONG_UNALIGNED, 1, call.i16(1));
                out.setAtIndex(JAVA_LONG_UNALIGNED, 2, call.i32(2));
                out.setAtIndex(JAVA_LONG_UNALIGNED, 3, call.i64(3));
                out.setAtIndex(JAVA_LONG_UNALIGNED, 4, Float.floatToRawIntBits(call.f32(4)));
                out.setAtIndex(JAVA_LONG_UNALIGNED, 5, Double.doubleToRawLongBits(call.f64(5)));
              })
          // Touches a gigabyte behind a small buffer: an illegal address, a sticky error.
          .withReference("outOfBounds", call -> call.memory(0, 1L << 30).fill((byte) 1))
          .withReference("publish", KernelFixtures::publish);

  /** {@code data[i] += 1} for {@code i < n}. */
  static final Kernel ADD_ONE =
      IMAGE.kernel("addOne", KernelParam.I32, KernelParam.pointer(ElementType.I32));

  /** {@code dst[i] = src[i]} for {@code i < n}. */
  static final Kernel COPY_INTS =
      IMAGE.kernel(
          "copyInts",
          KernelParam.I32,
          KernelParam.pointer(ElementType.I32),
          KernelParam.pointer(ElementType.I32));

  /** Writes its six scalar arguments (float and double as raw bits) into {@code out[0..5]}. */
  static final Kernel SCALARS =
      IMAGE.kernel(
          "scalars",
          KernelParam.I8,
          KernelParam.I16,
          KernelParam.I32,
          KernelParam.I64,
          KernelParam.F32,
          KernelParam.F64,
          KernelParam.pointer(ElementType.I64));

  /** Faults with an illegal address. */
  static final Kernel OUT_OF_BOUNDS = IMAGE.kernel("outOfBounds", KernelParam.POINTER);

  /**
   * {@code publish(int n, int *values, int *control, long timeoutNanos)}: for each {@code i < n},
   * stores {@code values[i] = published(i)}, fences, stores {@code control[0] = i + 1} with release
   * semantics, then waits until the host has stored at least {@code i + 1} in {@code control[1]};
   * if the host does not within the timeout, stores 1 in {@code control[2]} and returns.
   */
  static final Kernel PUBLISH =
      IMAGE.kernel(
          "publish",
          KernelParam.I32,
          KernelParam.pointer(ElementType.I32),
          KernelParam.pointer(ElementType.I32),
          KernelParam.I64);

  /** The value {@link #PUBLISH} publishes in slot {@code i}. */
  static int published(int i) {
    return 1000 + 7 * i;
  }

  private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

  /** The reference of {@link #PUBLISH}: the CUDA protocol, with Java's fences and atomics. */
  static void publish(KernelCall call) {
    int n = call.i32(0);
    MemorySegment values = call.memory(1, 4L * n);
    MemorySegment control = call.memory(2, 12);
    long deadline = System.nanoTime() + call.i64(3);
    for (int i = 0; i < n; i++) {
      values.setAtIndex(JAVA_INT_UNALIGNED, i, published(i));
      VarHandle.fullFence(); // __threadfence_system()
      INT.setRelease(control, 0L, i + 1);
      while ((int) INT.getAcquire(control, 4L) < i + 1) {
        if (System.nanoTime() > deadline) {
          INT.setRelease(control, 8L, 1);
          return;
        }
        Thread.onSpinWait();
      }
    }
  }

  static void copyInts(KernelCall call) {
    int n = call.i32(0);
    MemorySegment.copy(call.memory(1, 4L * n), 0, call.memory(2, 4L * n), 0, 4L * n);
  }

  /**
   * {@return a copyInts kernel that, when it runs on the device, first waits until {@code gate}
   * opens, and runs {@code afterCopy} once it has copied}: lets a test hold queued work back for as
   * long as it needs to look at what happens meanwhile, and note what had happened by the time the
   * kernel ran
   */
  static Kernel gatedCopy(CountDownLatch gate, Runnable afterCopy) {
    KernelImage image =
        KernelImage.ptx(PTX)
            .withReference(
                "copyInts",
                call -> {
                  try {
                    if (!gate.await(20, TimeUnit.SECONDS)) {
                      throw new AssertionError("the test never opened the gate");
                    }
                  } catch (InterruptedException e) {
                    throw new AssertionError(e);
                  }
                  copyInts(call);
                  afterCopy.run();
                });
    return image.kernel(
        "copyInts",
        KernelParam.I32,
        KernelParam.pointer(ElementType.I32),
        KernelParam.pointer(ElementType.I32));
  }

  /**
   * {@return a host callback that holds its stream until {@code gate} opens}: work queued after it
   * certainly waits, however slow the test thread is (a cold JVM can take longer than the
   * simulator's execution delay)
   */
  static GraphNode<@org.jspecify.annotations.Nullable Void> hold(CountDownLatch gate) {
    return DeviceOp.hostCallback(
        () -> {
          try {
            if (!gate.await(20, TimeUnit.SECONDS)) {
              throw new AssertionError("the test never opened the gate");
            }
          } catch (InterruptedException e) {
            throw new AssertionError(e);
          }
        });
  }

  static int[] iota(int n, int start) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = start + i;
    }
    return a;
  }

  /** Polls {@code condition} until it holds, failing after {@code timeout}. */
  static void awaitTrue(BooleanSupplier condition, Duration timeout, String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out after " + timeout + " waiting until " + what);
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }
}
