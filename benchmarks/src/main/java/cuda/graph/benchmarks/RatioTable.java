// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the CSV rows printed by the anchors and by {@link LaunchOverhead} in one run and prints a
 * Markdown table of per-kernel wall times with each implementation's ratio to the C++ anchor, and
 * whether cuda-graph meets its targets (the performance targets of docs/PERFORMANCE.md).
 *
 * <p>A figure measured several times (the same implementation, n and mode in several rows: the
 * files of repeated runs, or passes of one run) is shown as its median with its spread, {@code
 * median [min-max]}; a ratio is the ratio of the medians, with the spread of the ratios of the
 * extremes ({@code ours.min / cpp.max} to {@code ours.max / cpp.min}).
 *
 * <p>Usage: {@code RatioTable file...}; lines that are not CSV rows are ignored.
 */
public final class RatioTable {

  private static final Pattern ROW =
      Pattern.compile("^(\\w[\\w.-]*),(\\d+),(\\w+),([^,]+),([^,]+),(\\d+)(.*)$");
  private static final Pattern SETUP =
      Pattern.compile("\\((?:capture\\+)?instantiate\\+upload ([0-9.]+) us\\)");

  /** The implementations beside C++ and cuda-graph, by their CSV name and column title. */
  private static final Map<String, String> OTHERS =
      Map.of(
          "java",
          "raw FFM",
          "jcuda",
          "JCuda",
          "torch",
          "PyTorch",
          "cupy",
          "CuPy",
          "cuda.core",
          "cuda.core");

  private static final List<String> OTHER_ORDER =
      List.of("java", "jcuda", "torch", "cupy", "cuda.core");

  /** Every measurement of one implementation, n and mode. */
  record Spread(double min, double median, double max) {
    static Spread of(List<Double> values) {
      List<Double> v = new ArrayList<>(values);
      v.sort(null);
      int k = v.size();
      double median = k % 2 == 1 ? v.get(k / 2) : (v.get(k / 2 - 1) + v.get(k / 2)) / 2;
      return new Spread(v.get(0), median, v.get(k - 1));
    }

    String show(String format) {
      String m = String.format(Locale.ROOT, format, median);
      return min == max
          ? m
          : m + String.format(Locale.ROOT, " [" + format + "-" + format + "]", min, max);
    }

    /** {@return this over {@code base}: median ratio, with the extremes' ratios} */
    Spread over(Spread base) {
      return new Spread(min / base.max, median / base.median, max / base.min);
    }
  }

  private final Map<String, List<Double>> walls = new LinkedHashMap<>();
  private final Map<String, List<Double>> setups = new LinkedHashMap<>();

  public static void main(String[] args) throws IOException {
    RatioTable table = new RatioTable();
    for (String file : args) {
      for (String line : Files.readAllLines(Path.of(file))) {
        table.add(line.strip());
      }
    }
    System.out.print(table.render());
  }

  void add(String line) {
    Matcher m = ROW.matcher(line);
    if (!m.matches() || m.group(1).equals("impl")) {
      return;
    }
    String key = key(m.group(1), Integer.parseInt(m.group(2)), m.group(3));
    double wall = parse(m.group(5));
    if (!Double.isNaN(wall)) {
      walls.computeIfAbsent(key, k -> new ArrayList<>()).add(wall);
    }
    Matcher setup = SETUP.matcher(m.group(7));
    if (setup.find()) {
      setups.computeIfAbsent(key, k -> new ArrayList<>()).add(Double.parseDouble(setup.group(1)));
    }
  }

  private static double parse(String s) {
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  private static String key(String impl, int n, String mode) {
    return impl + "/" + n + "/" + mode;
  }

  private Spread wall(String impl, int n, String mode) {
    List<Double> v = walls.get(key(impl, n, mode));
    return v == null ? null : Spread.of(v);
  }

  private Spread setup(String impl, int n) {
    List<Double> v = setups.get(key(impl, n, "capture"));
    return v == null ? null : Spread.of(v);
  }

  String render() {
    StringBuilder out =
        new StringBuilder("| n | mode | C++ us/kernel | cuda-graph | ratio | target | met |");
    StringBuilder rule = new StringBuilder("|---|---|---|---|---|---|---|");
    for (String other : OTHER_ORDER) {
      out.append(' ').append(OTHERS.get(other)).append(" |");
      rule.append("---|");
    }
    out.append('\n').append(rule).append('\n');
    for (String mode : new String[] {"eager", "graph"}) {
      for (int n : new int[] {1, 10, 100, 1000}) {
        Spread cpp = wall("cpp", n, mode), ours = wall("cuda-graph", n, mode);
        if (cpp == null || ours == null) {
          continue;
        }
        Spread ratio = ours.over(cpp);
        double target = target(mode, n);
        out.append(
            String.format(
                Locale.ROOT,
                "| %d | %s | %s | %s | %s | %s | %s |",
                n,
                mode,
                cpp.show("%.3f"),
                ours.show("%.3f"),
                ratio.show("%.2f"),
                Double.isNaN(target) ? "-" : String.format(Locale.ROOT, "<= %.2f", target),
                Double.isNaN(target) ? "-" : (ratio.median() <= target ? "yes" : "NO")));
        for (String other : OTHER_ORDER) {
          Spread s = wall(other, n, mode);
          out.append(' ')
              .append(s == null ? "-" : s.show("%.3f") + " (" + s.over(cpp).show("%.2f") + "x)")
              .append(" |");
        }
        out.append('\n');
      }
    }
    out.append(
        "\n"
            + "| n | C++ capture+instantiate+upload us | cuda-graph capture+instantiate+upload us |"
            + " ratio | target | met |\n");
    out.append("|---|---|---|---|---|---|\n");
    for (int n : new int[] {1, 10, 100, 1000}) {
      Spread cpp = setup("cpp-capture", n), ours = setup("cuda-graph", n);
      if (cpp != null && ours != null) {
        Spread ratio = ours.over(cpp);
        double target = n == 1 ? 1.3 : 1.2;
        out.append(
            String.format(
                Locale.ROOT,
                "| %d | %s | %s | %s | <= %.2f | %s |%n",
                n,
                cpp.show("%.1f"),
                ours.show("%.1f"),
                ratio.show("%.2f"),
                target,
                ratio.median() <= target ? "yes" : "NO"));
      }
    }
    Spread sync = wall("cuda-graph", 1, "sync1"), future = wall("cuda-graph", 1, "future1");
    if (sync != null && future != null) {
      double extra = future.median() - sync.median();
      out.append(
          String.format(
              Locale.ROOT,
              "%nOne kernel: syncOn %s us, awaited future %s us: the future adds %.3f us (median;"
                  + " target <= 2.000: %s)%n",
              sync.show("%.3f"),
              future.show("%.3f"),
              extra,
              extra <= 2 ? "met" : "NOT met"));
    }
    return out.toString();
  }

  /** The targets of docs/PERFORMANCE.md, as a ratio to C++; NaN where none is set. */
  static double target(String mode, int n) {
    return switch (mode) {
      case "eager" -> 1.05;
      case "graph" -> n == 100 ? 1.02 : n == 1 ? 1.05 : Double.NaN;
      default -> Double.NaN;
    };
  }
}
