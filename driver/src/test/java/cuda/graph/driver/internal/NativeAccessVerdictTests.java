// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.Availability;
import cuda.graph.spi.CuResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Native access refused: blocked where the machine has a GPU (selection then warns), unavailable
 * where it has none; the missing grant is logged at WARNING with a GPU and at DEBUG without; and
 * how a GPU is found without a native call.
 */
class NativeAccessVerdictTests {

  private static final Module MODULE = CudaProvider.class.getModule();
  private static final GpuPresence A_GPU = () -> Optional.of("/dev/nvidiactl exists");
  private static final GpuPresence NO_GPU = Optional::empty;

  @Test
  void refusedOnAMachineWithAGpuTheProviderIsBlockedAndSaysWhy() {
    CudaProvider.Verdict verdict = new CudaProvider(A_GPU).refused(MODULE, "libcuda.so.1");
    Availability availability = verdict.availability();
    assertFalse(availability.available());
    assertTrue(availability.blocked(), "selection must warn, not fall back quietly");
    assertEquals(CuResult.NOT_INITIALIZED, verdict.status());
    assertEquals(
        "native access is not enabled for the CUDA provider, so it may not load libcuda.so.1"
            + " although this machine has an NVIDIA GPU (/dev/nvidiactl exists): run java with "
            + NativeAccessAdvice.flagFor(MODULE)
            + " (the provider is "
            + NativeAccessAdvice.placeOf(MODULE)
            + ")",
        availability.reason());
  }

  @Test
  void refusedOnAMachineWithoutAGpuTheProviderIsMerelyUnavailable() {
    CudaProvider.Verdict verdict = new CudaProvider(NO_GPU).refused(MODULE, "libcuda.so.1");
    Availability availability = verdict.availability();
    assertFalse(availability.available());
    assertFalse(availability.blocked());
    assertEquals(CuResult.NOT_INITIALIZED, verdict.status());
    assertEquals(
        NativeAccessAdvice.advice(MODULE, "it may not load libcuda.so.1"), availability.reason());
  }

  @Test
  void theMissingGrantIsAWarningOnlyWhereAGpuIsPresent() {
    assertEquals(System.Logger.Level.WARNING, new CudaProvider(A_GPU).nativeAccessLogLevel());
    assertEquals(System.Logger.Level.DEBUG, new CudaProvider(NO_GPU).nativeAccessLogLevel());
  }

  @Test
  void aMachineWithoutTheNvidiaTreesHasNoGpu(@TempDir Path root) throws IOException {
    assertEquals(Optional.empty(), GpuPresence.under(root).evidence());
    Files.createDirectories(root.resolve("proc/driver/nvidia/gpus")); // the module, no GPU listed
    assertEquals(Optional.empty(), GpuPresence.under(root).evidence());
  }

  @Test
  void theGpusTheKernelModuleListsAreCounted(@TempDir Path root) throws IOException {
    Path gpus = Files.createDirectories(root.resolve("proc/driver/nvidia/gpus"));
    Files.createDirectory(gpus.resolve("0000:3b:00.0"));
    assertEquals(
        Optional.of("/proc/driver/nvidia/gpus lists 1 GPU"), GpuPresence.under(root).evidence());
    Files.createDirectory(gpus.resolve("0000:5e:00.0"));
    assertEquals(
        Optional.of("/proc/driver/nvidia/gpus lists 2 GPUs"), GpuPresence.under(root).evidence());
  }

  @Test
  void theControlDeviceShowsAGpuToo(@TempDir Path root) throws IOException {
    Files.createFile(Files.createDirectories(root.resolve("dev")).resolve("nvidiactl"));
    assertEquals(Optional.of("/dev/nvidiactl exists"), GpuPresence.under(root).evidence());
  }

  @Test
  void theSystemsAnswerAgreesWithItsFiles() {
    boolean listed;
    try (var entries = Files.list(Path.of("/proc/driver/nvidia/gpus"))) {
      listed = entries.findAny().isPresent();
    } catch (IOException | RuntimeException absent) {
      listed = false;
    }
    boolean present = listed || Files.exists(Path.of("/dev/nvidiactl"));
    assertEquals(present, GpuPresence.system().evidence().isPresent());
  }
}
