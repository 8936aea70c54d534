// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example.unrun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.simulator.Simulator;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The detector of ops built and never executed, as an application meets it: this class sits in a
 * package of its own, as an application's code would, and runs (in its own surefire execution, tag
 * {@code unrun-ops}) with {@code -Dcuda.graph.unrunOps=report}. It reads the reports the library
 * logs to {@code cuda.graph} through java.util.logging, the System.Logger's default backend.
 */
@Tag("unrun-ops")
class UnrunOpReportTests {

  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private final List<LogRecord> reports = new CopyOnWriteArrayList<>();
  private final Logger log = Logger.getLogger("cuda.graph");
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          if (record.getMessage().contains("never executed")) {
            reports.add(record);
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  private CudaPlatform platform;
  private Stream stream;
  private DeviceBuffer<Float> y;

  @BeforeEach
  void start() {
    log.addHandler(capture);
    log.setUseParentHandlers(false); // the reports are the test's; keep them from the console
    platform = CudaPlatform.forDriver(Simulator.create(), "simulator");
    stream = platform.defaultDevice().newStream();
    y = DeviceBuffer.zeros(ElementType.F32, 16).syncOn(stream);
  }

  @AfterEach
  void stop() {
    y.close();
    stream.close();
    platform.close();
    log.removeHandler(capture);
    log.setUseParentHandlers(true);
  }

  @Test
  void aFillUsedAsAStatementIsReportedWithTheLineThatBuiltIt() throws InterruptedException {
    int line = plantAFill(y);

    LogRecord report = awaitReportOf(site(line));

    assertEquals(Level.WARNING, report.getLevel());
    String message = report.getMessage();
    assertTrue(
        message.startsWith(
            "cuda.graph: an op was built and never executed: fill(...) at"
                + " example.unrun.UnrunOpReportTests.plantAFill("
                + site(line)
                + "), called from example.unrun.UnrunOpReportTests"
                + ".aFillUsedAsAStatementIsReportedWithTheLineThatBuiltIt(UnrunOpReportTests.java:"),
        message);
    assertTrue(message.endsWith("compose it into one that runs, or do not build it"), message);
    assertEquals(null, report.getThrown(), "a report is one message, not a stack trace");
  }

  @Test
  void opsThatRanOrWereComposedIntoOneThatRanAreNotReported() throws InterruptedException {
    int ran = runSomeOps(y);
    int planted = plantAFill(y);

    // Reports come as the collector finds ops; once the op planted after them is reported, the
    // ones before it would have been too.
    awaitReportOf(site(planted));
    for (int line = ran; line < ran + 3; line++) {
      String site = site(line);
      assertTrue(
          reports.stream().noneMatch(r -> r.getMessage().contains(site)),
          "an op that ran was reported: " + reports);
    }
  }

  @Test
  void aCompositionNeverRunIsReportedOnceWhereItWasBuiltNotOncePerPart()
      throws InterruptedException {
    int line = plantAComposition(y);
    int sentinel = plantAFill(y);

    awaitReportOf(site(sentinel));
    List<LogRecord> ofComposition =
        reports.stream().filter(r -> r.getMessage().contains(site(line))).toList();
    assertEquals(1, ofComposition.size(), "reports of the composition: " + reports);
    assertTrue(
        ofComposition.getFirst().getMessage().contains("andThen(...) at"),
        ofComposition.getFirst().getMessage());
  }

  // ---- the planted code: each returns the line of its statement

  private static int plantAFill(DeviceBuffer<Float> y) {
    int line = new Throwable().getStackTrace()[0].getLineNumber() + 1;
    y.fill(5f); // built and dropped: the mistake the detector is for
    return line;
  }

  private static int plantAComposition(DeviceBuffer<Float> y) {
    int line = new Throwable().getStackTrace()[0].getLineNumber() + 1;
    y.fill(1f).andThen(y.fill(2f)); // three ops, one mistake
    return line;
  }

  private int runSomeOps(DeviceBuffer<Float> y) {
    int line = new Throwable().getStackTrace()[0].getLineNumber() + 1;
    y.fill(1f).syncOn(stream);
    y.fill(2f).andThen(y.fill(3f)).syncOn(stream);
    y.fill(4f).map(v -> v).asyncOn(stream).join();
    return line;
  }

  private static String site(int line) {
    return "UnrunOpReportTests.java:" + line;
  }

  /** {@return the report naming {@code site}}, collecting garbage until it comes */
  private LogRecord awaitReportOf(String site) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (System.nanoTime() < deadline) {
      for (LogRecord r : reports) {
        if (r.getMessage().contains(site)) {
          return r;
        }
      }
      System.gc();
      Thread.sleep(20);
    }
    throw new AssertionError("no report of the op built at " + site + " in " + PATIENCE);
  }
}
