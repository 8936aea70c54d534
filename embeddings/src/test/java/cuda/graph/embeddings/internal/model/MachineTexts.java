// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The text files of this machine, as EmbedBench reads them for its corpus: every regular file of at
 * most 1 MiB under the roots, in path order, that decodes as UTF-8 (compressed, binary and
 * unreadable files, and folders that cannot be listed, are passed over).
 */
final class MachineTexts {

  private MachineTexts() {}

  /**
   * Hands each file's text to {@code take} until it returns false.
   *
   * @param roots the folders, in the order read (a missing one is passed over)
   * @param take takes one file's text; false stops the reading
   */
  static void read(List<Path> roots, Predicate<String> take) {
    for (Path root : roots) {
      if (!Files.isDirectory(root)) {
        continue;
      }
      List<Path> files;
      try (Stream<Path> walk = Files.walk(root)) {
        files = walk.filter(Files::isRegularFile).sorted().toList();
      } catch (IOException e) {
        continue; // an unreadable folder: the callers' other inputs still run
      }
      for (Path file : files) {
        String text;
        try {
          if (Files.size(file) > 1 << 20) {
            continue;
          }
          text =
              StandardCharsets.UTF_8
                  .newDecoder()
                  .decode(ByteBuffer.wrap(Files.readAllBytes(file)))
                  .toString();
        } catch (IOException e) {
          continue; // compressed, binary or unreadable
        }
        if (!take.test(text)) {
          return;
        }
      }
    }
  }
}
