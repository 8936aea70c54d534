// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.nccl.NcclException;
import cuda.graph.nccl.NcclUnavailableException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The typed calls against a fake NCCL of upcall stubs: arguments reach NCCL as given,
 * out-parameters come back, a non-zero result throws through the funnel with NCCL's own words, and
 * binding refuses a library that lacks a symbol or is too old.
 */
class NcclLibraryTests {

  private final FakeNccl fake = FakeNccl.recording();

  @AfterEach
  void closeTheFake() {
    fake.close();
  }

  @Test
  void theVersionReadAtBindingIsGivenAsCodeAndAsText() {
    NcclLibrary nccl = fake.version(22703).bind();
    assertEquals(22703, nccl.version());
    assertEquals("2.27.3", nccl.versionString());
    assertEquals(FakeNccl.NAME, nccl.library());
  }

  @Test
  void aCollectiveThatSucceedsPassesEveryArgumentThroughUnchanged() {
    NcclLibrary nccl = fake.bind();
    nccl.allReduce(0x10, 0x20, 1000, NcclDataTypes.FLOAT32, 4, 0xC0, 0x50);
    assertEquals(
        List.of(0x10L, 0x20L, 1000L, NcclDataTypes.FLOAT32, 4, 0xC0L, 0x50L),
        fake.lastCall(NcclEntry.ALL_REDUCE));
    nccl.broadcast(0x11, 0x21, 7, NcclDataTypes.INT8, 3, 0xC1, 0x51);
    assertEquals(
        List.of(0x11L, 0x21L, 7L, NcclDataTypes.INT8, 3, 0xC1L, 0x51L),
        fake.lastCall(NcclEntry.BROADCAST));
    nccl.reduce(0x12, 0x22, 8, NcclDataTypes.FLOAT64, 2, 1, 0xC2, 0x52);
    assertEquals(
        List.of(0x12L, 0x22L, 8L, NcclDataTypes.FLOAT64, 2, 1, 0xC2L, 0x52L),
        fake.lastCall(NcclEntry.REDUCE));
    nccl.allGather(0x13, 0x23, 9, NcclDataTypes.BFLOAT16, 0xC3, 0x53);
    assertEquals(
        List.of(0x13L, 0x23L, 9L, NcclDataTypes.BFLOAT16, 0xC3L, 0x53L),
        fake.lastCall(NcclEntry.ALL_GATHER));
    nccl.reduceScatter(0x14, 0x24, 1L << 33, NcclDataTypes.INT64, 1, 0xC4, 0x54);
    assertEquals(
        List.of(0x14L, 0x24L, 1L << 33, NcclDataTypes.INT64, 1, 0xC4L, 0x54L),
        fake.lastCall(NcclEntry.REDUCE_SCATTER));
    nccl.send(0x15, 10, NcclDataTypes.INT32, 5, 0xC5, 0x55);
    assertEquals(
        List.of(0x15L, 10L, NcclDataTypes.INT32, 5, 0xC5L, 0x55L), fake.lastCall(NcclEntry.SEND));
    nccl.recv(0x16, 11, NcclDataTypes.FLOAT16, 6, 0xC6, 0x56);
    assertEquals(
        List.of(0x16L, 11L, NcclDataTypes.FLOAT16, 6, 0xC6L, 0x56L), fake.lastCall(NcclEntry.RECV));
    nccl.groupStart();
    nccl.groupEnd();
    assertEquals(List.of(), fake.lastCall(NcclEntry.GROUP_START));
    assertEquals(List.of(), fake.lastCall(NcclEntry.GROUP_END));
  }

  @Test
  void aCollectiveThatFailsThrowsWithTheCodeNcclsDescriptionItsLastErrorAndTheAdvice() {
    NcclLibrary nccl =
        fake.returning(NcclEntry.ALL_REDUCE, NcclResults.INVALID_USAGE)
            .lastError("ncclAllReduce: rank 1 called ncclBroadcast instead\n")
            .bind();
    NcclException e =
        assertThrows(
            NcclException.class,
            () -> nccl.allReduce(0x10, 0x20, 1, NcclDataTypes.FLOAT32, 0, 0xC0, 0x50));
    assertEquals("ncclAllReduce", e.function());
    assertEquals(5, e.result());
    assertEquals("ncclInvalidUsage", e.resultName());
    assertEquals(
        "ncclAllReduce failed: ncclInvalidUsage (5), \""
            + FakeNccl.description(5)
            + "\"; NCCL says: ncclAllReduce: rank 1 called ncclBroadcast instead. "
            + NcclResults.advice(5),
        e.getMessage());
  }

