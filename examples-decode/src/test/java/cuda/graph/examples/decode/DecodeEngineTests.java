// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.GraphNode;
import cuda.graph.NodeKind;
import cuda.graph.Stream;
import cuda.graph.simulator.Simulator;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The tiny model decoded on the simulator: eagerly it computes exactly the Java reference's logits
 * and tokens, and the graph modes (a self-advancing graph per token, the same read on the host, a
 * device-side WHILE loop) decode the same tokens.
 */
class DecodeEngineTests {

  private static final int STEPS = 12;
  private static CudaPlatform platform;
  private static Stream stream;
  private static Weights weights;
  private static ReferenceModel.Decode reference;

  @BeforeAll
  static void tinyModel() {
    platform = CudaPlatform.forDriver(Simulator.create(), "simulator");
    stream = platform.defaultDevice().newStream();
    weights = Weights.generate(LlamaConfig.TINY, 7);
    reference = ReferenceModel.decode(weights, STEPS);
  }

  @AfterAll
  static void close() {
    weights.close();
    platform.close();
  }

  @Test
  void eagerStepsComputeTheJavaReferencesLogitsExactly() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream)) {
      engine.reset(STEPS);
      for (int s = 0; s < STEPS; s++) {
        float[] logits = engine.step(null).andThen(engine.logits.toFloatArray()).syncOn(stream);
        assertArrayEquals(reference.logits().get(s), logits, "logits of step " + s);
      }
      assertArrayEquals(reference.tokens(), engine.tokens(STEPS));
    }
  }

  @Test
  void aReplayedStepGraphAdvancesItselfAndDecodesTheReferenceTokens() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream);
        CudaGraph<@Nullable Void> step = engine.captureStep()) {
      assertEquals(LlamaConfig.TINY.kernelsPerToken(), step.nodeCount());
      engine.reset(STEPS);
      List<Integer> readEachStep = new ArrayList<>();
      for (int s = 0; s < STEPS; s++) {
        readEachStep.add(step.launch().andThen(engine.readToken()).syncOn(stream)[0]);
      }
      int[] tokens = engine.tokens(STEPS);
      assertArrayEquals(reference.tokens(), tokens);
      for (int s = 0; s < STEPS; s++) {
        assertEquals(tokens[s + 1], readEachStep.get(s), "token read after step " + s);
      }
    }
  }

  @Test
  void aStepOfProgrammaticDependentLaunchesDecodesTheReferenceTokens() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream);
        CudaGraph<@Nullable Void> step = engine.captureProgrammaticStep()) {
      engine.reset(STEPS);
      for (int s = 0; s < STEPS; s++) {
        step.launch().syncOn(stream);
      }
      assertArrayEquals(reference.tokens(), engine.tokens(STEPS));
    }
  }

  @Test
  void oneLaunchOfTheDeviceLoopDecodesEveryToken() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream);
        CudaGraph<@Nullable Void> loop = engine.captureLoop()) {
      assertEquals(List.of(NodeKind.CONDITIONAL), loop.nodeKinds());
      engine.reset(STEPS);
      loop.launch().syncOn(stream);
      assertArrayEquals(reference.tokens(), engine.tokens(STEPS));
      engine.reset(3); // the loop's length is device data: a shorter decode, same graph
      loop.launch().syncOn(stream);
      int[] three = engine.tokens(3);
      for (int p = 0; p <= 3; p++) {
        assertEquals(reference.tokens()[p], three[p]);
      }
    }
  }

  @Test
  void aDeviceLoopOfProgrammaticLaunchesDecodesEveryToken() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream);
        CudaGraph<@Nullable Void> loop = engine.captureLoop(true)) {
      assertEquals(List.of(NodeKind.CONDITIONAL), loop.nodeKinds());
      engine.reset(STEPS);
      loop.launch().syncOn(stream);
      assertArrayEquals(reference.tokens(), engine.tokens(STEPS));
    }
  }

  @Test
  void eagerStepsComposedIntoOneOpDecodeTheSameTokens() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream)) {
      engine.reset(STEPS);
      List<GraphNode<?>> steps = new ArrayList<>();
      for (int s = 0; s < STEPS; s++) {
        steps.add(engine.step(null));
      }
      GraphNode.sequence(steps).syncOn(stream);
      assertArrayEquals(reference.tokens(), engine.tokens(STEPS));
    }
  }

  @Test
  void aDecodeLongerThanTheCacheIsRefusedBeforeAnyWork() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream)) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> engine.reset(LlamaConfig.TINY.maxSeq()));
      assertTrue(e.getMessage().contains("cache of 64 positions"), e.getMessage());
    }
  }
}
