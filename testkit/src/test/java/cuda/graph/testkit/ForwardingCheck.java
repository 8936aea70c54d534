// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.support.ForwardingCudaDriver;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A check of a {@link ForwardingCudaDriver} in the shape of Guava's {@code
 * ForwardingWrapperTester}, by reflection over every method of {@link CudaDriver}: each call
 * reaches the delegate once, with the very arguments it was given; it returns the delegate's
 * result; a {@link RuntimeException} of the delegate goes through {@code failed} and is thrown as
 * it returns it, an {@link Error} is thrown untouched; what {@code before} throws is thrown without
 * calling the delegate; and both hooks are told the method's own {@link DriverCall}. It returns
 * what it found wrong, one line per problem, each starting with the method's name.
 */
final class ForwardingCheck {

  /**
   * The three entry points named otherwise than their CUDA symbol spells (see their Javadoc in
   * {@link CudaDriver}): every other method {@code fooBar} stands for {@code cuFooBar}, with or
   * without a version suffix such as {@code _v2}.
   */
  private static final Map<String, DriverCall> NAMED_OTHERWISE =
      Map.of(
          "graphInstantiate", DriverCall.GRAPH_INSTANTIATE, // cuGraphInstantiateWithFlags
          "launchKernelProgrammatic", DriverCall.LAUNCH_KERNEL_EX, // cuLaunchKernelEx
          "graphAddConditionalNode", DriverCall.GRAPH_ADD_NODE); // cuGraphAddNode_v2

  /** Forwarded without hooks: neither is a driver entry point. */
  static final List<String> WITHOUT_HOOKS = List.of("runtimeCompiler", "close");

  private ForwardingCheck() {}

  /**
   * A forwarding driver that records what its hooks are told; the check wraps each delegate in one.
   * A test plants a defect by overriding an entry point of it.
   */
  static class HookRecorder extends ForwardingCudaDriver {

    final List<DriverCall> before = new ArrayList<>();
    final List<@Nullable Object[]> arguments = new ArrayList<>();
    final List<DriverCall> failed = new ArrayList<>();
    final List<RuntimeException> failures = new ArrayList<>();
    final boolean describesArguments;

    /** Thrown by the next {@code before}, when set. */
    @Nullable RuntimeException refuseNext;

    HookRecorder(CudaDriver delegate) {
      this(delegate, true);
    }

    HookRecorder(CudaDriver delegate, boolean describesArguments) {
      super(delegate, describesArguments);
      this.describesArguments = describesArguments;
    }

    static @Nullable Object[] noArguments() {
      return NO_ARGUMENTS;
    }

    @Override
    protected void before(DriverCall call, @Nullable Object[] arguments) {
      before.add(call);
      this.arguments.add(arguments);
      RuntimeException refusal = refuseNext;
      if (refusal != null) {
        refuseNext = null;
        throw refusal;
      }
    }

    @Override
    protected RuntimeException failed(DriverCall call, RuntimeException failure) {
      failed.add(call);
      failures.add(failure);
      return super.failed(call, failure);
    }
  }

  /** {@return every method of {@link CudaDriver} that reports a {@link DriverCall}, by name} */
  static List<Method> entryPoints() {
    return Arrays.stream(CudaDriver.class.getMethods())
        .filter(m -> !Modifier.isStatic(m.getModifiers()))
        .filter(m -> !WITHOUT_HOOKS.contains(m.getName()))
        .sorted(Comparator.comparing(Method::getName))
        .toList();
  }

  /**
   * {@return the {@link DriverCall} that {@code method} stands for}: the one whose symbol its name
   * spells, or the one {@link #NAMED_OTHERWISE} names
   */
  static DriverCall expectedCall(Method method) {
    DriverCall named = NAMED_OTHERWISE.get(method.getName());
    if (named != null) {
      return named;
    }
    List<DriverCall> spelled =
        Arrays.stream(DriverCall.values())
            .filter(c -> methodNameOf(c.symbol()).equals(method.getName()))
            .toList();
    if (spelled.size() != 1) {
      throw new AssertionError(
          method.getName()
              + " spells the symbol of "
              + spelled
              + ", not of exactly one DriverCall: name it in NAMED_OTHERWISE");
    }
    return spelled.getFirst();
  }

  /** {@code cuStreamBeginCapture_v2} to {@code streamBeginCapture}. */
  static String methodNameOf(String symbol) {
    String name = symbol.substring("cu".length()).replaceFirst("_v[0-9]+$", "");
    return Character.toLowerCase(name.charAt(0)) + name.substring(1);
  }

  /** {@return what is wrong with the forwarding of every entry point by {@code wrap}'s drivers} */
  static List<String> problems(Function<CudaDriver, ? extends HookRecorder> wrap) {
    List<String> problems = new ArrayList<>();
    for (Method method : entryPoints()) {
      DriverCall expected = expectedCall(method);
      succeeding(method, expected, wrap, problems);
      failing(method, expected, wrap, problems);
      erring(method, wrap, problems);
      refused(method, wrap, problems);
    }
    return problems;
  }

