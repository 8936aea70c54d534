// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An NCCL made of upcall stubs, one per {@link NcclEntry}: each returns the code a test chose,
 * writes the out-parameters a test chose, and records the arguments it was called with. Its bodies
 * never throw (an exception in an upcall ends the JVM).
 */
public final class FakeNccl implements AutoCloseable {

  /** The library name the fake's binding is given, for messages. */
  static final String NAME = "/fake/libnccl.so.2";

  /** What {@link NcclEntry#COMM_INIT_RANK} hands out as the communicator. */
  static final long COMM = 0xC0FFEEL;

  private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

  private final Arena arena = Arena.ofShared();
  private final boolean recording;
  private final Map<String, MemorySegment> symbols = new HashMap<>();
  private final Set<String> hidden = new HashSet<>();
  private final int[] results = new int[NcclEntry.values().length];
  private final Map<NcclEntry, Integer> outInts = new EnumMap<>(NcclEntry.class);
  private final Map<NcclEntry, List<Object>> calls = new EnumMap<>(NcclEntry.class);
  private final List<String> order = new ArrayList<>();
  private volatile int version = 22703;
  private volatile @Nullable String lastError;
  private volatile byte @Nullable [] idSeen;

  private FakeNccl(boolean recording) {
    this.recording = recording;
    for (NcclEntry entry : NcclEntry.values()) {
      symbols.put(entry.symbol(), stub(entry));
    }
  }

  /** {@return a fake whose calls record their arguments} */
  public static FakeNccl recording() {
    return new FakeNccl(true);
  }

  /** {@return a fake whose calls without out-parameters only return their code: no allocation} */
  static FakeNccl quiet() {
    return new FakeNccl(false);
  }

  /** {@return the library bound to this fake} */
  public NcclLibrary bind() {
    return new NcclLibrary(lookup(), NAME);
  }

  /** {@return the fake's symbols, less the hidden ones} */
  SymbolLookup lookup() {
    return name ->
        hidden.contains(name) ? Optional.empty() : Optional.ofNullable(symbols.get(name));
  }

  /** Makes {@code entry} return {@code result} from now on. */
  public FakeNccl returning(NcclEntry entry, int result) {
    results[entry.ordinal()] = result;
    return this;
  }

  /** Makes {@code entry}, a query of an int, write {@code value}. */
  FakeNccl answering(NcclEntry entry, int value) {
    outInts.put(entry, value);
    return this;
  }

  /** Makes {@code ncclGetVersion} report {@code code}. */
  FakeNccl version(int code) {
    version = code;
    return this;
  }

  /** Makes {@code ncclGetLastError} return {@code text}, or NULL. */
  FakeNccl lastError(@Nullable String text) {
    lastError = text;
    return this;
  }

  /** Hides {@code symbol}, as an older NCCL would lack it. */
  FakeNccl without(String symbol) {
    hidden.add(symbol);
    return this;
  }

  /** {@return the arguments of {@code entry}'s last call, boxed, or null if it was not called} */
  public synchronized @Nullable List<Object> lastCall(NcclEntry entry) {
    return calls.get(entry);
  }

  /**
   * {@return the recorded calls in the order they came, each as {@code thread:ENTRY}}, for the
   * entries that record (the collectives, groups, finalize and destroy) and {@code ncclCommInitAll}
   */
  public synchronized List<String> order() {
    return List.copyOf(order);
  }

  /** {@return the unique id {@code ncclCommInitRank} last received by value} */
  byte @Nullable [] idSeen() {
    return idSeen;
  }

  /** {@return the id {@code ncclGetUniqueId} writes: byte i is {@code 3i + 1}} */
  static byte[] uniqueId() {
    byte[] id = new byte[NcclLibrary.UNIQUE_ID_BYTES];
    for (int i = 0; i < id.length; i++) {
      id[i] = (byte) (3 * i + 1);
    }
    return id;
  }

  /** {@return what {@code ncclGetErrorString} says of {@code result}} */
  static String description(int result) {
    return "fake description of " + result;
  }

  @Override
  public void close() {
    arena.close();
  }

