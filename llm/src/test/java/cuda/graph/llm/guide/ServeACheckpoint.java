// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.guide;

import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.llm.Completion;
import cuda.graph.llm.GenerationOptions;
import cuda.graph.llm.LlmEngine;
import cuda.graph.llm.LlmServer;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

/**
 * A Hugging Face Llama checkpoint on the GPU: a completion streamed to the console, then the same
 * engine behind an OpenAI-compatible endpoint on localhost, asked once with the JDK's HTTP client.
 */
public final class ServeACheckpoint {

  private ServeACheckpoint() {}

  public static void main(String[] args) {
    // A model directory as save_pretrained writes it: config.json, model.safetensors (or its
    // shards and their index), tokenizer.json, tokenizer_config.json.
    Path model = Path.of(args[0]);
    run(model, CudaPlatform.system().defaultDevice(), System.out);
  }

  static void run(Path model, Device device, PrintStream out) {
    try (LlmEngine engine = LlmEngine.builder(model).device(device).maxSequences(8).build()) {
      // The text arrives piece by piece on the engine thread as the tokens are made.
      Completion done =
          engine
              .generate("Once upon a time", GenerationOptions.greedy(16), out::print)
              .completion()
              .join();
      out.printf("%n[%s after %d tokens]%n", done.finishReason(), done.completionTokens());

      // The endpoint binds to localhost; port 0 takes a free one.
      try (LlmServer server = LlmServer.start(engine, LlmServer.Config.localhost(0));
          HttpClient client = HttpClient.newHttpClient()) {
        // Temperature 0 is greedy, as the console's completion was; OpenAI's default is 1.
        String body =
            "{\"model\": \""
                + engine.modelName()
                + "\", \"prompt\": \"Once upon a time\", \"max_tokens\": 8, \"temperature\": 0}";
        HttpRequest request =
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/v1/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        out.println("POST /v1/completions: " + response.statusCode());
        out.println(response.body());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while asking the endpoint", e);
      }
    }
  }
}
