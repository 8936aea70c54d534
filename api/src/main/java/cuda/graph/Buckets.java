// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Sizes to capture graphs for (batch sizes, sequence lengths), and the smallest one that covers an
 * actual size. Immutable and thread-safe.
 *
 * <p>For example:
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=buckets}
 *
 * @param sizes the bucket sizes, positive and strictly increasing
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record Buckets(List<Integer> sizes) {

  /** Checks and copies the sizes. */
  public Buckets {
    sizes = List.copyOf(sizes);
    if (sizes.isEmpty()) {
      throw new IllegalArgumentException("Buckets: give at least one size");
    }
    int previous = 0;
    for (int size : sizes) {
      if (size < 1) {
        throw new IllegalArgumentException(
            "Buckets: size " + size + " in " + sizes + " is not positive; give sizes of 1 or more");
      }
      if (size <= previous) {
        throw new IllegalArgumentException(
            "Buckets: sizes are positive and strictly increasing, got "
                + sizes
                + "; sort them and drop duplicates");
      }
      previous = size;
    }
  }

  /**
   * {@return buckets of the given sizes}
   *
   * @param sizes positive and strictly increasing
   * @throws IllegalArgumentException if there is none, one is less than 1, or they do not increase
   */
  public static Buckets of(int... sizes) {
    List<Integer> list = new ArrayList<>(sizes.length);
    for (int size : sizes) {
      list.add(size);
    }
    return new Buckets(list);
  }

  /**
   * {@return 1, 2, 4, then every multiple of 8 up to {@code max}}: the batch sizes vLLM captures by
   * default (67 of them for 512)
   *
   * @param max the largest batch size, at least 1
   * @throws IllegalArgumentException if {@code max} is less than 1
   */
  public static Buckets batchSizes(int max) {
    if (max < 1) {
      throw new IllegalArgumentException(
          "Buckets.batchSizes: max "
              + max
              + " holds no batch size; pass the largest batch size to capture, 1 or more");
    }
    List<Integer> list = new ArrayList<>();
    for (int size : new int[] {1, 2, 4}) {
      if (size <= max) {
        list.add(size);
      }
    }
    for (int size = 8; size <= max; size += 8) {
      list.add(size);
    }
    return new Buckets(list);
  }

  /**
   * The bucket an actual size runs in.
   *
   * @param actual the size asked for
   * @param size the bucket's size, the smallest at least {@code actual}
   * @since 0.1.0
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  public record Bucket(int actual, int size) {

    /** {@return how many elements are padding: {@code size - actual}} */
    public int padding() {
      return size - actual;
    }
  }

  /**
   * {@return the smallest bucket at least {@code actual}}
   *
   * @param actual a positive size
   * @throws IllegalArgumentException if {@code actual} is not positive or exceeds the largest
   *     bucket
   */
  public Bucket cover(int actual) {
    if (actual < 1) {
      throw new IllegalArgumentException("Buckets.cover: a size is at least 1, got " + actual);
    }
    int low = 0, high = sizes.size() - 1;
    if (actual > sizes.get(high)) {
      throw new IllegalArgumentException(
          "Buckets.cover: "
              + actual
              + " is larger than the largest bucket, "
              + sizes.get(high)
              + "; split the work or add a larger bucket");
    }
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (sizes.get(mid) >= actual) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    return new Bucket(actual, sizes.get(low));
  }

  /** {@return the largest bucket} */
  public int largest() {
    return sizes.getLast();
  }
}
