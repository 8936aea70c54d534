// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.llm.internal.checkpoint.TinyCheckpoints;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The serving benchmark end to end on the simulator ({@code --quick}: a tiny bf16 checkpoint, a few
 * steps): a smoke test, not a timed one. Its lines parse as {@code figure,key=value,...}, every
 * batch and bucket has its line, and the figures are finite and positive.
 */
class LlmBenchTests {

  /** The lines of a run, each as its figure's name and its key=value pairs. */
  private record Line(String figure, Map<String, String> values) {
    double number(String key) {
      String v = values.get(key);
      assertTrue(v != null, figure + " has no " + key + ": " + values);
      return Double.parseDouble(v);
    }
  }

  private static List<Line> run(String... args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    LlmBench.run(
        LlmBench.Options.parse(List.of(args)),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    List<Line> lines = new ArrayList<>();
    for (String line : bytes.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] fields = line.split(",");
      Map<String, String> values = new LinkedHashMap<>();
      for (int i = 1; i < fields.length; i++) {
        String[] kv = fields[i].split("=", 2);
        assertEquals(2, kv.length, "not key=value: '" + fields[i] + "' in " + line);
        values.put(kv[0], kv[1]);
      }
      lines.add(new Line(fields[0], values));
    }
    return lines;
  }

  private static void positive(Line line, String... keys) {
    for (String key : keys) {
      double v = line.number(key);
      assertTrue(
          Double.isFinite(v) && v > 0, line.figure() + " " + key + " = " + v + " in " + line);
    }
  }

  @Test
  void theQuickRunOnTheSimulatorPrintsEveryFigureFiniteAndPositive() {
    List<Line> lines = run("--quick");

    Line setup = lines.stream().filter(l -> l.figure().equals("setup")).findFirst().orElseThrow();
    assertEquals("ignored", setup.values().get("eos"));
    positive(setup, "load_s", "weights_bytes", "kv_block_bytes", "kv_cache_bytes");
    // Every parameter of the tiny bf16 model once (the tied embedding as the output projection),
    // counted as reference/llm_torch.py's layer_bytes counts them.
    TinyCheckpoints.Spec spec = TinyCheckpoints.Spec.tiny(40);
    long h = spec.hidden(), q = (long) spec.heads() * spec.headDim();
    long perLayer =
        2 * h * q + 2 * h * spec.kvHeads() * spec.headDim() + 3 * h * spec.intermediate() + 2 * h;
    assertEquals(
        2 * (spec.layers() * perLayer + h + spec.vocab() * h), setup.number("weights_bytes"));

    List<Line> decode = lines.stream().filter(l -> l.figure().equals("decode")).toList();
    assertEquals(
        List.of("1", "2", "4"), decode.stream().map(l -> l.values().get("batch")).toList());
    for (Line l : decode) {
      assertEquals("scheduler", l.values().get("engine"));
      assertFalse(l.values().containsKey("status"), "a decode batch was cut: " + l);
      positive(
          l, "tok_s", "min", "max", "step_ms", "mean_len", "weights_bytes", "kv_bytes", "gb_s");
      assertTrue(
          l.number("min") <= l.number("tok_s") && l.number("tok_s") <= l.number("max"), "" + l);
      // The mean length over the timed steps is past the prompt: the prefill is not in the window.
      assertTrue(l.number("mean_len") > l.number("ctx"), "" + l);
      assertEquals(l.number("weights_bytes") + l.number("kv_bytes"), l.number("step_bytes"));
    }

    List<Line> graphs =
        lines.stream()
            .filter(l -> l.figure().equals("graph") && l.values().get("after").equals("decode"))
            .toList();
    // Every bucket of 32 tokens a step is captured before the first measure; decode at batches
    // 1, 2 and 4 replays those buckets.
    Line warmup = lines.stream().filter(l -> l.figure().equals("warmup")).findFirst().orElseThrow();
    assertEquals("1/2/4/8/16/32", warmup.values().get("buckets"));
    positive(warmup, "seconds", "warm_call_s");
    List<String> buckets = graphs.stream().map(l -> l.values().get("bucket")).toList();
    assertEquals(List.of("1", "2", "4", "8", "16", "32"), buckets);
    for (Line l : graphs) {
      positive(l, "capture_ms", "instantiate_ms", "graph_bytes");
      if (List.of("1", "2", "4").contains(l.values().get("bucket"))) {
        positive(l, "replays");
      }
    }
    Line total = lines.stream().filter(l -> l.figure().equals("graphs")).findFirst().orElseThrow();
    positive(total, "count", "total_ms", "accounted_bytes");

    Line load = lines.stream().filter(l -> l.figure().equals("load")).findFirst().orElseThrow();
    assertEquals("ok", load.values().get("status"), "" + load);
    assertEquals(load.number("requests"), load.number("done"));
    assertEquals(0, load.number("short"), "every request made its output length: " + load);
    positive(
        load,
        "seconds",
        "out_tok_s",
        "req_s",
        "ttft_ms_p50",
        "ttft_ms_p99",
        "itl_ms_p50",
        "itl_ms_p99",
        "kv_blocks_peak",
        "kv_bytes_peak");
    assertTrue(load.number("ttft_ms_p50") <= load.number("ttft_ms_p99"), "" + load);
    assertTrue(load.number("itl_ms_p50") <= load.number("itl_ms_p99"), "" + load);
    assertTrue(load.number("kv_blocks_peak") <= load.number("kv_blocks"), "" + load);
  }

