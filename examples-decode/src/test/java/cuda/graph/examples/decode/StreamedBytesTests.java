// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A decode step streams every layer's weights, the final norm and the output matrix, but of the
 * token embedding only the row of the token fed: the GB/s the example prints count those bytes, not
 * the file's.
 */
class StreamedBytesTests {

  @Test
  void theOneBShapeStreams2_47GBPerTokenNotTheFilesThree() {
    LlamaConfig c = LlamaConfig.LLAMA_1B;
    long file = Short.BYTES * c.parameters();
    long streamed = c.streamedWeightBytesPerToken();
    assertEquals(2_471_632_896L, streamed);
    assertEquals(file - Short.BYTES * ((long) c.vocab() * c.dim() - c.dim()), streamed);
    assertEquals(3.0, file / 1e9, 0.01, "the file, embedding table included");
  }

  @Test
  void theSmallShapesStreamWhatTheirLayersAndHeadHold() {
    // stories15M: 6 layers of 995,904 weights, a 32,000 x 288 head, the final norm and one row.
    assertEquals(
        Short.BYTES * (6L * 995_904 + 32_000L * 288 + 288 + 288),
        LlamaConfig.STORIES_15M.streamedWeightBytesPerToken());
    assertEquals(0.22, LlamaConfig.STORIES_110M.streamedWeightBytesPerToken() / 1e9, 0.01);
  }
}
