// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.bootstrap;

import cuda.graph.spi.Availability;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverProvider;
import java.lang.reflect.Proxy;
import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** Test doubles for provider selection: providers, drivers and a logger that remembers. */
public final class Fakes {

  private Fakes() {}

  /** A provider with a fixed id and priority that counts how often it is probed and opened. */
  public static final class FakeProvider implements CudaDriverProvider {
    private final String id;
    private final int priority;
    private final Supplier<Availability> availability;
    private final Supplier<CudaDriver> opener;
    public final AtomicInteger probes = new AtomicInteger();
    public final AtomicInteger opens = new AtomicInteger();

    public FakeProvider(
        String id, int priority, Supplier<Availability> availability, Supplier<CudaDriver> opener) {
      this.id = id;
      this.priority = priority;
      this.availability = availability;
      this.opener = opener;
    }

    /** {@return a provider that is available with reason {@code "<id> works"}} */
    public static FakeProvider available(String id, int priority) {
      return new FakeProvider(
          id, priority, () -> Availability.available(id + " works"), () -> driver(new DriverLog()));
    }

    /** {@return a provider that is unavailable with the given reason} */
    public static FakeProvider unavailable(String id, int priority, String reason) {
      return new FakeProvider(
          id,
          priority,
          () -> Availability.unavailable(reason),
          () -> {
            throw new AssertionError("an unavailable provider was opened");
          });
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public int priority() {
      return priority;
    }

    @Override
    public Availability availability() {
      probes.incrementAndGet();
      return availability.get();
    }

    @Override
    public CudaDriver open() {
      opens.incrementAndGet();
      return opener.get();
    }
  }

  /** What a {@link #driver} proxy was asked to do. */
  public static final class DriverLog {
    public final List<String> calls = new ArrayList<>();
    public @Nullable RuntimeException initFailure;
  }

  /**
   * {@return a driver whose {@code init} records its flags (or throws {@code log.initFailure}),
   * which sees no device and reports CUDA 13.0, and whose {@code close} is recorded; every other
   * driver call fails the test}
   */
  public static CudaDriver driver(DriverLog log) {
    return (CudaDriver)
        Proxy.newProxyInstance(
            Fakes.class.getClassLoader(),
            new Class<?>[] {CudaDriver.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "init" -> {
                    log.calls.add("init(" + args[0] + ")");
                    if (log.initFailure != null) {
                      throw log.initFailure;
                    }
                    yield null;
                  }
                  case "deviceGetCount" -> 0;
                  case "driverGetVersion" -> 13000;
                  case "close" -> {
                    log.calls.add("close()");
                    yield null;
                  }
                  case "toString" -> "FakeDriver";
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  default -> throw new AssertionError("unexpected driver call " + method);
                });
  }

  /** A logger that records every line with its level and throwable. */
  public static final class RecordingLogger implements System.Logger {

    public record Logged(Level level, String message, @Nullable Throwable thrown) {}

    public final List<Logged> logged = new ArrayList<>();

    public List<Level> levels() {
      return logged.stream().map(Logged::level).toList();
    }

    public List<String> messages() {
      return logged.stream().map(Logged::message).toList();
    }

    @Override
    public String getName() {
      return "test";
    }

    @Override
    public boolean isLoggable(Level level) {
      return true;
    }

    @Override
    public void log(
        Level level, @Nullable ResourceBundle bundle, String message, @Nullable Throwable thrown) {
      logged.add(new Logged(level, message, thrown));
    }

    @Override
    public void log(
        Level level, @Nullable ResourceBundle bundle, String format, @Nullable Object... params) {
      String message =
          params == null || params.length == 0 ? format : MessageFormat.format(format, params);
      logged.add(new Logged(level, message, null));
    }
  }
}
