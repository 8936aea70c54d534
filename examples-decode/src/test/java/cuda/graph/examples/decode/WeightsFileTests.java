// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Weights written as safetensors read back bit for bit, in MODEL.md's names and order. */
class WeightsFileTests {

  @Test
  void weightsWrittenAndReadBackAreTheSameBits(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("tiny.safetensors");
    try (Weights written = Weights.generate(LlamaConfig.TINY, 3)) {
      written.write(file);
      try (Weights read = Weights.read(file)) {
        assertEquals(LlamaConfig.TINY, read.config);
        assertEquals(3, read.seed);
        List<SafeTensors.Tensor> a = written.tensors(), b = read.tensors();
        assertEquals(a.size(), b.size());
        for (int t = 0; t < a.size(); t++) {
          assertEquals(a.get(t).name(), b.get(t).name());
          assertEquals(-1, a.get(t).data().mismatch(b.get(t).data()), a.get(t).name());
        }
      }
    }
    // The data starts 8-byte aligned, as safetensors readers that map the file expect.
    long header =
        java.nio.ByteBuffer.wrap(Files.readAllBytes(file), 0, 8)
            .order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .getLong();
    assertEquals(0, (8 + header) % 8);
  }

  @Test
  void theTensorsFollowModelMdsNamesAndShapes() {
    try (Weights w = Weights.generate(LlamaConfig.TINY, 1)) {
      List<SafeTensors.Tensor> t = w.tensors();
      assertEquals(3 + 9 * LlamaConfig.TINY.layers(), t.size());
      assertEquals("tok_embeddings.weight", t.get(0).name());
      assertEquals("layers.0.attention.wk.weight", t.get(3).name());
      assertEquals(List.of(32L, 64L), List.of(t.get(3).shape()[0], t.get(3).shape()[1]));
      assertEquals("output.weight", t.get(t.size() - 1).name());
      assertEquals(LlamaConfig.TINY.parameters() * 2, w.byteSize());
    }
  }

  @Test
  void generatedWeightsDependOnTheSeedOnly() {
    try (Weights a = Weights.generate(LlamaConfig.TINY, 5);
        Weights b = Weights.generate(LlamaConfig.TINY, 5);
        Weights c = Weights.generate(LlamaConfig.TINY, 6)) {
      assertEquals(-1, a.output.mismatch(b.output));
      assertTrue(a.output.mismatch(c.output) >= 0);
    }
  }

  @Test
  void aFileOfAnotherShapeIsRefusedWithTheTensorNamed(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("bad.safetensors");
    try (Weights w = Weights.generate(LlamaConfig.TINY, 1)) {
      List<SafeTensors.Tensor> tensors = new java.util.ArrayList<>(w.tensors());
      SafeTensors.Tensor emb = tensors.get(0);
      tensors.set(0, new SafeTensors.Tensor(emb.name(), new long[] {128, 128}, emb.data()));
      SafeTensors.write(file, LlamaConfig.TINY.metadata(1), tensors);
    }
    IOException e = assertThrows(IOException.class, () -> Weights.read(file));
    assertTrue(e.getMessage().contains("tok_embeddings.weight"), e.getMessage());
  }
}
