// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example.saxpy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The fenced code blocks of the repository's Markdown files, as the tests of its documentation read
 * them: the one place that knows how a block is written, so that every test checks the same blocks.
 *
 * <p>A block starts with a line of three backticks and a language ({@code ```java}) and ends with a
 * line of three backticks alone, both indented alike inside a list item. A line {@code `path`:}
 * right before it names the file the block shows.
 */
final class MarkdownBlocks {

  /** A line that names the file the next block shows: {@code `src/main/java/Foo.java`:}. */
  private static final Pattern FILE_LINE = Pattern.compile("^`([^`]+)`:$");

  /** The licence header of a Java, Kotlin or CUDA source: its first two lines. */
  private static final Pattern LICENCE_HEADER =
      Pattern.compile(
          "// SPDX-License-Identifier: [^\\n]*\\n// Copyright [^\\n]* the cuda-graph authors\\n");

  private MarkdownBlocks() {}

  /**
   * One fenced block.
   *
   * @param source the Markdown file, relative to the repository
   * @param line the line of its opening fence, from 1
   * @param language what follows the opening backticks, lower case; empty when nothing does
   * @param file the file the block shows, when the line before it names one
   * @param text the block's lines, each ended by a newline
   */
  record Block(String source, int line, String language, Optional<String> file, String text) {

    /** {@return where the block is, for messages: {@code README.md:123}} */
    String where() {
      return source + ":" + line;
    }
  }

  /**
   * {@return the text of a repository file as the README shows it: without the licence header} (the
   * two comment lines, SPDX and copyright, every source file starts with), which a reader pasting
   * the example needs no more than the README needs to repeat
   */
  static String shownText(Path file) throws IOException {
    String text = Files.readString(file);
    Matcher header = LICENCE_HEADER.matcher(text);
    return header.lookingAt() ? text.substring(header.end()) : text;
  }

  /** {@return the repository's root}: found from the working directory up */
  static Path repository() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.exists(p.resolve("README.md"))
          && Files.exists(p.resolve("examples-java/pom.xml"))) {
        return p;
      }
    }
    throw new AssertionError(
        "no README.md beside an examples-java/ module above " + Path.of("").toAbsolutePath());
  }

  /**
   * {@return the documents whose code must run, relative to the repository}: the README, every
   * guide of {@code docs/guide/}, and the README of every example folder
   */
  static List<String> documents() throws IOException {
    Path repository = repository();
    List<String> documents = new ArrayList<>(List.of("README.md"));
    try (Stream<Path> guides = Files.list(repository.resolve("docs/guide"))) {
      guides
          .filter(p -> p.getFileName().toString().endsWith(".md"))
          .map(p -> repository.relativize(p).toString())
          .sorted()
          .forEach(documents::add);
    }
    try (Stream<Path> folders = Files.list(repository)) {
      folders
          .filter(p -> p.getFileName().toString().startsWith("examples"))
          .map(p -> p.resolve("README.md"))
          .filter(Files::exists)
          .map(p -> repository.relativize(p).toString())
          .sorted()
          .forEach(documents::add);
    }
    return List.copyOf(documents);
  }

  /** {@return the fenced blocks of every one of {@link #documents()}, in order} */
  static List<Block> ofDocuments() throws IOException {
    List<Block> blocks = new ArrayList<>();
    for (String document : documents()) {
      blocks.addAll(of(document));
    }
    return List.copyOf(blocks);
  }

  /**
   * {@return the fenced blocks of a Markdown file of the repository, in order}
   *
   * @param relative the file, relative to the repository, e.g. {@code README.md}
   * @throws AssertionError if a block is not closed
   */
  static List<Block> of(String relative) throws IOException {
    List<String> lines = Files.readAllLines(repository().resolve(relative));
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String fence = lines.get(i).stripLeading();
      if (!fence.startsWith("```")) {
        continue;
      }
      // A block inside a list item is indented with its item; its lines lose that indentation.
      int indent = lines.get(i).length() - fence.length();
      Optional<String> file = Optional.empty();
      if (i > 0) {
        Matcher named = FILE_LINE.matcher(lines.get(i - 1));
        if (named.matches()) {
          file = Optional.of(named.group(1));
        }
      }
      int open = i;
      StringBuilder text = new StringBuilder();
      for (i++; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
        String line = lines.get(i);
        int leading = line.length() - line.stripLeading().length();
        text.append(line.substring(Math.min(indent, leading))).append('\n');
      }
      if (i == lines.size()) {
        throw new AssertionError(relative + ":" + (open + 1) + ": a code block is never closed");
      }
      blocks.add(
          new Block(
              relative, open + 1, fence.substring(3).strip().toLowerCase(), file, text.toString()));
    }
    return List.copyOf(blocks);
  }
}