  @Test
  void tuningsAreComparedRoundByRoundInOneProcessEachLineNamingItsTuning() {
    List<Line> lines =
        run("--quick", "--mode", "decode", "--batches", "1,2", "--tunings", "4:inside:s8,0:apart");
    List<Line> decode = lines.stream().filter(l -> l.figure().equals("decode")).toList();
    assertEquals(
        List.of("4:inside:s8/1", "0:apart/1", "4:inside:s8/2", "0:apart/2"),
        decode.stream()
            .map(l -> l.values().get("tuning") + "/" + l.values().get("batch"))
            .toList());
    for (Line l : decode) {
      assertFalse(l.values().containsKey("status"), "a decode batch was cut: " + l);
      positive(l, "tok_s", "min", "max", "step_ms", "mean_len");
      assertEquals(2, l.number("rounds"), "" + l);
    }
    List<String> warmed =
        lines.stream()
            .filter(l -> l.figure().equals("warmup"))
            .map(l -> l.values().get("tuning"))
            .toList();
    assertEquals(List.of("4:inside:s8", "0:apart"), warmed, "one engine a tuning");
    assertTrue(lines.stream().noneMatch(l -> l.figure().equals("load")), "decode only");
  }

  @Test
  void aTraceOnTheSimulatorRunsItsStepsAndSaysThatNothingWasRecorded() {
    List<Line> lines = run("--quick", "--mode", "trace", "--tunings", "4:inside,0:apart");

    assertEquals(
        List.of("4:inside", "0:apart"),
        lines.stream().map(l -> l.values().get("tuning")).toList(),
        "a line a tuning, and nothing else: " + lines);
    for (Line l : lines) {
      assertEquals("trace", l.figure());
      assertEquals(24, l.number("position"), "--quick's context");
      assertEquals(0, l.number("records"), "the simulator's kernels are Java references");
    }
  }

  @Test
  void badOptionsAreRefusedNamingTheOptionAndTheValue() {
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> LlmBench.Options.parse(List.of("--quick", "--batchez", "4")));
    assertTrue(unknown.getMessage().contains("--batchez"), unknown.getMessage());
    IllegalArgumentException noModel =
        assertThrows(IllegalArgumentException.class, () -> LlmBench.Options.parse(List.of()));
    assertTrue(noModel.getMessage().contains("--model"), noModel.getMessage());
    IllegalArgumentException batch =
        assertThrows(
            IllegalArgumentException.class,
            () -> LlmBench.Options.parse(List.of("--quick", "--batches", "1,9")));
    assertTrue(batch.getMessage().contains("batch 9"), batch.getMessage());
    IllegalArgumentException range =
        assertThrows(
            IllegalArgumentException.class,
            () -> LlmBench.Options.parse(List.of("--quick", "--prompt", "30-8")));
    assertTrue(range.getMessage().contains("30-8"), range.getMessage());
    IllegalArgumentException tuning =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LlmBench.Options.parse(
                    List.of("--quick", "--mode", "decode", "--tunings", "4:sideways")));
    assertTrue(tuning.getMessage().contains("4:sideways"), tuning.getMessage());
    IllegalArgumentException splits =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LlmBench.Options.parse(
                    List.of("--quick", "--mode", "decode", "--tunings", "4:rope:s33")));
    assertTrue(splits.getMessage().contains("4:rope:s33"), splits.getMessage());
    IllegalArgumentException withLoad =
        assertThrows(
            IllegalArgumentException.class,
            () -> LlmBench.Options.parse(List.of("--quick", "--tunings", "4:inside")));
    assertTrue(withLoad.getMessage().contains("--mode decode"), withLoad.getMessage());
  }

  @Test
  void percentilesAreNearestRankAndTheMedianOfAnEvenCountIsTheMiddlesMean() {
    double[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assertEquals(5, LlmBench.percentile(sorted, 0.5));
    assertEquals(10, LlmBench.percentile(sorted, 0.99));
    assertEquals(1, LlmBench.percentile(sorted, 0.01));
    assertTrue(Double.isNaN(LlmBench.percentile(new double[0], 0.5)));
    assertEquals(2.5, LlmBench.median(new double[] {4, 1, 3, 2}));
    assertEquals(3, LlmBench.median(new double[] {5, 1, 3}));
  }
}
