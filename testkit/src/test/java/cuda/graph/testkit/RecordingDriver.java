// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import cuda.graph.spi.CudaDriver;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The driver under a decorator in the tests that call every entry point by reflection: it records
 * each call that reaches it and answers with a new {@link DriverSamples} value of the return type,
 * or with what {@link #answer} set for that method, or throws what {@link #throwNext} was given. It
 * models no driver: the decorators' behaviour on a real one is tested over the simulator.
 */
final class RecordingDriver {

  /** A call that reached this driver. */
  record Call(Method method, Object[] arguments, @Nullable Object result) {}

  private final DriverSamples samples;
  private final List<Call> calls = new ArrayList<>();
  private final Map<String, Supplier<?>> answers = new HashMap<>();
  private @Nullable Throwable failure;
  private final CudaDriver driver;

  RecordingDriver(DriverSamples samples) {
    this.samples = samples;
    this.driver =
        (CudaDriver)
            Proxy.newProxyInstance(
                CudaDriver.class.getClassLoader(),
                new Class<?>[] {CudaDriver.class},
                (proxy, method, arguments) -> called(method, arguments));
  }

  /** {@return the driver to decorate} */
  CudaDriver driver() {
    return driver;
  }

  /** {@return the calls that reached this driver, oldest first} */
  List<Call> calls() {
    return calls;
  }

  /** Makes every later call of the method named {@code name} return what {@code answer} gives. */
  void answer(String name, Supplier<?> answer) {
    answers.put(name, answer);
  }

  /** Makes the next call that reaches this driver throw {@code thrown} instead of answering. */
  void throwNext(Throwable thrown) {
    failure = thrown;
  }

  private @Nullable Object called(Method method, Object @Nullable [] arguments) throws Throwable {
    Object[] given = arguments == null ? new Object[0] : arguments;
    switch (method.getName()) {
      case "toString" -> {
        return "RecordingDriver";
      }
      case "hashCode" -> {
        return System.identityHashCode(this);
      }
      case "equals" -> {
        return driver == given[0];
      }
      default -> {}
    }
    Throwable thrown = failure;
    if (thrown != null) {
      failure = null;
      calls.add(new Call(method, given, null));
      throw thrown;
    }
    Supplier<?> answer = answers.get(method.getName());
    Object result;
    if (answer != null) {
      result = answer.get();
    } else if (method.getReturnType() == void.class) {
      result = null;
    } else {
      result = samples.of(method.getReturnType());
    }
    calls.add(new Call(method, given, result));
    return result;
  }
}
