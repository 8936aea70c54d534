// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.KernelInvocation;
import cuda.graph.spi.ModuleImage;
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
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A cuBLASLt made of upcall stubs, one per {@link CublasLtEntry}: each records its call (with the
 * values behind the pointers it is given), writes out-parameters (fresh handles, the heuristic's
 * results) and returns the status a test chose. Its bodies never throw (an exception in an upcall
 * ends the JVM).
 *
 * <p><b>Faults and lifetimes.</b> A test can make one call fail once ({@link #failOnce}), or the
 * heuristic answer with no algorithm once ({@link #findNoAlgorithmOnce}). The fake keeps the native
 * objects it handed out (handles, descriptors, layouts, preferences) and counts their creates and
 * destroys per kind; a call given an object that is not live (a destroy given one twice, a matmul
 * given a destroyed layout) is recorded as a {@linkplain #violations() violation}. A destroy that
 * fails still consumes its object, as the backend never calls it again.
 *
 * <p><b>Computing.</b> Given a driver and a function loaded from {@link #kernelImage()} ({@link
 * #computeWith}), {@code cublasLtMatmul} enqueues a Java kernel on its stream that computes the
 * product the descriptor and layouts describe (fp32, column-major as cuBLASLt sees it, transposes,
 * strided batches, the bias and ReLU epilogues), so eager runs, captures and replays can be checked
 * for their numbers.
 */
final class FakeCublasLt implements AutoCloseable {

  /** The library name the fake's binding is given, for messages. */
  static final String NAME = "/fake/libcublasLt.so.13";

  /** The handle the first {@code cublasLtCreate} hands out; each later one is another. */
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
  private long nextHandle = HANDLE;
  private @Nullable Fault armed;
  private int faultsFired;
  private final Map<Long, CublasLtEntry> live = new HashMap<>();
  private final Map<CublasLtEntry, Integer> created = new EnumMap<>(CublasLtEntry.class);
  private final Map<CublasLtEntry, Integer> destroyed = new EnumMap<>(CublasLtEntry.class);
  private final List<String> violations = new ArrayList<>();
  private final Map<Long, long[]> layouts = new HashMap<>();
  private final Map<Long, long[]> descriptors = new HashMap<>();
  private @Nullable CudaDriver driver;
  private @Nullable CuFunction kernel;

  /** The name of the Java kernel in {@link #kernelImage()}. */
  static final String KERNEL = "fake_cublaslt_matmul";

  // What the fake keeps of a layout and a descriptor, by index.
  private static final int TYPE = 0;
  private static final int ROWS = 1;
  private static final int COLS = 2;
  private static final int LD = 3;
  private static final int BATCH = 4;
  private static final int STRIDE = 5;
  private static final int TRANS_A = 0;
  private static final int TRANS_B = 1;
  private static final int EPILOGUE = 2;
  private static final int BIAS_POINTER = 3;

  /**
   * A fault to inject once.
   *
   * @param entry the entry point that fails
   * @param status what it returns
   * @param noAlgorithm for the heuristic: it succeeds but returns no algorithm
   */
  record Fault(CublasLtEntry entry, int status, boolean noAlgorithm) {}

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

  /** Makes the next call of {@code entry} return {@code status}, once. */
  synchronized FakeCublasLt failOnce(CublasLtEntry entry, int status) {
    armed = new Fault(entry, status, false);
    return this;
  }

  /** Makes the next heuristic call succeed with no algorithm, once. */
  synchronized FakeCublasLt findNoAlgorithmOnce() {
    armed = new Fault(CublasLtEntry.MATMUL_ALGO_GET_HEURISTIC, CublasLtStatus.SUCCESS, true);
    return this;
  }

  /** {@return how many armed faults fired} */
  synchronized int faultsFired() {
    return faultsFired;
  }

  /** {@return the objects created and not destroyed, by value, each with its create entry} */
  synchronized Map<Long, CublasLtEntry> live() {
    return Map.copyOf(live);
  }

  /** {@return how many objects {@code create} (a {@code *CREATE} entry) made} */
  synchronized int created(CublasLtEntry create) {
    return created.getOrDefault(create, 0);
  }

  /** {@return how many live objects {@code destroy} (a {@code *DESTROY} entry) was given} */
  synchronized int destroyed(CublasLtEntry destroy) {
    return destroyed.getOrDefault(destroy, 0);
  }

  /** {@return the calls given an object that was not live, or of the wrong kind, in order} */
  synchronized List<String> violations() {
    return List.copyOf(violations);
  }

  /**
   * Makes {@code cublasLtMatmul} compute: it launches {@code function} (from {@link
   * #kernelImage()}, loaded on the stream's device) through {@code driver} on the stream it is
   * given.
   */
  synchronized FakeCublasLt computeWith(CudaDriver driver, CuFunction function) {
    this.driver = driver;
    this.kernel = function;
    return this;
  }

  /** {@return the destroy entry of a create entry: {@code X_CREATE} to {@code X_DESTROY}} */
  static CublasLtEntry destroyOf(CublasLtEntry create) {
    return CublasLtEntry.valueOf(create.name().replace("CREATE", "DESTROY"));
  }

  /** {@return whether {@code entry} makes a native object: a {@code *CREATE} entry} */
  static boolean creates(CublasLtEntry entry) {
    return entry.name().endsWith("CREATE");
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
    boolean noAlgorithm = false;
    Fault fault = armed;
    if (fault != null && fault.entry() == entry) {
      armed = null;
      faultsFired++;
      status = fault.status();
      noAlgorithm = fault.noAlgorithm();
    }
    List<Object> seen = new ArrayList<>(List.of(arguments));
    switch (entry) {
      case CREATE -> {
        if (status == CublasLtStatus.SUCCESS) {
          long handle = nextHandle;
          nextHandle += 0x10;
          made(entry, handle);
          out(arguments[0], status, handle);
        }
      }
      case MATMUL_DESC_CREATE, MATMUL_PREFERENCE_CREATE, MATRIX_LAYOUT_CREATE -> {
        if (status == CublasLtStatus.SUCCESS) {
          long object = nextObject++;
          made(entry, object);
          out(arguments[0], status, object);
          if (entry == CublasLtEntry.MATRIX_LAYOUT_CREATE) {
            layouts.put(
                object,
                new long[] {
                  (int) arguments[1],
                  (long) arguments[2],
                  (long) arguments[3],
                  (long) arguments[4],
                  1,
                  0
                });
          } else if (entry == CublasLtEntry.MATMUL_DESC_CREATE) {
            descriptors.put(
                object,
                new long[] {CublasLtAbi.OP_N, CublasLtAbi.OP_N, CublasLtAbi.EPILOGUE_DEFAULT, 0});
          }
        }
      }
      case DESTROY, MATMUL_DESC_DESTROY, MATRIX_LAYOUT_DESTROY, MATMUL_PREFERENCE_DESTROY ->
          unmade(entry, (long) arguments[0]);
      case MATMUL_DESC_SET_ATTRIBUTE,
          MATRIX_LAYOUT_SET_ATTRIBUTE,
          MATMUL_PREFERENCE_SET_ATTRIBUTE -> {
        long size = (long) arguments[3];
        MemorySegment value = ((MemorySegment) arguments[2]).reinterpret(size);
        long v =
            size == 4
                ? (long) value.get(ValueLayout.JAVA_INT, 0)
                : value.get(ValueLayout.JAVA_LONG, 0);
        seen.set(2, v);
        CublasLtEntry kind =
            entry == CublasLtEntry.MATMUL_DESC_SET_ATTRIBUTE
                ? CublasLtEntry.MATMUL_DESC_CREATE
                : entry == CublasLtEntry.MATRIX_LAYOUT_SET_ATTRIBUTE
                    ? CublasLtEntry.MATRIX_LAYOUT_CREATE
                    : CublasLtEntry.MATMUL_PREFERENCE_CREATE;
        long object = (long) arguments[0];
        using(entry, kind, object);
        if (status == CublasLtStatus.SUCCESS) {
          remember(entry, object, (int) arguments[1], v);
        }
      }
      case MATMUL_ALGO_GET_HEURISTIC -> {
        using(entry, CublasLtEntry.CREATE, (long) arguments[0]);
        using(entry, CublasLtEntry.MATMUL_DESC_CREATE, (long) arguments[1]);
        for (int i = 2; i <= 5; i++) {
          using(entry, CublasLtEntry.MATRIX_LAYOUT_CREATE, (long) arguments[i]);
        }
        using(entry, CublasLtEntry.MATMUL_PREFERENCE_CREATE, (long) arguments[6]);
        if (status == CublasLtStatus.SUCCESS) {
          int requested = (int) arguments[7];
          MemorySegment results =
              ((MemorySegment) arguments[8])
                  .reinterpret(CublasLtAbi.HEURISTIC_RESULT.byteSize() * requested);
          int found = noAlgorithm ? 0 : Math.min(requested, algorithmsFound);
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
        using(entry, CublasLtEntry.CREATE, (long) arguments[0]);
        using(entry, CublasLtEntry.MATMUL_DESC_CREATE, (long) arguments[1]);
        for (int i : new int[] {4, 6, 9, 11}) {
          using(entry, CublasLtEntry.MATRIX_LAYOUT_CREATE, (long) arguments[i]);
        }
        if (status == CublasLtStatus.SUCCESS && kernel != null) {
          status = compute(arguments, (float) seen.get(2), (float) seen.get(7));
        }
      }
      default -> {}
    }
    calls.add(new Call(entry, Collections.unmodifiableList(seen)));
    return status;
  }

  private void made(CublasLtEntry create, long object) {
    CublasLtEntry before = live.put(object, create);
    if (before != null) {
      violations.add(create.symbol() + " handed out " + hex(object) + ", which is still live");
    }
    created.merge(create, 1, Integer::sum);
  }

  private void unmade(CublasLtEntry destroy, long object) {
    CublasLtEntry kind = live.get(object);
    if (kind == null || destroyOf(kind) != destroy) {
      violations.add(
          destroy.symbol()
              + " was given "
              + hex(object)
              + (kind == null
                  ? ", which is not live (destroyed twice?)"
                  : ", made by " + kind.symbol()));
      return;
    }
    live.remove(object);
    layouts.remove(object);
    descriptors.remove(object);
    destroyed.merge(destroy, 1, Integer::sum);
  }

  private void using(CublasLtEntry entry, CublasLtEntry kind, long object) {
    if (live.get(object) != kind) {
      violations.add(
          entry.symbol() + " was given " + hex(object) + ", which is not a live " + kind.symbol());
    }
  }

  private void remember(CublasLtEntry setter, long object, int attribute, long value) {
    long[] layout = layouts.get(object);
    long[] desc = descriptors.get(object);
    if (setter == CublasLtEntry.MATRIX_LAYOUT_SET_ATTRIBUTE && layout != null) {
      if (attribute == CublasLtAbi.LAYOUT_BATCH_COUNT) {
        layout[BATCH] = value;
      } else if (attribute == CublasLtAbi.LAYOUT_STRIDED_BATCH_OFFSET) {
        layout[STRIDE] = value;
      }
    } else if (setter == CublasLtEntry.MATMUL_DESC_SET_ATTRIBUTE && desc != null) {
      switch (attribute) {
        case CublasLtAbi.DESC_TRANSA -> desc[TRANS_A] = value;
        case CublasLtAbi.DESC_TRANSB -> desc[TRANS_B] = value;
        case CublasLtAbi.DESC_EPILOGUE -> desc[EPILOGUE] = value;
        case CublasLtAbi.DESC_BIAS_POINTER -> desc[BIAS_POINTER] = value;
        default -> {}
      }
    }
  }

  private static String hex(long value) {
    return "0x" + Long.toHexString(value);
  }

  /**
   * {@return the Java kernel {@link #computeWith} launches}: its arguments are the pointers to A,
   * B, C, D and the bias (0: none), then m, n, k, the batch, transA, transB, the epilogue, the four
   * leading dimensions and the four batch strides (all 8 bytes), then alpha and beta
   */
  static ModuleImage kernelImage() {
    return ModuleImage.ptx(".version 8.0\n.target sm_90\n.address_size 64\n")
        .withJavaKernel(KERNEL, FakeCublasLt::matmulKernel);
  }

  private static final int ARGUMENTS = 22;

  /** Enqueues the product on the call's stream; a status to return. */
  private int compute(Object[] arguments, float alpha, float beta) {
    long[] desc = descriptors.get((long) arguments[1]);
    long[] a = layouts.get((long) arguments[4]);
    long[] b = layouts.get((long) arguments[6]);
    long[] c = layouts.get((long) arguments[9]);
    long[] d = layouts.get((long) arguments[11]);
    if (desc == null || a == null || b == null || c == null || d == null) {
      return CublasLtStatus.INVALID_VALUE; // already a violation
    }
    for (long[] l : new long[][] {a, b, c, d}) {
      if (l[TYPE] != CublasLtAbi.R_32F) {
        violations.add("the fake computes fp32 products only, and was given type " + l[TYPE]);
        return CublasLtStatus.NOT_SUPPORTED;
      }
    }
    long epilogue = desc[EPILOGUE];
    boolean bias =
        epilogue == CublasLtAbi.EPILOGUE_BIAS || epilogue == CublasLtAbi.EPILOGUE_RELU_BIAS;
    if (!bias
        && epilogue != CublasLtAbi.EPILOGUE_DEFAULT
        && epilogue != CublasLtAbi.EPILOGUE_RELU) {
      violations.add("the fake computes no epilogue " + epilogue);
      return CublasLtStatus.NOT_SUPPORTED;
    }
    long k = desc[TRANS_A] == CublasLtAbi.OP_T ? a[ROWS] : a[COLS];
    long[] values = {
      (long) arguments[3],
      (long) arguments[5],
      (long) arguments[8],
      (long) arguments[10],
      bias ? desc[BIAS_POINTER] : 0,
      d[ROWS],
      d[COLS],
      k,
      d[BATCH],
      desc[TRANS_A],
      desc[TRANS_B],
      epilogue,
      a[LD],
      b[LD],
      c[LD],
      d[LD],
      a[STRIDE],
      b[STRIDE],
      c[STRIDE],
      d[STRIDE]
    };
    int[] sizes = new int[ARGUMENTS];
    Arrays.fill(sizes, Long.BYTES);
    sizes[ARGUMENTS - 2] = Float.BYTES;
    sizes[ARGUMENTS - 1] = Float.BYTES;
    try (Arena call = Arena.ofConfined()) {
      KernelArguments args = KernelArguments.allocate(call, sizes);
      for (int i = 0; i < values.length; i++) {
        args.setI64(i, values[i]);
      }
      args.setF32(ARGUMENTS - 2, alpha);
      args.setF32(ARGUMENTS - 1, beta);
      CudaDriver cuda = Objects.requireNonNull(driver);
      CuFunction function = Objects.requireNonNull(kernel);
      cuda.launchKernel(function, 1, 1, 1, 1, 1, 1, 0, new CuStream((long) arguments[15]), args);
      return CublasLtStatus.SUCCESS;
    } catch (RuntimeException e) {
      // cuBLASLt reports a launch that failed as such; the test sees the status.
      return CublasLtStatus.EXECUTION_FAILED;
    }
  }

  /** The product, column-major as cuBLASLt computes it, in fp32. */
  private static void matmulKernel(KernelInvocation in) {
    long a = in.pointer(0);
    long b = in.pointer(1);
    long c = in.pointer(2);
    long d = in.pointer(3);
    long bias = in.pointer(4);
    long m = in.i64(5);
    long n = in.i64(6);
    long k = in.i64(7);
    long batch = in.i64(8);
    boolean transA = in.i64(9) == CublasLtAbi.OP_T;
    boolean transB = in.i64(10) == CublasLtAbi.OP_T;
    long epilogue = in.i64(11);
    long lda = in.i64(12);
    long ldb = in.i64(13);
    long ldc = in.i64(14);
    long ldd = in.i64(15);
    float alpha = in.f32(ARGUMENTS - 2);
    float beta = in.f32(ARGUMENTS - 1);
    boolean relu =
        epilogue == CublasLtAbi.EPILOGUE_RELU || epilogue == CublasLtAbi.EPILOGUE_RELU_BIAS;
    for (long p = 0; p < batch; p++) {
      long aAt = a + 4 * p * in.i64(16);
      long bAt = b + 4 * p * in.i64(17);
      long cAt = c + 4 * p * in.i64(18);
      long dAt = d + 4 * p * in.i64(19);
      for (long i = 0; i < m; i++) {
        for (long j = 0; j < n; j++) {
          float sum = 0f;
          for (long q = 0; q < k; q++) {
            float x = f32(in, aAt, transA ? q + i * lda : i + q * lda);
            float y = f32(in, bAt, transB ? j + q * ldb : q + j * ldb);
            sum = Math.fma(x, y, sum);
          }
          float v = alpha * sum;
          if (beta != 0f) {
            v += beta * f32(in, cAt, i + j * ldc);
          }
          if (bias != 0) {
            v += f32(in, bias, i);
          }
          if (relu) {
            v = Math.max(v, 0f);
          }
          in.deviceMemory(dAt + 4 * (i + j * ldd), 4).set(ValueLayout.JAVA_FLOAT, 0, v);
        }
      }
    }
  }

  private static float f32(KernelInvocation in, long base, long index) {
    return in.deviceMemory(base + 4 * index, 4).get(ValueLayout.JAVA_FLOAT, 0);
  }

  @SuppressWarnings("restricted")
  private static void out(Object pointer, int status, long value) {
    if (status == CublasLtStatus.SUCCESS) {
      ((MemorySegment) pointer).reinterpret(8).set(ValueLayout.JAVA_LONG, 0, value);
    }
  }
}
