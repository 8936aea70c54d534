// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import cuda.graph.blas.BlasException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * cuBLASLt, loaded and bound: one typed method per {@link CublasLtEntry}, each throwing {@link
 * BlasException} (made by {@link CublasLtErrors}) when cuBLASLt returns anything but {@code
 * CUBLAS_STATUS_SUCCESS}.
 *
 * <p>{@link #load()} opens the library once per process. Binding links every entry point and checks
 * that the library is cuBLASLt 12.0 or later; an instance exists only once that succeeded.
 *
 * <p>{@link #matmul} takes handles, device pointers and sizes as {@code long} and host memory the
 * caller prepared once, and allocates nothing on success. Creating descriptors and setting their
 * attributes pass values through a per-thread scratch block.
 */
public final class CublasLtLibrary {

  /**
   * System property naming the cuBLASLt library file to load instead of searching the loader path.
   */
  public static final String LIBRARY_PROPERTY = "cuda.graph.blas.library";

  /** The oldest cuBLASLt supported, as a {@code cublasLtGetVersion} code: 12.0.0. */
  public static final long MINIMUM_VERSION = 120000;

  private final String library;
  // One downcall per entry, by ordinal (null for an optional entry the library lacks); a final
  // array read is all a call costs beyond the native transition.
  private final @Nullable MethodHandle[] downcalls;
  private final long version;

  /**
   * Binds every entry point in {@code lookup} and checks cuBLASLt's version.
   *
   * @param lookup the library's symbols (a fake's, in tests)
   * @param library where the library came from, for messages: a path or the soname searched
   * @throws BlasException when native access is not enabled, a symbol is missing or the library is
   *     older than {@link #MINIMUM_VERSION}
   */
  CublasLtLibrary(SymbolLookup lookup, String library) {
    NativeAccess.require();
    this.library = library;
    CublasLtEntry[] entries = CublasLtEntry.values();
    @Nullable MethodHandle[] linked = new MethodHandle[entries.length];
    for (CublasLtEntry entry : entries) {
      Optional<MemorySegment> address = lookup.find(entry.symbol());
      if (address.isEmpty()) {
        if (entry.optional()) {
          continue;
        }
        throw Unavailable.because(
            entry.symbol(),
            library
                + " has no symbol "
                + entry.symbol()
                + ": it is not cuBLASLt, or one older than "
                + versionString(MINIMUM_VERSION)
                + "; "
                + newerLibrary(),
            null);
      }
      linked[entry.ordinal()] = Ffm.downcall(address.get(), entry.descriptor());
    }
    this.downcalls = linked;
    this.version = queryVersion(library);
  }

  /**
   * {@return cuBLASLt, loaded and bound once per process}: the file {@value #LIBRARY_PROPERTY}
   * names, else {@code libcublasLt.so.13} or {@code .12} found by the dynamic loader
   *
   * @throws BlasException when cuBLASLt cannot be used: a new exception on every call, with the
   *     same message, as the first attempt is never repeated
   */
  public static CublasLtLibrary load() {
    return ProcessWide.OUTCOME.get();
  }

  /** {@return where the library was loaded from: the path configured, or the soname found} */
  public String library() {
    return library;
  }

  /** {@return the {@code cublasLtGetVersion} code, e.g. {@code 130100} for 13.1.0} */
  public long version() {
    return version;
  }

  /** {@return the version as {@code major.minor.patch}, e.g. {@code 13.1.0}} */
  public String versionString() {
    return versionString(version);
  }

  /**
   * {@return a version code as {@code major.minor.patch}}; codes of cuBLAS 11 and older ({@code
   * major * 1000 + minor * 100 + patch}) are read as such, so an old library is named correctly too
   */
  static String versionString(long code) {
    if (code < 100000) {
      return (code / 1000) + "." + (code % 1000 / 100) + "." + (code % 100);
    }
    return (code / 10000) + "." + (code % 10000 / 100) + "." + (code % 100);
  }

  /** {@return a new {@code cublasLtHandle_t}} ({@code cublasLtCreate}) */
  public long create() {
    MemorySegment out = Scratch.get().out();
    int status;
    try {
      status = (int) downcall(CublasLtEntry.CREATE).invokeExact(out);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(status, CublasLtEntry.CREATE, null);
    return out.get(ValueLayout.JAVA_LONG, 0);
  }

  /**
   * Destroys a handle, or a descriptor made by one of the {@code create} methods: {@code entry} is
   * {@link CublasLtEntry#DESTROY} or one of the {@code *_DESTROY} entries.
   *
   * @param entry which destroy to call
   * @param object the handle or descriptor
   */
  public void destroy(CublasLtEntry entry, long object) {
    int status;
    try {
      status = (int) downcall(entry).invokeExact(object);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(status, entry, null);
  }

  /**
   * {@return a new {@code cublasLtMatmulDesc_t}} ({@code cublasLtMatmulDescCreate})
   *
   * @param computeType a {@code cublasComputeType_t}
   * @param scaleType the {@code cudaDataType_t} of alpha and beta
   * @param context what it is for, for a failure's message
   */
  public long matmulDescCreate(int computeType, int scaleType, @Nullable String context) {
    MemorySegment out = Scratch.get().out();
    int status;
    try {
      status =
          (int) downcall(CublasLtEntry.MATMUL_DESC_CREATE).invokeExact(out, computeType, scaleType);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(status, CublasLtEntry.MATMUL_DESC_CREATE, context);
    return out.get(ValueLayout.JAVA_LONG, 0);
  }

  /**
   * {@return a new {@code cublasLtMatrixLayout_t}} ({@code cublasLtMatrixLayoutCreate})
   *
   * @param type the elements' {@code cudaDataType_t}
   * @param rows the rows of the matrix as stored
   * @param cols its columns
   * @param ld its leading dimension
   * @param context what it is for, for a failure's message
   */
  public long matrixLayoutCreate(
      int type, long rows, long cols, long ld, @Nullable String context) {
    MemorySegment out = Scratch.get().out();
    int status;
    try {
      status =
          (int) downcall(CublasLtEntry.MATRIX_LAYOUT_CREATE).invokeExact(out, type, rows, cols, ld);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(status, CublasLtEntry.MATRIX_LAYOUT_CREATE, context);
    return out.get(ValueLayout.JAVA_LONG, 0);
  }

  /**
   * {@return a new {@code cublasLtMatmulPreference_t}} ({@code cublasLtMatmulPreferenceCreate})
   *
   * @param context what it is for, for a failure's message
   */
  public long matmulPreferenceCreate(@Nullable String context) {
    MemorySegment out = Scratch.get().out();
    int status;
    try {
      status = (int) downcall(CublasLtEntry.MATMUL_PREFERENCE_CREATE).invokeExact(out);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(status, CublasLtEntry.MATMUL_PREFERENCE_CREATE, context);
    return out.get(ValueLayout.JAVA_LONG, 0);
  }

  /**
   * Sets one attribute of a descriptor to a 4- or 8-byte integer value, through the scratch block.
   *
   * @param setter one of the {@code *_SET_ATTRIBUTE} entries
   * @param object the descriptor
   * @param attribute the attribute id
   * @param value the value; only its low 4 bytes when {@code size} is 4
   * @param size 4 or 8: the size of the attribute's C type
   * @param context what it is for, for a failure's message
   */
  public void setAttribute(
      CublasLtEntry setter,
      long object,
      int attribute,
      long value,
      int size,
      @Nullable String context) {
    MemorySegment buffer = Scratch.get().value();
    if (size == Integer.BYTES) {
      buffer.set(ValueLayout.JAVA_INT, 0, (int) value);
    } else if (size == Long.BYTES) {
      buffer.set(ValueLayout.JAVA_LONG, 0, value);
    } else {
      throw new IllegalArgumentException("an attribute value here is 4 or 8 bytes, not " + size);
    }
    setAttribute(setter, object, attribute, buffer, size, context);
  }

  /**
   * Sets one attribute of a descriptor from host memory the caller owns; allocates nothing.
   *
   * @param setter one of the {@code *_SET_ATTRIBUTE} entries
   * @param object the descriptor
   * @param attribute the attribute id
   * @param value the value's bytes, at least {@code size}
   * @param size the size of the attribute's C type
   * @param context what it is for, for a failure's message
   */
  public void setAttribute(
      CublasLtEntry setter,
      long object,
      int attribute,
      MemorySegment value,
      long size,
      @Nullable String context) {
    int status;
    try {
      status = (int) downcall(setter).invokeExact(object, attribute, value, size);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(status, setter, context);
  }

  /**
   * Asks the heuristic for algorithms ({@code cublasLtMatmulAlgoGetHeuristic}).
   *
   * @param results room for {@code requested} {@link CublasLtAbi#HEURISTIC_RESULT}s, best first
   * @return how many results it wrote
   */
  public int algoGetHeuristic(
      long handle,
      long desc,
      long a,
      long b,
      long c,
      long d,
      long preference,
      int requested,
      MemorySegment results,
      @Nullable String context) {
    MemorySegment count = Scratch.get().out();
    int status;
    try {
      status =
          (int)
              downcall(CublasLtEntry.MATMUL_ALGO_GET_HEURISTIC)
                  .invokeExact(handle, desc, a, b, c, d, preference, requested, results, count);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(status, CublasLtEntry.MATMUL_ALGO_GET_HEURISTIC, context);
    return count.get(ValueLayout.JAVA_INT, 0);
  }

  /**
   * {@return one 4-byte configuration attribute of an algorithm} ({@code
   * cublasLtMatmulAlgoConfigGetAttribute}), to describe it
   *
   * @param algo a {@link CublasLtAbi#ALGO}
   * @param attribute one of the {@code ALGO_CONFIG_*} ids of a 4-byte value
   */
  public int algoConfigInt(MemorySegment algo, int attribute) {
    Scratch scratch = Scratch.get();
    MemorySegment value = scratch.value();
    MemorySegment written = scratch.written();
    int status;
    try {
      status =
          (int)
              downcall(CublasLtEntry.MATMUL_ALGO_CONFIG_GET_ATTRIBUTE)
                  .invokeExact(algo, attribute, value, (long) Integer.BYTES, written);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(status, CublasLtEntry.MATMUL_ALGO_CONFIG_GET_ATTRIBUTE, null);
    return value.get(ValueLayout.JAVA_INT, 0);
  }

  /**
   * Enqueues one matrix product on {@code stream} ({@code cublasLtMatmul}); allocates nothing on
   * success.
   *
   * @param alpha a host fp32 scalar
   * @param beta a host fp32 scalar
   * @param algo the {@link CublasLtAbi#ALGO} the heuristic chose
   * @param context the product, for a failure's message
   */
  public void matmul(
      long handle,
      long desc,
      MemorySegment alpha,
      long a,
      long aLayout,
      long b,
      long bLayout,
      MemorySegment beta,
      long c,
      long cLayout,
      long d,
      long dLayout,
      MemorySegment algo,
      long workspace,
      long workspaceBytes,
      long stream,
      String context) {
    int status;
    try {
      status =
          (int)
              downcall(CublasLtEntry.MATMUL)
                  .invokeExact(
                      handle,
                      desc,
                      alpha,
                      a,
                      aLayout,
                      b,
                      bLayout,
                      beta,
                      c,
                      cLayout,
                      d,
                      dLayout,
                      algo,
                      workspace,
                      workspaceBytes,
                      stream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(status, CublasLtEntry.MATMUL, context);
  }

  /**
   * {@return cuBLASLt's name for {@code status}} ({@code cublasLtGetStatusName}), or null when the
   * library has no such entry point or returns none
   */
  public @Nullable String statusName(int status) {
    return text(CublasLtEntry.GET_STATUS_NAME, status);
  }

  /**
   * {@return cuBLASLt's description of {@code status}} ({@code cublasLtGetStatusString}), or null
   * when the library has no such entry point or returns none
   */
  public @Nullable String statusString(int status) {
    return text(CublasLtEntry.GET_STATUS_STRING, status);
  }

  /**
   * {@return the exception for {@code entry} having returned {@code status}}, with cuBLASLt's
   * descriptions of it
   *
   * @param context what the call was for, or null
   */
  public BlasException failure(CublasLtEntry entry, int status, @Nullable String context) {
    // Describing a failure must not hide it: a description that cannot be had is left out.
    String name;
    String description;
    try {
      name = statusName(status);
    } catch (RuntimeException e) {
      name = null;
    }
    try {
      description = statusString(status);
    } catch (RuntimeException e) {
      description = null;
    }
    return CublasLtErrors.failure(entry, status, name, description, context);
  }

  private @Nullable String text(CublasLtEntry entry, int status) {
    MethodHandle handle = downcalls[entry.ordinal()];
    if (handle == null) {
      return null;
    }
    MemorySegment text;
    try {
      text = (MemorySegment) handle.invokeExact(status);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    String said = Ffm.cString(text);
    return said == null || said.isBlank() ? null : said;
  }

  /** Reads the version at binding; a library that is too old is refused. */
  private long queryVersion(String library) {
    long code;
    try {
      code = (long) downcall(CublasLtEntry.GET_VERSION).invokeExact();
    } catch (Throwable t) {
      throw rethrow(t);
    }
    if (code < MINIMUM_VERSION) {
      throw Unavailable.because(
          CublasLtEntry.GET_VERSION.symbol(),
          library
              + " is cuBLASLt "
              + versionString(code)
              + ", and this module needs cuBLASLt "
              + versionString(MINIMUM_VERSION)
              + " or later (CUDA 12 or 13); "
              + newerLibrary(),
          null);
    }
    return code;
  }

  private static String newerLibrary() {
    return CublasLtLoader.WHERE_TO_GET_IT
        + "; put its directory on LD_LIBRARY_PATH, or run java with -D"
        + LIBRARY_PROPERTY
        + "=/path/to/"
        + CublasLtLoader.SONAMES.getFirst();
  }

  /** Costs a compare on success; only a failure asks cuBLASLt to describe itself. */
  private void check(int status, CublasLtEntry entry, @Nullable String context) {
    if (status != CublasLtStatus.SUCCESS) {
      throw failure(entry, status, context);
    }
  }

  private MethodHandle downcall(CublasLtEntry entry) {
    MethodHandle handle = downcalls[entry.ordinal()];
    if (handle == null) {
      // Only optional entries may be unbound, and they are called through text().
      throw new IllegalStateException(entry.symbol() + " is not bound");
    }
    return handle;
  }

  /**
   * {@return what invoking a downcall threw, to rethrow}: the native call throws nothing, but
   * argument checks can; only {@code invokeExact}'s {@code throws Throwable} is absorbed
   */
  private static RuntimeException rethrow(Throwable thrown) {
    if (thrown instanceof RuntimeException e) {
      return e;
    }
    if (thrown instanceof Error e) {
      throw e;
    }
    throw new IllegalStateException("a downcall threw a checked exception", thrown);
  }

  /** The process's one attempt to load cuBLASLt, made on the first {@link #load()}. */
  private static final class ProcessWide {
    static final LoadOutcome OUTCOME = LoadOutcome.of(CublasLtLoader::loadConfigured);

    private ProcessWide() {}
  }
}
