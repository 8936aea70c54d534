// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import static cuda.graph.architecture.RepositoryFiles.ROOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code benchmarks/runs} keeps only the raw logs behind the current figures: every folder there
 * has a row in its README's index, every row names a folder that is there, every folder is named by
 * a current figure (docs/PERFORMANCE.md or a showcase's README), and every run a figure names is
 * kept. A run that a new figure supersedes is deleted in the same commit (git keeps it).
 */
class BenchmarkRunsTests {

  static final Path RUNS = ROOT.resolve("benchmarks/runs");

  /** The pages that hold the current figures. */
  static final List<Path> FIGURES =
      List.of(
          ROOT.resolve("docs/PERFORMANCE.md"),
          ROOT.resolve("examples-decode/README.md"),
          ROOT.resolve("examples-embed/README.md"));

  /** A run folder's name: its date, then its topic. */
  private static final Pattern NAMED =
      Pattern.compile("benchmarks/runs/(\\d{4}-\\d{2}-\\d{2}-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)");

  /** An index row: its first cell names the folder, as a link or plain. */
  private static final Pattern ROW =
      Pattern.compile(
          "^\\|\\s*\\[?`?(\\d{4}-\\d{2}-\\d{2}-[A-Za-z0-9-]+?)`?]?(?:\\([^)]*\\))?\\s*\\|");

  @Test
  void everyKeptRunIsIndexedAndBehindACurrentFigure() {
    List<String> found = problems(RUNS, FIGURES);
    assertTrue(found.isEmpty(), "benchmarks/runs:\n" + String.join("\n", found));
  }

  @Test
  void aPlantedFolderWithoutAnIndexRowIsReported(@TempDir Path repo) {
    Path runs = runs(repo, "| [2026-01-01-kept](2026-01-01-kept/) | 2026-01-01 | H100 | x | y |");
    folder(runs, "2026-01-01-kept");
    folder(runs, "2026-01-02-planted");
    Path figures =
        page(repo, "see benchmarks/runs/2026-01-01-kept and benchmarks/runs/2026-01-02-planted");

    List<String> found = problems(runs, List.of(figures));

    assertEquals(1, found.size(), found.toString());
    assertTrue(found.getFirst().startsWith("2026-01-02-planted: no row in "), found.toString());
  }

  @Test
  void anIndexRowWhoseFolderIsGoneIsReported(@TempDir Path repo) {
    Path runs =
        runs(
            repo,
            "| [2026-01-01-kept](2026-01-01-kept/) | 2026-01-01 | H100 | x | y |",
            "| `2026-01-03-deleted` | 2026-01-03 | H200 | x | y |");
    folder(runs, "2026-01-01-kept");
    Path figures = page(repo, "[log](../benchmarks/runs/2026-01-01-kept)");

    List<String> found = problems(runs, List.of(figures));

    assertEquals(
        List.of("2026-01-03-deleted: a row of the index, but no such folder"), found, "" + found);
  }

  @Test
  void aKeptFolderThatNoFigureNamesIsReported(@TempDir Path repo) {
    Path runs =
        runs(
            repo,
            "| [2026-01-01-kept](2026-01-01-kept/) | 2026-01-01 | H100 | x | y |",
            "| [2026-01-01-kept-2](2026-01-01-kept-2/) | 2026-01-01 | H100 | x | y |");
    folder(runs, "2026-01-01-kept");
    folder(runs, "2026-01-01-kept-2");
    // Naming 2026-01-01-kept-2 is not naming 2026-01-01-kept.
    Path figures = page(repo, "logs: `benchmarks/runs/2026-01-01-kept-2`, file a.log");

    List<String> found = problems(runs, List.of(figures));

    assertEquals(1, found.size(), found.toString());
    assertTrue(
        found.getFirst().startsWith("2026-01-01-kept: no current figure names it"), "" + found);
  }

  @Test
  void aFigureThatNamesADeletedRunIsReported(@TempDir Path repo) {
    Path runs = runs(repo, "| [2026-01-01-kept](2026-01-01-kept/) | 2026-01-01 | H100 | x | y |");
    folder(runs, "2026-01-01-kept");
    Path figures =
        page(repo, "benchmarks/runs/2026-01-01-kept/a.log, benchmarks/runs/2026-01-04-gone/b.log");

    List<String> found = problems(runs, List.of(figures));

    assertEquals(1, found.size(), found.toString());
    assertTrue(found.getFirst().startsWith("2026-01-04-gone: named by "), found.toString());
  }

  /**
   * {@return what is wrong with the run folders under {@code runs} against their index ({@code
   * runs/README.md}) and the pages of current figures, one line each; empty when nothing is}
   */
  static List<String> problems(Path runs, List<Path> figures) {
    Path index = runs.resolve("README.md");
    Path root = runs.getParent().getParent();
    String indexName = root.relativize(index).toString();
    List<String> figureNames = figures.stream().map(f -> root.relativize(f).toString()).toList();
    Set<String> folders = folders(runs);
    Set<String> indexed = new TreeSet<>();
    for (String line : text(index).lines().toList()) {
      Matcher row = ROW.matcher(line);
      if (row.find()) {
        indexed.add(row.group(1));
      }
    }
    Set<String> named = new TreeSet<>();
    for (Path page : figures) {
      Matcher name = NAMED.matcher(Files.exists(page) ? text(page) : "");
      while (name.find()) {
        named.add(name.group(1));
      }
    }
    List<String> found = new ArrayList<>();
    for (String folder : folders) {
      if (!indexed.contains(folder)) {
        found.add(
            folder
                + ": no row in "
                + indexName
                + ": add one (date, card and driver, command, the figure it backs), or delete the"
                + " folder if no current figure needs it (git keeps it)");
      }
      if (!named.contains(folder)) {
        found.add(
            folder
                + ": no current figure names it (as benchmarks/runs/"
                + folder
                + " in "
                + figureNames
                + "): delete it with its index row (git keeps it), or cite it where its figure is");
      }
    }
    for (String row : indexed) {
      if (!folders.contains(row)) {
        found.add(row + ": a row of the index, but no such folder");
      }
    }
    for (String name : named) {
      if (!folders.contains(name)) {
        found.add(
            name
                + ": named by "
                + figureNames
                + " as benchmarks/runs/"
                + name
                + ", but no such folder: cite a kept run, or say that the log is not kept");
      }
    }
    return found;
  }

  private static Set<String> folders(Path runs) {
    try (Stream<Path> list = Files.list(runs)) {
      Set<String> names = new TreeSet<>();
      list.filter(Files::isDirectory).forEach(d -> names.add(d.getFileName().toString()));
      return names;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String text(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static Path runs(Path repo, String... rows) {
    Path runs = folder(repo, "benchmarks/runs");
    write(
        runs.resolve("README.md"),
        "| run | date | card | command | figure |\n|---|---|---|---|---|\n"
            + String.join("\n", rows)
            + "\n");
    return runs;
  }

  private static Path page(Path repo, String text) {
    return write(repo.resolve("PERFORMANCE.md"), text + "\n");
  }

  private static Path folder(Path parent, String name) {
    try {
      return Files.createDirectories(parent.resolve(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path write(Path file, String text) {
    try {
      return Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
