// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The Jinja of Hugging Face chat templates, rendered as transformers renders it (Python's jinja2
 * with trim_blocks and lstrip_blocks, raise_exception, strftime_now, its tojson, loop controls):
 * {@code JinjaTemplate} parses once and renders a context of strings, numbers, booleans, lists,
 * dicts and None, nothing else, within bounds of output, size and steps. May depend on nothing of
 * the project.
 */
@NullMarked
package cuda.graph.llm.internal.jinja;

import org.jspecify.annotations.NullMarked;
