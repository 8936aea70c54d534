// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import cuda.graph.nccl.NcclException;
import cuda.graph.nccl.NcclUnavailableException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.jspecify.annotations.Nullable;

/**
 * NCCL, loaded and bound: one typed method per {@link NcclEntry}, each throwing {@link
 * NcclException} (made by {@link NcclErrors}) when NCCL returns anything but {@code ncclSuccess}.
 *
 * <p>{@link #load()} opens the library once per process. Binding links every entry point and checks
 * that the library is NCCL 2.18 or later; an instance exists only once that succeeded.
 *
 * <p>The collectives and the group calls take handles, device pointers and counts as {@code long}
 * and allocate nothing on success: their downcalls are invoked exactly, with primitives, and they
 * have no out-parameters. Queries return their out-parameters through a per-thread scratch block.
 */
public final class NcclLibrary {

  /** System property naming the NCCL library file to load instead of searching the loader path. */
  public static final String LIBRARY_PROPERTY = "cuda.graph.nccl.library";

  /** The oldest NCCL supported, as an NCCL version code: 2.18.0. */
  public static final int MINIMUM_VERSION = 21800;

  /** Size of an {@code ncclUniqueId} ({@code NCCL_UNIQUE_ID_BYTES}). */
  public static final int UNIQUE_ID_BYTES = 128;

  private final String library;
  // One downcall per entry, by ordinal; a final array read is all a call costs beyond the native
  // transition.
  private final MethodHandle[] downcalls;
  private final int version;

  /**
   * Binds every entry point in {@code lookup} and checks NCCL's version.
   *
   * @param lookup the library's symbols (a fake's, in tests)
   * @param library where the library came from, for messages: a path or the soname searched
   * @throws NcclUnavailableException when native access is not enabled, a symbol is missing or the
   *     library is older than {@link #MINIMUM_VERSION}
   */
  NcclLibrary(SymbolLookup lookup, String library) {
    NativeAccess.require();
    this.library = library;
    NcclEntry[] entries = NcclEntry.values();
    MethodHandle[] linked = new MethodHandle[entries.length];
    for (NcclEntry entry : entries) {
      MemorySegment address =
          lookup
              .find(entry.symbol())
              .orElseThrow(
                  () ->
                      new NcclUnavailableException(
                          library
                              + " has no symbol "
                              + entry.symbol()
                              + ": this module needs NCCL "
                              + versionString(MINIMUM_VERSION)
                              + " or later; "
                              + newerNccl(),
                          null));
      linked[entry.ordinal()] = Ffm.downcall(address, entry.descriptor());
    }
    this.downcalls = linked;
    this.version = queryVersion(library);
  }

  /**
   * {@return NCCL, loaded and bound once per process}: the file {@value #LIBRARY_PROPERTY} names,
   * else {@code libnccl.so.2} found by the dynamic loader
   *
   * @throws NcclUnavailableException when NCCL cannot be used: a new exception on every call, with
   *     the same message, as the first attempt is never repeated
   */
  public static NcclLibrary load() {
    return ProcessWide.OUTCOME.get();
  }

  /** {@return where the library was loaded from: the path configured, or {@code libnccl.so.2}} */
  public String library() {
    return library;
  }

  /** {@return the NCCL version code, e.g. {@code 22703} for 2.27.3}, read when the library bound */
  public int version() {
    return version;
  }

  /** {@return the NCCL version as {@code major.minor.patch}, e.g. {@code 2.27.3}} */
  public String versionString() {
    return versionString(version);
  }

  /**
   * {@return a version code as {@code major.minor.patch}}; codes below 2.9 ({@code major * 1000 +
   * minor * 100 + patch}) are read as such, so an old NCCL is named correctly too
   */
  static String versionString(int code) {
    if (code < 10000) {
      return (code / 1000) + "." + (code % 1000 / 100) + "." + (code % 100);
    }
    return (code / 10000) + "." + (code % 10000 / 100) + "." + (code % 100);
  }

