// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static cuda.graph.SaxpyExampleTests.SAXPY_REFERENCE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The examples in the API's Javadoc: each {@code @start region=...} to {@code @end} below is shown
 * by a {@code {@snippet class=cuda.graph.JavadocSnippetsTests region=...}} tag (the javadoc tool
 * reads this file through {@code --snippet-path src/test/java}), so every example compiles with the
 * tests and runs here, on the system platform, which is the simulator in this module's tests.
 */
class JavadocSnippetsTests {

  /**
   * {@code countdown(int *counter, condition more)}, one thread: {@code counter[0] -= 1} and {@code
   * more} becomes whether it is still positive. The PTX declares the entry only: the simulator runs
   * the Java reference.
   */
  static final Kernel COUNTDOWN =
      KernelImage.ptx(
              """
              .version 9.0
              .target sm_90
              .address_size 64
              .visible .entry countdown(.param .u64 counter, .param .u64 more) { ret; }
              """)
          .withReference(
              "countdown",
              call -> {
                MemorySegment counter = call.memory(0, 4);
                int left = counter.get(JAVA_INT_UNALIGNED, 0) - 1;
                counter.set(JAVA_INT_UNALIGNED, 0, left);
                call.setCondition(1, left > 0 ? 1 : 0);
              })
          .kernel("countdown", KernelParam.pointer(ElementType.I32), KernelParam.CONDITION);

  /**
   * {@code scale(int n, float a, float *x)}: {@code x[i] *= a} for each of the first {@code n}
   * elements, from CUDA C++ source, with its Java reference: the kernel the examples of {@link
   * KernelImage}, {@link Kernel} and {@link LaunchConfig} launch.
   */
  static final Kernel SCALE = scaleKernel();

  private static Kernel scaleKernel() {
    // @start region=java-kernel
    // scale(int n, float a, float *x): x[i] *= a for i < n, computed for the whole grid at once
    JavaKernel scaleOnHost =
        call -> {
          MemorySegment x = call.memory(2, 4L * call.i32(0)); // parameter 2: n floats
          float a = call.f32(1);
          for (long i = 0; i < call.i32(0); i++) {
            x.setAtIndex(JAVA_FLOAT_UNALIGNED, i, a * x.getAtIndex(JAVA_FLOAT_UNALIGNED, i));
          }
        };
    // @end
    // @start region=kernel-image
    Kernel scale =
        KernelImage.cudaSource( // compiled by NVRTC at the first launch on a GPU
                "scale.cu",
                """
                extern "C" __global__ void scale(int n, float a, float *x) {
                  int i = blockIdx.x * blockDim.x + threadIdx.x;
                  if (i < n) x[i] *= a;
                }
                """)
            .withReference("scale", scaleOnHost) // a JavaKernel: what the simulator runs
            .kernel(
                "scale", KernelParam.I32, KernelParam.F32, KernelParam.pointer(ElementType.F32));
    // @end
    return scale;
  }

  private Stream stream;

  @BeforeEach
  void openStream() {
    stream = CudaPlatform.system().defaultDevice().newStream();
  }

  @AfterEach
  void closeStream() {
    stream.close();
  }

  @Test
  void platform() {
    float[] values;
    // @start region=platform
    CudaPlatform platform = CudaPlatform.system(); // chosen once per process
    Device device = platform.defaultDevice();
    try (Stream stream = device.newStream();
        DeviceBuffer<Float> x = DeviceBuffer.filled(ElementType.F32, 4, 1.5f).syncOn(stream)) {
      values = x.toFloatArray().syncOn(stream); // [1.5, 1.5, 1.5, 1.5]
    }
    // @end
    assertArrayEquals(new float[] {1.5f, 1.5f, 1.5f, 1.5f}, values);
  }

  @Test
  void deviceOp() {
    float now;
    CompletableFuture<Float> later;
    // @start region=device-op
    try (DeviceBuffer<Float> x = DeviceBuffer.zeros(ElementType.F32, 3).syncOn(stream)) {
      // A description of work: nothing runs when it is built.
      DeviceOp<Float> sum = x.fill(2f).andThen(x.toFloatArray()).map(a -> a[0] + a[1] + a[2]);
      now = sum.syncOn(stream); // runs on stream, waits: 6.0
      // Another op (an op runs once): the future completes when the GPU work has.
      later = x.fill(3f).andThen(x.toFloatArray()).map(a -> a[0] + a[1] + a[2]).asyncOn(stream);
    } // closing x while the work is queued is safe: its memory goes when the work is done
    // @end
    assertEquals(6f, now);
    assertEquals(9f, later.join());
  }

