package cuda.graph.blas.internal.binding;

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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A cuBLASLt made of upcall stubs, one per {@link CublasLtEntry}: each records its call (with the
 * values behind the pointers it is given), writes out-parameters (fresh handles, the heuristic's
 * results) and returns the status a test chose. Its bodies never throw (an exception in an upcall
 * ends the JVM).
 */
final class FakeCublasLt implements AutoCloseable {

  /** The library name the fake's binding is given, for messages. */
  static final String NAME = "/fake/libcublasLt.so.13";

  /** The handle {@code cublasLtCreate} hands out. */
  static final long HANDLE = 0x1A0000L;

  /** What the heuristic reports as the chosen algorithm's workspace need. */
  static final long WORKSPACE_NEED = 4096;

  private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

  private final Arena arena = Arena.ofShared();
  private final Map<String, MemorySegment> symbols = new HashMap<>();
  private final Set<String> hidden = new HashSet<>();
  private final int[] statuses = new int[CublasLtEntry.values().length];
  private final List<Call> calls = new ArrayList<>();
  private long nextObject = 0x100;
  private volatile long version = 130100;
  private volatile int algorithmsFound = 1;
  private volatile int algorithmState = CublasLtStatus.SUCCESS;

  /**
   * One recorded call.
   *
   * @param entry the entry point
   * @param arguments its arguments, with the value read behind each pointer where it has one (an
   *     attribute's value, alpha and beta as floats, the algorithm's first word), else the
   *     pointer's address
   */
  record Call(CublasLtEntry entry, List<Object> arguments) {}

  FakeCublasLt() {
    for (CublasLtEntry entry : CublasLtEntry.values()) {
      symbols.put(entry.symbol(), stub(entry));
    }
  }

  /** {@return the library bound to this fake} */
  CublasLtLibrary bind() {
    return new CublasLtLibrary(lookup(), NAME);
  }

  /** {@return the fake's symbols, less the hidden ones} */
  SymbolLookup lookup() {
    return name ->
        hidden.contains(name) ? Optional.empty() : Optional.ofNullable(symbols.get(name));
  }

  /** Makes {@code entry} return {@code status} from now on. */
  FakeCublasLt returning(CublasLtEntry entry, int status) {
    statuses[entry.ordinal()] = status;
    return this;
  }

  /** Makes {@code cublasLtGetVersion} report {@code code}. */
  FakeCublasLt version(long code) {
    version = code;
    return this;
  }

  /** Makes the heuristic find {@code count} algorithms, the first in state {@code state}. */
  FakeCublasLt heuristicFinds(int count, int state) {
    algorithmsFound = count;
    algorithmState = state;
    return this;
  }

  /** Hides {@code symbol}, as another library would lack it. */
  FakeCublasLt without(String symbol) {
    hidden.add(symbol);
    return this;
  }

  /** {@return every call so far, in order} */
  synchronized List<Call> calls() {
    return List.copyOf(calls);
  }

  /** {@return the calls of {@code entry} so far, in order} */
  synchronized List<Call> calls(CublasLtEntry entry) {
    return calls.stream().filter(c -> c.entry() == entry).toList();
  }

  /** {@return what {@code cublasLtGetStatusString} says of {@code status}} */
  static String description(int status) {
    return "fake description of " + status;
  }

  @Override
  public void close() {
    arena.close();
  }

  @SuppressWarnings("restricted")
  private MemorySegment stub(CublasLtEntry entry) {
    FunctionDescriptor descriptor = entry.descriptor();
    MethodType type = descriptor.toMethodType();
    MethodHandle target =
        switch (entry) {
          case GET_VERSION -> bound("getVersion", MethodType.methodType(long.class));
          case GET_STATUS_NAME -> bound("statusName", type);
          case GET_STATUS_STRING -> bound("statusString", type);
          default -> {
            MethodHandle call =
                MethodHandles.insertArguments(
                    bound(
                        "call",
                        MethodType.methodType(int.class, CublasLtEntry.class, Object[].class)),
                    0,
                    entry);
            yield call.asCollector(Object[].class, type.parameterCount()).asType(type);
          }
        };
    return Linker.nativeLinker().upcallStub(target, descriptor, arena);
  }

  private MethodHandle bound(String name, MethodType type) {
    try {
      return LOOKUP.findVirtual(FakeCublasLt.class, name, type).bindTo(this);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("FakeCublasLt." + name + type + " is missing", e);
    }
  }

