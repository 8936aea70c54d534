// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.embed.measure;

import java.util.Locale;

/**
 * The check behind a published floor: each of our embeddings against an anchor's embedding of the
 * same text, the worst cosine against the floor and the worst distance of our embedding's L2 norm
 * from 1 (a cosine is blind to scale: embeddings all half as long have cosine 1).
 *
 * <p>NaN fails it. A NaN never compares smaller, so a worst kept with {@code if (c < worst)} stays
 * at its start and prints PASS over NaN embeddings; here a NaN cosine or norm becomes the worst
 * (the first one, with its index) and {@link #passed} asks {@code worst >= floor}, false for NaN. A
 * check of no embeddings does not pass either.
 *
 * @param count how many embeddings were checked
 * @param worstCosine the smallest cosine, NaN if any is NaN; positive infinity if none
 * @param worstCosineAt its index, -1 if none
 * @param worstNormError the largest {@code |norm - 1|}, NaN if any is NaN; 0 if none
 * @param worstNormAt its index, -1 if none
 * @param floor the smallest cosine that passes
 */
public record FloorCheck(
    int count,
    double worstCosine,
    int worstCosineAt,
    double worstNormError,
    int worstNormAt,
    double floor) {

  /** The floor of the fp32 mode's cosines to LangChain4j's fp32 model, as published. */
  public static final double FP32_FLOOR = 0.99999;

  /** The floor of the fp16 mode's cosines to LangChain4j's fp32 model, as published. */
  public static final double FP16_FLOOR = 0.9995;

  /**
   * How far from 1 an embedding's norm may be: the pooling kernel divides by an fp32 norm of 384
   * fp32 values, which leaves the result's norm a few fp32 roundings (6e-8 each) from 1; 1e-5 is
   * far above that and far below any scale error that matters.
   */
  public static final double NORM_TOLERANCE = 1e-5;

  /** {@return the check of {@code ours[i]} against {@code anchors[i]} for every {@code i}} */
  public static FloorCheck of(float[][] ours, float[][] anchors, double floor) {
    if (ours.length != anchors.length) {
      throw new IllegalArgumentException(
          "FloorCheck.of: "
              + ours.length
              + " embeddings against "
              + anchors.length
              + " anchors; pass one anchor per embedding");
    }
    double worst = Double.POSITIVE_INFINITY, worstNorm = 0;
    int at = -1, normAt = -1;
    for (int i = 0; i < ours.length; i++) {
      double cosine = cosine(ours[i], anchors[i]);
      // Written so that NaN takes the place (!(NaN >= x) holds) and then keeps it.
      if (!Double.isNaN(worst) && !(cosine >= worst)) {
        worst = cosine;
        at = i;
      }
      double normError = Math.abs(norm(ours[i]) - 1);
      if (!Double.isNaN(worstNorm) && !(normError <= worstNorm)) {
        worstNorm = normError;
        normAt = i;
      }
    }
    return new FloorCheck(ours.length, worst, at, worstNorm, normAt, floor);
  }

  /** {@return the L2 norm of {@code v}, summed in double} */
  static double norm(float[] v) {
    double squares = 0;
    for (float f : v) {
      squares += (double) f * f;
    }
    return Math.sqrt(squares);
  }

  /**
   * {@return whether there was an embedding, the worst cosine is at least the floor and the worst
   * norm within {@link #NORM_TOLERANCE} of 1}; false where either is NaN
   */
  public boolean passed() {
    return count > 0 && worstCosine >= floor && worstNormError <= NORM_TOLERANCE;
  }

  /** {@return "PASS" or "FAIL"} */
  public String verdict() {
    return passed() ? "PASS" : "FAIL";
  }

  /**
   * {@return the columns of a CSV check line}: {@code worst_cosine,W,at,I,floor,F,
   * worst_norm_error,E,at,J,PASS}
   */
  public String columns() {
    return String.format(
        Locale.ROOT,
        "worst_cosine,%.9f,at,%d,floor,%s,worst_norm_error,%.2e,at,%d,%s",
        worstCosine,
        worstCosineAt,
        floor,
        worstNormError,
        worstNormAt,
        verdict());
  }

  /** {@return the cosine of {@code a} and {@code b}}, NaN if either holds a NaN */
  public static double cosine(float[] a, float[] b) {
    double dot = 0, na = 0, nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += (double) a[i] * b[i];
      na += (double) a[i] * a[i];
      nb += (double) b[i] * b[i];
    }
    return dot / Math.sqrt(na * nb);
  }

  /**
   * {@return the worst cosine and worst norm, each with whether it held}: "0.999999336 (at least
   * 0.99999); |1 - norm| at most 5.96e-08 (within 1e-05)", with BELOW and OUTSIDE where not, and
   * NaN shown as NaN, failing both
   */
  public String judged() {
    boolean cosineHeld = count > 0 && worstCosine >= floor;
    boolean normHeld = worstNormError <= NORM_TOLERANCE;
    return String.format(
        Locale.ROOT,
        "%.9f (%s %s); |1 - norm| at most %.2e (%s %.0e)",
        worstCosine,
        cosineHeld ? "at least" : "BELOW",
        floor,
        worstNormError,
        normHeld ? "within" : "OUTSIDE",
        NORM_TOLERANCE);
  }
}
