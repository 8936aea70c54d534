// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One query's tokenization, {@link BertTokenizer#parts} through DJL against the plain-Java path,
 * for EmbedBench's queries (sentences of 6 to 24 words of the machine's text files): p50 and p99 of
 * a call in microseconds, one thread. Not a test: run its main with the test class path.
 */
public final class TokenizerTimings {

  private TokenizerTimings() {}

  public static void main(String[] args) {
    List<String> queries = queries(200);
    System.out.printf("%d queries, e.g. \"%s\"%n", queries.size(), queries.get(0));
    for (LangChain4jModel model :
        List.of(LangChain4jModel.ALL_MINILM_L6_V2, LangChain4jModel.BGE_SMALL_EN_V15_Q)) {
      try (BertTokenizer djl = BertTokenizer.load(model.artifact(), false);
          BertTokenizer fast = BertTokenizer.load(model.artifact(), true)) {
        List<String> plainOnes = queries.stream().filter(q -> fast.plainIds(q) != null).toList();
        int plain = plainOnes.size();
        for (int round = 0; round < 3; round++) {
          double[] d = time(djl, queries);
          double[] f = time(fast, queries);
          double[] a = time(fast, plainOnes);
          System.out.printf(
              "%s round %d: DJL p50 %.2f us p99 %.2f us; with the plain-Java path p50 %.2f us p99"
                  + " %.2f us (%d of %d queries on it; those alone p50 %.2f us p99 %.2f us)%n",
              model.artifactId, round, d[0], d[1], f[0], f[1], plain, queries.size(), a[0], a[1]);
        }
      }
    }
  }

  /** {@return p50 and p99 in microseconds of one parts() call, over 20 passes of the queries} */
  private static double[] time(BertTokenizer tokenizer, List<String> queries) {
    long sink = 0;
    for (int warm = 0; warm < 20; warm++) {
      for (String q : queries) {
        sink += tokenizer.parts(q, "timings", "the query").get(0).ids().length;
      }
    }
    long[] nanos = new long[queries.size() * 20];
    int n = 0;
    for (int pass = 0; pass < 20; pass++) {
      for (String q : queries) {
        long t0 = System.nanoTime();
        sink += tokenizer.parts(q, "timings", "the query").get(0).ids().length;
        nanos[n++] = System.nanoTime() - t0;
      }
    }
    if (sink == 42) {
      System.out.println(); // keeps the calls from being optimised away
    }
    Arrays.sort(nanos);
    return new double[] {nanos[n / 2] / 1e3, nanos[n * 99 / 100] / 1e3};
  }

  /** Sentences of 6 to 24 words, split as EmbedBench splits the machine's text files. */
  static List<String> queries(int max) {
    List<String> out = new ArrayList<>();
    MachineTexts.read(
        List.of(Path.of("/usr/share/doc"), Path.of("/usr/share/common-licenses")),
        text -> {
          for (String s : text.replaceAll("\\s+", " ").split("(?<=[.!?])\\s+")) {
            String t = s.strip();
            int words = t.isEmpty() ? 0 : t.split(" ").length;
            if (words >= 6 && words <= 24) {
              out.add(t);
              if (out.size() == max) {
                return false;
              }
            }
          }
          return true;
        });
    return out;
  }
}