  // The upcall bodies, found by name above.

  @SuppressWarnings("unused")
  private long getVersion() {
    return version;
  }

  @SuppressWarnings("unused")
  private MemorySegment statusName(int status) {
    return arena.allocateFrom("FAKE_STATUS_" + status);
  }

  @SuppressWarnings("unused")
  private MemorySegment statusString(int status) {
    return arena.allocateFrom(description(status));
  }

  @SuppressWarnings({"unused", "restricted"})
  private synchronized int call(CublasLtEntry entry, Object[] arguments) {
    int status = statuses[entry.ordinal()];
    List<Object> seen = new ArrayList<>(List.of(arguments));
    switch (entry) {
      case CREATE -> out(arguments[0], status, HANDLE);
      case MATMUL_DESC_CREATE, MATMUL_PREFERENCE_CREATE -> out(arguments[0], status, nextObject++);
      case MATRIX_LAYOUT_CREATE -> out(arguments[0], status, nextObject++);
      case MATMUL_DESC_SET_ATTRIBUTE,
          MATRIX_LAYOUT_SET_ATTRIBUTE,
          MATMUL_PREFERENCE_SET_ATTRIBUTE -> {
        long size = (long) arguments[3];
        MemorySegment value = ((MemorySegment) arguments[2]).reinterpret(size);
        seen.set(
            2,
            size == 4
                ? (long) value.get(ValueLayout.JAVA_INT, 0)
                : value.get(ValueLayout.JAVA_LONG, 0));
      }
      case MATMUL_ALGO_GET_HEURISTIC -> {
        if (status == CublasLtStatus.SUCCESS) {
          int requested = (int) arguments[7];
          MemorySegment results =
              ((MemorySegment) arguments[8])
                  .reinterpret(CublasLtAbi.HEURISTIC_RESULT.byteSize() * requested);
          int found = Math.min(requested, algorithmsFound);
          for (int i = 0; i < found; i++) {
            MemorySegment r =
                results.asSlice(
                    i * CublasLtAbi.HEURISTIC_RESULT.byteSize(),
                    CublasLtAbi.HEURISTIC_RESULT.byteSize());
            r.set(ValueLayout.JAVA_LONG, 0, 0xA160L + i);
            r.set(ValueLayout.JAVA_LONG, CublasLtAbi.RESULT_WORKSPACE_SIZE, WORKSPACE_NEED);
            r.set(ValueLayout.JAVA_INT, CublasLtAbi.RESULT_STATE, algorithmState);
            r.set(ValueLayout.JAVA_FLOAT, CublasLtAbi.RESULT_WAVES_COUNT, 0.5f);
          }
          ((MemorySegment) arguments[9]).reinterpret(4).set(ValueLayout.JAVA_INT, 0, found);
        }
        seen.set(8, null);
        seen.set(9, null);
      }
      case MATMUL_ALGO_CONFIG_GET_ATTRIBUTE -> {
        // Answers attribute n with 10 n + 1, so a description shows which was read.
        int attribute = (int) arguments[1];
        ((MemorySegment) arguments[2])
            .reinterpret(4)
            .set(ValueLayout.JAVA_INT, 0, 10 * attribute + 1);
        seen.set(0, ((MemorySegment) arguments[0]).reinterpret(8).get(ValueLayout.JAVA_LONG, 0));
        seen.set(2, null);
        seen.set(4, null);
      }
      case MATMUL -> {
        seen.set(2, ((MemorySegment) arguments[2]).reinterpret(4).get(ValueLayout.JAVA_FLOAT, 0));
        seen.set(7, ((MemorySegment) arguments[7]).reinterpret(4).get(ValueLayout.JAVA_FLOAT, 0));
        seen.set(12, ((MemorySegment) arguments[12]).reinterpret(8).get(ValueLayout.JAVA_LONG, 0));
      }
      default -> {}
    }
    calls.add(new Call(entry, java.util.Collections.unmodifiableList(seen)));
    return status;
  }

  @SuppressWarnings("restricted")
  private static void out(Object pointer, int status, long value) {
    if (status == CublasLtStatus.SUCCESS) {
      ((MemorySegment) pointer).reinterpret(8).set(ValueLayout.JAVA_LONG, 0, value);
    }
  }
}