  @Test
  void graphNode() {
    float[] first;
    float[] second;
    // @start region=graph-node
    try (DeviceBuffer<Float> a = DeviceBuffer.zeros(ElementType.F32, 2).syncOn(stream);
        DeviceBuffer<Float> b = DeviceBuffer.zeros(ElementType.F32, 2).syncOn(stream);
        DeviceBuffer<Float> c = DeviceBuffer.zeros(ElementType.F32, 2).syncOn(stream)) {
      // Fills, copies and kernel launches between existing buffers, and their compositions:
      GraphNode<@Nullable Void> fillThenCopy = GraphNode.sequence(a.fill(1f), b.copyFrom(a));
      GraphNode<List<@Nullable Void>> branches =
          GraphNode.parallel(List.of(fillThenCopy, c.fill(2f))); // concurrent, joined after
      try (CudaGraph<List<@Nullable Void>> graph = CudaGraph.capture(stream, branches)) {
        graph.launch().syncOn(stream);
      }
      first = b.toFloatArray().syncOn(stream); // [1.0, 1.0]
      second = c.toFloatArray().syncOn(stream); // [2.0, 2.0]
    }
    // @end
    assertArrayEquals(new float[] {1f, 1f}, first);
    assertArrayEquals(new float[] {2f, 2f}, second);
  }

