// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.jinja;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import cuda.graph.llm.internal.text.ChatTemplate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The chat templates of src/test/resources/chat-templates rendered by the module's renderer and by
 * Python's jinja2 as transformers sets it up (llm/reference/render_chat_templates.py wrote
 * expected.json): string for string the same, and the same refusals by raise_exception.
 */
class ChatTemplateGoldenTests {

  private static final String FOLDER = "/chat-templates/";

  static String resource(String name) {
    try (InputStream in =
        Objects.requireNonNull(
            ChatTemplateGoldenTests.class.getResourceAsStream(FOLDER + name), FOLDER + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonObject fixture() {
    return JsonParser.parseString(resource("expected.json")).getAsJsonObject();
  }

  @SuppressWarnings("unchecked")
  static Map<String, @Nullable Object> context(JsonObject c) {
    Map<String, @Nullable Object> context = new LinkedHashMap<>();
    ((Map<Object, @Nullable Object>) Objects.requireNonNull(JinjaValues.fromJson(c)))
        .forEach((k, v) -> context.put((String) k, v));
    return context;
  }

  @TestFactory
  Stream<DynamicTest> eachTemplateRendersEachConversationAsJinja2Does() {
    JsonObject fixture = fixture();
    LocalDateTime now = LocalDateTime.parse(fixture.get("now").getAsString());
    return fixture.getAsJsonArray("cases").asList().stream()
        .map(JsonElement::getAsJsonObject)
        .map(
            c -> {
              String name = c.get("template").getAsString();
              JsonObject ctx = c.getAsJsonObject("context");
              String story =
                  name
                      + " over "
                      + c.get("conversation").getAsString()
                      + (ctx.get("add_generation_prompt").getAsBoolean()
                          ? ", with the generation prompt"
                          : ", without the generation prompt");
              return DynamicTest.dynamicTest(
                  story,
                  () -> {
                    JinjaTemplate t = JinjaTemplate.parse(resource(name), name);
                    if (c.has("raised")) {
                      var e =
                          assertThrows(
                              JinjaTemplate.TemplateException.class,
                              () -> t.render(context(ctx), now));
                      assertTrue(e.raised(), e.getMessage());
                      assertEquals(
                          "raise_exception(\"" + c.get("raised").getAsString() + "\")", e.reason());
                    } else {
                      assertEquals(c.get("output").getAsString(), t.render(context(ctx), now));
                    }
                  });
            });
  }

  @Test
  void theFixtureCoversEveryFamilyAndItsRefusals() {
    JsonObject fixture = fixture();
    Set<String> templates = new TreeSet<>();
    int raised = 0;
    int rendered = 0;
    for (JsonElement e : fixture.getAsJsonArray("cases")) {
      templates.add(e.getAsJsonObject().get("template").getAsString());
      if (e.getAsJsonObject().has("raised")) {
        raised++;
      } else {
        rendered++;
      }
    }
    assertEquals(
        new TreeSet<>(
            List.of(
                "constructs.jinja",
                "llama3.jinja",
                "mistral.jinja",
                "smollm2.jinja",
                "zephyr.jinja")),
        templates);
    assertEquals(4, raised);
    assertEquals(86, rendered);
  }

  @Test
  void chatTemplateRendersTheLlama3FamilyWithTheDateItIsGiven() {
    JsonObject fixture = fixture();
    LocalDateTime now = LocalDateTime.parse(fixture.get("now").getAsString());
    JsonObject c =
        fixture.getAsJsonArray("cases").asList().stream()
            .map(JsonElement::getAsJsonObject)
            .filter(
                x ->
                    x.get("template").getAsString().equals("llama3.jinja")
                        && x.get("conversation").getAsString().equals("system_and_user")
                        && x.getAsJsonObject("context").get("add_generation_prompt").getAsBoolean())
            .findFirst()
            .orElseThrow();
    ChatTemplate t =
        ChatTemplate.of(
            resource("llama3.jinja"), "llama3.jinja", "<|begin_of_text|>", "<|eot_id|>");

    String out =
        t.render(
            List.of(
                new ChatTemplate.Message("system", "You are terse."),
                new ChatTemplate.Message("user", " Hi there \n")),
            true,
            now);

    assertEquals(c.get("output").getAsString(), out);
    assertTrue(out.contains("Today Date: 03 Feb 2025\n"), out);
  }
}
