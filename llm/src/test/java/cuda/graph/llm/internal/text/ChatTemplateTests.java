// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.llm.internal.checkpoint.TinyCheckpoints;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChatTemplateTests {

  @TempDir Path tmp;

  private static final List<ChatTemplate.Message> CONVERSATION =
      List.of(
          new ChatTemplate.Message("system", "You are terse."),
          new ChatTemplate.Message("user", " Hi there \n"));

  @Test
  void aLlama3StyleTemplateRendersAsJinjaDoesTrimmingOnlyTheContent() throws IOException {
    Files.writeString(
        tmp.resolve("tokenizer_config.json"),
        TinyCheckpoints.tokenizerConfigJson(TinyCheckpoints.CHAT_TEMPLATE));

    ChatTemplate template = ChatTemplate.load(tmp);

    assertEquals(
        "<|begin_of_text|><|start|>system\nYou are terse.<|eot|><|start|>user\nHi there<|eot|>"
            + "<|start|>assistant\n",
        template.render(CONVERSATION, true));
    assertEquals(
        "<|begin_of_text|><|start|>system\nYou are terse.<|eot|><|start|>user\nHi there<|eot|>",
        template.render(CONVERSATION, false));
  }

  @Test
  void blocksAreTrimmedAndLeftStrippedAsTransformersRendersThem() {
    String template =
        """
        {% for message in messages %}
            {% if message['role'] == 'user' %}
        [U]{{ message['content'] }}
            {% else %}
        [S]{{ message['content'] }}
            {% endif %}
        {% endfor %}
        {{ eos_token }}\
        """;

    String out = ChatTemplate.of(template, "t", "<s>", "</s>").render(CONVERSATION, false);

    assertEquals("[S]You are terse.\n[U] Hi there \n\n</s>", out);
  }

  @Test
  void aTemplateInChatTemplateJinjaAndANamedDefaultAreFound() throws IOException {
    Files.writeString(
        tmp.resolve("tokenizer_config.json"), "{\"bos_token\": {\"content\": \"<s>\"}}");
    Files.writeString(tmp.resolve("chat_template.jinja"), "{{ bos_token }}{{ messages | length }}");
    assertEquals("<s>2", ChatTemplate.load(tmp).render(CONVERSATION, false));

    Files.writeString(
        tmp.resolve("tokenizer_config.json"),
        "{\"chat_template\": [{\"name\": \"tool_use\", \"template\": \"T\"}, {\"name\":"
            + " \"default\", \"template\": \"D\"}]}");
    assertEquals("D", ChatTemplate.load(tmp).render(CONVERSATION, false));
  }

  @Test
  void aTemplatesRaiseExceptionFailsNamingTheTemplateAndItsReason() {
    ChatTemplate t =
        ChatTemplate.of(
            "{% if messages[0]['role'] != 'user' %}{{ raise_exception('Conversations must start"
                + " with the user') }}{% endif %}ok",
            "/models/m/tokenizer_config.json (chat_template)", null, null);

    var e = assertThrows(IllegalArgumentException.class, () -> t.render(CONVERSATION, true));

    assertTrue(
        e.getMessage()
            .startsWith(
                "ChatTemplate.render: the chat template of /models/m/tokenizer_config.json"
                    + " (chat_template) failed: "),
        e.getMessage());
    assertTrue(e.getMessage().contains("Conversations must start with the user"), e.getMessage());
    assertEquals("ok", t.render(List.of(new ChatTemplate.Message("user", "x")), true));
  }

  @Test
  void aMalformedTemplateFailsNamingTheTemplate() {
    ChatTemplate t =
        ChatTemplate.of("{% for m in messages %}{{ m['content'] }}", "broken.jinja", null, null);

    var e = assertThrows(IllegalArgumentException.class, () -> t.render(CONVERSATION, true));

    assertTrue(
        e.getMessage()
            .startsWith("ChatTemplate.render: the chat template of broken.jinja failed: "),
        e.getMessage());
  }

  @Test
  void aFailingExpressionNamesTheTemplateItsLineAndItsReason() {
    ChatTemplate t =
        ChatTemplate.of(
            "{% for m in messages %}\n{{ m['content'] + loop.index }}\n{% endfor %}",
            "failing.jinja", null, null);

    var e = assertThrows(IllegalArgumentException.class, () -> t.render(CONVERSATION, true));

    assertEquals(
        "ChatTemplate.render: the chat template of failing.jinja failed: unsupported operand"
            + " type(s) for +: 'str' and 'int' (line 2): the template uses Jinja this renderer does"
            + " not support or is malformed; pass a corrected chat_template",
        e.getMessage());
  }

  @Test
  void aDirectoryWithoutATemplateSaysSo() throws IOException {
    Files.writeString(tmp.resolve("tokenizer_config.json"), "{\"bos_token\": \"<s>\"}");

    var e = assertThrows(IllegalArgumentException.class, () -> ChatTemplate.load(tmp));

    assertTrue(e.getMessage().contains("no chat template"), e.getMessage());
  }
}
