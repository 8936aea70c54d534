// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.nccl.NcclException;
import org.junit.jupiter.api.Test;

/** The one message a failed call gets, composed from NCCL's texts without a library. */
class NcclErrorsTests {

  @Test
  void theMessageNamesTheCallTheResultNcclsTwoTextsAndWhatToDo() {
    NcclException e =
        NcclErrors.failure(
            NcclEntry.ALL_REDUCE,
            4,
            "invalid argument (run with NCCL_DEBUG=WARN for details)",
            "ncclAllReduce: invalid data type 11");
    assertEquals(
        "ncclAllReduce failed: ncclInvalidArgument (4), \"invalid argument (run with"
            + " NCCL_DEBUG=WARN for details)\"; NCCL says: ncclAllReduce: invalid data type 11. "
            + NcclResults.advice(4),
        e.getMessage());
    assertEquals("ncclAllReduce", e.function());
    assertEquals(4, e.result());
    assertEquals("ncclInvalidArgument", e.resultName());
  }

  @Test
  void anUnknownCodeIsNamedByItsNumberOnce() {
    NcclException e = NcclErrors.failure(NcclEntry.GROUP_END, 42, "unknown result code", null);
    assertEquals("ncclResult 42", e.resultName());
    assertEquals(42, e.result());
    assertEquals(
        "ncclGroupEnd failed: ncclResult 42, \"unknown result code\". " + NcclResults.advice(42),
        e.getMessage());
  }

  @Test
  void missingOrEmptyTextsAreLeftOut() {
    assertEquals(
        "ncclSend failed: ncclSystemError (2). " + NcclResults.advice(2),
        NcclErrors.failure(NcclEntry.SEND, 2, null, "").getMessage());
    assertEquals(
        "ncclSend failed: ncclSystemError (2). " + NcclResults.advice(2),
        NcclErrors.failure(NcclEntry.SEND, 2, " ", null).getMessage());
  }

  @Test
  void ncclsMultiLineLastErrorBecomesOneLineWithoutADoubledFullStop() {
    String message =
        NcclErrors.failure(
                NcclEntry.COMM_INIT_RANK,
                2,
                "unhandled system error",
                "socketConnect: connection refused.\n  peer 10.0.0.2:4711\n")
            .getMessage();
    assertEquals(
        "ncclCommInitRank failed: ncclSystemError (2), \"unhandled system error\"; NCCL says:"
            + " socketConnect: connection refused. peer 10.0.0.2:4711. "
            + NcclResults.advice(2),
        message);
  }
}
