// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CopyEndpoint;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.Dim3;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.StreamFlags;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Per-node changes of an exec on the real driver: a kernel node's function and arguments, a copy
 * node's endpoints, a fill node's destination and value, and enabling and disabling nodes. Each
 * changes the launches after it only, and never the graph the exec was instantiated from.
 */
@Tag("gpu")
class NodeUpdateGpuTests extends GpuTest {

  private static final int N = 1024;
  private static final long BYTES = N * 4L;

  private CuStream stream;
  private long device;
  private long other;
  private MemorySegment in;
  private MemorySegment otherIn;
  private MemorySegment out;

  @BeforeEach
  void setUp() {
    stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    device = driver.memAlloc(BYTES);
    other = driver.memAlloc(BYTES);
    in = driver.memAllocHost(BYTES);
    otherIn = driver.memAllocHost(BYTES);
    out = driver.memAllocHost(BYTES);
    driver.memsetD32Async(device, 0, N, stream);
    driver.memsetD32Async(other, 0, N, stream);
    driver.streamSynchronize(stream);
  }

  @AfterEach
  void tearDown() {
    driver.streamSynchronize(stream);
    driver.memFree(device);
    driver.memFree(other);
    driver.memFreeHost(in);
    driver.memFreeHost(otherIn);
    driver.memFreeHost(out);
    driver.streamDestroy(stream);
  }

  @Test
  void aKernelNodeTakesANewFunctionAndArgumentsCopiedByTheCall() {
    CuGraph graph =
        capture(
            () -> {
              driver.memsetD32Async(device, 2, N, stream);
              kernels.fill(stream, device, 1, N);
            });
    CuGraphExec exec = driver.graphInstantiate(graph, 0);
    try {
      assertEquals(1, launchAndRead(exec, device));
      CuGraphNode kernel = nodesOf(graph, GraphNodeType.KERNEL).getFirst();
      try (Arena arena = Arena.ofConfined()) {
        KernelArguments args = KernelArguments.allocate(arena, 8, 4, 4);
        args.setI64(0, device);
        args.setI32(1, 5);
        args.setI32(2, N);
        driver.graphExecKernelNodeSetParams(
            exec,
            kernel,
            kernels.add,
            new Dim3(TestKernels.grid(N), 1, 1),
            new Dim3(TestKernels.BLOCK, 1, 1),
            0,
            args);
        args.setI32(1, 1000); // the driver took the values during the call
      }
      assertEquals(2 + 5, launchAndRead(exec, device), "add_u32(+5) after the memset of 2");
      assertEquals(2 + 5, launchAndRead(exec, device), "and on every launch after");
      CuGraphExec fromGraph = driver.graphInstantiate(graph, 0);
      assertEquals(1, launchAndRead(fromGraph, device), "the graph itself still fills 1");
      driver.graphExecDestroy(fromGraph);
    } finally {
      driver.graphExecDestroy(exec);
      driver.graphDestroy(graph);
    }
  }

  @Test
  void copyNodesTakeNewHostAndDeviceEndpoints() {
    fillHost(in, 11);
    fillHost(otherIn, 22);
    CuGraph graph =
        capture(
            () -> {
              driver.memcpyHtoDAsync(device, in, BYTES, stream);
              driver.memcpyDtoHAsync(out, device, BYTES, stream);
            });
    CuGraphExec exec = driver.graphInstantiate(graph, 0);
    try {
      List<CuGraphNode> copies = nodesOf(graph, GraphNodeType.MEMCPY);
      assertEquals(2, copies.size());
      launch(exec);
      assertHost(out, 11);

      driver.graphExecMemcpyNodeSetParams(
          exec,
          copies.get(0),
          new CopyEndpoint.Device(other),
          new CopyEndpoint.Host(otherIn),
          BYTES);
      driver.graphExecMemcpyNodeSetParams(
          exec, copies.get(1), new CopyEndpoint.Host(out), new CopyEndpoint.Device(other), BYTES);
      fillHost(out, 0);
      launch(exec);
      assertHost(out, 22);
      driver.memcpyDtoH(out, device, BYTES);
      assertHost(out, 11); // the original destination was not written again
    } finally {
      driver.graphExecDestroy(exec);
      driver.graphDestroy(graph);
    }
  }