  @Test
  void aGroupThatFailsThrowsNamingItsEndAndLeavesOutAnEmptyLastError() {
    NcclLibrary nccl =
        fake.returning(NcclEntry.GROUP_END, NcclResults.REMOTE_ERROR).lastError("").bind();
    nccl.groupStart();
    NcclException e = assertThrows(NcclException.class, nccl::groupEnd);
    assertEquals("ncclGroupEnd", e.function());
    assertEquals(
        "ncclGroupEnd failed: ncclRemoteError (6), \""
            + FakeNccl.description(6)
            + "\". "
            + NcclResults.advice(6),
        e.getMessage());
  }

  @Test
  void aUniqueIdIsCopiedOutAndPassedBackByValueToCommInitRank() {
    NcclLibrary nccl = fake.bind();
    byte[] id = nccl.uniqueId();
    assertArrayEquals(FakeNccl.uniqueId(), id);
    assertEquals(FakeNccl.COMM, nccl.commInitRank(4, id, 2));
    assertArrayEquals(id, fake.idSeen());
    assertEquals(List.of(4, 2), fake.lastCall(NcclEntry.COMM_INIT_RANK));
  }

  @Test
  void aUniqueIdOfTheWrongSizeIsRefusedBeforeNcclSeesIt() {
    NcclLibrary nccl = fake.bind();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> nccl.commInitRank(2, new byte[16], 0));
    assertEquals("an ncclUniqueId is 128 bytes, not 16", e.getMessage());
    assertNull(fake.lastCall(NcclEntry.COMM_INIT_RANK));
  }

  @Test
  void aFailedCommInitRankThrowsInsteadOfReturningAHandle() {
    NcclLibrary nccl = fake.returning(NcclEntry.COMM_INIT_RANK, NcclResults.SYSTEM_ERROR).bind();
    NcclException e =
        assertThrows(NcclException.class, () -> nccl.commInitRank(2, FakeNccl.uniqueId(), 0));
    assertEquals("ncclCommInitRank", e.function());
    assertEquals("ncclSystemError", e.resultName());
  }

  @Test
  void commInitAllReturnsOneCommunicatorPerDeviceInRankOrder() {
    NcclLibrary nccl = fake.bind();
    assertArrayEquals(new long[] {0x1003, 0x1001, 0x1002}, nccl.commInitAll(new int[] {3, 1, 2}));
    assertEquals(List.of(3), fake.lastCall(NcclEntry.COMM_INIT_ALL));
  }

  @Test
  void theQueriesReturnWhatNcclWroteForTheCommunicatorAsked() {
    NcclLibrary nccl =
        fake.answering(NcclEntry.COMM_COUNT, 8)
            .answering(NcclEntry.COMM_CU_DEVICE, 3)
            .answering(NcclEntry.COMM_USER_RANK, 5)
            .bind();
    assertEquals(8, nccl.commCount(0xAB));
    assertEquals(List.of(0xABL), fake.lastCall(NcclEntry.COMM_COUNT));
    assertEquals(3, nccl.commCuDevice(0xAC));
    assertEquals(List.of(0xACL), fake.lastCall(NcclEntry.COMM_CU_DEVICE));
    assertEquals(5, nccl.commUserRank(0xAD));
    assertEquals(List.of(0xADL), fake.lastCall(NcclEntry.COMM_USER_RANK));
  }

  @Test
  void anAsyncErrorIsReturnedNotThrownButAFailedQueryThrows() {
    NcclLibrary nccl = fake.answering(NcclEntry.COMM_GET_ASYNC_ERROR, 6).bind();
    assertEquals(NcclResults.REMOTE_ERROR, nccl.commGetAsyncError(0xC0));
    fake.returning(NcclEntry.COMM_GET_ASYNC_ERROR, NcclResults.INVALID_ARGUMENT);
    NcclException e = assertThrows(NcclException.class, () -> nccl.commGetAsyncError(0));
    assertEquals("ncclCommGetAsyncError", e.function());
  }

  @Test
  void finalizeDestroyAndAbortPassTheCommunicatorAndThrowOnFailure() {
    NcclLibrary nccl = fake.returning(NcclEntry.COMM_ABORT, NcclResults.INTERNAL_ERROR).bind();
    nccl.commFinalize(0xC0);
    assertEquals(List.of(0xC0L), fake.lastCall(NcclEntry.COMM_FINALIZE));
    nccl.commDestroy(0xC1);
    assertEquals(List.of(0xC1L), fake.lastCall(NcclEntry.COMM_DESTROY));
    NcclException e = assertThrows(NcclException.class, () -> nccl.commAbort(0xC2));
    assertEquals("ncclCommAbort", e.function());
    assertEquals(List.of(0xC2L), fake.lastCall(NcclEntry.COMM_ABORT));
  }

  @Test
  void ncclsTextsAreReadAndAnEmptyOrMissingLastErrorIsNull() {
    NcclLibrary nccl = fake.lastError("peer 3 closed the connection").bind();
    assertEquals(FakeNccl.description(2), nccl.errorString(2));
    assertEquals("peer 3 closed the connection", nccl.lastError(0));
    fake.lastError("");
    assertNull(nccl.lastError(0));
    fake.lastError(null);
    assertNull(nccl.lastError(0));
  }

  @Test
  void aLibraryWithoutASymbolIsRefusedNamingItTheLibraryAndTheVersionNeeded() {
    fake.without("ncclCommFinalize");
    NcclUnavailableException e = assertThrows(NcclUnavailableException.class, fake::bind);
    String message = String.valueOf(e.getMessage());
    assertTrue(message.startsWith(FakeNccl.NAME + " has no symbol ncclCommFinalize"), message);
    assertTrue(message.contains("NCCL 2.18.0 or later"), message);
    assertTrue(message.contains("pip install nvidia-nccl-cu13"), message);
  }

  @Test
  void anNcclOlderThan218IsRefusedNamingTheVersionFound() {
    fake.version(21706);
    NcclUnavailableException e = assertThrows(NcclUnavailableException.class, fake::bind);
    String message = String.valueOf(e.getMessage());
    assertTrue(
        message.startsWith(
            FakeNccl.NAME + " is NCCL 2.17.6, and this module needs NCCL 2.18.0 or later"),
        message);
    assertTrue(message.contains("-Dcuda.graph.nccl.library=/path/to/libnccl.so.2"), message);
  }

  @Test
  void aVersionCodeFromBeforeNccl29IsReadInItsOwnScheme() {
    fake.version(2804);
    NcclUnavailableException e = assertThrows(NcclUnavailableException.class, fake::bind);
    assertTrue(String.valueOf(e.getMessage()).contains(" is NCCL 2.8.4,"), e.getMessage());
  }

  @Test
  void aLibraryThatCannotSayItsVersionIsRefusedWithNcclsFailureAsTheCause() {
    fake.returning(NcclEntry.GET_VERSION, NcclResults.INTERNAL_ERROR);
    NcclUnavailableException e = assertThrows(NcclUnavailableException.class, fake::bind);
    NcclException cause = assertInstanceOf(NcclException.class, e.getCause());
    assertEquals("ncclGetVersion", cause.function());
    assertTrue(
        String.valueOf(e.getMessage()).startsWith(FakeNccl.NAME + " cannot say which NCCL it is"),
        e.getMessage());
  }

  @Test
  void failureDescribesAResultLearnedOtherwiseThanAsAReturn() {
    NcclLibrary nccl = fake.lastError("rank 2 timed out").bind();
    NcclException e = nccl.failure(NcclEntry.COMM_GET_ASYNC_ERROR, 6, 0xC0);
    assertEquals(
        "ncclCommGetAsyncError failed: ncclRemoteError (6), \""
            + FakeNccl.description(6)
            + "\"; NCCL says: rank 2 timed out. "
            + NcclResults.advice(6),
        e.getMessage());
  }

  @Test
  void versionCodesAreWrittenAsMajorMinorPatch() {
    assertEquals("2.18.0", NcclLibrary.versionString(21800));
    assertEquals("2.27.3", NcclLibrary.versionString(22703));
    assertEquals("3.0.1", NcclLibrary.versionString(30001));
    assertEquals("2.7.8", NcclLibrary.versionString(2708));
  }
}
