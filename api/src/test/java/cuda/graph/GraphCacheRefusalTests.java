// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.GraphCache.Settings;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The refusals of {@link GraphCache} and {@link Buckets} that no other test reaches (issue 36, item
 * 12): each is the exception its Javadoc names, with a message that names the call, the bad value
 * and what to do, and nothing is captured for it.
 */
class GraphCacheRefusalTests extends InstrumentedPlatformFixture {

  private final AtomicInteger recorded = new AtomicInteger();

  private GraphCache<String> cache() {
    return GraphCache.create(
        stream, Settings.budget(1 << 20), (key, scope) -> recorded.incrementAndGet());
  }

  /**
   * {@return the message of the {@code type} that {@code bad} throws, checked to hold each part}
   */
  private static String refused(
      Class<? extends RuntimeException> type, Executable bad, String... parts) {
    String message = assertThrows(type, bad).getMessage();
    for (String part : parts) {
      assertTrue(message.contains(part), () -> "'" + part + "' missing from: " + message);
    }
    return message;
  }

  @Test
  void aNullKeyIsRefusedByEveryCallThatTakesOneBeforeAnythingIsRecorded() {
    try (GraphCache<String> cache = cache()) {
      List<Executable> calls =
          List.of(
              () -> cache.launch(null).syncOn(stream),
              () -> cache.isCached(null),
              () -> cache.stats(null),
              () -> cache.forget(null));
      List<String> names =
          List.of(
              "GraphCache.launch", "GraphCache.isCached", "GraphCache.stats", "GraphCache.forget");
      for (int i = 0; i < calls.size(); i++) {
        refused(
            NullPointerException.class,
            calls.get(i),
            names.get(i) + ": key is null",
            "pass the key of a shape");
      }
      assertEquals(0, recorded.get(), "nothing recorded for a null key");
    }
  }

  @Test
  void aNullAmongTheKeysToWarmIsRefusedNamingItsPositionBeforeAnyKeyIsCaptured() {
    try (GraphCache<String> cache = cache()) {
      refused(
          NullPointerException.class,
          () -> cache.warm(Arrays.asList("a", null, "c")),
          "GraphCache.warm: key 1 of [a, null, c] is null",
          "pass the keys of shapes");
      assertEquals(0, recorded.get(), "no key captured");
      assertEquals(false, cache.isCached("a"));
    }
  }

  @Test
  void aCacheOnAClosedStreamIsRefusedNamingTheStreamAndWhatToUseInstead() {
    Stream closed = platform.defaultDevice().newStream();
    closed.close();
    refused(
        IllegalStateException.class,
        () -> GraphCache.create(closed, Settings.budget(1 << 20), (key, scope) -> {}),
        "GraphCache.create",
        closed.toString(),
        "is closed",
        "make the cache on an open stream");
  }

  @Test
  void batchSizesUpToZeroAreRefusedNamingTheMaximumAndTheSmallestAllowed() {
    refused(
        IllegalArgumentException.class,
        () -> Buckets.batchSizes(0),
        "Buckets.batchSizes",
        "max 0",
        "pass the largest batch size to capture, 1 or more");
  }

  @Test
  void aBucketOfSizeZeroIsRefusedNamingTheSizeAndTheSmallestAllowed() {
    String message =
        refused(
            IllegalArgumentException.class,
            () -> Buckets.of(0),
            "Buckets",
            "size 0",
            "give sizes of 1 or more");
    assertTrue(
        !message.contains("drop duplicates"), () -> "advice for another problem: " + message);
  }
}
