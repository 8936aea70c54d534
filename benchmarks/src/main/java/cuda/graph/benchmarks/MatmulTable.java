// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.benchmarks.RatioTable.Spread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the CSV rows of the matmul benchmark's three implementations, run in interleaved rounds
 * ({@code scripts/gpu-run.sh matmul}: {@code matmul_bench.cu} as {@code cpp}, {@code
 * matmul_torch.py} as {@code torch} and {@link MatmulBench} as {@code cuda-graph}, each once a
 * round), and prints a Markdown table: per shape and mode, each implementation's figure (its median
 * microseconds per matmul in one round) as the median over the rounds with the spread {@code
 * [min-max]}, and the ratios of medians cuda-graph / C++ and cuda-graph / PyTorch with the spread
 * of the extremes' ratios, as {@link RatioTable} gives them. It says which column has no rows (an
 * anchor that did not build or run) and which shapes' eager and replayed results differed.
 *
 * <p>Usage: {@code MatmulTable file...}; lines that are neither CSV rows nor the C++ anchor's
 * result lines are ignored.
 */
public final class MatmulTable {

  /** impl,shape,in,out,rows,mode,us_per_matmul_median, then the rest. */
  private static final Pattern ROW =
      Pattern.compile("^(cpp|torch|cuda-graph),([^,]+),\\d+,\\d+,\\d+,(\\w+),([^,]+)(,.*)?$");

  /** The C++ anchor's comparison of its eager and replayed results (on stderr). */
  private static final Pattern CPP_CHECK =
      Pattern.compile("^(\\S+): eager and graph results (OK|MISMATCH)$");

  private static final List<String> IMPLS = List.of("cpp", "torch", "cuda-graph");
  private static final Map<String, String> TITLES =
      Map.of("cpp", "C++", "torch", "PyTorch", "cuda-graph", "cuda-graph");

  /** Figures by shape and mode (in the order first seen), then by implementation. */
  private final Map<String, Map<String, List<Double>>> figures = new LinkedHashMap<>();

  /** Per implementation: results compared, those that differed, and the shapes where they did. */
  private final Map<String, Integer> checks = new LinkedHashMap<>();

  private final Map<String, Integer> differed = new LinkedHashMap<>();

  private final Map<String, Set<String>> mismatches = new LinkedHashMap<>();

  public static void main(String[] args) throws IOException {
    MatmulTable table = new MatmulTable();
    for (String file : args) {
      for (String line : Files.readAllLines(Path.of(file))) {
        table.add(line);
      }
    }
    System.out.print(table.render());
  }

  void add(String line) {
    String l = line.strip();
    Matcher check = CPP_CHECK.matcher(l);
    if (check.matches()) {
      check("cpp", check.group(1), check.group(2));
      return;
    }
    Matcher m = ROW.matcher(l);
    if (!m.matches()) {
      return;
    }
    String impl = m.group(1);
    String shape = m.group(2);
    double us;
    try {
      us = Double.parseDouble(m.group(4));
    } catch (NumberFormatException e) {
      return;
    }
    if (!Double.isFinite(us)) {
      return;
    }
    figures
        .computeIfAbsent(shape + "|" + m.group(3), k -> new LinkedHashMap<>())
        .computeIfAbsent(impl, k -> new ArrayList<>())
        .add(us);
    String rest = m.group(5) == null ? "" : m.group(5);
    if (impl.equals("cuda-graph") && m.group(3).equals("graph")) {
      // MatmulBench's last column: OK or MISMATCH, once a shape (on its eager and graph rows).
      check(impl, shape, rest.substring(rest.lastIndexOf(',') + 1));
    }
  }

  private void check(String impl, String shape, String verdict) {
    checks.merge(impl, 1, Integer::sum);
    if (!verdict.equals("OK")) {
      differed.merge(impl, 1, Integer::sum);
      mismatches.computeIfAbsent(impl, k -> new LinkedHashSet<>()).add(shape);
    }
  }

