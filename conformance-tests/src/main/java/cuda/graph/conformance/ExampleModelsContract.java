// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.HostBuffer;
import cuda.graph.InputBinding;
import cuda.graph.Module;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.HandleKind;
import java.util.Random;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;

/**
 * End-to-end examples every provider must compute bit for bit like the Java models: saxpy, and a
 * two-layer perceptron (dense + ReLU, dense) captured as a {@link Module}, whole and as two modules
 * composed with {@link Module#andThen}, against eager execution of the same kernels.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface ExampleModelsContract extends ConformanceContract {

  /**
   * Saxpy over 1000 elements computes, bit for bit, what {@link ConformanceKernels#saxpy(float,
   * float[], float[])} computes.
   */
  @Test
  default void saxpyEndToEndEqualsItsJavaReference() {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      int n = 1000;
      float a = 2.5f;
      float[] x = new float[n];
      float[] y = new float[n];
      for (int i = 0; i < n; i++) {
        x[i] = i * 0.5f - 3;
        y[i] = 1 - i * 0.25f;
      }
      DeviceBuffer<Float> dx = session.own(DeviceBuffer.fromArray(x).syncOn(stream));
      DeviceBuffer<Float> dy = session.own(DeviceBuffer.fromArray(y).syncOn(stream));

      float[] result =
          ConformanceKernels.saxpy(a, dx, dy).andThen(dy.toFloatArray()).syncOn(stream);

      ConformanceKernels.saxpy(a, x, y);
      assertArrayEquals(y, result);
    }
  }

  /**
   * A two-layer model captured as one {@link Module} (one graph) returns, for each of 5 inputs,
   * what eager execution of the same kernels and the Java model compute.
   */
  @Test
  default void aTwoLayerModuleForwardEqualsEagerExecutionForEveryInput() {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      Device device = session.device();
      TwoLayerModel model = session.own(new TwoLayerModel(stream, 1));
      DeviceBuffer<Float> x =
          session.own(DeviceBuffer.zeros(ElementType.F32, TwoLayerModel.IN).syncOn(stream));
      DeviceBuffer<Float> h =
          session.own(DeviceBuffer.zeros(ElementType.F32, TwoLayerModel.HIDDEN).syncOn(stream));
      DeviceBuffer<Float> y =
          session.own(DeviceBuffer.zeros(ElementType.F32, TwoLayerModel.OUT).syncOn(stream));
      HostBuffer<Float> staging =
          session.own(device.allocateHost(ElementType.F32, TwoLayerModel.IN));
      HostBuffer<Float> out = session.own(device.allocateHost(ElementType.F32, TwoLayerModel.OUT));
      Module<float[], float[]> module =
          session.own(
              Module.capture(
                  stream,
                  InputBinding.floats(staging, x),
                  model
                      .layer1(x, h)
                      .andThen(model.layer2(h, y))
                      .andThen(y.copyTo(out))
                      .map(ignored -> out),
                  HostBuffer::toFloatArray));
      assertEquals(1, session.driver().ledger().live(HandleKind.GRAPH_EXEC), "one captured graph");

      Random random = new Random(2);
      for (int step = 0; step < 5; step++) {
        float[] input = TwoLayerModel.randoms(random, TwoLayerModel.IN);
        float[] forward = module.forward(input);
        assertArrayEquals(
            model.eager(stream, input),
            forward,
            "forward must equal eager execution, input " + step);
        assertArrayEquals(
            model.reference(input), forward, "forward must equal the Java model, input " + step);
      }
    }
  }

  /**
   * The two layers captured as two modules and composed with {@link Module#andThen} compute what
   * the whole model computes, and closing the composition destroys both graphs' execs.
   */
  @Test
  default void twoModulesComposedWithAndThenEqualTheWholeModel() {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      Device device = session.device();
      TwoLayerModel model = session.own(new TwoLayerModel(stream, 3));
      DeviceBuffer<Float> x =
          session.own(DeviceBuffer.zeros(ElementType.F32, TwoLayerModel.IN).syncOn(stream));
      DeviceBuffer<Float> h =
          session.own(DeviceBuffer.zeros(ElementType.F32, TwoLayerModel.HIDDEN).syncOn(stream));
      DeviceBuffer<Float> h2 =
          session.own(DeviceBuffer.zeros(ElementType.F32, TwoLayerModel.HIDDEN).syncOn(stream));
      DeviceBuffer<Float> y =
          session.own(DeviceBuffer.zeros(ElementType.F32, TwoLayerModel.OUT).syncOn(stream));
      HostBuffer<Float> stagingX =
          session.own(device.allocateHost(ElementType.F32, TwoLayerModel.IN));
      HostBuffer<Float> hiddenOut =
          session.own(device.allocateHost(ElementType.F32, TwoLayerModel.HIDDEN));
      HostBuffer<Float> stagingH =
          session.own(device.allocateHost(ElementType.F32, TwoLayerModel.HIDDEN));
      HostBuffer<Float> out = session.own(device.allocateHost(ElementType.F32, TwoLayerModel.OUT));
      Module<float[], float[]> first =
          Module.capture(
              stream,
              InputBinding.floats(stagingX, x),
              model.layer1(x, h).andThen(h.copyTo(hiddenOut)).map(ignored -> hiddenOut),
              HostBuffer::toFloatArray);
      Module<float[], float[]> second =
          Module.capture(
              stream,
              InputBinding.floats(stagingH, h2),
              model.layer2(h2, y).andThen(y.copyTo(out)).map(ignored -> out),
              HostBuffer::toFloatArray);
      Module<float[], float[]> composed = session.own(first.andThen(second));

      Random random = new Random(4);
      for (int step = 0; step < 4; step++) {
        float[] input = TwoLayerModel.randoms(random, TwoLayerModel.IN);
        float[] forward = composed.forward(input);
        assertArrayEquals(
            model.eager(stream, input),
            forward,
            "the composition must equal eager execution, input " + step);
        assertArrayEquals(
            model.reference(input),
            forward,
            "the composition must equal the Java model, input " + step);
      }
      composed.close();
      assertEquals(
          0,
          session.driver().ledger().live(HandleKind.GRAPH_EXEC),
          "closing the composition closes both modules");
      assertEquals(2, session.driver().ledger().destroyed(HandleKind.GRAPH_EXEC));
    }
  }
}
