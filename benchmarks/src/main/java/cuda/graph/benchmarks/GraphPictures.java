// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphCondition;
import cuda.graph.GraphNode;
import cuda.graph.ScopeBody;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConditionalKernels;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.simulator.Simulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * Writes the graphs the guides' examples capture as Graphviz DOT ({@code CudaGraph.writeDot}), one
 * file each, into the folder given as the first argument ({@code docs/graphs} by {@code
 * scripts/draw-graphs.sh}, which also renders them as SVG where Graphviz is installed). Always on a
 * simulator of its own, so the pictures are the same on every machine.
 */
public final class GraphPictures {

  private GraphPictures() {}

  /** One picture: a file name and the graph it shows. */
  private record Picture(String name, Function<Buffers, CudaGraph<?>> capture) {}

  /** The buffers the pictured graphs use. */
  private record Buffers(
      Stream stream,
      DeviceBuffer<Integer> a,
      DeviceBuffer<Integer> b,
      DeviceBuffer<Float> x,
      DeviceBuffer<Float> y) {}

  private static final List<Picture> PICTURES =
      List.of(
          new Picture(
              "saxpy",
              r ->
                  CudaGraph.capture(
                      r.stream(),
                      ConformanceKernels.saxpy(2f, r.x(), r.y()).andThen(r.y().copyFrom(r.x())))),
          new Picture(
              "parallel-branches",
              r ->
                  CudaGraph.capture(
                      r.stream(),
                      r.a()
                          .fill(0)
                          .andThen(
                              GraphNode.parallel(
                                  List.of(
                                      ConformanceKernels.inc(r.a())
                                          .andThen(ConformanceKernels.inc(r.a())),
                                      ConformanceKernels.inc(r.b()))))
                          .andThen(r.b().slice(0, 1).copyFrom(r.a())))),
          new Picture(
              "while-loop",
              r ->
                  CudaGraph.scope(
                      r.stream(),
                      scope -> {
                        GraphCondition more = scope.condition(1);
                        scope.whileLoop(
                            more,
                            body -> {
                              body.record(ConformanceKernels.inc(r.b()));
                              body.record(ConditionalKernels.countdown(r.a(), more));
                            });
                      })),
          new Picture(
              "self-advancing-step",
              r ->
                  CudaGraph.scope(
                      r.stream(),
                      scope -> {
                        GraphCondition current = scope.condition(0);
                        scope.record(ConditionalKernels.choose(r.a(), current));
                        List<ScopeBody> cases =
                            List.of(
                                c -> c.record(ConformanceKernels.inc(r.b().slice(0, 1))),
                                c -> c.record(ConformanceKernels.inc(r.b().slice(1, 1))),
                                c -> c.record(ConformanceKernels.inc(r.b().slice(2, 1))));
                        scope.switchOf(current, cases);
                        scope.record(ConformanceKernels.inc(r.a()));
                      })));

  public static void main(String[] args) {
    Path folder = Path.of(args.length > 0 ? args[0] : "docs/graphs");
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.create(), "simulator");
        Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Integer> a = DeviceBuffer.fromArray(new int[] {3}).syncOn(stream);
        DeviceBuffer<Integer> b = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
        DeviceBuffer<Float> x = DeviceBuffer.zeros(ElementType.F32, 1024).syncOn(stream);
        DeviceBuffer<Float> y = DeviceBuffer.zeros(ElementType.F32, 1024).syncOn(stream)) {
      Device device = platform.defaultDevice();
      ConformanceKernels.load(device);
      ConditionalKernels.COUNTDOWN.load(device);
      ConditionalKernels.CHOOSE.load(device);
      Files.createDirectories(folder);
      Buffers buffers = new Buffers(stream, a, b, x, y);
      for (Picture picture : PICTURES) {
        try (CudaGraph<?> graph = picture.capture().apply(buffers)) {
          Path file = folder.resolve(picture.name() + ".dot");
          graph.writeDot(file);
          System.out.println(file + ": " + graph.nodeKinds());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
