// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.text;

import java.util.ArrayList;
import java.util.List;

/**
 * The text of one generated sequence, decoded a token at a time for streaming. A token's text may
 * be part of a UTF-8 sequence (byte-level tokenizers split characters across tokens), and a token's
 * text may depend on its neighbours (SentencePiece's leading space): so each step decodes a window
 * of the last tokens and emits the text the new token added, only once it has no incomplete
 * character (U+FFFD at its end). Stop sequences are matched on the decoded text: text that could be
 * the start of one is held back until it cannot, and the sequence ends before the first stop found,
 * which is never emitted. Not thread-safe: one per sequence, fed by one thread.
 */
public final class DecodeStream {

  private static final char REPLACEMENT = '\uFFFD';

  private final Tokenizer tokenizer;
  private final List<String> stops;
  private final int longestStop;
  private final List<Integer> ids = new ArrayList<>();
  // Hugging Face's incremental detokenization: the text of ids[prefix, read) is already emitted.
  private int prefix;
  private int read;

  /** Decoded text not yet emitted because it could begin a stop sequence. */
  private final StringBuilder held = new StringBuilder();

  private boolean stopped;

  DecodeStream(Tokenizer tokenizer, List<String> stopSequences) {
    for (String s : stopSequences) {
      if (s.isEmpty()) {
        throw new IllegalArgumentException(
            "Tokenizer.stream("
                + stopSequences
                + "): a stop sequence is empty; give non-empty ones");
      }
    }
    this.tokenizer = tokenizer;
    this.stops = List.copyOf(stopSequences);
    this.longestStop = stops.stream().mapToInt(String::length).max().orElse(0);
  }

  /**
   * Adds the next generated token.
   *
   * @param id the token
   * @return the text that may now be shown, possibly empty
   * @throws IllegalStateException when the sequence has stopped
   */
  public String next(int id) {
    if (stopped) {
      throw new IllegalStateException(
          "DecodeStream.next(" + id + "): the sequence met a stop sequence; start another");
    }
    ids.add(id);
    String before = decode(prefix, read);
    String after = decode(prefix, ids.size());
    if (after.length() <= before.length() || after.charAt(after.length() - 1) == REPLACEMENT) {
      return ""; // an incomplete character, or nothing visible yet: wait for the next token
    }
    String added = after.substring(before.length());
    prefix = read;
    read = ids.size();
    return release(added);
  }

  /**
   * {@return the text held back, at the end of the sequence (a length limit or an end token)}: text
   * that could have begun a stop sequence, and bytes of an incomplete character as U+FFFD
   */
  public String finish() {
    if (stopped) {
      return "";
    }
    String rest = decode(prefix, ids.size());
    String emitted = decode(prefix, read);
    held.append(rest.substring(Math.min(emitted.length(), rest.length())));
    read = ids.size();
    String out = held.toString();
    held.setLength(0);
    return out;
  }

  /** {@return whether a stop sequence has ended the sequence} */
  public boolean stopped() {
    return stopped;
  }

  /** {@return the tokens added so far} */
  public int tokenCount() {
    return ids.size();
  }

  private String release(String added) {
    held.append(added);
    if (stops.isEmpty()) {
      String out = held.toString();
      held.setLength(0);
      return out;
    }
    int first = -1;
    for (String s : stops) {
      int at = held.indexOf(s);
      if (at >= 0 && (first < 0 || at < first)) {
        first = at;
      }
    }
    if (first >= 0) {
      stopped = true;
      String out = held.substring(0, first);
      held.setLength(0);
      return out;
    }
    // Keep the longest tail that is a proper prefix of a stop sequence; emit the rest.
    int keep = 0;
    for (int k = Math.min(longestStop - 1, held.length()); k > 0 && keep == 0; k--) {
      String tail = held.substring(held.length() - k);
      for (String s : stops) {
        if (s.startsWith(tail)) {
          keep = k;
          break;
        }
      }
    }
    String out = held.substring(0, held.length() - keep);
    held.delete(0, held.length() - keep);
    return out;
  }

  private String decode(int from, int to) {
    int[] window = new int[to - from];
    for (int i = from; i < to; i++) {
      window[i - from] = ids.get(i);
    }
    return window.length == 0 ? "" : tokenizer.decode(window);
  }
}
