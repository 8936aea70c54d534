// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import cuda.graph.CudaPlatform;
import cuda.graph.llm.internal.checkpoint.TinyCheckpoints;
import cuda.graph.simulator.Simulator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The LLM guide's program, run on the simulator against a tiny checkpoint. */
class ServeACheckpointTests {

  private static final Pattern END =
      Pattern.compile("\\R\\[(LENGTH|STOP) after (\\d+) tokens\\]\\R");

  private static final String ANSWERED = "POST /v1/completions: 200";

  @TempDir Path tmp;

  @Test
  void theGuidesProgramStreamsACompletionAndTheEndpointAnswersWithItsFirstTokens() {
    Path model = TinyCheckpoints.write(tmp.resolve("tiny"), TinyCheckpoints.Spec.tiny(3));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CudaPlatform simulator =
        CudaPlatform.forDriver(Simulator.builder().build(), "simulator")) {
      ServeACheckpoint.run(
          model, simulator.defaultDevice(), new PrintStream(bytes, true, StandardCharsets.UTF_8));
    }
    String printed = bytes.toString(StandardCharsets.UTF_8);
    Matcher end = END.matcher(printed);
    assertTrue(end.find(), "no end of the streamed completion in: " + printed);
    String streamed = printed.substring(0, end.start());
    int tokens = Integer.parseInt(end.group(2));
    assertTrue(tokens >= 1 && tokens <= 16, "tokens: " + tokens);
    assertTrue(!streamed.isEmpty(), "nothing streamed");
    String rest = printed.substring(end.end());
    assertTrue(rest.startsWith(ANSWERED), "after the completion: " + rest);
    JsonObject response =
        JsonParser.parseString(rest.substring(ANSWERED.length()).strip()).getAsJsonObject();
    JsonObject choice = response.getAsJsonArray("choices").get(0).getAsJsonObject();
    String text = choice.get("text").getAsString();
    int answered = response.getAsJsonObject("usage").get("completion_tokens").getAsInt();
    assertEquals(Math.min(8, tokens), answered, "the endpoint's tokens");
    // Greedy both times: the endpoint's tokens are the start of the console's.
    assertTrue(!text.isEmpty() && streamed.startsWith(text), text + " / " + streamed);
  }
}
