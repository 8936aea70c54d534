// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceOp;
import java.util.ArrayDeque;

/**
 * The {@code toString} of composed ops: {@code source.map(...)}, {@code source.then(...)}, {@code
 * zip(first, second)}. A chain of calls is walked in a loop, not by recursion, and shown by its
 * first and last few calls and how many are left out; parts of a {@code zip} are described down to
 * a fixed depth. So a description is short and cheap for a chain of any length, and describing it
 * needs no stack in proportion (messages and recordings describe ops).
 */
final class Descriptions {

  private Descriptions() {}

  /** How many calls a description shows at each end of a chain. */
  private static final int SHOWN = 3;

  /** How deep the parts of {@code zip}s are described; deeper ones are {@code zip(...)}. */
  private static final int ZIP_DEPTH = 3;

  /** {@return the description of {@code op}} */
  static String of(DeviceOp<?> op) {
    StringBuilder text = new StringBuilder();
    append(text, op, 0);
    return text.toString();
  }

  private static void append(StringBuilder text, DeviceOp<?> op, int zipDepth) {
    // The calls are met from the last (outermost) to the first: the last SHOWN met are kept as they
    // come, the first SHOWN in a window that slides inwards.
    ArrayDeque<String> last = new ArrayDeque<>(SHOWN);
    ArrayDeque<String> first = new ArrayDeque<>(SHOWN);
    long calls = 0;
    DeviceOp<?> base = op;
    while (true) {
      String call;
      if (base instanceof NodeOp<?> n && n.name == null) {
        base = n.composition;
        continue;
      } else if (base instanceof ThenOp<?, ?> t) {
        call = "." + t.combinator + "(...)";
        base = t.source;
      } else if (base instanceof MapOp<?, ?> m) {
        call = ".map(...)";
        base = m.source;
      } else {
        break;
      }
      calls++;
      if (last.size() < SHOWN) {
        last.addLast(call);
      } else {
        first.addLast(call);
        if (first.size() > SHOWN) {
          first.removeFirst();
        }
      }
    }
    if (base instanceof ZipOp<?, ?, ?> z) {
      if (zipDepth >= ZIP_DEPTH) {
        text.append("zip(...)");
      } else {
        text.append("zip(");
        append(text, z.first, zipDepth + 1);
        text.append(", ");
        append(text, z.second, zipDepth + 1);
        text.append(')');
      }
    } else {
      text.append(base); // a named composition or an op whose description names no other op
    }
    first.descendingIterator().forEachRemaining(text::append);
    long omitted = calls - last.size() - first.size();
    if (omitted > 0) {
      text.append("...(").append(omitted).append(" more calls)...");
    }
    last.descendingIterator().forEachRemaining(text::append);
  }
}
