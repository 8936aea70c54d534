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
 * BERT's tokenizer in plain Java, the ids of HuggingFace's {@code tokenizers} for a tokenizer.json
 * of the standard BERT shape, without a call into native code (one such call costs tens of
 * microseconds; this costs a few). It answers only when the answer is surely that of the native
 * tokenizer and needs nothing of what {@link BertTokenizer#parts} does beyond one encoding;
 * otherwise {@link #ids} gives null and the caller asks DJL.
 *
 * <p>The rules. The normalizer removes NUL, U+FFFD, the control and format characters (but tab,
 * line feed and carriage return) and the private-use ones, turns every White_Space character into a
 * space, puts spaces around the CJK ideographs, decomposes (NFD) and drops the non-spacing marks,
 * and lowercases; the pre-tokenizer splits at spaces and makes every punctuation character (ASCII's
 * {@code !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~} and Unicode's P* categories) a word of its own;
 * WordPiece takes the longest prefix of a word in the vocabulary, then the longest {@code ##}
 * continuation of the rest, and so on; the post-processor puts {@code [CLS]} first and {@code
 * [SEP]} last. A text of ASCII characters takes a trie over the vocabulary without allocating; any
 * other the same rules over Java's Unicode tables and the vocabulary's strings.
 *
 * <p>Null instead of ids: an added token (such as {@code [MASK]}) in the text, which the native
 * tokenizer matches before normalizing; a word it would make {@code [UNK]} (longer than {@code
 * max_input_chars_per_word}, or with a rest no continuation matches); no word piece at all; more
 * ids than {@code maxLength}, which the native tokenizer would truncate; and a character where Java
 * and the native tokenizer may disagree: one outside the Basic Multilingual Plane (a surrogate),
 * U+0130 (whose lowercase is two characters for Rust's {@code char::to_lowercase}, one for Java's),
 * one unassigned in Java's Unicode, and the non-spacing marks and format characters that the native
 * tokenizer's older tables may not know (see {@code recent}).
 */
final class PlainWordPiece {

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

  /** Every added token, which a text outside ASCII must not hold either. */
  private final String[] allAddedTokens;

  /** The vocabulary, for the words of texts outside ASCII. */
  private final Map<String, Integer> vocab;

  /** The most characters of one piece, its {@code ##} left out: the longest match to try. */
  private final int maxPieceChars;

  /** Whether an added token begins with the character. */
  private final boolean[] addedStart = new boolean[128];

  private final int cls;
  private final int sep;
  private final int maxInputChars;
  private final int maxLength;

  private PlainWordPiece(
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
    this.allAddedTokens =
        addedTokens.stream().filter(token -> !token.isEmpty()).toArray(String[]::new);
    this.vocab = vocab;
    int longest = 0;
    for (String piece : vocab.keySet()) {
      longest = Math.max(longest, piece.startsWith("##") ? piece.length() - 2 : piece.length());
    }
    this.maxPieceChars = longest;
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
  static @Nullable PlainWordPiece of(byte[] json, int maxLength) {
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
      return new PlainWordPiece(
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
      if (c >= 128) {
        return beyondAscii(text);
      }
      if (addedStart[c] && holdsAddedToken(text, i)) {
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

  /**
   * {@return the ids of {@code text}, which holds a character outside ASCII, or null where this
   * class does not answer} The normalizer's steps in its order, over UTF-16 units (the text's
   * characters all lie in the Basic Multilingual Plane, which its decomposition does not leave):
   * clean_text with handle_chinese_chars, then strip_accents, then lowercase; then the
   * pre-tokenizer's split and WordPiece over the vocabulary's strings.
   */
  private int @Nullable [] beyondAscii(String text) {
    for (String token : allAddedTokens) {
      if (text.contains(token)) {
        return null;
      }
    }
    int n = text.length();
    char[] cleaned = new char[3 * n]; // room for the spaces around every CJK ideograph
    int length = 0;
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c < 128) {
        byte kind = CLASS[c];
        if (kind != REMOVED) {
          cleaned[length++] = kind == SPACE ? ' ' : c;
        }
        continue;
      }
      if (Character.isSurrogate(c) || c == '\u0130' || recent(c)) {
        // Outside the plane, or a character whose class Java's Unicode tables and the native
        // tokenizer's older ones may disagree on, or the one letter whose lowercase is two
        // characters for Rust (i and a combining dot) and one for Java.
        return null;
      }
      if (c == '\uFFFD' || removed(c)) {
        continue;
      }
      if (whitespace(c)) {
        cleaned[length++] = ' ';
      } else if (cjk(c)) {
        cleaned[length++] = ' ';
        cleaned[length++] = c;
        cleaned[length++] = ' ';
      } else {
        cleaned[length++] = c;
      }
    }
    String decomposed =
        java.text.Normalizer.normalize(
            java.nio.CharBuffer.wrap(cleaned, 0, length), java.text.Normalizer.Form.NFD);
    int m = decomposed.length();
    char[] word = new char[m];
    int most = maxLength - 1;
    int[] out = new int[Math.min(m + 2, maxLength)];
    int count = 0;
    out[count++] = cls;
    int i = 0;
    while (i < m) {
      char c = decomposed.charAt(i);
      if (c == ' ') {
        i++;
      } else if (punctuation(c)) {
        Integer id = vocab.get(String.valueOf((char) lower(c)));
        if (id == null || count == most) {
          return null;
        }
        out[count++] = id;
        i++;
      } else {
        // A word: its characters, lowercased and without non-spacing marks, up to a space or
        // punctuation.
        int chars = 0;
        boolean ascii = true;
        for (; i < m; i++) {
          char k = decomposed.charAt(i);
          if (k == ' ' || punctuation(k)) {
            break;
          }
          if (Character.getType(k) != Character.NON_SPACING_MARK) {
            int lower = lower(k);
            if (lower > 0xFFFF) {
              return null;
            }
            word[chars++] = (char) lower;
            ascii &= lower < 128;
          }
        }
        if (chars > maxInputChars) {
          return null;
        }
        count =
            ascii
                ? triePieces(word, chars, out, count, most)
                : vocabularyPieces(word, chars, out, count, most);
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
   * Appends the word pieces of {@code word[0, length)}, lowercase ASCII letters and digits, to
   * {@code out} from {@code count}, through the trie as {@link #pieces} (most words of a text
   * outside ASCII are such: without a string made for each try); {@return the new count, -1 where
   * the word is {@code [UNK]} or the pieces reach {@code most}}
   */
  private int triePieces(char[] word, int length, int[] out, int count, int most) {
    int node0 = ROOT;
    int from = 0;
    while (from < length) {
      int node = node0;
      int id = -1;
      int to = from;
      for (int j = from; j < length; j++) {
        node = child(node, CODE[word[j]]);
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
      node0 = CONTINUATION_ROOT;
    }
    return count;
  }

  /**
   * Appends the word pieces of {@code word[0, length)} to {@code out} from {@code count}, by the
   * longest match from each position; {@return the new count, -1 where the word is {@code [UNK]} or
   * the pieces reach {@code most}}
   */
  private int vocabularyPieces(char[] word, int length, int[] out, int count, int most) {
    int start = 0;
    while (start < length) {
      Integer id = null;
      int end = Math.min(length, start + maxPieceChars);
      for (; end > start; end--) {
        String piece = new String(word, start, end - start);
        id = vocab.get(start == 0 ? piece : "##" + piece);
        if (id != null) {
          break;
        }
      }
      if (id == null || count == most) {
        return -1;
      }
      out[count++] = id;
      start = end;
    }
    return count;
  }

  /**
   * {@return {@code c} lowercased}, as Rust's {@code char::to_lowercase} where it gives one char
   */
  private static int lower(char c) {
    return c < 128 ? (c >= 'A' && c <= 'Z' ? c + 32 : c) : Character.toLowerCase((int) c);
  }

  /**
   * {@return whether {@code c} may be of another class in the native tokenizer's Unicode tables
   * than in Java's} Those tables are older: a character unassigned there is kept as it is (so
   * mostly [UNK]), where Java may drop it as a non-spacing mark or a format character (as for
   * U+0897 or U+0890, checked for the whole plane by the tests). So: unassigned in Java, and the
   * non-spacing marks and format characters outside the old, common ones.
   */
  private static boolean recent(char c) {
    return switch (Character.getType(c)) {
      case Character.UNASSIGNED -> true;
      case Character.NON_SPACING_MARK -> c < '\u0300' || c > '\u036F';
      case Character.FORMAT ->
          !(c == '\u00AD'
              || (c >= '\u200B' && c <= '\u200F')
              || (c >= '\u202A' && c <= '\u202E')
              || (c >= '\u2060' && c <= '\u2064')
              || c == '\uFEFF');
      default -> false;
    };
  }

  /** {@return whether clean_text removes {@code c}}: control, format, unassigned, private use */
  private static boolean removed(char c) {
    return switch (Character.getType(c)) {
      case Character.CONTROL, Character.FORMAT, Character.PRIVATE_USE, Character.SURROGATE -> true;
      default -> false;
    };
  }

  /** {@return whether {@code c}, outside ASCII, is Unicode's White_Space, as Rust's} */
  private static boolean whitespace(char c) {
    return c == '\u00A0'
        || c == '\u1680'
        || (c >= '\u2000' && c <= '\u200A')
        || c == '\u2028'
        || c == '\u2029'
        || c == '\u202F'
        || c == '\u205F'
        || c == '\u3000';
  }

  /** {@return whether {@code c} is a CJK ideograph of the plane, in the ranges BERT spaces} */
  private static boolean cjk(char c) {
    return (c >= '\u4E00' && c <= '\u9FFF')
        || (c >= '\u3400' && c <= '\u4DBF')
        || (c >= '\uF900' && c <= '\uFAFF');
  }

  /** {@return whether the pre-tokenizer makes {@code c} a word of its own} */
  private static boolean punctuation(char c) {
    if (c < 128) {
      return CLASS[c] == PUNCT;
    }
    return switch (Character.getType(c)) {
      case Character.CONNECTOR_PUNCTUATION,
          Character.DASH_PUNCTUATION,
          Character.START_PUNCTUATION,
          Character.END_PUNCTUATION,
          Character.INITIAL_QUOTE_PUNCTUATION,
          Character.FINAL_QUOTE_PUNCTUATION,
          Character.OTHER_PUNCTUATION ->
          true;
      default -> false;
    };
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
