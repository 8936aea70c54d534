// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example;

import cuda.graph.Buckets;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphCache;
import cuda.graph.Stream;

/** One graph per batch-size bucket, captured once each and replayed through a GraphCache. */
public class GraphPerBucket {

  public static void main(String[] args) {
    Buckets batches = Buckets.batchSizes(64); // 1, 2, 4, 8, 16, 24, ..., 64: 11 buckets
    try (Stream stream = CudaPlatform.system().defaultDevice().newStream();
        DeviceBuffer<Float> y = DeviceBuffer.zeros(ElementType.F32, 64 * 384).syncOn(stream);
        GraphCache<Integer> steps =
            GraphCache.create(
                stream,
                GraphCache.Settings.budget(256L << 20), // the graph memory they may hold
                (rows, scope) -> { // records the step of one bucket, once
                  DeviceBuffer<Float> h = scope.temporary(ElementType.F32, rows * 384L);
                  scope.record(h.fill(1f)); // h lives only while a replay runs
                  scope.record(y.slice(0, rows * 384L).copyFrom(h)); // a prefix of y
                })) {
      steps.warm(batches.sizes()); // all 11 captured up front (or each on first use)
      Buckets.Bucket bucket = batches.cover(13); // 13 requests: bucket 16, 3 rows of padding
      steps.launch(bucket.size()).syncOn(stream); // a hit: a lookup and one cuGraphLaunch
      float[] out = y.toFloatArray().syncOn(stream);
      // prints: bucket 16 for 13 rows: row 15 = 1.0, row 16 = 0.0; not graphed: []
      System.out.println(
          "bucket "
              + bucket.size()
              + " for 13 rows: row 15 = "
              + out[15 * 384]
              + ", row 16 = "
              + out[16 * 384]
              + "; not graphed: "
              + steps.notGraphed()); // keys that failed, were refused or evicted, and why
    }
  }
}