  private static void succeeding(
      Method method,
      DriverCall expected,
      Function<CudaDriver, ? extends HookRecorder> wrap,
      List<String> problems) {
    DriverSamples samples = new DriverSamples();
    RecordingDriver delegate = new RecordingDriver(samples);
    HookRecorder wrapper = wrap.apply(delegate.driver());
    Object[] arguments = samples.argumentsOf(method);
    Object result;
    try {
      result = method.invoke(wrapper, arguments);
    } catch (InvocationTargetException e) {
      problems.add(method.getName() + ": threw " + e.getCause() + " where the delegate succeeded");
      return;
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
    String name = method.getName();
    List<RecordingDriver.Call> calls = delegate.calls();
    if (calls.size() != 1 || !calls.getFirst().method().equals(method)) {
      problems.add(name + ": called the delegate " + describe(calls) + ", not once with " + name);
    } else {
      RecordingDriver.Call call = calls.getFirst();
      for (int i = 0; i < arguments.length; i++) {
        if (!same(arguments[i], call.arguments()[i])) {
          problems.add(
              name
                  + ": gave the delegate "
                  + call.arguments()[i]
                  + " as "
                  + method.getParameters()[i].getName()
                  + ", not the "
                  + arguments[i]
                  + " it was given");
        }
      }
      if (method.getReturnType() != void.class && !same(call.result(), result)) {
        problems.add(name + ": returned " + result + ", not the delegate's " + call.result());
      }
    }
    if (!wrapper.before.equals(List.of(expected))) {
      problems.add(name + ": told before " + wrapper.before + ", not [" + expected + "]");
    } else if (wrapper.describesArguments
        ? !Arrays.equals(wrapper.arguments.getFirst(), arguments)
        : wrapper.arguments.getFirst() != HookRecorder.noArguments()) {
      problems.add(
          name
              + ": told before the arguments "
              + Arrays.toString(wrapper.arguments.getFirst())
              + (wrapper.describesArguments
                  ? ", not " + Arrays.toString(arguments)
                  : ", not NO_ARGUMENTS"));
    }
    if (!wrapper.failed.isEmpty()) {
      problems.add(name + ": told failed " + wrapper.failed + " after a success");
    }
  }

  private static void failing(
      Method method,
      DriverCall expected,
      Function<CudaDriver, ? extends HookRecorder> wrap,
      List<String> problems) {
    DriverSamples samples = new DriverSamples();
    RecordingDriver delegate = new RecordingDriver(samples);
    HookRecorder wrapper = wrap.apply(delegate.driver());
    RuntimeException failure = new IllegalStateException("planted failure of " + method.getName());
    delegate.throwNext(failure);
    Throwable thrown = thrownBy(method, wrapper, samples.argumentsOf(method));
    String name = method.getName();
    if (thrown == null) {
      problems.add(name + ": swallowed the delegate's " + failure);
    } else if (thrown != failure) {
      problems.add(name + ": threw " + thrown + ", not the delegate's " + failure);
    }
    if (!wrapper.failed.equals(List.of(expected))
        || wrapper.failures.size() != 1
        || wrapper.failures.getFirst() != failure) {
      problems.add(
          name
              + ": told failed "
              + wrapper.failed
              + " of "
              + wrapper.failures
              + ", not ["
              + expected
              + "] of the delegate's failure");
    }
  }

  private static void erring(
      Method method, Function<CudaDriver, ? extends HookRecorder> wrap, List<String> problems) {
    DriverSamples samples = new DriverSamples();
    RecordingDriver delegate = new RecordingDriver(samples);
    HookRecorder wrapper = wrap.apply(delegate.driver());
    Error error = new AssertionError("planted error of " + method.getName());
    delegate.throwNext(error);
    Throwable thrown = thrownBy(method, wrapper, samples.argumentsOf(method));
    String name = method.getName();
    if (thrown != error) {
      problems.add(name + ": threw " + thrown + ", not the delegate's error, untouched");
    }
    if (!wrapper.failed.isEmpty()) {
      problems.add(name + ": told failed " + wrapper.failed + " of an Error");
    }
  }

  private static void refused(
      Method method, Function<CudaDriver, ? extends HookRecorder> wrap, List<String> problems) {
    DriverSamples samples = new DriverSamples();
    RecordingDriver delegate = new RecordingDriver(samples);
    HookRecorder wrapper = wrap.apply(delegate.driver());
    RuntimeException refusal = new IllegalStateException("planted refusal of " + method.getName());
    wrapper.refuseNext = refusal;
    Throwable thrown = thrownBy(method, wrapper, samples.argumentsOf(method));
    String name = method.getName();
    if (thrown != refusal) {
      problems.add(name + ": threw " + thrown + ", not what before threw");
    }
    if (!delegate.calls().isEmpty()) {
      problems.add(
          name + ": called the delegate " + describe(delegate.calls()) + " after before threw");
    }
    if (!wrapper.failed.isEmpty()) {
      problems.add(name + ": told failed " + wrapper.failed + " of what before threw");
    }
  }

  private static @Nullable Throwable thrownBy(Method method, Object target, Object[] arguments) {
    try {
      method.invoke(target, arguments);
      return null;
    } catch (InvocationTargetException e) {
      return e.getCause();
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }

  /** Numbers are passed boxed, so they are compared by value; every other value by identity. */
  private static boolean same(@Nullable Object expected, @Nullable Object actual) {
    if (expected instanceof Number || expected instanceof Boolean) {
      return expected.equals(actual);
    }
    return expected == actual;
  }

  private static String describe(List<RecordingDriver.Call> calls) {
    return calls.size()
        + " time(s)"
        + (calls.isEmpty()
            ? ""
            : " " + calls.stream().map(c -> c.method().getName()).toList().toString());
  }
}
