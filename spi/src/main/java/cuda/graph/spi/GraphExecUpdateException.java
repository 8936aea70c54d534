// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * {@code cuGraphExecUpdate_v2} returned {@code CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE} (910): the
 * update graph differs from the instantiated one in a way an update cannot express. The exec is
 * left unchanged.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class GraphExecUpdateException extends CudaDriverException {

  private static final long serialVersionUID = 1L;

  /** {@code CU_GRAPH_EXEC_UPDATE_ERROR}. */
  public static final int ERROR = 1;

  /** {@code CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED}. */
  public static final int TOPOLOGY_CHANGED = 2;

  /** {@code CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED}. */
  public static final int NODE_TYPE_CHANGED = 3;

  /** {@code CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED}. */
  public static final int PARAMETERS_CHANGED = 5;

  /** {@code CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED}. */
  public static final int NOT_SUPPORTED = 6;

  /** The {@code CUgraphExecUpdateResult} the driver reported. */
  private final int updateResult;

  private final transient @Nullable CuGraphNode errorNode;

  /**
   * Reports a failed update as {@code CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE} from {@code
   * cuGraphExecUpdate_v2}, with the update result (and node, if any) as the detail.
   *
   * @param updateResult the {@code CUgraphExecUpdateResult} the driver reported, e.g. {@link
   *     #TOPOLOGY_CHANGED}
   * @param errorNode the node of the update graph the driver blamed, or null when it named none
   */
  public GraphExecUpdateException(int updateResult, @Nullable CuGraphNode errorNode) {
    super(
        CuResult.GRAPH_EXEC_UPDATE_FAILURE,
        DriverCall.GRAPH_EXEC_UPDATE,
        "update result "
            + resultName(updateResult)
            + (errorNode == null ? "" : " at " + errorNode));
    this.updateResult = updateResult;
    this.errorNode = errorNode;
  }

  /** {@return the {@code CUgraphExecUpdateResult} the driver reported} */
  public int updateResult() {
    return updateResult;
  }

  /** {@return the node of the update graph that caused the failure, or null when none is named} */
  public @Nullable CuGraphNode errorNode() {
    return errorNode;
  }

  /**
   * {@return the {@code CU_GRAPH_EXEC_UPDATE_*} name of an update result}, without the prefix, or
   * {@code "result N"} for a value CUDA 13.0 does not define
   *
   * @param result a {@code CUgraphExecUpdateResult} value
   */
  public static String resultName(int result) {
    return switch (result) {
      case 0 -> "SUCCESS";
      case ERROR -> "ERROR";
      case TOPOLOGY_CHANGED -> "ERROR_TOPOLOGY_CHANGED";
      case NODE_TYPE_CHANGED -> "ERROR_NODE_TYPE_CHANGED";
      case 4 -> "ERROR_FUNCTION_CHANGED";
      case PARAMETERS_CHANGED -> "ERROR_PARAMETERS_CHANGED";
      case NOT_SUPPORTED -> "ERROR_NOT_SUPPORTED";
      case 7 -> "ERROR_UNSUPPORTED_FUNCTION_CHANGE";
      case 8 -> "ERROR_ATTRIBUTES_CHANGED";
      default -> "result " + result;
    };
  }
}
