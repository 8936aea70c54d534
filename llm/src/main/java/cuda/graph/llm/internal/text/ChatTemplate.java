// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.text;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import cuda.graph.llm.internal.jinja.JinjaTemplate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A model's chat template: the Jinja template of {@code tokenizer_config.json}'s {@code
 * chat_template} (or of {@code chat_template.jinja} beside it, where newer transformers save it),
 * rendered as transformers renders it (by {@link JinjaTemplate}, the module's own Jinja: blocks
 * trimmed and left-stripped, transformers' tojson), with {@code messages}, {@code
 * add_generation_prompt}, {@code bos_token}, {@code eos_token}, {@code raise_exception} and {@code
 * strftime_now} (the local date and time). A template that fails names itself, the line and the
 * error. Thread-safe.
 */
public final class ChatTemplate {

  /**
   * One message of a conversation.
   *
   * @param role who says it: "system", "user", "assistant"...
   * @param content what is said
   */
  public record Message(String role, String content) {}

  private final String name;
  private final @Nullable String bosToken;
  private final @Nullable String eosToken;
  // One of the two: the parsed template, or why it does not parse (told when it is rendered, so
  // that a model with a broken template still serves completions).
  private final @Nullable JinjaTemplate template;
  private final JinjaTemplate.@Nullable TemplateException syntaxError;

  private ChatTemplate(
      String template, String name, @Nullable String bosToken, @Nullable String eosToken) {
    this.name = name;
    this.bosToken = bosToken;
    this.eosToken = eosToken;
    JinjaTemplate parsed = null;
    JinjaTemplate.TemplateException error = null;
    try {
      parsed = JinjaTemplate.parse(template, name);
    } catch (JinjaTemplate.TemplateException e) {
      error = e;
    }
    this.template = parsed;
    this.syntaxError = error;
  }

  /**
   * {@return the template {@code template}, named {@code name} in errors}
   *
   * @param template the Jinja text
   * @param name where it comes from, e.g. the file
   * @param bosToken the text of the beginning-of-sequence token, or null
   * @param eosToken the text of the end-of-sequence token, or null
   */
  public static ChatTemplate of(
      String template, String name, @Nullable String bosToken, @Nullable String eosToken) {
    return new ChatTemplate(template, name, bosToken, eosToken);
  }

  /**
   * Reads the chat template of the model directory {@code directory}.
   *
   * @param directory a Hugging Face model directory
   * @return its template
   * @throws IllegalArgumentException when it has none, or tokenizer_config.json is malformed
   * @throws UncheckedIOException when a file cannot be read
   */
  public static ChatTemplate load(Path directory) {
    Path config = directory.resolve("tokenizer_config.json");
    Path jinja = directory.resolve("chat_template.jinja");
    JsonObject o = new JsonObject();
    if (Files.exists(config)) {
      try {
        JsonElement root = JsonParser.parseString(Files.readString(config, StandardCharsets.UTF_8));
        if (!root.isJsonObject()) {
          throw new IllegalArgumentException(config + ": not a JSON object");
        }
        o = root.getAsJsonObject();
      } catch (JsonParseException e) {
        throw new IllegalArgumentException(config + ": not valid JSON: " + e.getMessage(), e);
      } catch (IOException e) {
        throw new UncheckedIOException("ChatTemplate.load: cannot read " + config + ": " + e, e);
      }
    }
    String bos = tokenText(o.get("bos_token"), config, "bos_token");
    String eos = tokenText(o.get("eos_token"), config, "eos_token");
    JsonElement t = o.get("chat_template");
    if (t != null && !t.isJsonNull()) {
      if (t.isJsonPrimitive()) {
        return of(t.getAsString(), config + " (chat_template)", bos, eos);
      }
      if (t.isJsonArray()) {
        // Several named templates: the one named "default" is the chat template.
        for (JsonElement e : t.getAsJsonArray()) {
          if (e.isJsonObject()
              && e.getAsJsonObject().has("name")
              && "default".equals(e.getAsJsonObject().get("name").getAsString())
              && e.getAsJsonObject().has("template")) {
            return of(
                e.getAsJsonObject().get("template").getAsString(),
                config + " (chat_template \"default\")",
                bos,
                eos);
          }
        }
      }
      throw new IllegalArgumentException(
          config
              + ": chat_template is neither a template nor a list holding one named \"default\"");
    }
    if (Files.exists(jinja)) {
      try {
        return of(Files.readString(jinja, StandardCharsets.UTF_8), jinja.toString(), bos, eos);
      } catch (IOException e) {
        throw new UncheckedIOException("ChatTemplate.load: cannot read " + jinja + ": " + e, e);
      }
    }
    throw new IllegalArgumentException(
        "ChatTemplate.load("
            + directory
            + "): no chat template (tokenizer_config.json has no chat_template and there is no"
            + " chat_template.jinja); the model is not a chat model: use completions");
  }

  /** {@return where the template comes from} */
  public String name() {
    return name;
  }

  /**
   * Renders {@code messages}.
   *
   * @param messages the conversation
   * @param addGenerationPrompt whether to end with the header of the assistant's turn
   * @return the prompt text, special tokens written out
   * @throws IllegalArgumentException naming the template and its error when it fails (a message it
   *     refuses with raise_exception included)
   */
  public String render(List<Message> messages, boolean addGenerationPrompt) {
    return render(messages, addGenerationPrompt, LocalDateTime.now());
  }

  /**
   * Renders {@code messages} as {@link #render(List, boolean)} does, with {@code now} as the date
   * and time strftime_now formats.
   *
   * @param messages the conversation
   * @param addGenerationPrompt whether to end with the header of the assistant's turn
   * @param now what strftime_now formats
   * @return the prompt text
   */
  public String render(List<Message> messages, boolean addGenerationPrompt, LocalDateTime now) {
    List<@Nullable Object> list = new ArrayList<>();
    for (Message m : messages) {
      Map<Object, @Nullable Object> entry = new LinkedHashMap<>();
      entry.put("role", m.role());
      entry.put("content", m.content());
      list.add(entry);
    }
    Map<String, @Nullable Object> context = new LinkedHashMap<>();
    context.put("messages", list);
    context.put("add_generation_prompt", addGenerationPrompt);
    context.put("bos_token", bosToken == null ? "" : bosToken);
    context.put("eos_token", eosToken == null ? "" : eosToken);
    try {
      if (template == null) {
        throw java.util.Objects.requireNonNull(syntaxError);
      }
      return template.render(context, now);
    } catch (JinjaTemplate.TemplateException e) {
      throw new IllegalArgumentException(
          "ChatTemplate.render: the chat template of "
              + name
              + " failed: "
              + e.reason()
              + " (line "
              + e.line()
              + ")"
              + (e.raised()
                  ? ": the template refuses this conversation"
                  : ": the template uses Jinja this renderer does not support or is malformed;"
                      + " pass a corrected chat_template"),
          e);
    }
  }

  private static @Nullable String tokenText(@Nullable JsonElement e, Path file, String key) {
    if (e == null || e.isJsonNull()) {
      return null;
    }
    if (e.isJsonPrimitive()) {
      return e.getAsString();
    }
    // An AddedToken: {"content": "<s>", ...}
    if (e.isJsonObject() && e.getAsJsonObject().has("content")) {
      return e.getAsJsonObject().get("content").getAsString();
    }
    throw new IllegalArgumentException(file + ": " + key + " is " + e + ", not a token's text");
  }
}