  @SuppressWarnings("restricted")
  private MemorySegment stub(NcclEntry entry) {
    FunctionDescriptor descriptor = entry.descriptor();
    MethodType type = descriptor.toMethodType();
    MethodHandle target =
        switch (entry) {
          case GET_VERSION -> bound("getVersion", type, entry);
          case GET_UNIQUE_ID -> bound("getUniqueId", type, entry);
          case COMM_INIT_RANK -> bound("commInitRank", type, entry);
          case COMM_INIT_ALL -> bound("commInitAll", type, entry);
          case COMM_COUNT, COMM_CU_DEVICE, COMM_USER_RANK, COMM_GET_ASYNC_ERROR ->
              bound("queryInt", type, entry);
          case GET_ERROR_STRING -> bound("errorString", type, null);
          case GET_LAST_ERROR -> bound("lastErrorText", type, null);
          default -> recording ? recorder(entry, type) : constantResult(entry, type);
        };
    return Linker.nativeLinker().upcallStub(target, descriptor, arena);
  }

  /** The method named {@code name}, bound to this fake and, when given, to {@code entry}. */
  private MethodHandle bound(String name, MethodType type, @Nullable NcclEntry entry) {
    MethodType own = entry == null ? type : type.insertParameterTypes(0, NcclEntry.class);
    try {
      MethodHandle method = LOOKUP.findVirtual(FakeNccl.class, name, own).bindTo(this);
      return entry == null ? method : MethodHandles.insertArguments(method, 0, entry);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("FakeNccl." + name + own + " is missing", e);
    }
  }

  private MethodHandle recorder(NcclEntry entry, MethodType type) {
    MethodHandle record = bound("record", MethodType.methodType(int.class, Object[].class), entry);
    return record.asCollector(Object[].class, type.parameterCount()).asType(type);
  }

  private MethodHandle constantResult(NcclEntry entry, MethodType type) {
    MethodHandle result = bound("resultOf", MethodType.methodType(int.class), entry);
    return MethodHandles.dropArguments(result, 0, type.parameterList());
  }

  // The upcall bodies, found by name above.

  @SuppressWarnings("unused")
  private int resultOf(NcclEntry entry) {
    return results[entry.ordinal()];
  }

  @SuppressWarnings("unused")
  private synchronized int record(NcclEntry entry, Object[] arguments) {
    calls.put(entry, List.of(arguments));
    order.add(Thread.currentThread().getName() + ":" + entry);
    return results[entry.ordinal()];
  }

  @SuppressWarnings({"unused", "restricted"})
  private int getVersion(NcclEntry entry, MemorySegment out) {
    out.reinterpret(4).set(ValueLayout.JAVA_INT, 0, version);
    return results[entry.ordinal()];
  }

  @SuppressWarnings({"unused", "restricted"})
  private int getUniqueId(NcclEntry entry, MemorySegment out) {
    out.reinterpret(NcclLibrary.UNIQUE_ID_BYTES).copyFrom(MemorySegment.ofArray(uniqueId()));
    return results[entry.ordinal()];
  }

  @SuppressWarnings({"unused", "restricted"})
  private synchronized int commInitRank(
      NcclEntry entry, MemorySegment comm, int nranks, MemorySegment id, int rank) {
    idSeen = id.toArray(ValueLayout.JAVA_BYTE);
    calls.put(entry, List.of(nranks, rank));
    comm.reinterpret(8).set(ValueLayout.JAVA_LONG, 0, COMM);
    return results[entry.ordinal()];
  }

  @SuppressWarnings({"unused", "restricted"})
  private synchronized int commInitAll(
      NcclEntry entry, MemorySegment comms, int ndev, MemorySegment devlist) {
    MemorySegment devices = devlist.reinterpret(4L * ndev);
    MemorySegment out = comms.reinterpret(8L * ndev);
    for (int i = 0; i < ndev; i++) {
      out.setAtIndex(
          ValueLayout.JAVA_LONG, i, 0x1000L + devices.getAtIndex(ValueLayout.JAVA_INT, i));
    }
    calls.put(entry, List.of(ndev));
    order.add(Thread.currentThread().getName() + ":" + entry);
    return results[entry.ordinal()];
  }

  @SuppressWarnings({"unused", "restricted"})
  private synchronized int queryInt(NcclEntry entry, long comm, MemorySegment out) {
    calls.put(entry, List.of(comm));
    out.reinterpret(4).set(ValueLayout.JAVA_INT, 0, outInts.getOrDefault(entry, 0));
    return results[entry.ordinal()];
  }

  @SuppressWarnings("unused")
  private MemorySegment errorString(int result) {
    return arena.allocateFrom(description(result));
  }

  @SuppressWarnings("unused")
  private MemorySegment lastErrorText(long comm) {
    String text = lastError;
    return text == null ? MemorySegment.NULL : arena.allocateFrom(text);
  }
}