  /** {@return a new {@code ncclUniqueId}, the {@value #UNIQUE_ID_BYTES} bytes every rank shares} */
  public byte[] uniqueId() {
    MemorySegment id = Scratch.get().uniqueId();
    int result;
    try {
      result = (int) downcall(NcclEntry.GET_UNIQUE_ID).invokeExact(id);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(result, NcclEntry.GET_UNIQUE_ID, 0);
    return id.toArray(ValueLayout.JAVA_BYTE);
  }

  /**
   * Creates this process's communicator for one rank of a clique ({@code ncclCommInitRank}); blocks
   * until every rank has joined.
   *
   * @param nranks the number of ranks
   * @param uniqueId the clique's id from {@link #uniqueId()}, {@value #UNIQUE_ID_BYTES} bytes
   * @param rank this communicator's rank, from 0 to {@code nranks - 1}
   * @return the {@code ncclComm_t}
   * @throws IllegalArgumentException when {@code uniqueId} is not {@value #UNIQUE_ID_BYTES} bytes
   */
  public long commInitRank(int nranks, byte[] uniqueId, int rank) {
    if (uniqueId.length != UNIQUE_ID_BYTES) {
      throw new IllegalArgumentException(
          "an ncclUniqueId is " + UNIQUE_ID_BYTES + " bytes, not " + uniqueId.length);
    }
    Scratch scratch = Scratch.get();
    MemorySegment id = scratch.uniqueId().copyFrom(MemorySegment.ofArray(uniqueId));
    MemorySegment comm = scratch.zeroedWord();
    int result;
    try {
      result = (int) downcall(NcclEntry.COMM_INIT_RANK).invokeExact(comm, nranks, id, rank);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(result, NcclEntry.COMM_INIT_RANK, 0);
    return comm.get(ValueLayout.JAVA_LONG, 0);
  }

  /**
   * Creates one communicator per device of this process, a clique of its own ({@code
   * ncclCommInitAll}).
   *
   * @param devices the CUDA device ordinals; rank {@code i} is on {@code devices[i]}
   * @return the {@code ncclComm_t}s, by rank
   */
  public long[] commInitAll(int[] devices) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment comms = arena.allocate(ValueLayout.JAVA_LONG, Math.max(1, devices.length));
      MemorySegment devlist = arena.allocateFrom(ValueLayout.JAVA_INT, devices);
      int result;
      try {
        result =
            (int) downcall(NcclEntry.COMM_INIT_ALL).invokeExact(comms, devices.length, devlist);
      } catch (Throwable t) {
        throw rethrow(t);
      }
      check(result, NcclEntry.COMM_INIT_ALL, 0);
      return comms.asSlice(0, (long) devices.length * Long.BYTES).toArray(ValueLayout.JAVA_LONG);
    }
  }

  /**
   * Completes a communicator's outstanding operations and frees its resources shared with other
   * ranks ({@code ncclCommFinalize}); {@link #commDestroy} frees the rest.
   *
   * @param comm the {@code ncclComm_t}
   */
  public void commFinalize(long comm) {
    callOnComm(NcclEntry.COMM_FINALIZE, comm);
  }

  /**
   * Frees a communicator ({@code ncclCommDestroy}).
   *
   * @param comm the {@code ncclComm_t}
   */
  public void commDestroy(long comm) {
    callOnComm(NcclEntry.COMM_DESTROY, comm);
  }

  /**
   * Frees a communicator without waiting for its operations, e.g. after a peer failed ({@code
   * ncclCommAbort}).
   *
   * @param comm the {@code ncclComm_t}
   */
  public void commAbort(long comm) {
    callOnComm(NcclEntry.COMM_ABORT, comm);
  }

  /**
   * {@return the number of ranks of a communicator's clique}
   *
   * @param comm the {@code ncclComm_t}
   */
  public int commCount(long comm) {
    return queryInt(NcclEntry.COMM_COUNT, comm);
  }

