// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * Every NCCL entry point this module binds, each described once: the exported symbol and the C
 * signature. {@link NcclLibrary} links one downcall per constant and checks the library exports
 * every symbol; {@link NcclErrors} names the failed call by its symbol.
 *
 * <p><b>Signatures.</b> All entry points return an {@code ncclResult_t} except {@link
 * #GET_ERROR_STRING} and {@link #GET_LAST_ERROR}, which return a {@code const char *}. Opaque
 * handles ({@code ncclComm_t}, {@code cudaStream_t}), device pointers and {@code size_t} are passed
 * as {@code long}, which the C calling conventions pass exactly like a pointer and which costs no
 * {@link java.lang.foreign.MemorySegment} per call; enums and {@code int}s as {@code int};
 * out-parameters and host arrays as addresses. The one struct passed by value is {@code
 * ncclUniqueId}, 128 bytes.
 */
public enum NcclEntry {
  /** {@code ncclResult_t ncclGetVersion(int *version)} */
  GET_VERSION("ncclGetVersion", result(C.PTR)),
  /** {@code ncclResult_t ncclGetUniqueId(ncclUniqueId *uniqueId)} */
  GET_UNIQUE_ID("ncclGetUniqueId", result(C.PTR)),
  /**
   * {@code ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId commId, int
   * rank)}: {@code commId} by value.
   */
  COMM_INIT_RANK("ncclCommInitRank", result(C.PTR, C.INT, C.UNIQUE_ID, C.INT)),
  /** {@code ncclResult_t ncclCommInitAll(ncclComm_t *comms, int ndev, const int *devlist)} */
  COMM_INIT_ALL("ncclCommInitAll", result(C.PTR, C.INT, C.PTR)),
  /** {@code ncclResult_t ncclCommFinalize(ncclComm_t comm)} */
  COMM_FINALIZE("ncclCommFinalize", result(C.HANDLE)),
  /** {@code ncclResult_t ncclCommDestroy(ncclComm_t comm)} */
  COMM_DESTROY("ncclCommDestroy", result(C.HANDLE)),
  /** {@code ncclResult_t ncclCommAbort(ncclComm_t comm)} */
  COMM_ABORT("ncclCommAbort", result(C.HANDLE)),
  /** {@code ncclResult_t ncclCommCount(const ncclComm_t comm, int *count)} */
  COMM_COUNT("ncclCommCount", result(C.HANDLE, C.PTR)),
  /** {@code ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int *device)} */
  COMM_CU_DEVICE("ncclCommCuDevice", result(C.HANDLE, C.PTR)),
  /** {@code ncclResult_t ncclCommUserRank(const ncclComm_t comm, int *rank)} */
  COMM_USER_RANK("ncclCommUserRank", result(C.HANDLE, C.PTR)),
  /** {@code ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *asyncError)} */
  COMM_GET_ASYNC_ERROR("ncclCommGetAsyncError", result(C.HANDLE, C.PTR)),
  /** {@code const char *ncclGetErrorString(ncclResult_t result)} */
  GET_ERROR_STRING("ncclGetErrorString", text(C.INT)),
  /** {@code const char *ncclGetLastError(ncclComm_t comm)}: {@code comm} is unused and may be 0. */
  GET_LAST_ERROR("ncclGetLastError", text(C.HANDLE)),

  /**
   * {@code ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count,
   * ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream)}
   */
  ALL_REDUCE("ncclAllReduce", result(C.HANDLE, C.HANDLE, C.SIZE, C.INT, C.INT, C.HANDLE, C.HANDLE)),
  /**
   * {@code ncclResult_t ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count,
   * ncclDataType_t datatype, int root, ncclComm_t comm, cudaStream_t stream)}
   */
  BROADCAST("ncclBroadcast", result(C.HANDLE, C.HANDLE, C.SIZE, C.INT, C.INT, C.HANDLE, C.HANDLE)),
  /**
   * {@code ncclResult_t ncclReduce(const void *sendbuff, void *recvbuff, size_t count,
   * ncclDataType_t datatype, ncclRedOp_t op, int root, ncclComm_t comm, cudaStream_t stream)}
   */
  REDUCE("ncclReduce", result(C.HANDLE, C.HANDLE, C.SIZE, C.INT, C.INT, C.INT, C.HANDLE, C.HANDLE)),
  /**
   * {@code ncclResult_t ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount,
   * ncclDataType_t datatype, ncclComm_t comm, cudaStream_t stream)}
   */
  ALL_GATHER("ncclAllGather", result(C.HANDLE, C.HANDLE, C.SIZE, C.INT, C.HANDLE, C.HANDLE)),
  /**
   * {@code ncclResult_t ncclReduceScatter(const void *sendbuff, void *recvbuff, size_t recvcount,
   * ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream)}
   */
  REDUCE_SCATTER(
      "ncclReduceScatter", result(C.HANDLE, C.HANDLE, C.SIZE, C.INT, C.INT, C.HANDLE, C.HANDLE)),
  /**
   * {@code ncclResult_t ncclSend(const void *sendbuff, size_t count, ncclDataType_t datatype, int
   * peer, ncclComm_t comm, cudaStream_t stream)}
   */
  SEND("ncclSend", result(C.HANDLE, C.SIZE, C.INT, C.INT, C.HANDLE, C.HANDLE)),
  /**
   * {@code ncclResult_t ncclRecv(void *recvbuff, size_t count, ncclDataType_t datatype, int peer,
   * ncclComm_t comm, cudaStream_t stream)}
   */
  RECV("ncclRecv", result(C.HANDLE, C.SIZE, C.INT, C.INT, C.HANDLE, C.HANDLE)),
  /** {@code ncclResult_t ncclGroupStart(void)} */
  GROUP_START("ncclGroupStart", result()),
  /** {@code ncclResult_t ncclGroupEnd(void)} */
  GROUP_END("ncclGroupEnd", result());

  private final String symbol;
  private final FunctionDescriptor descriptor;

  NcclEntry(String symbol, FunctionDescriptor descriptor) {
    this.symbol = symbol;
    this.descriptor = descriptor;
  }

  /** {@return the exported symbol, e.g. {@code ncclAllReduce}} */
  public String symbol() {
    return symbol;
  }

  /** {@return the C signature as the FFM API links it: the parameters' layouts and the result's} */
  public FunctionDescriptor descriptor() {
    return descriptor;
  }

  /** {@return the signature of an entry point taking {@code parameters}, returning ncclResult_t} */
  private static FunctionDescriptor result(MemoryLayout... parameters) {
    return FunctionDescriptor.of(C.INT, parameters);
  }

  /** {@return the signature of an entry point taking {@code parameters}, returning a C string} */
  private static FunctionDescriptor text(MemoryLayout... parameters) {
    return FunctionDescriptor.of(C.PTR, parameters);
  }

  /**
   * The layouts of the C types in the signatures; a nested class because enum constants may not
   * refer to the enum's own static fields.
   */
  private static final class C {
    /** {@code int}, {@code ncclResult_t}, {@code ncclDataType_t}, {@code ncclRedOp_t}. */
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;

    /** {@code size_t}. */
    static final ValueLayout.OfLong SIZE = ValueLayout.JAVA_LONG;

    /** {@code ncclComm_t}, {@code cudaStream_t} and device pointers: never dereferenced here. */
    static final ValueLayout.OfLong HANDLE = ValueLayout.JAVA_LONG;

    /** Host pointers: out-parameters, host arrays, returned strings. */
    static final ValueLayout PTR = ValueLayout.ADDRESS;

    /** {@code ncclUniqueId}: {@code struct { char internal[NCCL_UNIQUE_ID_BYTES]; }}. */
    static final StructLayout UNIQUE_ID =
        MemoryLayout.structLayout(
                MemoryLayout.sequenceLayout(NcclLibrary.UNIQUE_ID_BYTES, ValueLayout.JAVA_BYTE)
                    .withName("internal"))
            .withName("ncclUniqueId");

    private C() {}
  }
}
