// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.jinja;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The renderer construct by construct; each expected output is what Python's jinja2 3.1.6, set up
 * as transformers sets it up, renders for the same template and variables.
 */
class JinjaTemplateTests {

  private static final LocalDateTime NOW = LocalDateTime.of(2025, 2, 3, 14, 5, 6);

  /** Renders {@code template} with the variables {@code kv} (name, JSON value, ...). */
  private static String render(String template, String... kv) {
    Map<String, @Nullable Object> context = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      context.put(kv[i], JinjaValues.fromJson(JsonParser.parseString(kv[i + 1])));
    }
    return JinjaTemplate.parse(template, "t.jinja").render(context, NOW);
  }

  private static JinjaTemplate.TemplateException failure(String template, String... kv) {
    return assertThrows(JinjaTemplate.TemplateException.class, () -> render(template, kv));
  }

  @Test
  void minusSignsStripTheWhitespaceOnTheirSideOnly() {
    assertEquals("a b c", render("a  {%- if true %} b {% endif -%}  c"));
    assertEquals("  a  |", render("{{- '  a  ' -}}|"));
    assertEquals("a  \n\nb\n", render("  {{- 'a' }}  \n\n{{ 'b' }}\n\n"));
  }

  @Test
  void blockTagsLoseTheirIndentAndTheirNewlineButExpressionsKeepTheirs() {
    assertEquals("a\n  b\nc", render("a\n  {% if true %}\n  b\n  {% endif %}\nc\n"));
    // {%+ keeps the indent; {{ }} is never left-stripped nor trimmed.
    assertEquals("a\n  v\n  x", render("a\n  {{ 'v' }}\n  {%+ if true %}x{% endif %}\n"));
  }

  @Test
  void commentsRenderNothingAndATrailingNewlineIsDroppedOnce() {
    assertEquals("x y\nz", render("x {# note #}\ny\n{# own line #}\nz"));
    assertEquals("a\n", render("a\n\n"));
    assertEquals("a", render("a\n"));
  }

  @Test
  void theLoopVariableCountsFromOneAndFromZeroAndKnowsFirstAndLast() {
    assertEquals(
        "103TrueFalse3;212FalseFalse3;321FalseTrue3;",
        render(
            "{% for x in xs %}{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.first }}"
                + "{{ loop.last }}{{ loop.length }};{% endfor %}",
            "xs", "[\"a\", \"b\", \"c\"]"));
  }

  @Test
  void aForsFilterComesBeforeTheLoopVariableAndElseRendersForNoItem() {
    assertEquals(
        "a1/2 c2/2 ",
        render(
            "{% for x in xs if x != 'b' %}{{ x }}{{ loop.index }}/{{ loop.length }} {% endfor %}",
            "xs", "[\"a\", \"b\", \"c\"]"));
    assertEquals("none", render("{% for x in [] %}x{% else %}none{% endfor %}"));
    assertEquals("", render("{% for x in [1] %}{% else %}none{% endfor %}"));
  }

  @Test
  void breakAndContinueControlTheLoop() {
    assertEquals(
        "13",
        render(
            "{% for x in xs %}{% if x == 2 %}{% continue %}{% endif %}{% if x == 4 %}{% break %}"
                + "{% endif %}{{ x }}{% endfor %}",
            "xs", "[1, 2, 3, 4, 5]"));
  }

  @Test
  void forUnpacksPairsAndItemsAreTuples() {
    assertEquals(
        "a=1,b=[2],",
        render(
            "{% for k, v in d.items() %}{{ k }}={{ v }},{% endfor %}",
            "d", "{\"a\": 1, \"b\": [2]}"));
    assertEquals(
        "[('a', 1)] [('a', 1)] 1 None ['a'] ['a']",
        render(
            "{{ d.items() | list }} {{ d | items | list }} {{ d.get('a') }} {{ d.get('z') }}"
                + " {{ d.keys() | list }} {{ d | list }}",
            "d",
            "{\"a\": 1}"));
  }

  @Test
  void aSetInsideALoopStaysThereButANamespaceCarriesOut() {
    assertEquals(
        "3 0",
        render(
            "{% set ns = namespace(n=0) %}{% set x = 0 %}{% for i in range(3) %}"
                + "{% set ns.n = ns.n + i %}{% set x = x + 1 %}{% endfor %}{{ ns.n }} {{ x }}"));
    assertEquals(
        "1110",
        render(
            "{% set x = 0 %}{% for i in [1,2,3] %}{% set x = x + 1 %}{{ x }}{% endfor %}{{ x }}"));
    assertEquals(
        "cap1|12",
        render("{% set x %}cap{{ 1 }}{% endset %}{{ x }}|{% set a, b = 1, 2 %}{{ a }}{{ b }}"));
  }

  @Test
  void settingAnAttributeOfSomethingElseThanANamespaceFails() {
    var e = failure("{% set d = {} %}\n{% set d.x = 1 %}");
    assertEquals(2, e.line());
    assertTrue(e.reason().contains("non-namespace"), e.getMessage());
  }

  @Test
  void slicesAndNegativeIndicesAreThoseOfPython() {
    assertEquals(
        "[2, 3] [3, 2, 1] [2, 3] [1, 2] [] bcd cba 3",
        render(
            "{{ xs[1:] }} {{ xs[::-1] }} {{ xs[-2:] }} {{ xs[:-1] }} {{ xs[5:] }}"
                + " {{ 'abcdef'[1:4] }} {{ 'abc'[::-1] }} {{ xs[-1] }}",
            "xs",
            "[1, 2, 3]"));
    assertEquals("é 5", render("{{ 'héllo'[1] }} {{ 'héllo' | length }}"));
  }

  @Test
  void anUndefinedValueIsEmptyFalsyAndIteratesAsNothingAsJinja2sDefaultUndefined() {
    assertEquals(
        "|False|f|d|0||False|z",
        render(
            "{{ u }}|{{ u is defined }}|{% if u %}t{% else %}f{% endif %}|{{ u | default('d') }}|"
                + "{{ u | length }}|{% for x in u %}x{% endfor %}|{{ 'a' in u }}|{{ u ~ 'z' }}"));
    assertEquals(
        "|False|False",
        render(
            "{{ d.missing }}|{{ d.missing is defined }}|{{ d['missing'] is defined }}", "d", "{}"));
  }

  @Test
  void anAttributeOfACallOfOrArithmeticOnAnUndefinedValueFailsNamingIt() {
    for (String t : List.of("{{ u.attr }}", "{{ u() }}", "{{ u + 1 }}", "{{ u['k'] }}")) {
      var e = failure(t);
      assertEquals("'u' is undefined", e.reason(), t);
    }
    assertEquals("'dict object' has no attribute 'm'", failure("{{ d.m.b }}", "d", "{}").reason());
  }

  @Test
  void filtersDoWhatJinja2sAndTransformersDo() {
    assertEquals(
        "e 0 None",
        render("{{ '' | default('e', true) }} {{ 0 | default(5) }} {{ none | default('n') }}"));
    assertEquals(
        "\"é\" \"\\u00e9\" [] {\"a\": 2, \"b\": 1} \"a\\n\\\"b\"",
        render(
            "{{ 'é' | tojson }} {{ 'é' | tojson(ensure_ascii=true) }} {{ [] | tojson(indent=2) }}"
                + " {{ {'b':1,'a':2} | tojson(sort_keys=true) }} {{ 'a\\n\"b' | tojson }}"));
    assertEquals(
        "1, 2|a/b||12",
        render(
            "{{ xs | join(', ') }}|{{ ms | join('/', attribute='n') }}|{{ [] | first }}|"
                + "{{ xs | first }}{{ xs | last }}",
            "xs",
            "[1, 2]",
            "ms",
            "[{\"n\": \"a\"}, {\"n\": \"b\"}]"));
    assertEquals(
        "ABCabc Hello world 4 0 2 1",
        render(
            "{{ 'abc' | upper }}{{ 'ABC' | lower }} {{ 'hELLO wORLD' | capitalize }} {{ '3' | int +"
                + " 1 }} {{ 'x' | int }} {{ 2.9 | int }} {{ 7 | string | length }}"));
    assertEquals(
        "['1', '3']  2",
        render(
            "{{ ms | selectattr('r', 'equalto', 'u') | map(attribute='c') | list }}"
                + " {{ ms | rejectattr('r', 'equalto', 'u') | map(attribute='c') | join }}"
                + " {{ ms | selectattr('c') | list | length }}",
            "ms",
            "[{\"r\": \"u\", \"c\": \"1\"}, {\"r\": \"a\", \"c\": \"\"}, {\"r\": \"u\", \"c\":"
                + " \"3\"}]"));
    assertEquals(
        "a\n    b\n\n    c|  a\n  b|a\n \n b",
        render(
            "{{ 'a\\nb\\n\\nc' | indent }}|{{ 'a\\nb' | indent(2, first=true) }}|"
                + "{{ 'a\\n\\nb' | indent(1, blank=true) }}"));
  }

  @Test
  void trimStripsWhatPythonCallsWhitespaceNoBreakSpaceIncluded() {
    assertEquals("x", render("{{ s | trim }}", "s", "\"\\u00a0\\t x \\n\\u2003\""));
  }

  @Test
  void stringMethodsAreThoseOfPythonsStr() {
    assertEquals(
        "['a', 'b', 'c'] ['a', 'b'] ['a', 'b,c'] x|axx|TrueFalse Ab Ab bXb 1-b-None",
        render(
            "{{ 'a b  c'.split() }} {{ 'a,b'.split(',') }} {{ 'a,b,c'.split(',', 1) }}"
                + " {{ ' x '.strip() }}|{{ 'xxaxx'.lstrip('x') }}|{{ 'Ab'.startswith('A') }}"
                + "{{ 'Ab'.endswith('c') }} {{ 'ab ab'.title() }} {{ 'aXa'.replace('a', 'b') }}"
                + " {{ '{0}-{1}-{k}'.format(1, 'b', k=none) }}"));
  }

  @Test
  void valuesPrintAsPythonPrintsThem() {
    assertEquals(
        "1 1.0 1.5e+301 True None [1, 'a', None, False, 2.0] {'a': 'b'} it's [\"it's\"]",
        render(
            "{{ 1 }} {{ 1.0 }} {{ 1.5e300 * 10 }} {{ true }} {{ none }}"
                + " {{ [1, 'a', none, false, 2.0] }} {{ {'a': 'b'} }} {{ \"it's\" }}"
                + " {{ ['it\\'s'] }}"));
    assertEquals(
        "1e+20 0.30000000000000004 2.5e-05", render("{{ 1e20 }} {{ 0.1 + 0.2 }} {{ 2.5e-5 }}"));
  }

  @Test
  void operatorsAreThoseOfPython() {
    assertEquals(
        "3 -4 -2 3.5 8 0.5 2 a12.5 [1, 2] abab",
        render(
            "{{ 7 // 2 }} {{ -7 // 2 }} {{ 7 % -3 }} {{ 7 / 2 }} {{ 2 ** 3 }} {{ 2 ** -1 }}"
                + " {{ 1 + true }} {{ 'a' ~ 1 ~ 2.5 }} {{ [1] + [2] }} {{ 'ab' * 2 }}"));
    assertEquals(
        "True True False True True False True x y []",
        render(
            "{{ 1 == 1.0 }} {{ 'a' < 'b' }} {{ 1 < 2 < 2 }} {{ 2 in [1, 2] }} {{ 'k' in {'k': 1} }}"
                + " {{ 'b' not in 'abc' }} {{ not 0 }} {{ 0 or 'x' }} {{ 1 and 'y' }} {{ [] or []"
                + " }}"));
    assertEquals("|y", render("{{ 'x' if false }}|{{ 'y' if true else 'n' }}"));
  }

  @Test
  void addingAStringAndANumberFailsAsInPython() {
    var e = failure("x\n{{ 'a' + 1 }}");
    assertEquals(2, e.line());
    assertEquals("unsupported operand type(s) for +: 'str' and 'int'", e.reason());
  }

  @Test
  void testsAreThoseOfJinja2() {
    assertEquals(
        "True False True True True True True False True False True False True True True False"
            + " True True False",
        render(
            "{{ 3 is number }} {{ 'x' is number }} {{ true is number }} {{ 1 is integer }}"
                + " {{ 1.0 is float }} {{ 'x' is string }} {{ {} is mapping }} {{ [] is mapping }}"
                + " {{ 'x' is iterable }} {{ 1 is iterable }} {{ [] is sequence }} {{ 1 is true }}"
                + " {{ true is true }} {{ false is false }} {{ none is none }} {{ 0 is none }}"
                + " {{ 4 is divisibleby 2 }} {{ 3 is odd }} {{ 'x' is not defined }}"));
  }

  @Test
  void macrosTakePositionalKeywordAndDefaultArguments() {
    assertEquals(
        "[1B][12][43]",
        render(
            "{% macro m(a, b='B') %}[{{ a }}{{ b }}{{ c }}]{% endmacro %}{{ m(1) }}{{ m(1, 2) }}"
                + "{{ m(b=3, a=4) }}"));
  }

  @Test
  void strftimeNowFormatsTheDateItIsGiven() {
    assertEquals(
        "2025-02-03 14:05:06 Mon Monday Feb February 034 25 02 PM",
        render("{{ strftime_now('%Y-%m-%d %H:%M:%S %a %A %b %B %j %y %I %p') }}"));
  }

  @Test
  void theGenerationBlockRendersItsBody() {
    assertEquals("  gen 1", render("{% generation %}  gen {{ 1 }}{% endgeneration %}"));
  }

  @Test
  void noTemplateReachesIntoJavaObjects() {
    assertEquals("||", render("{{ 'x'.__class__ }}|{{ d.__class__ }}|{{ none.x }}", "d", "{}"));
    assertEquals("", render("{{ 'x'.getClass }}"));
    assertEquals(
        "'str object' has no attribute 'getClass'", failure("{{ 'x'.getClass() }}").reason());
  }

  @Test
  void aSyntaxErrorNamesTheTemplateTheLineAndTheReason() {
    var e =
        assertThrows(
            JinjaTemplate.TemplateException.class,
            () ->
                JinjaTemplate.parse("line one\n{% if x %}\n{{ foo( }}\n{% endif %}", "m/t.jinja"));
    assertEquals("m/t.jinja", e.templateName());
    assertEquals(3, e.line());
    assertTrue(e.getMessage().startsWith("m/t.jinja, line 3: syntax error: "), e.getMessage());

    var unclosed =
        assertThrows(
            JinjaTemplate.TemplateException.class,
            () -> JinjaTemplate.parse("{% for m in messages %}\n{{ m }}", "u.jinja"));
    assertTrue(unclosed.reason().contains("endfor"), unclosed.getMessage());

    var filter =
        assertThrows(
            JinjaTemplate.TemplateException.class,
            () -> JinjaTemplate.parse("\n\n{{ x | nosuchfilter }}", "f.jinja"));
    assertEquals(3, filter.line());
    assertTrue(filter.reason().contains("no filter named 'nosuchfilter'"), filter.getMessage());
  }

  @Test
  void raiseExceptionFailsWithItsMessageAndLine() {
    var e = failure("a\nb\n{{ raise_exception('no system role') }}");
    assertTrue(e.raised());
    assertEquals(3, e.line());
    assertEquals("raise_exception(\"no system role\")", e.reason());
    assertFalse(failure("{{ 1 // 0 }}").raised());
  }

  @Test
  void outputBeyondOneMebibyteFailsSayingSo() {
    var e = failure("{% for i in range(2000) %}{{ 'x' * 1000 }}{% endfor %}");
    assertEquals("the output exceeds 1048576 characters", e.reason());
    var doubling =
        failure(
            "{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}"
                + "{% endfor %}");
    assertTrue(doubling.reason().contains("more than 1048576"), doubling.getMessage());
  }

  @Test
  void aTemplateCannotRunForeverNorRecurseForever() {
    var steps =
        failure("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}");
    assertTrue(steps.reason().contains("more than 10000000 steps"), steps.getMessage());
    var range = failure("{{ range(1000000) | length }}");
    assertTrue(range.reason().contains("range too big"), range.getMessage());
    var recursion = failure("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}");
    assertTrue(recursion.reason().contains("nested deeper"), recursion.getMessage());
  }

  @Property
  void textWithoutTagsRendersAsItIsButForOneTrailingNewline(
      @ForAll @StringLength(max = 200) String s) {
    String text = s.replace("{", "(").replace("\r", "");
    String expected = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    assertEquals(expected, render(text));
  }

  @Property
  void tojsonOfAnyStringReadsBackAsTheString(@ForAll @StringLength(max = 100) String s) {
    String json = render("{{ s | tojson }}", "s", new com.google.gson.Gson().toJson(s));
    assertEquals(s, JsonParser.parseString(json).getAsString());
  }
}
