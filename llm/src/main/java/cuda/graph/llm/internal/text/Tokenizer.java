// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.text;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A model's Hugging Face tokenizer, read from its {@code tokenizer.json} by DJL (the library the
 * embeddings module uses; its native library comes in its jar). Encoding adds no special token
 * unless asked: a chat template or the caller places them. Thread-safe: DJL's tokenizer is.
 */
public final class Tokenizer implements AutoCloseable {

  private final HuggingFaceTokenizer tokenizer;
  private final String where;

  private Tokenizer(HuggingFaceTokenizer tokenizer, String where) {
    this.tokenizer = tokenizer;
    this.where = where;
  }

  /**
   * Loads {@code tokenizer.json}.
   *
   * @param file the tokenizer.json of a model directory
   * @return the tokenizer, to be closed
   * @throws IllegalArgumentException when the file is not a tokenizer DJL can read
   * @throws UncheckedIOException when it cannot be read
   */
  public static Tokenizer load(Path file) {
    byte[] json;
    try {
      json = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException("Tokenizer.load(" + file + "): cannot read it: " + e, e);
    }
    // On a host with a GPU, DJL picks a CUDA build of its native library and would download it;
    // the jar's CPU build is all tokenizing needs (as in the embeddings module).
    if (System.getenv("RUST_FLAVOR") == null && System.getProperty("RUST_FLAVOR") == null) {
      System.setProperty("RUST_FLAVOR", "cpu");
    }
    try {
      return new Tokenizer(
          HuggingFaceTokenizer.newInstance(
              new ByteArrayInputStream(json),
              Map.of("padding", "false", "truncation", "false", "addSpecialTokens", "false")),
          file.toString());
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "Tokenizer.load(" + file + "): not a Hugging Face tokenizer.json: " + e.getMessage(), e);
    }
  }

  /** {@return the token ids of {@code text}, without special tokens} */
  public int[] encode(String text) {
    return encode(text, false);
  }

  /**
   * {@return the token ids of {@code text}}
   *
   * @param text the text (special tokens written in it, e.g. {@code <|eot_id|>}, are matched)
   * @param addSpecialTokens whether the tokenizer's post-processor adds its tokens (e.g. BOS)
   */
  public int[] encode(String text, boolean addSpecialTokens) {
    long[] ids = tokenizer.encode(text, addSpecialTokens, false).getIds();
    int[] out = new int[ids.length];
    for (int i = 0; i < ids.length; i++) {
      out[i] = Math.toIntExact(ids[i]);
    }
    return out;
  }

  /** {@return the text of {@code ids}, special tokens left out} */
  public String decode(int[] ids) {
    return decode(ids, true);
  }

  /**
   * {@return the text of {@code ids}}: bytes that do not form complete UTF-8 come out as U+FFFD
   *
   * @param ids token ids
   * @param skipSpecialTokens whether special tokens are left out
   */
  public String decode(int[] ids, boolean skipSpecialTokens) {
    long[] longs = new long[ids.length];
    for (int i = 0; i < ids.length; i++) {
      longs[i] = ids[i];
    }
    return tokenizer.decode(longs, skipSpecialTokens);
  }

  /**
   * {@return a decoder for one generated sequence, a token at a time}
   *
   * @param stopSequences texts that end the sequence where they appear (left out of the text)
   */
  public DecodeStream stream(List<String> stopSequences) {
    return new DecodeStream(this, stopSequences);
  }

  @Override
  public String toString() {
    return "Tokenizer(" + where + ")";
  }

  @Override
  public void close() {
    tokenizer.close();
  }
}
