// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether this machine has an NVIDIA GPU, found without a native call (so it can be asked where
 * native access is refused): the NVIDIA kernel module lists each GPU under {@code
 * /proc/driver/nvidia/gpus} and creates {@code /dev/nvidiactl}. The provider asks it to tell a
 * process that is refused a GPU it has (a verdict of "blocked", and a warning) from a machine
 * without one (quietly unavailable). Tests give the provider one of their own.
 */
@FunctionalInterface
interface GpuPresence {

  /**
   * {@return what shows a GPU here, in words for a message (e.g. {@code "/proc/driver/nvidia/gpus
   * lists 2 GPUs"}), or empty where nothing does}
   */
  Optional<String> evidence();

  /** {@return the presence this machine shows} */
  static GpuPresence system() {
    return under(Path.of("/"));
  }

  /** {@return the presence shown by the {@code proc} and {@code dev} trees under {@code root}} */
  static GpuPresence under(Path root) {
    return () -> {
      Path gpus = root.resolve("proc/driver/nvidia/gpus");
      int count = 0;
      if (Files.isDirectory(gpus)) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(gpus)) {
          for (Path ignored : entries) {
            count++;
          }
        } catch (IOException | SecurityException unreadable) {
          count = 0;
        }
      }
      if (count > 0) {
        return Optional.of(
            "/proc/driver/nvidia/gpus lists " + count + (count == 1 ? " GPU" : " GPUs"));
      }
      try {
        if (Files.exists(root.resolve("dev/nvidiactl"))) {
          return Optional.of("/dev/nvidiactl exists");
        }
      } catch (SecurityException unreadable) {
        // as good as absent
      }
      return Optional.empty();
    };
  }
}
