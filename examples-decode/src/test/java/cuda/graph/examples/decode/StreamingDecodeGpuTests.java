// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Stream;
import java.time.Duration;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The stream mode on the GPU, with the stories15M shape: the CUDA kernel {@code finish_stream}
 * publishes each token into mapped host memory while the WHILE loop runs, and the host receives the
 * tokens the graph mode decodes, in order, while the launch still runs; through a ring that wraps,
 * too, where the kernel waits for the host; and from a loop of programmatic launches. Skipped where
 * the system platform is not the cuda provider (no GPU).
 */
@Tag("gpu")
class StreamingDecodeGpuTests {

  private static final int STEPS = 64;
  private static Stream stream;
  private static Weights weights;

  @BeforeAll
  static void stories15M() {
    CudaPlatform system = CudaPlatform.system();
    Assumptions.assumeTrue(
        system.providerId().equals("cuda"),
        "no GPU: the system platform is '" + system.providerId() + "'");
    stream = system.defaultDevice().newStream();
    weights = Weights.generate(LlamaConfig.STORIES_15M, 42);
  }

  @AfterAll
  static void close() {
    if (weights != null) {
      weights.close();
      stream.close();
    }
  }

  private static int[] graphModeTokens(DecodeEngine engine) {
    try (CudaGraph<@Nullable Void> step = engine.captureStep()) {
      engine.reset(STEPS);
      for (int s = 0; s < STEPS; s++) {
        step.launch().syncOn(stream);
      }
      return Arrays.copyOfRange(engine.tokens(STEPS), 1, STEPS + 1);
    }
  }

  @Test
  void theStreamModeDeliversTheGraphModesTokensWhileTheLaunchRuns() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream);
        CudaGraph<@Nullable Void> loop = engine.captureStreamLoop()) {
      int[] expected = graphModeTokens(engine);
      engine.reset(STEPS);
      int[] got = new int[STEPS];
      int[] next = {0};
      boolean[] doneAtFirst = {true};
      TokenRing.StreamingDecode run = engine.startStreaming(loop, STEPS);
      int delivered =
          run.drainTo(
              (index, token, deviceNanos, seenNanos) -> {
                if (index == 0) {
                  doneAtFirst[0] = run.launch().isDone(); // 63 steps (ms) still to run
                }
                assertEquals(next[0]++, index);
                got[index] = token;
              });
      assertEquals(STEPS, delivered);
      assertArrayEquals(expected, got);
      assertFalse(doneAtFirst[0], "the launch had completed when the first token arrived");
    }
  }

  @Test
  void aRingOfEightSlotsWrapsOnTheGpuWithoutLosingAToken() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream, 8, Duration.ofSeconds(5));
        CudaGraph<@Nullable Void> loop = engine.captureStreamLoop()) {
      int[] expected = graphModeTokens(engine);
      engine.reset(STEPS);
      int[] got = new int[STEPS];
      engine.decodeStreaming(
          loop, STEPS, (index, token, deviceNanos, seenNanos) -> got[index] = token);
      assertArrayEquals(expected, got);
    }
  }

  @Test
  void theLoopOfProgrammaticLaunchesStreamsTheGraphModesTokens() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream, 8, Duration.ofSeconds(5));
        CudaGraph<@Nullable Void> loop = engine.captureStreamLoop(true)) {
      int[] expected = graphModeTokens(engine);
      engine.reset(STEPS);
      int[] got = new int[STEPS];
      assertEquals(
          STEPS,
          engine.decodeStreaming(
              loop, STEPS, (index, token, deviceNanos, seenNanos) -> got[index] = token));
      assertArrayEquals(expected, got);
    }
  }

  @Test
  void theDevicesTimerIsMappedToTheHostsWithinMicroseconds() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream)) {
      TokenRing.ClockOffset clock = engine.calibrateClock(100);
      assertTrue(
          clock.errorNanos() > 0 && clock.errorNanos() < 50_000,
          "error bound " + clock.errorNanos() + " ns");
    }
  }
}
