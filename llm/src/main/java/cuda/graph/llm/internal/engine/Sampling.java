// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

/**
 * How a sequence's next token is chosen: greedily (temperature 0), or drawn from the softmax of its
 * logits at {@code temperature}, kept to the nucleus of {@code topP}, with a counter-based random
 * number of {@code (seed, counter)} (the counter is the sequence's length after the token), so that
 * a seed replays the same tokens whatever else runs in the batch and on every provider.
 *
 * @param temperature 0 for greedy, else positive and finite
 * @param topP the nucleus's share of the probability, in (0, 1]; 1 keeps every token
 * @param seed the seed of the sequence's draws
 */
public record Sampling(float temperature, float topP, long seed) {

  /** The argmax, lowest index on ties. */
  public static final Sampling GREEDY = new Sampling(0f, 1f, 0L);

  /**
   * Checks the parameters.
   *
   * @throws IllegalArgumentException for a negative or non-finite temperature, or a top-p outside
   *     (0, 1]
   */
  public Sampling {
    if (!(temperature >= 0) || !Float.isFinite(temperature)) {
      throw new IllegalArgumentException(
          "Sampling: temperature "
              + temperature
              + " is not a finite number >= 0; use 0 for greedy decoding or a positive"
              + " temperature such as 0.7");
    }
    if (!(topP > 0 && topP <= 1)) {
      throw new IllegalArgumentException(
          "Sampling: top_p " + topP + " is outside (0, 1]; use 1 to keep every token");
    }
  }

  /** {@return whether this is greedy decoding} */
  public boolean greedy() {
    return temperature == 0f;
  }

  /**
   * {@return the {@link LlmKernels#SAMPLING_WORDS} ints the sample kernel reads}: temperature and
   * top-p as float bits, the seed's low and high words, the counter
   *
   * @param counter the draw's counter (the sequence's length after the token)
   */
  public int[] words(int counter) {
    return new int[] {
      Float.floatToRawIntBits(temperature),
      Float.floatToRawIntBits(topP),
      (int) seed,
      (int) (seed >>> 32),
      counter
    };
  }

  /** SplitMix64's finalizer, as {@code mix64} of llm_kernels.cu. */
  static long mix64(long z) {
    z += 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /**
   * {@return the uniform number in [0, 1) of {@code (seed, counter)}}: 24 bits of a hash, so that
   * it is exact in fp32 and the same on every provider
   *
   * @param seed the seed
   * @param counter the counter
   */
  public static float uniform(long seed, int counter) {
    long r = mix64(seed ^ mix64(counter & 0xffffffffL));
    return (float) (r >>> 40) * (1f / 16777216f);
  }

  /** The argmax key of llm_kernels.cu: the largest is the largest value with the lowest index. */
  static long argmaxKey(float v, int index) {
    int b = Float.floatToRawIntBits(v);
    b = b < 0 ? ~b : (b | 0x80000000);
    return ((long) b << 32) | (~index & 0xffffffffL);
  }

  /**
   * {@return the token the sample kernel picks from {@code row}} with parameters {@code p} ({@link
   * #words}) in a block of {@code threads} threads: the kernel's algorithm in its order (each
   * thread's chunk of the vocabulary, the chunks' sums in thread order), with Java's exp
   *
   * @param row the logits
   * @param p the parameters' words
   * @param threads the threads of the kernel's block, which cut the vocabulary into chunks
   */
  static int pick(float[] row, int[] p, int threads) {
    long best = 0;
    for (int i = 0; i < row.length; i++) {
      long k = argmaxKey(row[i], i);
      best = Long.compareUnsigned(k, best) > 0 ? k : best;
    }
    return pick(row, p, threads, ~(int) best);
  }

  /** As {@link #pick(float[], int[], int)}, with the row's argmax already found. */
  static int pick(float[] row, int[] p, int threads, int argmax) {
    int vocab = row.length;
    float temperature = Float.intBitsToFloat(p[0]), topP = Float.intBitsToFloat(p[1]);
    if (!(temperature > 0f)) {
      return argmax;
    }
    float max = row[argmax], invT = 1f / temperature;
    float[] w = new float[vocab];
    for (int i = 0; i < vocab; i++) {
      w[i] = (float) Math.exp((row[i] - max) * invT);
    }
    int chunk = (vocab + threads - 1) / threads;
    float tau = 0f;
    if (topP < 1f) {
      float need = topP * mass(w, 0f, chunk, threads);
      int lo = 0, hi = Float.floatToRawIntBits(1f) + 1;
      while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (mass(w, Float.intBitsToFloat(mid), chunk, threads) >= need) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      tau = Float.intBitsToFloat(lo);
    }
    float[] sums = new float[threads];
    int[] lasts = new int[threads];
    for (int t = 0; t < threads; t++) {
      lasts[t] = -1;
      for (int i = Math.min(vocab, t * chunk); i < Math.min(vocab, t * chunk + chunk); i++) {
        if (w[i] >= tau) {
          sums[t] += w[i];
          lasts[t] = i;
        }
      }
    }
    float run = 0f;
    float[] prefix = new float[threads];
    for (int t = 0; t < threads; t++) {
      prefix[t] = run;
      run += sums[t];
    }
    long seed = ((long) p[3] << 32) | (p[2] & 0xffffffffL);
    float target = uniform(seed, p[4]) * run;
    for (int t = 0; t < threads; t++) {
      if (target >= prefix[t] && target < prefix[t] + sums[t]) {
        float r = prefix[t];
        for (int i = t * chunk; i < Math.min(vocab, t * chunk + chunk); i++) {
          if (w[i] >= tau) {
            r += w[i];
            if (r > target) {
              return i;
            }
          }
        }
        return lasts[t];
      }
    }
    for (int i = vocab - 1; i >= 0; i--) {
      if (w[i] >= tau) {
        return i;
      }
    }
    return argmax;
  }

  /** {@return the sum of the weights at least {@code tau}, chunk by chunk in thread order} */
  private static float mass(float[] w, float tau, int chunk, int threads) {
    float total = 0f;
    for (int t = 0; t < threads; t++) {
      float part = 0f;
      for (int i = Math.min(w.length, t * chunk); i < Math.min(w.length, t * chunk + chunk); i++) {
        if (w[i] >= tau) {
          part += w[i];
        }
      }
      total += part;
    }
    return total;
  }
}
