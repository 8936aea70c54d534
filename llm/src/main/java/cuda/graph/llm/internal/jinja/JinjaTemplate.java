// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.jinja;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A Jinja template parsed once and rendered as transformers renders chat templates: Python's jinja2
 * with {@code trim_blocks} and {@code lstrip_blocks}, a trailing newline dropped, and the globals
 * {@code raise_exception}, {@code strftime_now} and {@code namespace} besides the context. Only the
 * constructs Hugging Face chat templates use are implemented; a template using another fails naming
 * it. Immutable, thread-safe.
 */
public final class JinjaTemplate {

  /** A failure of a template: the template's name, the line and the reason. */
  public static final class TemplateException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String templateName;
    private final int line;
    private final String reason;
    private final boolean raised;

    private TemplateException(String templateName, int line, String reason, boolean raised) {
      super(templateName + ", line " + line + ": " + reason);
      this.templateName = templateName;
      this.line = line;
      this.reason = reason;
      this.raised = raised;
    }

    /** {@return the name of the template that failed} */
    public String templateName() {
      return templateName;
    }

    /** {@return the line of the template where it failed, from 1} */
    public int line() {
      return line;
    }

    /** {@return why it failed} */
    public String reason() {
      return reason;
    }

    /** {@return whether the template refused with its own raise_exception} */
    public boolean raised() {
      return raised;
    }
  }

  private final String name;
  private final List<JinjaSyntax.Node> nodes;

  private JinjaTemplate(String name, List<JinjaSyntax.Node> nodes) {
    this.name = name;
    this.nodes = nodes;
  }

  /**
   * Parses {@code source}.
   *
   * @param source the template's text
   * @param name where it comes from, named in errors
   * @return the template
   * @throws TemplateException naming the line and the reason of a syntax error
   */
  public static JinjaTemplate parse(String source, String name) {
    try {
      return new JinjaTemplate(name, JinjaSyntax.parse(source));
    } catch (JinjaSyntax.SyntaxError e) {
      throw new TemplateException(name, e.line, "syntax error: " + e.getMessage(), false);
    } catch (StackOverflowError e) {
      throw new TemplateException(name, 1, "syntax error: nested too deeply", false);
    }
  }

  /**
   * Renders the template.
   *
   * @param context the variables: strings, Long and Double, Boolean, lists, maps and null
   * @param now what strftime_now formats
   * @return the text
   * @throws TemplateException naming the line and the reason of a failure
   */
  public String render(Map<String, @Nullable Object> context, LocalDateTime now) {
    try {
      return JinjaRenderer.render(nodes, context, now);
    } catch (JinjaRenderer.RenderError e) {
      throw new TemplateException(name, e.line, e.getMessage(), e.raised);
    }
  }

  /** {@return where the template comes from} */
  public String name() {
    return name;
  }
}
