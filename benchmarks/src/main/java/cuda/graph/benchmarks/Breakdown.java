// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Splits repeated timed operations into their driver calls and the gaps between them, from a {@link
 * TimelineDriver}'s timeline of each repetition. Per repetition it sums every call kind's time and
 * every gap by the calls around it ({@code start>BEGIN_CAPTURE}, {@code
 * LAUNCH_KERNEL>LAUNCH_KERNEL}, {@code STREAM_SYNCHRONIZE>end}); the report gives the median of
 * each sum over the repetitions, so one slow repetition (a collection, a page fault) moves no
 * figure the way it moves a mean.
 */
final class Breakdown {

  private final String name;
  private final List<Long> totals = new ArrayList<>();
  private final List<Long> driverTotals = new ArrayList<>();
  private final Map<String, List<Long>> parts = new LinkedHashMap<>();
  private final Map<String, Integer> occurrences = new LinkedHashMap<>();

  Breakdown(String name) {
    this.name = name;
  }

  /** Adds the repetition that ran from {@code t0} to {@code t1}, as {@code driver} noted it. */
  void add(TimelineDriver driver, long t0, long t1) {
    int reps = totals.size();
    Map<String, Long> sums = new LinkedHashMap<>();
    long inDriver = 0;
    long previousEnd = t0;
    String previous = "start";
    for (int i = 0; i < driver.count; i++) {
      String call = driver.calls[i].name();
      long spent = driver.returned[i] - driver.entered[i];
      inDriver += spent;
      sums.merge("gap " + previous + ">" + call, driver.entered[i] - previousEnd, Long::sum);
      sums.merge("call " + call, spent, Long::sum);
      count("gap " + previous + ">" + call);
      count("call " + call);
      previousEnd = driver.returned[i];
      previous = call;
    }
    sums.merge("gap " + previous + ">end", t1 - previousEnd, Long::sum);
    count("gap " + previous + ">end");
    for (var e : sums.entrySet()) {
      List<Long> values = parts.computeIfAbsent(e.getKey(), k -> new ArrayList<>());
      while (values.size() < reps) {
        values.add(0L); // absent in an earlier repetition
      }
      values.add(e.getValue());
    }
    totals.add(t1 - t0);
    driverTotals.add(inDriver);
  }

  private void count(String label) {
    occurrences.merge(label, 1, Integer::sum);
  }

  /** {@return the report: totals with their spread, then every call and gap} */
  String report() {
    int reps = totals.size();
    long[] total = sorted(totals);
    long[] library = new long[reps];
    for (int i = 0; i < reps; i++) {
      library[i] = totals.get(i) - driverTotals.get(i);
    }
    Arrays.sort(library);
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%s: %d reps, total median %.2f us [min %.2f, p90 %.2f, max %.2f];"
                + " in driver calls %.2f us; between them %.2f us%n",
            name,
            reps,
            total[reps / 2] / 1e3,
            total[0] / 1e3,
            total[reps * 9 / 10] / 1e3,
            total[reps - 1] / 1e3,
            median(driverTotals) / 1e3,
            library[reps / 2] / 1e3));
    for (var e : parts.entrySet()) {
      List<Long> values = new ArrayList<>(e.getValue());
      while (values.size() < reps) {
        values.add(0L);
      }
      out.append(
          String.format(
              Locale.ROOT,
              "  %-44s %6.2f per rep %8.2f us%n",
              e.getKey(),
              (double) occurrences.get(e.getKey()) / reps,
              median(values) / 1e3));
    }
    return out.toString();
  }

  /** {@return the median total in nanoseconds} */
  long medianTotal() {
    return median(totals);
  }

  private static long median(List<Long> values) {
    long[] v = sorted(values);
    return v[v.length / 2];
  }

  private static long[] sorted(List<Long> values) {
    long[] v = values.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(v);
    return v;
  }
}