  /**
   * {@return the CUDA device ordinal a communicator uses}
   *
   * @param comm the {@code ncclComm_t}
   */
  public int commCuDevice(long comm) {
    return queryInt(NcclEntry.COMM_CU_DEVICE, comm);
  }

  /**
   * {@return a communicator's rank}
   *
   * @param comm the {@code ncclComm_t}
   */
  public int commUserRank(long comm) {
    return queryInt(NcclEntry.COMM_USER_RANK, comm);
  }

  /**
   * {@return the {@code ncclResult_t} of a communicator's asynchronous operations}: {@code
   * ncclSuccess}, {@code ncclInProgress} or the error that broke it, returned, not thrown; only a
   * failure of the query itself throws
   *
   * @param comm the {@code ncclComm_t}
   */
  public int commGetAsyncError(long comm) {
    return queryInt(NcclEntry.COMM_GET_ASYNC_ERROR, comm);
  }

  /**
   * Enqueues an all-reduce on {@code stream} ({@code ncclAllReduce}).
   *
   * @param send the device buffer of {@code count} elements to reduce
   * @param recv the device buffer of {@code count} elements for the result; may be {@code send}
   * @param count the number of elements
   * @param dataType the {@code ncclDataType_t} ({@link NcclDataTypes})
   * @param op the {@code ncclRedOp_t} ({@link cuda.graph.nccl.ReduceOp#code()})
   * @param comm the {@code ncclComm_t}
   * @param stream the {@code cudaStream_t}, on the communicator's device
   */
  public void allReduce(
      long send, long recv, long count, int dataType, int op, long comm, long stream) {
    int result;
    try {
      result =
          (int)
              downcall(NcclEntry.ALL_REDUCE)
                  .invokeExact(send, recv, count, dataType, op, comm, stream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(result, NcclEntry.ALL_REDUCE, comm);
  }

  /**
   * Enqueues a broadcast from {@code root} on {@code stream} ({@code ncclBroadcast}).
   *
   * @param send the root's device buffer of {@code count} elements; ignored on other ranks
   * @param recv the device buffer of {@code count} elements to receive into
   * @param count the number of elements
   * @param dataType the {@code ncclDataType_t} ({@link NcclDataTypes})
   * @param root the rank that sends
   * @param comm the {@code ncclComm_t}
   * @param stream the {@code cudaStream_t}, on the communicator's device
   */
  public void broadcast(
      long send, long recv, long count, int dataType, int root, long comm, long stream) {
    int result;
    try {
      result =
          (int)
              downcall(NcclEntry.BROADCAST)
                  .invokeExact(send, recv, count, dataType, root, comm, stream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(result, NcclEntry.BROADCAST, comm);
  }

  /**
   * Enqueues a reduction into {@code root}'s buffer on {@code stream} ({@code ncclReduce}).
   *
   * @param send the device buffer of {@code count} elements to reduce
   * @param recv the root's device buffer of {@code count} elements; ignored on other ranks
   * @param count the number of elements
   * @param dataType the {@code ncclDataType_t} ({@link NcclDataTypes})
   * @param op the {@code ncclRedOp_t} ({@link cuda.graph.nccl.ReduceOp#code()})
   * @param root the rank that receives the result
   * @param comm the {@code ncclComm_t}
   * @param stream the {@code cudaStream_t}, on the communicator's device
   */
  public void reduce(
      long send, long recv, long count, int dataType, int op, int root, long comm, long stream) {
    int result;
    try {
      result =
          (int)
              downcall(NcclEntry.REDUCE)
                  .invokeExact(send, recv, count, dataType, op, root, comm, stream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(result, NcclEntry.REDUCE, comm);
  }

  /**
   * Enqueues an all-gather on {@code stream} ({@code ncclAllGather}).
   *
   * @param send the device buffer of {@code sendCount} elements this rank contributes
   * @param recv the device buffer of {@code sendCount * nranks} elements, by rank
   * @param sendCount the number of elements each rank contributes
   * @param dataType the {@code ncclDataType_t} ({@link NcclDataTypes})
   * @param comm the {@code ncclComm_t}
   * @param stream the {@code cudaStream_t}, on the communicator's device
   */
  public void allGather(
      long send, long recv, long sendCount, int dataType, long comm, long stream) {
    int result;
    try {
      result =
          (int)
              downcall(NcclEntry.ALL_GATHER)
                  .invokeExact(send, recv, sendCount, dataType, comm, stream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(result, NcclEntry.ALL_GATHER, comm);
  }

  /**
   * Enqueues a reduce-scatter on {@code stream} ({@code ncclReduceScatter}).
   *
   * @param send the device buffer of {@code recvCount * nranks} elements to reduce
   * @param recv the device buffer of {@code recvCount} elements: this rank's block of the result
   * @param recvCount the number of elements each rank receives
   * @param dataType the {@code ncclDataType_t} ({@link NcclDataTypes})
   * @param op the {@code ncclRedOp_t} ({@link cuda.graph.nccl.ReduceOp#code()})
   * @param comm the {@code ncclComm_t}
   * @param stream the {@code cudaStream_t}, on the communicator's device
   */
  public void reduceScatter(
      long send, long recv, long recvCount, int dataType, int op, long comm, long stream) {
    int result;
    try {
      result =
          (int)
              downcall(NcclEntry.REDUCE_SCATTER)
                  .invokeExact(send, recv, recvCount, dataType, op, comm, stream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(result, NcclEntry.REDUCE_SCATTER, comm);
  }

  /**
   * Enqueues a send to {@code peer} on {@code stream} ({@code ncclSend}); the peer must enqueue the
   * matching {@link #recv}, in the same group when both ranks also receive.
   *
   * @param buffer the device buffer of {@code count} elements to send
   * @param count the number of elements
   * @param dataType the {@code ncclDataType_t} ({@link NcclDataTypes})
   * @param peer the receiving rank
   * @param comm the {@code ncclComm_t}
   * @param stream the {@code cudaStream_t}, on the communicator's device
   */
  public void send(long buffer, long count, int dataType, int peer, long comm, long stream) {
    int result;
    try {
      result =
          (int) downcall(NcclEntry.SEND).invokeExact(buffer, count, dataType, peer, comm, stream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(result, NcclEntry.SEND, comm);
  }

  /**
   * Enqueues a receive from {@code peer} on {@code stream} ({@code ncclRecv}).
   *
   * @param buffer the device buffer of {@code count} elements to receive into
   * @param count the number of elements
   * @param dataType the {@code ncclDataType_t} ({@link NcclDataTypes})
   * @param peer the sending rank
   * @param comm the {@code ncclComm_t}
   * @param stream the {@code cudaStream_t}, on the communicator's device
   */
  public void recv(long buffer, long count, int dataType, int peer, long comm, long stream) {
    int result;
    try {
      result =
          (int) downcall(NcclEntry.RECV).invokeExact(buffer, count, dataType, peer, comm, stream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(result, NcclEntry.RECV, comm);
  }

  /** Starts a group: the calls until {@link #groupEnd()} are launched together. */
  public void groupStart() {
    group(NcclEntry.GROUP_START);
  }

  /** Ends a group, launching its calls ({@code ncclGroupEnd}). */
  public void groupEnd() {
    group(NcclEntry.GROUP_END);
  }

  /**
   * {@return NCCL's description of {@code result}} ({@code ncclGetErrorString}); the result's name
   * when NCCL returns none
   *
   * @param result an {@code ncclResult_t}
   */
  public String errorString(int result) {
    MemorySegment text;
    try {
      text = (MemorySegment) downcall(NcclEntry.GET_ERROR_STRING).invokeExact(result);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    String description = Ffm.cString(text);
    return description == null ? NcclResults.name(result) : description;
  }

  /**
   * {@return NCCL's description of the last error on this thread} ({@code ncclGetLastError}), or
   * null when it has none
   *
   * @param comm the {@code ncclComm_t} it concerns, or 0: NCCL ignores it so far
   */
  public @Nullable String lastError(long comm) {
    MemorySegment text;
    try {
      text = (MemorySegment) downcall(NcclEntry.GET_LAST_ERROR).invokeExact(comm);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    String last = Ffm.cString(text);
    return last == null || last.isEmpty() ? null : last;
  }

  /**
   * {@return the exception for {@code entry} having returned {@code result}}, with NCCL's
   * descriptions of it: for results learned otherwise than as a call's return, such as {@link
   * #commGetAsyncError}'s
   *
   * @param entry the entry point to name as failed
   * @param result the {@code ncclResult_t}, not {@code ncclSuccess}
   * @param comm the communicator concerned, or 0
   */
  public NcclException failure(NcclEntry entry, int result, long comm) {
    // Describing a failure must not hide it: a description that cannot be had is left out.
    String description;
    String last;
    try {
      description = errorString(result);
    } catch (RuntimeException e) {
      description = null;
    }
    try {
      last = lastError(comm);
    } catch (RuntimeException e) {
      last = null;
    }
    return NcclErrors.failure(entry, result, description, last);
  }

  private void callOnComm(NcclEntry entry, long comm) {
    int result;
    try {
      result = (int) downcall(entry).invokeExact(comm);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(result, entry, comm);
  }

  private int queryInt(NcclEntry entry, long comm) {
    MemorySegment out = Scratch.get().zeroedWord();
    int result;
    try {
      result = (int) downcall(entry).invokeExact(comm, out);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(result, entry, comm);
    return out.get(ValueLayout.JAVA_INT, 0);
  }

  private void group(NcclEntry entry) {
    int result;
    try {
      result = (int) downcall(entry).invokeExact();
    } catch (Throwable t) {
      throw rethrow(t);
    }
    check(result, entry, 0);
  }

  /** Reads the version at binding; a library that cannot say, or is too old, is refused. */
  private int queryVersion(String library) {
    MemorySegment out = Scratch.get().zeroedWord();
    int result;
    try {
      result = (int) downcall(NcclEntry.GET_VERSION).invokeExact(out);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    if (result != NcclResults.SUCCESS) {
      NcclException failure = failure(NcclEntry.GET_VERSION, result, 0);
      throw new NcclUnavailableException(
          library + " cannot say which NCCL it is: " + failure.getMessage(), failure);
    }
    int code = out.get(ValueLayout.JAVA_INT, 0);
    if (code < MINIMUM_VERSION) {
      throw new NcclUnavailableException(
          library
              + " is NCCL "
              + versionString(code)
              + ", and this module needs NCCL "
              + versionString(MINIMUM_VERSION)
              + " or later; "
              + newerNccl(),
          null);
    }
    return code;
  }

  private static String newerNccl() {
    return "install a newer one ("
        + NcclLoader.WHERE_TO_GET_IT
        + ") and put its directory on LD_LIBRARY_PATH, or run java with -D"
        + LIBRARY_PROPERTY
        + "=/path/to/"
        + NcclLoader.SONAME;
  }

  /** Costs a compare on success; only a failure asks NCCL to describe itself. */
  private void check(int result, NcclEntry entry, long comm) {
    if (result != NcclResults.SUCCESS) {
      throw failure(entry, result, comm);
    }
  }

  private MethodHandle downcall(NcclEntry entry) {
    return downcalls[entry.ordinal()];
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

  /** The process's one attempt to load NCCL, made on the first {@link #load()}. */
  private static final class ProcessWide {
    static final LoadOutcome OUTCOME = LoadOutcome.of(NcclLoader::loadConfigured);

    private ProcessWide() {}
  }
}
