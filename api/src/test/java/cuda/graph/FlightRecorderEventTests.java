// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flight recording of a graph's life shows each capture, instantiation, update and launch, with
 * what it was and how long it took, as Java Mission Control lists them.
 */
class FlightRecorderEventTests {

  @Test
  void aRecordingShowsCaptureInstantiateUpdatesAndEveryLaunch(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("graph.jfr");
    try (Recording recording = new Recording()) {
      for (String name :
          List.of(
              "cuda.graph.Capture",
              "cuda.graph.Instantiate",
              "cuda.graph.Update",
              "cuda.graph.Launch")) {
        recording.enable(name).withThreshold(java.time.Duration.ZERO);
      }
      recording.start();
      runAGraphThroughItsLife();
      recording.stop();
      recording.dump(file);
    }
    List<RecordedEvent> events =
        RecordingFile.readAllEvents(file).stream()
            .filter(e -> e.getEventType().getName().startsWith("cuda.graph."))
            .toList();

    List<RecordedEvent> captures = named(events, "cuda.graph.Capture");
    assertEquals(3, captures.size(), "the capture and two recaptures");
    assertEquals(1, captures.get(0).getInt("nodes"));
    assertTrue(captures.get(0).getString("what").contains("scope"), captures.get(0).toString());

    List<RecordedEvent> instantiations = named(events, "cuda.graph.Instantiate");
    assertEquals(2, instantiations.size(), "the first capture and the re-instantiated recapture");
    assertTrue(instantiations.get(1).getBoolean("succeeded"));
    assertEquals(2, instantiations.get(1).getInt("nodes"));

    List<String> changes =
        named(events, "cuda.graph.Update").stream().map(e -> e.getString("change")).toList();
    assertEquals(
        List.of("recapture in place", "node enable state", "recapture re-instantiated"), changes);

    List<RecordedEvent> launches = named(events, "cuda.graph.Launch");
    assertEquals(4, launches.size());
    assertTrue(launches.stream().allMatch(e -> !e.getDuration().isNegative()));
    assertTrue(Files.size(file) > 0);
  }

  @Test
  void aRecordingShowsTheCachesCapturesWithTheirCostsAndItsEvictions(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("cache.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("cuda.graph.CacheCapture").withThreshold(java.time.Duration.ZERO);
      recording.enable("cuda.graph.CacheEviction").withThreshold(java.time.Duration.ZERO);
      recording.start();
      try (CudaPlatform platform = SimulatorPlatforms.simulator();
          Stream stream = platform.defaultDevice().newStream();
          DeviceBuffer<Integer> out = DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream);
          GraphCache<Integer> cache =
              GraphCache.create(
                  stream,
                  GraphCache.Settings.budget(1 << 10).withMaxGraphs(1),
                  (rows, scope) -> {
                    DeviceBuffer<Integer> t = scope.temporary(ElementType.I32, 64L * rows);
                    scope.record(t.fill(rows));
                    scope.record(out.slice(0, rows).copyFrom(t.slice(0, rows)));
                  })) {
        cache.launch(2).syncOn(stream);
        cache.launch(4).syncOn(stream); // evicts 2: one graph at most
        assertThrows(IllegalStateException.class, () -> cache.launch(8)); // 2 KiB > 1 KiB
      }
      recording.stop();
      recording.dump(file);
    }
    List<RecordedEvent> events = RecordingFile.readAllEvents(file);
    List<RecordedEvent> captures = named(events, "cuda.graph.CacheCapture");
    assertEquals(
        List.of("2 CACHED", "4 CACHED", "8 REFUSED_BY_BUDGET"),
        captures.stream().map(e -> e.getString("key") + " " + e.getString("outcome")).toList());
    assertEquals(512, captures.get(0).getLong("graphMemory"));
    assertTrue(captures.get(1).getLong("instantiateNanos") >= 0, captures.get(1).toString());
    List<RecordedEvent> evictions = named(events, "cuda.graph.CacheEviction");
    assertEquals(1, evictions.size());
    assertEquals("2", evictions.getFirst().getString("key"));
    assertEquals("4", evictions.getFirst().getString("forKey"));
    assertEquals(1, evictions.getFirst().getLong("replays"));
  }

  private static void runAGraphThroughItsLife() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      DeviceBuffer<Integer> a = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
      DeviceBuffer<Integer> b = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
      AtomicReference<@Nullable RecordedNode> fill = new AtomicReference<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(stream, s -> fill.set(s.recordNode(a.fill(1))))) {
        graph.launch().syncOn(stream);
        graph.recapture(s -> fill.set(s.recordNode(b.fill(2))));
        graph.launch().syncOn(stream);
        graph.setEnabled(fill.get(), false);
        graph.launch().syncOn(stream);
        graph.recapture(
            s -> {
              s.record(a.fill(3));
              s.record(b.fill(3));
            });
        graph.launch().syncOn(stream);
      }
      a.close();
      b.close();
    }
  }

  private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
    return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
  }
}
