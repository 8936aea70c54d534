package cuda.graph.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the CSV rows printed by the anchors and by {@link LaunchOverhead} in one run and prints a
 * Markdown table of per-kernel wall times with each implementation's ratio to the C++ anchor, and
 * whether cuda-graph meets its targets (the performance targets of docs/PERFORMANCE.md).
 *
 * <p>Usage: {@code RatioTable file...}; lines that are not CSV rows are ignored.
 */
public final class RatioTable {

  private static final Pattern ROW =
      Pattern.compile("^(\\w[\\w-]*),(\\d+),(\\w+),([^,]+),([^,]+),(\\d+)(.*)$");
  private static final Pattern SETUP =
      Pattern.compile("\\((?:capture\\+)?instantiate\\+upload ([0-9.]+) us\\)");

  private record Row(String impl, int n, String mode, double submit, double wall, String note) {}

  private final Map<String, Row> rows = new LinkedHashMap<>();

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
    if (m.matches() && !m.group(1).equals("impl")) {
      Row row =
          new Row(
              m.group(1),
              Integer.parseInt(m.group(2)),
              m.group(3),
              parse(m.group(4)),
              parse(m.group(5)),
              m.group(7));
      rows.put(key(row.impl, row.n, row.mode), row);
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

  private Optional<Row> row(String impl, int n, String mode) {
    return Optional.ofNullable(rows.get(key(impl, n, mode)));
  }

  String render() {
    StringBuilder out = new StringBuilder();
    out.append(
        "| n | mode | C++ us/kernel | cuda-graph | ratio | target | met | raw FFM | JCuda | PyTorch"
            + " |\n");
    out.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (String mode : new String[] {"eager", "graph"}) {
      for (int n : new int[] {1, 10, 100, 1000}) {
        Optional<Row> cpp = row("cpp", n, mode);
        Optional<Row> ours = row("cuda-graph", n, mode);
        if (cpp.isEmpty() || ours.isEmpty()) {
          continue;
        }
        double ratio = ours.get().wall / cpp.get().wall;
        double target = target(mode, n);
        out.append(
            String.format(
                Locale.ROOT,
                "| %d | %s | %.3f | %.3f | %.3f | %s | %s | %s | %s | %s |%n",
                n,
                mode,
                cpp.get().wall,
                ours.get().wall,
                ratio,
                Double.isNaN(target) ? "-" : String.format(Locale.ROOT, "<= %.2f", target),
                Double.isNaN(target) ? "-" : (ratio <= target ? "yes" : "NO"),
                other("java", n, mode, cpp.get()),
                other("jcuda", n, mode, cpp.get()),
                other("torch", n, mode, cpp.get())));
      }
    }
    out.append(
        "\n"
            + "| n | C++ capture+instantiate+upload us | cuda-graph capture+instantiate+upload us |"
            + " ratio | target | met |\n");
    out.append("|---|---|---|---|---|---|\n");
    for (int n : new int[] {1, 10, 100, 1000}) {
      Optional<Double> cpp = row("cpp-capture", n, "capture").flatMap(RatioTable::setup);
      Optional<Double> ours = row("cuda-graph", n, "capture").flatMap(RatioTable::setup);
      if (cpp.isPresent() && ours.isPresent()) {
        double ratio = ours.get() / cpp.get();
        out.append(
            String.format(
                Locale.ROOT,
                "| %d | %.1f | %.1f | %.2f | <= 1.20 | %s |%n",
                n,
                cpp.get(),
                ours.get(),
                ratio,
                ratio <= 1.2 ? "yes" : "NO"));
      }
    }
    Optional<Row> sync = row("cuda-graph", 1, "sync1");
    Optional<Row> future = row("cuda-graph", 1, "future1");
    if (sync.isPresent() && future.isPresent()) {
      double extra = future.get().wall - sync.get().wall;
      out.append(
          String.format(
              Locale.ROOT,
              "%nOne kernel: syncOn %.3f us, awaited future %.3f us: the future adds %.3f us"
                  + " (target <= 5.000: %s)%n",
              sync.get().wall,
              future.get().wall,
              extra,
              extra <= 5 ? "met" : "NOT met"));
    }
    return out.toString();
  }

  private String other(String impl, int n, String mode, Row cpp) {
    return row(impl, n, mode)
        .map(r -> String.format(Locale.ROOT, "%.3f (%.2fx)", r.wall, r.wall / cpp.wall))
        .orElse("-");
  }

  private static Optional<Double> setup(Row row) {
    Matcher m = SETUP.matcher(row.note);
    return m.find() ? Optional.of(Double.parseDouble(m.group(1))) : Optional.empty();
  }

  /** The targets of docs/PERFORMANCE.md, as a ratio to C++; NaN where none is set. */
  static double target(String mode, int n) {
    return switch (mode) {
      case "eager" -> 1.10;
      case "graph" -> n == 100 ? 1.02 : n == 1 ? 1.10 : Double.NaN;
      default -> Double.NaN;
    };
  }
}
