// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import cuda.graph.spi.HostFunction;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The host functions handed to {@code cuLaunchHostFunc}, and the one upcall stub that runs them.
 *
 * <p>Every launch passes the same {@code void(void*)} stub; its {@code userData} is not a pointer
 * but the id of a registered {@link HostFunction}. An upcall must never throw (the JVM would
 * terminate), so {@link #invoke} catches everything the function throws and logs it.
 *
 * <p>A function launched into an ordinary stream runs once, and its entry is removed when it runs.
 * A function launched into a <em>capturing</em> stream becomes a host node of the captured graph,
 * which the driver calls once per launch of every exec made from it; such an entry is
 * <em>repeating</em>: it stays registered until its owner (the driver instance) is closed, since
 * nothing tells this layer when the last exec holding the node is gone.
 */
final class HostFunctions {

  private static final System.Logger LOG = System.getLogger("cuda.graph.driver");

  private record Entry(HostFunction function, Object owner, boolean repeating) {}

  private static final ConcurrentHashMap<Long, Entry> REGISTERED = new ConcurrentHashMap<>();

  // Ids start at 1: nothing ever runs as id 0, so a stray NULL userData is recognisable.
  private static final AtomicLong NEXT_ID = new AtomicLong(1);

  private static final LongAdder UNREPORTED = new LongAdder();

  private HostFunctions() {}

  /** {@return the {@code CUhostFn} stub to pass to {@code cuLaunchHostFunc}} */
  static MemorySegment stub() {
    return Stub.ADDRESS;
  }

  /**
   * Registers a function to be run by the stub.
   *
   * @param owner the driver instance that launched it, whose {@link #forgetRepeating} drops it
   * @param repeating whether it stays registered after running (a captured host node)
   * @return the id to pass as {@code userData}
   */
  static long register(HostFunction function, Object owner, boolean repeating) {
    long id = NEXT_ID.getAndIncrement();
    REGISTERED.put(id, new Entry(function, owner, repeating));
    return id;
  }

  /** Removes a registration whose launch failed, so it cannot leak. */
  static void unregister(long id) {
    REGISTERED.remove(id);
  }

  /** Drops the repeating registrations of {@code owner}; one-shot ones stay until they run. */
  static void forgetRepeating(Object owner) {
    REGISTERED.values().removeIf(entry -> entry.owner() == owner && entry.repeating());
  }

  /** {@return whether {@code id} is registered} */
  static boolean isRegistered(long id) {
    return REGISTERED.containsKey(id);
  }

  /** {@return how many host functions are registered, one-shot and repeating} */
  static int registeredCount() {
    return REGISTERED.size();
  }

  /** {@return how many failures of host functions could not even be logged} */
  static long unreportedFailures() {
    return UNREPORTED.sum();
  }

  /**
   * The upcall target: runs the function registered as {@code id}. Never throws.
   *
   * @param id the {@code userData} the driver passes back
   */
  static void invoke(long id) {
    try {
      Entry entry = REGISTERED.get(id);
      if (entry == null) {
        LOG.log(
            System.Logger.Level.WARNING,
            "cuda.graph.driver: the driver ran host function #{0}, which is not registered (its"
                + " driver was closed)",
            Long.toString(id));
        return;
      }
      if (!entry.repeating()) {
        REGISTERED.remove(id);
      }
      entry.function().run();
    } catch (Throwable thrown) {
      report(id, thrown);
    }
  }

  private static void report(long id, Throwable thrown) {
    try {
      LOG.log(
          System.Logger.Level.ERROR,
          "cuda.graph.driver: host function #"
              + id
              + " threw; nothing can receive an exception on the driver's thread, so it is dropped",
          thrown);
    } catch (Throwable loggingFailed) {
      // An exception escaping an upcall terminates the JVM; count what we could not report instead.
      UNREPORTED.increment();
    }
  }

  private static final class Stub {
    static final MemorySegment ADDRESS = make();

    private static MemorySegment make() {
      try {
        var target =
            MethodHandles.lookup()
                .findStatic(
                    HostFunctions.class, "invoke", MethodType.methodType(void.class, long.class));
        // userData is a void*, passed in a general-purpose register exactly like a long on x86-64.
        return Ffm.upcallStub(target, FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG));
      } catch (ReflectiveOperationException e) {
        throw new AssertionError("HostFunctions.invoke(long) is missing", e);
      }
    }
  }
}
