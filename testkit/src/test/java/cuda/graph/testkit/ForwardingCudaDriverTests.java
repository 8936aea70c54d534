// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.support.ForwardingCudaDriver;
import cuda.graph.testkit.ForwardingCheck.HookRecorder;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ForwardingCudaDriver}, the base of every driver decorator, checked by {@link
 * ForwardingCheck} for every entry point of the SPI: arguments forwarded once and untouched, the
 * delegate's result returned, its failures passed on, and each method's own {@link DriverCall}
 * reported to the hooks. The planted forwarders below show that each of those checks fails when a
 * single method gets it wrong.
 */
class ForwardingCudaDriverTests {

  @Test
  void everyEntryPointForwardsOnceReturnsTheResultPassesFailuresAndReportsItsOwnCall() {
    assertEquals(List.of(), ForwardingCheck.problems(HookRecorder::new));
  }

  @Test
  void aDecoratorThatDoesNotDescribeArgumentsHandsTheHookNoArguments() {
    assertEquals(List.of(), ForwardingCheck.problems(d -> new HookRecorder(d, false)));
  }

  @Test
  void everyDriverCallIsReportedByExactlyOneEntryPoint() {
    Map<DriverCall, String> reportedBy = new EnumMap<>(DriverCall.class);
    for (Method method : ForwardingCheck.entryPoints()) {
      String previous = reportedBy.put(ForwardingCheck.expectedCall(method), method.getName());
      assertEquals(
          null, previous, method.getName() + " and " + previous + " stand for the same call");
    }
    assertEquals(
        List.of(DriverCall.values()),
        List.copyOf(reportedBy.keySet()),
        "every DriverCall has its entry point");
  }

  @Test
  void methodNamesSpellTheirSymbolWithoutPrefixAndVersion() {
    assertEquals("streamBeginCapture", ForwardingCheck.methodNameOf("cuStreamBeginCapture_v2"));
    assertEquals("memcpyHtoD", ForwardingCheck.methodNameOf("cuMemcpyHtoD_v2"));
    assertEquals("streamGetCaptureInfo", ForwardingCheck.methodNameOf("cuStreamGetCaptureInfo_v3"));
    assertEquals("graphAddNode", ForwardingCheck.methodNameOf("cuGraphAddNode_v2"));
  }

  @Test
  void aForwarderThatReportsAnotherCallIsCaught() {
    List<String> problems =
        ForwardingCheck.problems(
            d ->
                new HookRecorder(d) {
                  @Override
                  public boolean streamQuery(CuStream stream) {
                    // STREAM_SYNCHRONIZE where STREAM_QUERY belongs, as a copied method would.
                    before(DriverCall.STREAM_SYNCHRONIZE, new Object[] {stream});
                    try {
                      return delegate().streamQuery(stream);
                    } catch (RuntimeException e) {
                      throw failed(DriverCall.STREAM_SYNCHRONIZE, e);
                    }
                  }
                });

    assertOnly("streamQuery", problems);
    assertTrue(
        problems.contains("streamQuery: told before [STREAM_SYNCHRONIZE], not [STREAM_QUERY]"),
        problems::toString);
  }

  @Test
  void aForwarderThatCallsTheDelegateTwiceIsCaught() {
    List<String> problems =
        ForwardingCheck.problems(
            d ->
                new HookRecorder(d) {
                  @Override
                  public void memcpyHtoD(long dst, MemorySegment src, long bytes) {
                    super.memcpyHtoD(dst, src, bytes);
                    super.memcpyHtoD(dst, src, bytes);
                  }
                });

    assertOnly("memcpyHtoD", problems);
    assertTrue(
        problems.contains(
            "memcpyHtoD: called the delegate 2 time(s) [memcpyHtoD, memcpyHtoD], not once with"
                + " memcpyHtoD"),
        problems::toString);
  }

  @Test
  void aForwarderThatSwapsTwoArgumentsIsCaught() {
    List<String> problems =
        ForwardingCheck.problems(
            d ->
                new HookRecorder(d) {
                  @Override
                  public void memcpyDtoDAsync(long dst, long src, long bytes, CuStream stream) {
                    super.memcpyDtoDAsync(src, dst, bytes, stream);
                  }
                });

    assertOnly("memcpyDtoDAsync", problems);
    assertTrue(
        problems.stream().anyMatch(p -> p.contains(" as dst, not the ")),
        "names the parameter: " + problems);
  }

  @Test
  void aForwarderThatChangesTheResultIsCaught() {
    List<String> problems =
        ForwardingCheck.problems(
            d ->
                new HookRecorder(d) {
                  @Override
                  public boolean eventQuery(CuEvent event) {
                    return !super.eventQuery(event);
                  }
                });

    assertOnly("eventQuery", problems);
    assertTrue(
        problems.stream().anyMatch(p -> p.contains(", not the delegate's ")), problems::toString);
  }

  @Test
  void aForwarderThatSwallowsAFailureIsCaught() {
    List<String> problems =
        ForwardingCheck.problems(
            d ->
                new HookRecorder(d) {
                  @Override
                  public void streamSynchronize(CuStream stream) {
                    try {
                      super.streamSynchronize(stream);
                    } catch (IllegalStateException swallowed) {
                      // planted: the caller never learns that the call failed
                    }
                  }
                });

    assertOnly("streamSynchronize", problems);
    assertTrue(
        problems.stream().anyMatch(p -> p.startsWith("streamSynchronize: swallowed")),
        problems::toString);
  }

  @Test
  void runtimeCompilerAndCloseAreForwardedOnceWithoutHooks() throws ReflectiveOperationException {
    for (String name : ForwardingCheck.WITHOUT_HOOKS) {
      DriverSamples samples = new DriverSamples();
      RecordingDriver delegate = new RecordingDriver(samples);
      HookRecorder wrapper = new HookRecorder(delegate.driver());
      Method method = cuda.graph.spi.CudaDriver.class.getMethod(name);

      Object result = method.invoke(wrapper);

      assertEquals(1, delegate.calls().size(), name + " reached the delegate once");
      assertEquals(method, delegate.calls().getFirst().method());
      assertSame(delegate.calls().getFirst().result(), result, name + " returns what it got");
      assertEquals(List.of(), wrapper.before, name + " runs no hook");
    }
  }

  /** Fails unless there are problems and every one is {@code method}'s. */
  private static void assertOnly(String method, List<String> problems) {
    assertFalse(problems.isEmpty(), "the planted defect of " + method + " was not found");
    for (String problem : problems) {
      assertTrue(problem.startsWith(method + ": "), "a problem of another method: " + problem);
    }
  }
}