  @Test
  void cudaGraph() {
    Device device = stream.device();
    float[] result;
    String how;
    // @start region=cuda-graph
    try (DeviceBuffer<Float> x = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(stream);
        DeviceBuffer<Float> y = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(stream);
        HostBuffer<Float> input = device.allocateHost(ElementType.F32, 4); // pinned
        CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, y.copyFrom(x))) {
      for (int step = 0; step < 3; step++) {
        input.write(new float[] {step, step, step, step});
        graph.update(x.copyFrom(input)); // on graph.stream(), so before the launch below
        graph.launch().syncOn(graph.stream()); // one cuGraphLaunch; y = x
      }
      result = y.toFloatArray().syncOn(stream); // [2.0, 2.0, 2.0, 2.0]
      how =
          switch (graph.recapture(y.fill(9f))) { // other work, the same graph object
            case GraphUpdate.InPlace inPlace -> "in place"; // cuGraphExecUpdate took it
            case GraphUpdate.Reinstantiated r -> "anew: " + r.reason(); // driver's or library's
          };
    }
    // @end
    assertArrayEquals(new float[] {2f, 2f, 2f, 2f}, result);
    assertTrue(how.startsWith("anew: "), "a fill replaced a copy: " + how);
  }

  /** What the scope example hands out of its body. */
  // @start region=scope-nodes
  record Fills(RecordedNode first, RecordedNode second) {} // @end

  @Test
  void scope() {
    int[] counted;
    int[] filled;
    // @start region=scope
    try (DeviceBuffer<Integer> counter = DeviceBuffer.fromArray(new int[] {5}).syncOn(stream);
        DeviceBuffer<Integer> out = DeviceBuffer.fromArray(new int[2]).syncOn(stream);
        CudaGraph<Fills> graph =
            CudaGraph.scopeReturning(
                stream,
                scope -> {
                  // A WHILE node: the body runs until COUNTDOWN, a kernel, clears the condition.
                  GraphCondition more = scope.condition(1); // 1 when each launch starts
                  scope.whileLoop(
                      more,
                      body -> body.record(COUNTDOWN.launch(LaunchConfig.of(1, 1), counter, more)));
                  // Nodes to change later without capturing again: the body returns them.
                  return new Fills(
                      scope.recordNode(out.slice(0, 1).fill(1)),
                      scope.recordNode(out.slice(1, 1).fill(2)));
                })) {
      Fills fills = graph.takeOutput();
      graph.replaceNode(fills.first(), out.slice(0, 1).fill(7)); // same kind of node
      graph.setEnabled(fills.second(), false);
      graph.launch().syncOn(stream);
      counted = counter.toIntArray().syncOn(stream); // [0]: five turns, decided on the device
      filled = out.toIntArray().syncOn(stream); // [7, 0]
    }
    // @end
    assertArrayEquals(new int[] {0}, counted);
    assertArrayEquals(new int[] {7, 0}, filled);
  }

  @Test
  void module() {
    Device device = stream.device();
    int n = 4;
    float[] doubled;
    // @start region=module
    try (DeviceBuffer<Float> x = DeviceBuffer.zeros(ElementType.F32, n).syncOn(stream);
        DeviceBuffer<Float> y = DeviceBuffer.zeros(ElementType.F32, n).syncOn(stream);
        HostBuffer<Float> staging = device.allocateHost(ElementType.F32, n);
        HostBuffer<Float> out = device.allocateHost(ElementType.F32, n)) {
      // The op to replay, over x; its result (out, a handle) is what the output function gets.
      DeviceOp<HostBuffer<Float>> forward =
          y.fill(0f)
              .andThen(SaxpyExampleTests.SAXPY.launch(LaunchConfig.covering(n, 256), n, 2f, x, y))
              .andThen(y.copyTo(out))
              .map(ignored -> out);
      try (Module<float[], float[]> twice =
          Module.capture(
              stream,
              InputBinding.floats(staging, x), // float[n] -> staging -> x, before each replay
              forward,
              HostBuffer::toFloatArray)) { // after each replay: out -> float[]
        doubled = twice.forward(new float[] {1, 2, 3, 4}); // [2.0, 4.0, 6.0, 8.0]
      }
    }
    // @end
    assertArrayEquals(new float[] {2f, 4f, 6f, 8f}, doubled);
  }

  @Test
  void graphCache() {
    float[] out;
    List<GraphCache.NotGraphed<Integer>> report;
    // @start region=graph-cache
    Buckets batches = Buckets.batchSizes(64); // 1, 2, 4, 8, 16, 24, ..., 64
    try (DeviceBuffer<Float> y = DeviceBuffer.zeros(ElementType.F32, 64 * 8).syncOn(stream);
        GraphCache<Integer> steps =
            GraphCache.create(
                stream,
                GraphCache.Settings.budget(256L << 20), // graph memory the graphs may hold
                (rows, scope) -> { // records the step of one bucket, the first time
                  DeviceBuffer<Float> h = scope.temporary(ElementType.F32, rows * 8L);
                  scope.record(h.fill(1f)); // h exists only while a replay runs
                  scope.record(y.slice(0, rows * 8L).copyFrom(h));
                })) {
      steps.warm(batches.sizes()); // every bucket captured up front (or each on first use)
      Buckets.Bucket bucket = batches.cover(13); // 13 rows: bucket 16, padding 3
      steps.launch(bucket.size()).syncOn(stream); // a hit: a lookup and one cuGraphLaunch
      report = steps.notGraphed(); // keys that failed, were refused or evicted, and why
      out = y.toFloatArray().syncOn(stream); // rows 0 to 15 are 1.0
    }
    // @end
    assertEquals(List.of(), report);
    assertEquals(1f, out[16 * 8 - 1]);
    assertEquals(0f, out[16 * 8]);
  }

  @Test
  void buckets() {
    // @start region=buckets
    Buckets lengths = Buckets.of(32, 64, 128, 256);
    Buckets.Bucket bucket = lengths.cover(100); // size 128, padding 28
    // @end
    assertEquals(128, bucket.size());
    assertEquals(28, bucket.padding());
  }

  @Test
  void kernelImage() {
    // @start region=kernel-image-ptx
    // PTX next to this class, as nvcc -ptx wrote it, read with this class's own access:
    Kernel saxpy =
        KernelImage.ptxResource(MethodHandles.lookup(), "saxpy.ptx")
            .withReference("saxpy", SAXPY_REFERENCE) // a JavaKernel: y = a * x + y
            .kernel( // checked against the PTX's .entry: count, size and kind of each parameter
                "saxpy",
                KernelParam.I32,
                KernelParam.F32,
                KernelParam.pointer(ElementType.F32),
                KernelParam.pointer(ElementType.F32));
    // @end
    float[] y;
    try (DeviceBuffer<Float> x = DeviceBuffer.fromArray(new float[] {1, 2}).syncOn(stream);
        DeviceBuffer<Float> out = DeviceBuffer.fromArray(new float[] {10, 20}).syncOn(stream)) {
      y =
          saxpy
              .launch(LaunchConfig.of(1, 32), 2, 3f, x, out)
              .andThen(out.toFloatArray())
              .syncOn(stream);
    }
    assertArrayEquals(new float[] {13f, 26f}, y);
    float[] scaled = {1, 2, 3};
    SCALE.runReference(LaunchConfig.of(1, 32), 3, 2f, scaled); // the reference of kernel-image
    assertArrayEquals(new float[] {2f, 4f, 6f}, scaled);
  }

  @Test
  void kernel() {
    float[] scaled;
    // @start region=kernel
    try (DeviceBuffer<Float> x = DeviceBuffer.fromArray(new float[] {1, 2, 3}).syncOn(stream)) {
      SCALE.load(stream.device()); // optional: loads the image now, not at the first launch
      // The arguments match the declaration (int, float, float*) or launch throws at once.
      GraphNode<@Nullable Void> launch = SCALE.launch(LaunchConfig.covering(3, 256), 3, 2f, x);
      scaled = launch.andThen(x.toFloatArray()).syncOn(stream); // [2.0, 4.0, 6.0]
    }
    // @end
    assertArrayEquals(new float[] {2f, 4f, 6f}, scaled);
  }

  @Test
  void deviceBuffer() {
    float[] fromY;
    float[] fromX;
    // @start region=device-buffer
    try (DeviceBuffer<Float> x = DeviceBuffer.fromArray(new float[] {1, 2, 3, 4}).syncOn(stream);
        DeviceBuffer<Float> y = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(stream)) {
      y.copyFrom(x).syncOn(stream); // device to device: y = [1, 2, 3, 4]
      x.write(new float[] {5, 6, 7, 8}).syncOn(stream); // host to device, into x's memory
      // Ops compose: one syncOn runs the fill of a view (y's elements 2 and 3), then the read.
      fromY = y.slice(2, 2).fill(0f).andThen(y.toFloatArray()).syncOn(stream); // [1, 2, 0, 0]
      fromX = x.toFloatArray().syncOn(stream); // device to host: [5.0, 6.0, 7.0, 8.0]
    } // each buffer's memory is freed once the work that uses it is done
    // @end
    assertArrayEquals(new float[] {1f, 2f, 0f, 0f}, fromY);
    assertArrayEquals(new float[] {5f, 6f, 7f, 8f}, fromX);
  }

  @Test
  void launchConfig() {
    Device device = stream.device();
    // @start region=launch-config
    int n = 1_000_000; // items, one per thread:
    LaunchConfig perItem = LaunchConfig.covering(n, 256); // 3907 blocks of 256 threads
    // A two-dimensional grid of two-dimensional blocks, e.g. for a 1024 x 1024 image:
    LaunchConfig tiles = LaunchConfig.of(Dim3.of(64, 64), Dim3.of(16, 16));
    // 64 KiB of dynamic shared memory per block (past 48 KiB the library opts the kernel in):
    LaunchConfig staged = LaunchConfig.of(132, 128).withSharedMemory(64 * 1024);
    int limit = device.attribute(Device.Attribute.MAX_THREADS_PER_BLOCK); // 1024 on current GPUs
    // @end
    assertEquals(3907, perItem.grid().x());
    assertEquals(256, perItem.block().x());
    assertTrue((long) (perItem.grid().x() - 1) * perItem.block().x() < n, "no block wasted");
    assertEquals(new Dim3(64, 64, 1), tiles.grid());
    assertEquals(256, tiles.block().x() * tiles.block().y());
    assertEquals(65536, staged.sharedMemoryBytes());
    assertEquals(1024, limit);
    float[] ones = new float[n];
    Arrays.fill(ones, 1f);
    float[] result;
    float[] small;
    try (DeviceBuffer<Float> x = DeviceBuffer.fromArray(ones).syncOn(stream);
        DeviceBuffer<Float> y = DeviceBuffer.fromArray(new float[] {1, 2}).syncOn(stream)) {
      result = SCALE.launch(perItem, n, 3f, x).andThen(x.toFloatArray()).syncOn(stream);
      small = SCALE.launch(staged, 2, 5f, y).andThen(y.toFloatArray()).syncOn(stream);
    }
    assertEquals(3f, result[0]);
    assertEquals(3f, result[n - 1], "the last item is covered");
    assertArrayEquals(new float[] {5f, 10f}, small, "a launch with 64 KiB of shared memory runs");
  }
}
