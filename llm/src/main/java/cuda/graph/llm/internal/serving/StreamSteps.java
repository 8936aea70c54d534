// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.serving;

import cuda.graph.Device;
import cuda.graph.Stream;
import cuda.graph.llm.internal.engine.BatchStep;
import cuda.graph.llm.internal.engine.ModelWeights;
import java.util.List;

/**
 * The {@link Steps} of one {@link BatchStep} on a stream of its own: what the engine's scheduler
 * runs (and the benchmark's and the scheduler tests'); closing them closes the step, then the
 * stream.
 */
public final class StreamSteps implements Steps {

  private final Stream stream;
  private final BatchStep step;

  private StreamSteps(Stream stream, BatchStep step) {
    this.stream = stream;
    this.step = step;
  }

  /**
   * {@return the steps of a new BatchStep over {@code weights} on a new stream of {@code device}};
   * the stream is closed again when the step cannot be made
   *
   * @param device the device the steps run on
   * @param weights the model
   * @param limits how large a step and the cache can be
   * @param graphMemoryBudget the graph cache's budget in bytes, or 0 for the largest bucket's
   *     activations
   */
  public static StreamSteps open(
      Device device, ModelWeights weights, BatchStep.Limits limits, long graphMemoryBudget) {
    return open(device, weights, limits, graphMemoryBudget, BatchStep.Tuning.defaults());
  }

  /**
   * As {@link #open(Device, ModelWeights, BatchStep.Limits, long)}, a step of one token run as
   * {@code tuning} says (LlmBench compares tunings in one process).
   *
   * @param device the device
   * @param weights the model
   * @param limits how large a step and the cache can be
   * @param graphMemoryBudget the graph cache's budget in bytes, or 0 for the largest bucket's
   *     activations
   * @param tuning how a step of one token runs its products
   * @return the steps, owning their stream
   */
  public static StreamSteps open(
      Device device,
      ModelWeights weights,
      BatchStep.Limits limits,
      long graphMemoryBudget,
      BatchStep.Tuning tuning) {
    Stream stream = device.newStream();
    try {
      return new StreamSteps(
          stream, new BatchStep(weights, stream, limits, graphMemoryBudget, tuning));
    } catch (RuntimeException | Error e) {
      stream.close();
      throw e;
    }
  }

  /** {@return the step (the benchmark reads its counts)} */
  public BatchStep step() {
    return step;
  }

  @Override
  public int[] run(List<BatchStep.Chunk> chunks) {
    return step.run(chunks);
  }

  @Override
  public void close() {
    step.close();
    stream.close();
  }
}
