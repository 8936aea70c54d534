// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.internal.bootstrap.Fakes;
import cuda.graph.internal.bootstrap.Fakes.DriverLog;
import cuda.graph.internal.bootstrap.Fakes.FakeProvider;
import cuda.graph.internal.bootstrap.ProviderSelector;
import cuda.graph.internal.bootstrap.ProviderSelector.Candidate;
import cuda.graph.internal.bootstrap.ProviderSelector.Failure;
import cuda.graph.internal.bootstrap.ProviderSelector.Opened;
import cuda.graph.internal.bootstrap.ProviderSelector.Outcome;
import cuda.graph.internal.bootstrap.SystemPlatform;
import cuda.graph.internal.runtime.CudaPlatformImpl;
import cuda.graph.spi.CudaDriver;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class CudaPlatformTests {

  private static final List<String> REPORT =
      List.of(
          "cuda.graph: using CUDA driver provider 'simulator' (priority 0), the only one found:"
              + " ok");

  /** Counts how often the selection runs. */
  private static Supplier<Outcome> counting(AtomicInteger runs, Supplier<Outcome> outcome) {
    return () -> {
      runs.incrementAndGet();
      return outcome.get();
    };
  }

  @Test
  void theFirstCallSelectsAndEveryCallGetsTheSamePlatform() {
    CudaDriver driver = Fakes.driver(new DriverLog());
    AtomicInteger runs = new AtomicInteger();
    SystemPlatform<CudaPlatformImpl> bootstrap =
        CudaPlatformImpl.bootstrap(counting(runs, () -> new Opened(driver, "simulator", REPORT)));

    CudaPlatformImpl platform = bootstrap.get();

    assertSame(platform, bootstrap.get());
    assertEquals(1, runs.get());
    assertEquals("simulator", platform.providerId());
    assertEquals(REPORT, platform.selectionReport());
    assertSame(driver, platform.driver().unwrapped());
    assertThrows(UnsupportedOperationException.class, () -> platform.selectionReport().clear());
    assertEquals("CudaPlatform[provider=simulator]", platform.toString());
  }

  @Test
  void aFailedSelectionThrowsTheSameFailureOnEveryCallWithoutSelectingAgain() {
    IllegalStateException cause = new IllegalStateException("no devices");
    List<String> lines =
        List.of(
            "cuda.graph: provider 'cuda' (priority 100, x.Cuda): available: ok",
            "cuda.graph: CUDA driver provider 'cuda' was chosen but failed to open: boom");
    AtomicInteger runs = new AtomicInteger();
    SystemPlatform<CudaPlatformImpl> bootstrap =
        CudaPlatformImpl.bootstrap(counting(runs, () -> new Failure(lines, cause)));

    CudaProviderException first = assertThrows(CudaProviderException.class, bootstrap::get);
    CudaProviderException second = assertThrows(CudaProviderException.class, bootstrap::get);

    assertEquals(1, runs.get(), "a failure is remembered, not retried");
    assertEquals(String.join("\n", lines), first.getMessage());
    assertEquals(first.getMessage(), second.getMessage());
    assertSame(cause, first.getCause());
    assertSame(cause, second.getCause());
  }

  @Test
  void concurrentFirstCallsShareOneSelection() throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger runs = new AtomicInteger();
    SystemPlatform<CudaPlatformImpl> bootstrap =
        CudaPlatformImpl.bootstrap(
            counting(runs, () -> new Opened(Fakes.driver(new DriverLog()), "simulator", REPORT)));
    List<Future<CudaPlatform>> results = new ArrayList<>();
    try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
      for (int i = 0; i < 8; i++) {
        results.add(
            threads.submit(
                () -> {
                  start.await();
                  return bootstrap.get();
                }));
      }
      start.countDown();
      CudaPlatform platform = results.getFirst().get();
      for (Future<CudaPlatform> result : results) {
        assertSame(platform, result.get());
      }
    }
    assertEquals(1, runs.get());
  }

  @Test
  void aProviderThatUsesThePlatformWhileBeingChosenFailsClearly() {
    AtomicReference<SystemPlatform<CudaPlatformImpl>> self = new AtomicReference<>();
    SystemPlatform<CudaPlatformImpl> bootstrap =
        CudaPlatformImpl.bootstrap(
            () -> {
              self.get().get();
              throw new AssertionError("unreachable");
            });
    self.set(bootstrap);

    IllegalStateException e = assertThrows(IllegalStateException.class, bootstrap::get);
    assertTrue(e.getMessage().startsWith("CudaPlatform.system() was called while"), e.getMessage());
  }

  /**
   * A service that runs on the simulator because its container has no GPU says so, once, where a
   * default logging configuration shows it (issue 36, item 7): one INFO record on the {@code
   * cuda.graph} logger naming the provider chosen and why the other was passed over; the rest of
   * the report stays at DEBUG.
   */
  @Test
  void theSystemPlatformLogsItsChoiceOnceAtInfoNamingTheProviderPassedOverAndWhy() {
    Logger log = Logger.getLogger(ProviderSelector.LOGGER_NAME);
    List<LogRecord> records = Collections.synchronizedList(new ArrayList<>());
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            records.add(record);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    log.addHandler(capture);
    log.setUseParentHandlers(false); // the test's record; keep it from the console
    try {
      List<Candidate> candidates =
          List.of(
              Candidate.of(FakeProvider.available("simulator", 0)),
              Candidate.of(
                  FakeProvider.unavailable(
                      "cuda", 100, "cannot load libcuda.so.1: install the NVIDIA driver")));
      System.Logger logger = System.getLogger(ProviderSelector.LOGGER_NAME);
      SystemPlatform<CudaPlatformImpl> bootstrap =
          CudaPlatformImpl.bootstrap(
              () ->
                  ProviderSelector.open(
                      ProviderSelector.select(candidates, Optional.empty(), logger), logger));

      CudaPlatformImpl platform = bootstrap.get();
      assertSame(platform, bootstrap.get());

      List<LogRecord> shown;
      synchronized (records) {
        shown =
            records.stream().filter(r -> r.getLevel().intValue() >= Level.INFO.intValue()).toList();
      }
      assertEquals(1, shown.size(), () -> "records shown by default: " + messages(shown));
      LogRecord choice = shown.getFirst();
      assertEquals(Level.INFO, choice.getLevel());
      assertEquals(ProviderSelector.LOGGER_NAME, choice.getLoggerName());
      assertTrue(
          choice.getMessage().startsWith("cuda.graph: using CUDA driver provider 'simulator'"),
          choice.getMessage());
      assertTrue(
          choice
              .getMessage()
              .contains(
                  "skipped 'cuda' (priority 100): cannot load libcuda.so.1: install the NVIDIA"),
          choice.getMessage());
      assertEquals(platform.selectionReport().getLast(), choice.getMessage());
    } finally {
      log.removeHandler(capture);
      log.setUseParentHandlers(true);
    }
  }

  private static List<String> messages(List<LogRecord> records) {
    return records.stream().map(r -> r.getLevel() + " " + r.getMessage()).toList();
  }

  @Test
  void aProviderExceptionIsAnUncheckedCudaException() {
    assertTrue(CudaException.class.isSealed());
    assertTrue(
        List.of(CudaException.class.getPermittedSubclasses())
            .contains(CudaProviderException.class));
    assertInstanceOf(RuntimeException.class, new CudaProviderException("m", null));
  }

  /**
   * The process-wide platform through the real ServiceLoader: the simulator is the only provider on
   * the test module path, so it is chosen. Until the simulator's driver is written, its init(0)
   * fails, so this accepts either a platform or the failure to initialize it, and checks that both
   * report the simulator as the choice and repeat on a second call.
   */
  @Test
  void theSystemPlatformChoosesTheSimulator() {
    String chosen =
        "cuda.graph: using CUDA driver provider 'simulator' (priority 0), the only one found:";
    CudaPlatform platform;
    try {
      platform = CudaPlatform.system();
    } catch (CudaProviderException e) {
      assertTrue(e.getMessage().startsWith(chosen), e.getMessage());
      assertTrue(
          e.getMessage()
              .contains(
                  "\ncuda.graph: CUDA driver provider 'simulator' was chosen but its driver failed"
                      + " to initialize (init(0)): "),
          e.getMessage());
      CudaProviderException again = assertThrows(CudaProviderException.class, CudaPlatform::system);
      assertEquals(e.getMessage(), again.getMessage());
      return;
    }
    assertEquals("simulator", platform.providerId());
    assertTrue(platform.selectionReport().getFirst().startsWith(chosen));
    assertSame(platform, CudaPlatform.system());
  }
}