  @Test
  void aFillNodeTakesANewDestinationAndValue() {
    CuGraph graph = capture(() -> driver.memsetD32Async(device, 1, N, stream));
    CuGraphExec exec = driver.graphInstantiate(graph, 0);
    try {
      assertEquals(1, launchAndRead(exec, device));
      CuGraphNode fill = nodesOf(graph, GraphNodeType.MEMSET).getFirst();
      driver.graphExecMemsetNodeSetParams(exec, fill, other, 4, 0xABCD_0123, N);
      driver.memsetD32Async(device, 7, N, stream);
      assertEquals(0xABCD_0123, launchAndRead(exec, other));
      driver.memcpyDtoH(out, device, BYTES);
      assertHost(out, 7); // the original destination was not filled again
    } finally {
      driver.graphExecDestroy(exec);
      driver.graphDestroy(graph);
    }
  }

  @Test
  void aByteFillTakesTheLowByteOfItsNewValue() {
    CuGraph graph = capture(() -> driver.memsetD8Async(device, (byte) 0x11, BYTES, stream));
    CuGraphExec exec = driver.graphInstantiate(graph, 0);
    try {
      assertEquals(0x1111_1111, launchAndRead(exec, device));
      CuGraphNode fill = nodesOf(graph, GraphNodeType.MEMSET).getFirst();
      driver.graphExecMemsetNodeSetParams(exec, fill, device, 1, 0x7F5A, BYTES);
      assertEquals(0x5A5A_5A5A, launchAndRead(exec, device));
    } finally {
      driver.graphExecDestroy(exec);
      driver.graphDestroy(graph);
    }
  }

  @Test
  void aDisabledNodeDoesNothingUntilEnabledAgain() {
    CuGraph graph =
        capture(
            () -> {
              driver.memsetD32Async(device, 0, N, stream);
              kernels.add(stream, device, 1, N);
              kernels.add(stream, device, 10, N);
            });
    CuGraphExec exec = driver.graphInstantiate(graph, 0);
    try {
      CuGraphNode reset = nodesOf(graph, GraphNodeType.MEMSET).getFirst();
      CuGraphNode addTen = nodesOf(graph, GraphNodeType.KERNEL).get(1);
      assertTrue(driver.graphNodeGetEnabled(exec, addTen), "nodes start enabled");
      assertEquals(11, launchAndRead(exec, device));

      driver.graphNodeSetEnabled(exec, addTen, false);
      assertFalse(driver.graphNodeGetEnabled(exec, addTen));
      assertTrue(driver.graphNodeGetEnabled(exec, reset), "only the node asked for");
      assertEquals(1, launchAndRead(exec, device));

      driver.graphNodeSetEnabled(exec, reset, false);
      assertEquals(1 + 1, launchAndRead(exec, device), "no reset: adds to the last launch's 1");

      driver.graphNodeSetEnabled(exec, reset, true);
      driver.graphNodeSetEnabled(exec, addTen, true);
      assertTrue(driver.graphNodeGetEnabled(exec, addTen));
      assertEquals(11, launchAndRead(exec, device));
    } finally {
      driver.graphExecDestroy(exec);
      driver.graphDestroy(graph);
    }
  }

  private CuGraph capture(Runnable work) {
    driver.streamBeginCapture(stream, CaptureMode.GLOBAL);
    work.run();
    CuGraph graph = driver.streamEndCapture(stream);
    assertNotNull(graph);
    return graph;
  }

  /** {@return the graph's nodes of {@code type}, in the order they were captured} */
  private static List<CuGraphNode> nodesOf(CuGraph graph, GraphNodeType type) {
    return driver.graphGetNodes(graph).stream()
        .filter(node -> driver.graphNodeGetType(node) == type)
        .toList();
  }

  private void launch(CuGraphExec exec) {
    driver.graphLaunch(exec, stream);
    driver.streamSynchronize(stream);
  }

  /** Launches, then {@return the word every element of {@code buffer} holds} */
  private int launchAndRead(CuGraphExec exec, long buffer) {
    launch(exec);
    driver.memcpyDtoH(out, buffer, BYTES);
    int first = out.getAtIndex(ValueLayout.JAVA_INT, 0);
    assertHost(out, first);
    return first;
  }

  private static void fillHost(MemorySegment host, int value) {
    for (int i = 0; i < N; i++) {
      host.setAtIndex(ValueLayout.JAVA_INT, i, value);
    }
  }

  private static void assertHost(MemorySegment host, int expected) {
    for (int i = 0; i < N; i += 61) {
      assertEquals(expected, host.getAtIndex(ValueLayout.JAVA_INT, i), "word " + i);
    }
    assertEquals(expected, host.getAtIndex(ValueLayout.JAVA_INT, N - 1), "the last word");
  }
}
