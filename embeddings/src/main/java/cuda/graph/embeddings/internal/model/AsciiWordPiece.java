// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * BERT's tokenizer in plain Java for ASCII texts, the ids of HuggingFace's {@code tokenizers} for a
 * tokenizer.json of the standard BERT shape, without a call into native code (one such call costs
 * tens of microseconds; this costs about one). It answers only when the answer is surely that of
 * the native tokenizer and needs nothing of what {@link BertTokenizer#parts} does beyond one
 * encoding; otherwise {@link #ids} gives null and the caller asks DJL.
 *
 * <p>The rules, for a text of ASCII characters only: the normalizer removes the control characters
 * (NUL, U+0001 to U+001F but tab, line feed and carriage return, and DEL), lowercases, and turns
 * tab, line feed and carriage return into spaces; the pre-tokenizer splits at spaces and makes
 * every ASCII punctuation character ({@code !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~}) a word of its own;
 * WordPiece takes the longest prefix of a word in the vocabulary, then the longest {@code ##}
 * continuation of the rest, and so on; the post-processor puts {@code [CLS]} first and {@code
 * [SEP]} last. Null instead of ids: a character outside ASCII; an added token (such as {@code
 * [MASK]}) in the text, which the native tokenizer matches before normalizing; a word it would make
 * {@code [UNK]} (longer than {@code max_input_chars_per_word}, or with a rest no continuation
 * matches); no word piece at all; more ids than {@code maxLength}, which the native tokenizer would
 * truncate.
 */
final class AsciiWordPiece {

  private static final byte WORD = 0;
  private static final byte SPACE = 1;
  private static final byte PUNCT = 2;
  private static final byte REMOVED = 3;

  /** The class of each ASCII character. */
  private static final byte[] CLASS = new byte[128];

  /** A word character's index in the trie's alphabet: the digits, then a to z (A to Z alike). */
  private static final byte[] CODE = new byte[128];

  private static final int ALPHABET = 36;

  static {
    for (int c = 0; c < 128; c++) {
      if (c == '\t' || c == '\n' || c == '\r' || c == ' ') {
        CLASS[c] = SPACE;
      } else if (c < 0x20 || c == 0x7F) {
        CLASS[c] = REMOVED;
      } else if (c >= '0' && c <= '9') {
        CLASS[c] = WORD;
        CODE[c] = (byte) (c - '0');
      } else if (c >= 'a' && c <= 'z') {
        CLASS[c] = WORD;
        CODE[c] = (byte) (10 + c - 'a');
      } else if (c >= 'A' && c <= 'Z') {
        CLASS[c] = WORD;
        CODE[c] = (byte) (10 + c - 'A');
      } else {
        CLASS[c] = PUNCT; // every other printable ASCII character is ASCII punctuation
      }
    }
  }

  /** The node of the words' first pieces, and of the {@code ##} continuations. */
  private static final int ROOT = 0;

  private static final int CONTINUATION_ROOT = 1;

  /** The trie's edges, open addressing: key {@code node * ALPHABET + code + 1}, 0 for none. */
  private int[] edgeKeys = new int[1 << 10];

  private int[] edgeChildren = new int[1 << 10];
  private int edgeMask = (1 << 10) - 1;
  private int edges;

  /** The vocabulary id of the piece a node spells, -1 where none. */
  private final int[] pieceIds;

  /** The id of each punctuation character's piece, -1 where the vocabulary has none. */
  private final int[] punctuationIds = new int[128];

  /** The added tokens made only of ASCII characters, which the text must not hold. */
  private final String[] addedTokens;

  /** Whether an added token begins with the character. */
  private final boolean[] addedStart = new boolean[128];

  private final int cls;
  private final int sep;
  private final int maxInputChars;
  private final int maxLength;

  private AsciiWordPiece(
      Map<String, Integer> vocab,
      List<String> addedTokens,
      int cls,
      int sep,
      int maxInputChars,
      int maxLength) {
    this.cls = cls;
    this.sep = sep;
    this.maxInputChars = maxInputChars;
    this.maxLength = maxLength;
    List<String> ascii = new ArrayList<>();
    for (String token : addedTokens) {
      if (!token.isEmpty() && token.chars().allMatch(c -> c < 128)) {
        ascii.add(token);
        addedStart[token.charAt(0)] = true;
      }
    }
    this.addedTokens = ascii.toArray(String[]::new);
    java.util.Arrays.fill(punctuationIds, -1);
    int nodes = 2;
    for (String piece : vocab.keySet()) {
      nodes += piece.length();
    }
    int[] ids = new int[nodes];
    java.util.Arrays.fill(ids, -1);
    int next = 2;
    for (Map.Entry<String, Integer> entry : vocab.entrySet()) {
      String piece = entry.getKey();
      int id = entry.getValue();
      if (piece.length() == 1 && piece.charAt(0) < 128 && CLASS[piece.charAt(0)] == PUNCT) {
        punctuationIds[piece.charAt(0)] = id;
        continue;
      }
      int node = ROOT;
      int from = 0;
      if (piece.startsWith("##")) {
        node = CONTINUATION_ROOT;
        from = 2;
      }
      if (from == piece.length() || !lowercaseWord(piece, from)) {
        continue; // a piece no lowercased ASCII word holds
      }
      for (int i = from; i < piece.length(); i++) {
        int code = CODE[piece.charAt(i)];
        int child = child(node, code);
        if (child < 0) {
          child = next++;
          addEdge(node, code, child);
        }
        node = child;
      }
      ids[node] = id;
    }
    this.pieceIds = java.util.Arrays.copyOf(ids, next);
  }

  private static boolean lowercaseWord(String piece, int from) {
    for (int i = from; i < piece.length(); i++) {
      char c = piece.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'z')) {
        return false;
      }
    }
    return true;
  }

  private static int slot(int key) {
    return (key * 0x9E3779B9) >>> 7;
  }

  private void addEdge(int node, int code, int child) {
    if (2 * ++edges > edgeKeys.length) {
      // Twice the slots, so that a load of at most 1/2 keeps a miss's probe short.
      int[] keys = edgeKeys;
      int[] children = edgeChildren;
      edgeKeys = new int[2 * keys.length];
      edgeChildren = new int[2 * keys.length];
      edgeMask = edgeKeys.length - 1;
      for (int i = 0; i < keys.length; i++) {
        if (keys[i] != 0) {
          put(keys[i], children[i]);
        }
      }
    }
    put(node * ALPHABET + code + 1, child);
  }

  private void put(int key, int child) {
    int i = slot(key) & edgeMask;
    while (edgeKeys[i] != 0) {
      i = (i + 1) & edgeMask;
    }
    edgeKeys[i] = key;
    edgeChildren[i] = child;
  }

  /** {@return the node {@code node} leads to on {@code code}, -1 where none} */
  private int child(int node, int code) {
    int key = node * ALPHABET + code + 1;
    int i = slot(key) & edgeMask;
    while (true) {
      int k = edgeKeys[i];
      if (k == key) {
        return edgeChildren[i];
      }
      if (k == 0) {
        return -1;
      }
      i = (i + 1) & edgeMask;
    }
  }

  /**
   * {@return the fast path for the tokenizer.json {@code json}, or null where it is not of the
   * shape this class implements}
   *
   * @param json the tokenizer.json's bytes
   * @param maxLength the most ids one encoding has (the truncation DJL applies)
   */
  static @Nullable AsciiWordPiece of(byte[] json, int maxLength) {
    try {
      JsonObject root =
          JsonParser.parseString(new String(json, StandardCharsets.UTF_8)).getAsJsonObject();
      JsonObject normalizer = object(root, "normalizer");
      JsonObject preTokenizer = object(root, "pre_tokenizer");
      JsonObject model = object(root, "model");
      JsonObject post = object(root, "post_processor");
      if (normalizer == null
          || preTokenizer == null
          || model == null
          || post == null
          || !"BertNormalizer".equals(string(normalizer, "type"))
          || !Boolean.TRUE.equals(bool(normalizer, "lowercase"))
          || Boolean.FALSE.equals(bool(normalizer, "clean_text"))
          || Boolean.FALSE.equals(bool(normalizer, "handle_chinese_chars"))
          || Boolean.FALSE.equals(bool(normalizer, "strip_accents"))
          || !"BertPreTokenizer".equals(string(preTokenizer, "type"))
          || !"WordPiece".equals(string(model, "type"))
          || !"##".equals(string(model, "continuing_subword_prefix"))) {
        return null;
      }
      JsonObject vocabJson = object(model, "vocab");
      String unk = string(model, "unk_token");
      JsonElement maxChars = model.get("max_input_chars_per_word");
      if (vocabJson == null
          || unk == null
          || !vocabJson.has(unk)
          || maxChars == null
          || !maxChars.isJsonPrimitive()) {
        return null;
      }
      Map<String, Integer> vocab = new java.util.HashMap<>();
      for (Map.Entry<String, JsonElement> e : vocabJson.entrySet()) {
        vocab.put(e.getKey(), e.getValue().getAsInt());
      }
      int[] specials = clsAndSep(post, vocab);
      List<String> added = new ArrayList<>();
      JsonElement addedJson = root.get("added_tokens");
      if (addedJson != null && addedJson.isJsonArray()) {
        for (JsonElement e : addedJson.getAsJsonArray()) {
          JsonObject token = e.getAsJsonObject();
          String content = string(token, "content");
          if (content == null || !Boolean.FALSE.equals(bool(token, "normalized"))) {
            return null; // matched on the normalized text: not checked here
          }
          added.add(content);
        }
      }
      if (specials == null) {
        return null;
      }
      return new AsciiWordPiece(
          vocab, added, specials[0], specials[1], maxChars.getAsInt(), maxLength);
    } catch (RuntimeException e) {
      return null; // not JSON of the shape read above: the native tokenizer decides
    }
  }

  /** {@return the ids of {@code [CLS]} and {@code [SEP]} a single sequence gets, null if other} */
  private static int @Nullable [] clsAndSep(JsonObject post, Map<String, Integer> vocab) {
    String type = string(post, "type");
    if ("BertProcessing".equals(type)) {
      JsonArray cls = post.getAsJsonArray("cls");
      JsonArray sep = post.getAsJsonArray("sep");
      return new int[] {cls.get(1).getAsInt(), sep.get(1).getAsInt()};
    }
    if (!"TemplateProcessing".equals(type)) {
      return null;
    }
    JsonArray single = post.getAsJsonArray("single");
    JsonObject specialTokens = object(post, "special_tokens");
    if (single == null || single.size() != 3 || specialTokens == null) {
      return null;
    }
    JsonObject first = object(single.get(0).getAsJsonObject(), "SpecialToken");
    JsonObject sequence = object(single.get(1).getAsJsonObject(), "Sequence");
    JsonObject last = object(single.get(2).getAsJsonObject(), "SpecialToken");
    if (first == null || sequence == null || last == null) {
      return null;
    }
    for (JsonObject piece : List.of(first, sequence, last)) {
      if (piece.get("type_id").getAsInt() != 0) {
        return null;
      }
    }
    Integer cls = onlyId(specialTokens, string(first, "id"));
    Integer sep = onlyId(specialTokens, string(last, "id"));
    return cls == null || sep == null ? null : new int[] {cls, sep};
  }

  private static @Nullable Integer onlyId(JsonObject specialTokens, @Nullable String name) {
    JsonObject token = name == null ? null : object(specialTokens, name);
    JsonArray ids = token == null ? null : token.getAsJsonArray("ids");
    return ids == null || ids.size() != 1 ? null : ids.get(0).getAsInt();
  }

  private static @Nullable JsonObject object(JsonObject o, String name) {
    JsonElement e = o.get(name);
    return e != null && e.isJsonObject() ? e.getAsJsonObject() : null;
  }

  private static @Nullable String string(JsonObject o, String name) {
    JsonElement e = o.get(name);
    return e instanceof JsonPrimitive p && p.isString() ? p.getAsString() : null;
  }

  /** {@return the boolean {@code name} of {@code o}, null where absent or JSON null} */
  private static @Nullable Boolean bool(JsonObject o, String name) {
    JsonElement e = o.get(name);
    return e instanceof JsonPrimitive p && p.isBoolean() ? p.getAsBoolean() : null;
  }

  /**
   * {@return the ids of {@code text}, {@code [CLS]} and {@code [SEP]} included, or null where this
   * class does not answer (see the class comment)}
   *
   * @param text the text
   */
  int @Nullable [] ids(String text) {
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c >= 128 || (addedStart[c] && holdsAddedToken(text, i))) {
        return null;
      }
    }
    int most = maxLength - 1; // the index of [SEP] at the longest
    int[] out = new int[Math.min(n + 2, maxLength)];
    int count = 0;
    out[count++] = cls;
    int i = 0;
    while (i < n) {
      byte kind = CLASS[text.charAt(i)];
      if (kind == SPACE || kind == REMOVED) {
        i++;
      } else if (kind == PUNCT) {
        int id = punctuationIds[text.charAt(i)];
        if (id < 0 || count == most) {
          return null;
        }
        out[count++] = id;
        i++;
      } else {
        // A word: its characters up to a space or punctuation, the removed ones left out.
        int start = i;
        int chars = 0;
        for (; i < n; i++) {
          byte k = CLASS[text.charAt(i)];
          if (k == WORD) {
            chars++;
          } else if (k != REMOVED) {
            break;
          }
        }
        if (chars > maxInputChars) {
          return null;
        }
        count = pieces(text, start, i, out, count, most);
        if (count < 0) {
          return null;
        }
      }
    }
    if (count == 1) {
      return null;
    }
    out[count++] = sep;
    return count == out.length ? out : java.util.Arrays.copyOf(out, count);
  }

  /**
   * Appends the word pieces of the word in {@code text[start, end)} to {@code out} from {@code
   * count}; {@return the new count, -1 where the word is {@code [UNK]} or the pieces reach {@code
   * most}}
   */
  private int pieces(String text, int start, int end, int[] out, int count, int most) {
    int node0 = ROOT;
    int from = start;
    while (from < end) {
      int node = node0;
      int id = -1;
      int to = from;
      for (int j = from; j < end; j++) {
        char c = text.charAt(j);
        if (CLASS[c] == REMOVED) {
          continue;
        }
        node = child(node, CODE[c]);
        if (node < 0) {
          break;
        }
        if (pieceIds[node] >= 0) {
          id = pieceIds[node];
          to = j + 1;
        }
      }
      if (id < 0 || count == most) {
        return -1;
      }
      out[count++] = id;
      from = to;
      while (from < end && CLASS[text.charAt(from)] == REMOVED) {
        from++;
      }
      node0 = CONTINUATION_ROOT;
    }
    return count;
  }

  private boolean holdsAddedToken(String text, int at) {
    for (String token : addedTokens) {
      if (text.startsWith(token, at)) {
        return true;
      }
    }
    return false;
  }
}