  String render() {
    StringBuilder out = new StringBuilder();
    out.append(
        "| shape | mode | C++ us | PyTorch us | cuda-graph us | cuda-graph / C++ |"
            + " cuda-graph / PyTorch |\n");
    out.append("|---|---|---|---|---|---|---|\n");
    Map<String, Integer> rows = new LinkedHashMap<>();
    Map<String, List<Ratio>> overCpp = new LinkedHashMap<>();
    Map<String, List<Ratio>> overTorch = new LinkedHashMap<>();
    for (var e : figures.entrySet()) {
      String[] key = e.getKey().split("\\|", 2);
      String shape = key[0];
      String mode = key[1];
      Map<String, Spread> s = new LinkedHashMap<>();
      for (String impl : IMPLS) {
        List<Double> v = e.getValue().get(impl);
        if (v != null) {
          s.put(impl, Spread.of(v));
          rows.merge(impl, v.size(), Math::max);
        }
      }
      Spread ours = s.get("cuda-graph");
      out.append("| ").append(shape).append(" | ").append(mode).append(" |");
      for (String impl : IMPLS) {
        Spread v = s.get(impl);
        out.append(' ').append(v == null ? "-" : v.show("%.3f")).append(" |");
      }
      for (String base : List.of("cpp", "torch")) {
        Spread b = s.get(base);
        if (ours == null || b == null) {
          out.append(" - |");
          continue;
        }
        Spread r = ours.over(b);
        out.append(' ').append(r.show("%.3f")).append(" |");
        (base.equals("cpp") ? overCpp : overTorch)
            .computeIfAbsent(mode, k -> new ArrayList<>())
            .add(new Ratio(shape, r.median()));
      }
      out.append('\n');
    }
    out.append('\n');
    StringJoiner counts = new StringJoiner(", ", "Rounds (figures in a cell, at most): ", "");
    for (String impl : IMPLS) {
      counts.add(TITLES.get(impl) + " " + rows.getOrDefault(impl, 0));
    }
    out.append(counts).append('\n');
    for (String impl : IMPLS) {
      if (!rows.containsKey(impl)) {
        out.append(TITLES.get(impl)).append(": no rows (did it build and run? see its log)\n");
      }
    }
    summarize(out, "C++", overCpp);
    summarize(out, "PyTorch", overTorch);
    StringJoiner equal =
        new StringJoiner(", ", "eager and replayed results equal bit for bit: ", "");
    for (String impl : List.of("cpp", "cuda-graph")) {
      int n = checks.getOrDefault(impl, 0);
      equal.add(TITLES.get(impl) + " " + (n - differed.getOrDefault(impl, 0)) + " of " + n);
    }
    out.append(equal).append('\n');
    if (!mismatches.isEmpty()) {
      StringJoiner which = new StringJoiner("; ", "MISMATCH: ", "");
      mismatches.forEach(
          (impl, shapes) -> which.add(TITLES.get(impl) + " " + String.join(", ", shapes)));
      out.append(which).append('\n');
    }
    return out.toString();
  }

  private record Ratio(String shape, double value) {}

  /** Per mode: the smallest, median and largest ratio of medians over the shapes. */
  private static void summarize(StringBuilder out, String base, Map<String, List<Ratio>> ratios) {
    ratios.forEach(
        (mode, list) -> {
          List<Ratio> sorted = new ArrayList<>(list);
          sorted.sort((a, b) -> Double.compare(a.value(), b.value()));
          Spread s = Spread.of(sorted.stream().map(Ratio::value).toList());
          out.append(
              String.format(
                  Locale.ROOT,
                  "cuda-graph / %s, %s: min %.3f (%s), median %.3f, max %.3f (%s) over %d shapes%n",
                  base,
                  mode,
                  s.min(),
                  sorted.get(0).shape(),
                  s.median(),
                  s.max(),
                  sorted.get(sorted.size() - 1).shape(),
                  sorted.size()));
        });
  }
}
