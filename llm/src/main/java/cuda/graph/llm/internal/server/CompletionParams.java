// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.server;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The fields of a completions or chat completions request, checked one by one; what is not named
 * here is refused as an unknown parameter, so a client never believes a setting was applied that
 * was not.
 *
 * @param prompt the completion's prompt as text, or null (chat, or a prompt of token ids)
 * @param promptIds the completion's prompt as token ids, or null
 * @param messages the chat's messages (empty for a completion)
 * @param maxTokens the requested maximum of generated tokens, or null for the default
 * @param stream whether the response is server-sent events
 * @param includeUsage whether a stream ends with a chunk carrying the usage
 */
record CompletionParams(
    boolean chat,
    @Nullable String model,
    @Nullable String prompt,
    int @Nullable [] promptIds,
    List<ChatMessage> messages,
    @Nullable Integer maxTokens,
    double temperature,
    double topP,
    @Nullable Long seed,
    List<String> stop,
    boolean stream,
    boolean includeUsage) {

  /**
   * The fields both endpoints implement. {@code user} is accepted and ignored (OpenAI's abuse id).
   */
  private static final Set<String> COMMON =
      Set.of(
          "model",
          "max_tokens",
          "temperature",
          "top_p",
          "seed",
          "stop",
          "stream",
          "stream_options",
          "n",
          "user");

  private static final Set<String> COMPLETION_ONLY = Set.of("prompt");
  private static final Set<String> CHAT_ONLY = Set.of("messages", "max_completion_tokens");

  /**
   * Documented fields accepted only at values that change nothing (OpenAI clients send some of them
   * by default): the penalties at 0, no log probabilities, no echo, best_of 1, no logit bias,
   * {@code parallel_tool_calls} (there are no tools) and {@code store} false. Any other value is
   * refused naming the field.
   */
  private static final Map<String, Predicate<JsonElement>> NO_OPS =
      Map.of(
          "presence_penalty",
          CompletionParams::isZero,
          "frequency_penalty",
          CompletionParams::isZero,
          "logprobs",
          e -> isFalse(e) || isZero(e),
          "echo",
          CompletionParams::isFalse,
          "best_of",
          e -> isNumber(e) && e.getAsBigDecimal().compareTo(BigDecimal.ONE) == 0,
          "logit_bias",
          e -> e.isJsonObject() && e.getAsJsonObject().isEmpty(),
          "parallel_tool_calls",
          e -> e.isJsonPrimitive() && e.getAsJsonPrimitive().isBoolean(),
          "store",
          CompletionParams::isFalse);

  private static final int MAX_STOP_SEQUENCES = 4;

  static CompletionParams parse(JsonObject body, boolean chat) {
    for (Map.Entry<String, JsonElement> field : body.entrySet()) {
      String name = field.getKey();
      if (COMMON.contains(name) || (chat ? CHAT_ONLY : COMPLETION_ONLY).contains(name)) {
        continue;
      }
      Predicate<JsonElement> noOp = NO_OPS.get(name);
      if (noOp == null) {
        throw ApiError.invalid(
            name,
            "unknown_parameter",
            "Unrecognized request argument supplied: "
                + name
                + "; this server implements "
                + String.join(", ", new java.util.TreeSet<>(accepted(chat))));
      }
      if (!field.getValue().isJsonNull() && !noOp.test(field.getValue())) {
        throw ApiError.invalid(
            name,
            "unsupported_value",
            "'"
                + name
                + "' is not supported: only its value that changes nothing is accepted, got "
                + field.getValue()
                + "; remove the field");
      }
    }
    Integer n = integer(body, "n", 1, 1);
    if (n != null && n != 1) {
      throw ApiError.invalid("n", "unsupported_value", "'n' must be 1");
    }
    String model = string(body, "model");
    String prompt = null;
    int[] promptIds = null;
    List<ChatMessage> messages = List.of();
    if (chat) {
      messages = messages(body);
    } else {
      JsonElement p = present(body, "prompt");
      if (p == null) {
        throw ApiError.invalid("prompt", "missing_required_parameter", "'prompt' is required");
      }
      if (p.isJsonPrimitive() && p.getAsJsonPrimitive().isString()) {
        prompt = p.getAsString();
      } else if (p.isJsonArray() && isTokenIds(p.getAsJsonArray())) {
        promptIds = tokenIds(p.getAsJsonArray());
      } else {
        throw ApiError.invalid(
            "prompt",
            "invalid_type",
            "'prompt' must be one string or one array of token ids (one prompt per request), got "
                + describe(p)
                + "; send each prompt in its own request");
      }
    }
    Integer maxTokens = integer(body, "max_tokens", 1, Integer.MAX_VALUE);
    if (chat) {
      Integer maxCompletion = integer(body, "max_completion_tokens", 1, Integer.MAX_VALUE);
      if (maxCompletion != null) {
        // OpenAI's newer name wins where a client sends both.
        maxTokens = maxCompletion;
      }
    }
    double temperature = number(body, "temperature", 0, 2, 1);
    double topP = number(body, "top_p", Double.MIN_VALUE, 1, 1);
    JsonElement seedElement = present(body, "seed");
    Long seed = null;
    if (seedElement != null) {
      seed = integral(seedElement, "seed", Long.MIN_VALUE, Long.MAX_VALUE);
    }
    List<String> stop = stop(body);
    boolean stream = bool(body, "stream");
    boolean includeUsage = false;
    JsonElement options = present(body, "stream_options");
    if (options != null) {
      if (!stream) {
        throw ApiError.invalid(
            "stream_options",
            "invalid_value",
            "'stream_options' is only allowed with 'stream': true");
      }
      if (!options.isJsonObject()) {
        throw ApiError.invalid(
            "stream_options", "invalid_type", "'stream_options' must be an object");
      }
      for (String key : options.getAsJsonObject().keySet()) {
        if (!key.equals("include_usage")) {
          throw ApiError.invalid(
              "stream_options." + key,
              "unknown_parameter",
              "Unrecognized request argument supplied: stream_options." + key);
        }
      }
      includeUsage = bool(options.getAsJsonObject(), "include_usage");
    }
    return new CompletionParams(
        chat,
        model,
        prompt,
        promptIds,
        messages,
        maxTokens,
        temperature,
        topP,
        seed,
        stop,
        stream,
        includeUsage);
  }

  private static Set<String> accepted(boolean chat) {
    Set<String> all = new java.util.HashSet<>(COMMON);
    all.addAll(chat ? CHAT_ONLY : COMPLETION_ONLY);
    return all;
  }

  private static List<ChatMessage> messages(JsonObject body) {
    JsonElement m = present(body, "messages");
    if (m == null || !m.isJsonArray() || m.getAsJsonArray().isEmpty()) {
      throw ApiError.invalid(
          "messages",
          m == null ? "missing_required_parameter" : "invalid_value",
          "'messages' must be a non-empty array of {role, content}");
    }
    List<ChatMessage> out = new ArrayList<>();
    JsonArray array = m.getAsJsonArray();
    for (int i = 0; i < array.size(); i++) {
      String where = "messages[" + i + "]";
      if (!array.get(i).isJsonObject()) {
        throw ApiError.invalid(where, "invalid_type", "'" + where + "' must be an object");
      }
      JsonObject message = array.get(i).getAsJsonObject();
      for (String key : message.keySet()) {
        if (!Set.of("role", "content", "name").contains(key)) {
          throw ApiError.invalid(
              where + "." + key,
              "unknown_parameter",
              "Unrecognized request argument supplied: "
                  + where
                  + "."
                  + key
                  + " (messages carry role, content and name; tools are not supported)");
        }
      }
      String role = string(message, "role");
      if (role == null || !Set.of("system", "user", "assistant").contains(role)) {
        throw ApiError.invalid(
            where + ".role",
            "invalid_value",
            "'" + where + ".role' must be system, user or assistant, got " + role);
      }
      out.add(new ChatMessage(role, content(message.get("content"), where)));
    }
    return List.copyOf(out);
  }

  private static String content(@Nullable JsonElement content, String where) {
    if (content != null && content.isJsonPrimitive() && content.getAsJsonPrimitive().isString()) {
      return content.getAsString();
    }
    if (content != null && content.isJsonArray()) {
      StringBuilder text = new StringBuilder();
      for (JsonElement part : content.getAsJsonArray()) {
        if (!part.isJsonObject()
            || !"text".equals(string(part.getAsJsonObject(), "type"))
            || string(part.getAsJsonObject(), "text") == null) {
          throw ApiError.invalid(
              where + ".content",
              "invalid_value",
              "'" + where + ".content' parts must be {\"type\": \"text\", \"text\": ...}");
        }
        text.append(string(part.getAsJsonObject(), "text"));
      }
      return text.toString();
    }
    throw ApiError.invalid(
        where + ".content",
        "invalid_type",
        "'" + where + ".content' must be a string or an array of text parts");
  }

  private static List<String> stop(JsonObject body) {
    JsonElement s = present(body, "stop");
    if (s == null) {
      return List.of();
    }
    List<String> stop = new ArrayList<>();
    if (s.isJsonPrimitive() && s.getAsJsonPrimitive().isString()) {
      stop.add(s.getAsString());
    } else if (s.isJsonArray()) {
      for (JsonElement e : s.getAsJsonArray()) {
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
          throw ApiError.invalid("stop", "invalid_type", "'stop' must hold strings only");
        }
        stop.add(e.getAsString());
      }
    } else {
      throw ApiError.invalid("stop", "invalid_type", "'stop' must be a string or an array");
    }
    if (stop.size() > MAX_STOP_SEQUENCES || stop.contains("")) {
      throw ApiError.invalid(
          "stop",
          "invalid_value",
          "'stop' takes at most "
              + MAX_STOP_SEQUENCES
              + " non-empty sequences, got "
              + stop.size()
              + (stop.contains("") ? " with an empty one" : ""));
    }
    return List.copyOf(stop);
  }

  private static boolean isTokenIds(JsonArray array) {
    for (JsonElement e : array) {
      if (!isNumber(e)) {
        return false;
      }
    }
    return true;
  }

  private static int[] tokenIds(JsonArray array) {
    int[] ids = new int[array.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = (int) integral(array.get(i), "prompt", 0, Integer.MAX_VALUE);
    }
    return ids;
  }

  private static @Nullable JsonElement present(JsonObject o, String name) {
    JsonElement e = o.get(name);
    return e == null || e.isJsonNull() ? null : e;
  }

  private static @Nullable String string(JsonObject o, String name) {
    JsonElement e = present(o, name);
    if (e == null) {
      return null;
    }
    if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
      throw ApiError.invalid(name, "invalid_type", "'" + name + "' must be a string");
    }
    return e.getAsString();
  }

  private static boolean bool(JsonObject o, String name) {
    JsonElement e = present(o, name);
    if (e == null) {
      return false;
    }
    if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isBoolean()) {
      throw ApiError.invalid(name, "invalid_type", "'" + name + "' must be true or false");
    }
    return e.getAsBoolean();
  }

  private static @Nullable Integer integer(JsonObject o, String name, int min, int max) {
    JsonElement e = present(o, name);
    return e == null ? null : (int) integral(e, name, min, max);
  }

  private static long integral(JsonElement e, String name, long min, long max) {
    if (isNumber(e)) {
      BigDecimal value = e.getAsBigDecimal();
      try {
        long v = value.longValueExact();
        if (v >= min && v <= max) {
          return v;
        }
      } catch (ArithmeticException notIntegral) {
        // refused below, with the value
      }
    }
    throw ApiError.invalid(
        name,
        "invalid_value",
        "'" + name + "' must be an integer in [" + min + ", " + max + "], got " + e);
  }

  private static double number(JsonObject o, String name, double min, double max, double absent) {
    JsonElement e = present(o, name);
    if (e == null) {
      return absent;
    }
    double v = isNumber(e) ? e.getAsDouble() : Double.NaN;
    if (!(v >= min && v <= max)) {
      throw ApiError.invalid(
          name,
          "invalid_value",
          "'"
              + name
              + "' must be a number in "
              + (min == Double.MIN_VALUE ? "(0" : "[" + min)
              + ", "
              + max
              + "], got "
              + e);
    }
    return v;
  }

  private static boolean isNumber(JsonElement e) {
    return e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber();
  }

  private static boolean isZero(JsonElement e) {
    return isNumber(e) && e.getAsBigDecimal().signum() == 0;
  }

  private static boolean isFalse(JsonElement e) {
    return e instanceof JsonPrimitive p && p.isBoolean() && !p.getAsBoolean();
  }

  private static String describe(JsonElement e) {
    if (e.isJsonArray()) {
      return "an array of " + e.getAsJsonArray().size() + " elements that are not all token ids";
    }
    return e.toString().length() > 40 ? e.toString().substring(0, 40) + "..." : e.toString();
  }
}
