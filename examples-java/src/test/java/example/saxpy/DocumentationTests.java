// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example.saxpy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documentation as a newcomer meets it: a README short enough to read in five minutes that
 * leads to every guide and names every published artifact, links that lead somewhere, and pages
 * that speak of the library as it is, not of the history of its making.
 */
class DocumentationTests {

  /** A Markdown link: {@code [text](target)}. */
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  /** A row of the README's artifact table: its first cell names an artifact. */
  private static final Pattern ARTIFACT_ROW =
      Pattern.compile("(?m)^\\| `(cuda-graph-[a-z0-9-]+)` \\|");

  /** Words of a lab notebook: issue numbers, commit hashes, times of day without their date. */
  private static final Pattern NOTEBOOK =
      Pattern.compile(
          "(?i)\\bissues? \\d+|\\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\\b"
              + "|(?<!\\d{4}-\\d{2}-\\d{2},? |\\d:\\d{2} to )\\b\\d{1,2}:\\d{2}\\b");

  private static final Path REPOSITORY = MarkdownBlocks.repository();

  @Test
  void theReadmeIsALandingPageOfAtMost250Lines() throws IOException {
    List<String> lines = Files.readAllLines(REPOSITORY.resolve("README.md"));
    assertTrue(lines.size() <= 250, "README.md has " + lines.size() + " lines; at most 250");
  }

  @Test
  void theReadmeLeadsToEveryGuide() throws IOException {
    String readme = Files.readString(REPOSITORY.resolve("README.md"));
    List<String> missing = new ArrayList<>();
    for (String document : MarkdownBlocks.documents()) {
      if (document.startsWith("docs/guide/") && !readme.contains("](" + document + ")")) {
        missing.add(document);
      }
    }
    assertEquals(List.of(), missing, "guides the README's table of guides does not link");
  }

  @Test
  void theReadmesArtifactTableNamesEveryPublishedArtifactAndNoOther() throws IOException {
    Set<String> published = new TreeSet<>();
    Matcher managed =
        Pattern.compile("<artifactId>(cuda-graph-[a-z0-9-]+)</artifactId>")
            .matcher(Files.readString(REPOSITORY.resolve("bom/pom.xml")));
    while (managed.find()) {
      published.add(managed.group(1)); // the BOM's own artifactId, then those it manages
    }
    Set<String> listed = new TreeSet<>();
    Matcher row = ARTIFACT_ROW.matcher(Files.readString(REPOSITORY.resolve("README.md")));
    while (row.find()) {
      listed.add(row.group(1));
    }
    assertTrue(published.size() >= 10, "the BOM's artifacts: " + published);
    assertEquals(published, listed, "the README's artifact table against the BOM");
  }

  @Test
  void everyRelativeLinkOfTheDocumentationLeadsToAFileOrHeadingThatExists() throws IOException {
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path page : pages()) {
      Matcher link = LINK.matcher(Files.readString(page));
      while (link.find()) {
        String target = link.group(1);
        if (target.matches("[a-z]+:.*")) {
          continue; // https:, mailto: and the like
        }
        checked++;
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        String where = REPOSITORY.relativize(page) + ": " + target;
        if (!Files.exists(resolved)) {
          broken.add(where + " (no such file)");
        } else if (hash >= 0 && !anchors(resolved).contains(target.substring(hash + 1))) {
          broken.add(where + " (no such heading)");
        }
      }
    }
    assertEquals(List.of(), broken, "links that lead nowhere");
    assertTrue(checked >= 30, "relative links checked: " + checked);
  }

  @Test
  void theReadmeTheGuidesAndTheExamplesSpeakOfTheLibraryNotOfItsHistory() throws IOException {
    List<String> found = new ArrayList<>();
    for (String document : MarkdownBlocks.documents()) {
      List<String> lines = Files.readAllLines(REPOSITORY.resolve(document));
      for (int i = 0; i < lines.size(); i++) {
        Matcher notebook = NOTEBOOK.matcher(lines.get(i));
        if (notebook.find()) {
          found.add(document + ":" + (i + 1) + ": " + notebook.group());
        }
      }
    }
    assertEquals(List.of(), found, "issue numbers, commit hashes or times of day");
  }

  /** {@return the Markdown pages whose links must lead somewhere} */
  private static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>();
    for (String document : MarkdownBlocks.documents()) {
      pages.add(REPOSITORY.resolve(document));
    }
    for (String other : List.of("CONTRIBUTING.md", "CHANGELOG.md", "SECURITY.md")) {
      pages.add(REPOSITORY.resolve(other));
    }
    try (Stream<Path> docs = Files.list(REPOSITORY.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  /** {@return the anchors GitHub gives the headings of a Markdown file} */
  private static Set<String> anchors(Path markdown) throws IOException {
    Set<String> anchors = new TreeSet<>();
    if (!markdown.toString().endsWith(".md")) {
      return anchors;
    }
    boolean inBlock = false;
    for (String line : Files.readAllLines(markdown)) {
      if (line.stripLeading().startsWith("```")) {
        inBlock = !inBlock;
      } else if (!inBlock && line.startsWith("#")) {
        String heading = line.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT);
        anchors.add(heading.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
      }
    }
    return anchors;
  }
}
