// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.ModuleImage;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Optional;

/**
 * A new value of any type {@link cuda.graph.spi.CudaDriver} takes or returns, for the tests that
 * call each of its methods by reflection. Every value is a new object (or a new number), so a test
 * can tell by identity whether a decorator passed on the very value it was given; a type it does
 * not know fails the test that asks, naming the type to add.
 */
final class DriverSamples {

  private final Arena arena = Arena.ofAuto();

  /** Above the default streams' handle values (0, 1, 2), and apart from every allocation. */
  private long next = 0x1000;

  /**
   * {@return a value of {@code type} unlike any this instance gave before}
   *
   * @param type a parameter or return type of {@link cuda.graph.spi.CudaDriver}
   */
  Object of(Class<?> type) {
    long n = next++;
    if (type == int.class || type == Integer.class) {
      return (int) n;
    } else if (type == long.class || type == Long.class) {
      return n;
    } else if (type == boolean.class || type == Boolean.class) {
      return n % 2 == 0;
    } else if (type == byte.class) {
      return (byte) n;
    } else if (type == short.class) {
      return (short) n;
    } else if (type == float.class) {
      return (float) n;
    } else if (type == String.class) {
      return "sample " + n;
    } else if (type == MemorySegment.class) {
      return arena.allocate(64);
    } else if (type == Optional.class) {
      return Optional.of("sample " + n);
    } else if (type == java.util.List.class) {
      return new ArrayList<>(); // a new object, however empty
    } else if (type == Path.class) {
      return Path.of("sample-" + n);
    } else if (type == KernelArguments.class) {
      return KernelArguments.allocate(arena, 8);
    } else if (type == ModuleImage.class) {
      return ModuleImage.ptx("// sample module " + n);
    } else if (type.isEnum()) {
      Object[] constants = type.getEnumConstants();
      return constants[(int) (n % constants.length)];
    } else if (type.isRecord()) {
      return record(type);
    } else if (type.isSealed()) {
      return of(type.getPermittedSubclasses()[0]);
    } else if (type.isInterface()) {
      return function(type);
    }
    throw new IllegalArgumentException("DriverSamples has no value of " + type + ": add one");
  }

  /** {@return a value for each parameter of {@code method}, in order} */
  Object[] argumentsOf(Method method) {
    Class<?>[] types = method.getParameterTypes();
    Object[] arguments = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      arguments[i] = of(types[i]);
    }
    return arguments;
  }

  private Object record(Class<?> type) {
    RecordComponent[] components = type.getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    Object[] values = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
      values[i] = of(types[i]);
    }
    try {
      Constructor<?> canonical = type.getDeclaredConstructor(types);
      return canonical.newInstance(values);
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException("cannot make a " + type, e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException("cannot make a " + type, e);
    }
  }

  /** A new implementation of a functional interface (a host function) that does nothing. */
  private Object function(Class<?> type) {
    return Proxy.newProxyInstance(
        type.getClassLoader(),
        new Class<?>[] {type},
        (proxy, method, arguments) ->
            switch (method.getName()) {
              case "equals" -> proxy == arguments[0];
              case "hashCode" -> System.identityHashCode(proxy);
              case "toString" -> "sample " + type.getSimpleName();
              default -> null;
            });
  }
}
