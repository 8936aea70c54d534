// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The embeddings guide's program, as a user copies it: without a GPU it embeds on the simulator,
 * and it prints exactly what its {@code // prints:} comments say (the guide shows the file
 * verbatim).
 */
class EmbedSentencesTests {

  @Test
  void theGuidesProgramPrintsWhatItsCommentsSay() throws IOException {
    String source =
        Files.readString(
            Path.of("src/main/java/cuda/graph/examples/embed/EmbedSentences.java"),
            StandardCharsets.UTF_8);
    List<String> expected = new ArrayList<>();
    Matcher prints = Pattern.compile("// prints: (.*)").matcher(source);
    while (prints.find()) {
      expected.add(prints.group(1).strip());
    }
    assertFalse(expected.isEmpty(), "EmbedSentences says nothing of what it prints");

    PrintStream original = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      EmbedSentences.main(new String[0]);
    } finally {
      System.setOut(original);
    }
    assertEquals(expected, printed.toString(StandardCharsets.UTF_8).lines().toList());
  }
}
