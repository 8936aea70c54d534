# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""Renders the chat templates of llm/src/test/resources/chat-templates/ over a set of conversations
with Python's jinja2 set up as transformers sets it up, and writes what it renders to
chat-templates/expected.json: the golden outputs ChatTemplateGoldenTests compares the module's own
renderer with, string for string. The build does not run this; rerun it after changing a template
or a conversation, and commit expected.json:

    python3 llm/reference/render_chat_templates.py

transformers' environment (transformers/utils/chat_template_utils.py, _compile_jinja_template),
rebuilt here so that transformers need not be installed: an ImmutableSandboxedEnvironment with
trim_blocks and lstrip_blocks (keep_trailing_newline off, jinja2's default), the loopcontrols
extension, a {% generation %} block that renders its body, raise_exception(message) raising a
TemplateError, strftime_now(format) (fixed here to NOW, for reproducible outputs) and its own tojson
filter (json.dumps with ensure_ascii off and an optional indent, no HTML escaping).
"""
import datetime
import json
import pathlib
import sys

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension, loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = pathlib.Path(__file__).resolve().parent
TEMPLATES = HERE.parent / "src" / "test" / "resources" / "chat-templates"
NOW = datetime.datetime(2025, 2, 3, 4, 5, 6)

# The special tokens each family's tokenizer_config.json names.
TOKENS = {
    "llama3.jinja": ("<|begin_of_text|>", "<|eot_id|>"),
    "smollm2.jinja": ("<|im_start|>", "<|im_end|>"),
    "zephyr.jinja": ("<s>", "</s>"),
    "mistral.jinja": ("<s>", "</s>"),
    "constructs.jinja": ("<s>", "</s>"),
}


def m(role, content):
    return {"role": role, "content": content}


# Each conversation, with the variables besides messages it sets (tools, date_string).
CONVERSATIONS = {
    "system_and_user": ([m("system", "You are terse."), m("user", " Hi there \n")], {}),
    "user_only": ([m("user", "What is 2+2?")], {}),
    "multi_turn": (
        [
            m("system", "Answer in one word."),
            m("user", "Capital of France?"),
            m("assistant", "Paris"),
            m("user", "And of Italy?"),
        ],
        {},
    ),
    "multi_turn_without_system": (
        [m("user", "Hello"), m("assistant", " Hi! \n"), m("user", "Bye")],
        {},
    ),
    "non_ascii": (
        [m("system", "Réponds en français."), m("user", "Grüße, 世界 🌍 — «ok» \u00a0")],
        {},
    ),
    "whitespace_edges": (
        [m("system", "  \n sys \t"), m("user", "\n\nquestion\n"), m("assistant", "\tanswer  ")],
        {},
    ),
    "empty_content": ([m("user", "")], {}),
    "system_only": ([m("system", "Only a system message.")], {}),
    "date_given": ([m("user", "What day is it?")], {"date_string": "26 Jul 2024"}),
    "tools": (
        [
            m("system", "You call tools."),
            m("user", "Weather in Paris?"),
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "type": "function",
                        "function": {
                            "name": "get_weather",
                            "arguments": {"city": "Paris", "unit": "°C", "days": 2},
                        },
                    }
                ],
            },
            {"role": "tool", "content": {"temperature": 21.5, "sky": "clear", "rain": None}},
            m("tool", "plain text result"),
        ],
        {
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": "get_weather",
                        "description": "The weather of a city «now»",
                        "parameters": {
                            "type": "object",
                            "properties": {
                                "city": {"type": "string"},
                                "days": {"type": "integer", "minimum": 1},
                            },
                            "required": ["city"],
                        },
                    },
                }
            ],
            "tools_in_user_message": False,
        },
    ),
    "tools_in_user_message": (
        [m("user", "Weather in Rome?")],
        {"tools": [{"name": "get_weather", "parameters": {}}]},
    ),
    "assistant_first": ([m("system", "S"), m("assistant", "I speak first")], {}),
    "unsupported_role": ([m("user", "a"), m("critic", "c")], {}),
}

# The conversations a template is rendered over: the families' own ones; tools where it has them.
PLAIN = [
    "system_and_user",
    "user_only",
    "multi_turn",
    "multi_turn_without_system",
    "non_ascii",
    "whitespace_edges",
    "empty_content",
    "system_only",
]
APPLIES = {
    "llama3.jinja": PLAIN + ["date_given", "tools", "tools_in_user_message"],
    "smollm2.jinja": PLAIN,
    "zephyr.jinja": PLAIN,
    "mistral.jinja": PLAIN + ["assistant_first", "unsupported_role"],
    "constructs.jinja": PLAIN,
}


class GenerationTracker(Extension):
    """transformers' AssistantTracker without the tracking: {% generation %} renders its body."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_render", []), [], [], body).set_lineno(lineno)

    def _render(self, caller):
        return caller()


def environment():
    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(
            x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys
        )

    def strftime_now(format):
        return NOW.strftime(format)

    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[GenerationTracker, loopcontrols]
    )
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def main():
    env = environment()
    cases = []
    for name in sorted(APPLIES):
        template = env.from_string((TEMPLATES / name).read_text(encoding="utf-8"))
        bos, eos = TOKENS[name]
        for conversation in APPLIES[name]:
            messages, extra = CONVERSATIONS[conversation]
            for add_generation_prompt in (True, False):
                context = {
                    "messages": messages,
                    "add_generation_prompt": add_generation_prompt,
                    "bos_token": bos,
                    "eos_token": eos,
                    **extra,
                }
                case = {
                    "template": name,
                    "conversation": conversation,
                    "context": context,
                }
                try:
                    case["output"] = template.render(**context)
                except jinja2.exceptions.UndefinedError:
                    raise
                except jinja2.exceptions.TemplateError as e:
                    # raise_exception's: the only failure a case may expect.
                    case["raised"] = e.message
                cases.append(case)
    fixture = {
        "generator": "llm/reference/render_chat_templates.py, jinja2 " + jinja2.__version__,
        "now": NOW.isoformat(),
        "cases": cases,
    }
    out = TEMPLATES / "expected.json"
    out.write_text(json.dumps(fixture, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{out}: {len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
