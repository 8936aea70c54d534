// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.TokenizersLibrary;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A BERT model's tokenizer exactly as LangChain4j's {@code OnnxBertBiEncoder} uses it, so the
 * encoder sees the same token ids: DJL's {@link HuggingFaceTokenizer} over the model's
 * tokenizer.json with one option, {@code padding=false}; every other setting comes from the
 * tokenizer.json (BERT normalizer, lowercase and accents stripped, WordPiece, {@code [CLS] ...
 * [SEP]}).
 *
 * <p>Long texts. DJL truncates ({@code LongestFirst}) at the tokenizer.json's {@code max_length},
 * and at most at its model maximum, 512 tokens, which it applies when the file asks for no
 * truncation or for more: all-MiniLM-L6-v2's file truncates at 128 tokens, bge-small-en-v1.5's at
 * none, so at 512 ({@link #maxLength}). A text is therefore cut, not split: its embedding is that
 * of its first {@code maxLength - 2} word pieces, for LangChain4j as for this tokenizer.
 * LangChain4j then applies its own rule for long token lists, which {@link #parts} follows step by
 * step: the word pieces (between {@code [CLS]} and {@code [SEP]}) are split into runs of at most
 * {@value #PART_TOKENS}, each cut moved back so that it does not fall inside a word (before a
 * {@code ##} piece); each run is turned back into text ({@code buildSentence}) and encoded again
 * with special tokens, or, where that text does not give the same pieces back, the pieces joined
 * with nothing between them are encoded instead; the runs' pooled vectors are averaged with their
 * piece counts as weights before the L2 normalisation. With DJL's truncation there is always one
 * run (a DJL that truncated later would make several, and {@link #partsAsLangChain4j} makes them
 * from an untruncated token list), and WordPiece's greedy longest match gives a run's sentence its
 * pieces back (every text the tests try does), so the ids the model sees are the text's own. Where
 * the pieces surely come back ({@link #roundTrips}), {@link #parts} takes the ids of the first
 * encoding instead of encoding twice more: one call into the tokenizer instead of three.
 *
 * <p>Plain Java. Where the tokenizer.json is BERT's standard one (checked at load, and against DJL
 * on a few probes), {@link #parts} tokenizes a text in plain Java ({@link PlainWordPiece}: about 2
 * us for an ASCII query of 6 to 24 words, a few more for one with other characters, instead of 55
 * to 140 us for the call into DJL's native code), with DJL's very ids; a text that path declines (a
 * character whose Unicode class Java and the native tokenizer may disagree on, an added token, an
 * [UNK], truncation) goes through DJL as above.
 */
public final class BertTokenizer implements AutoCloseable {

  /** The most word pieces of one run: 512 positions less {@code [CLS]} and {@code [SEP]}. */
  public static final int PART_TOKENS = 510;

  private static final String CONTINUATION = "##";

  /**
   * A run of the text the encoder sees in one pass, and its weight in the text's embedding.
   *
   * @param ids the token ids, {@code [CLS]} and {@code [SEP]} included
   * @param typeIds their token types
   * @param weight the run's word pieces, its weight in the average of a text's runs
   */
  public record Part(int[] ids, int[] typeIds, int weight) {}

  private final HuggingFaceTokenizer tokenizer;

  /** The ids of BERT's special tokens ([PAD], [UNK], [CLS], [SEP], [MASK]) in this vocabulary. */
  private final java.util.Set<Long> special = new java.util.HashSet<>();

  /** Whether {@link #encodedIds} calls DJL's native library directly. */
  private final boolean direct;

  /** The plain-Java tokenizer, where the tokenizer.json is BERT's (see parts). */
  private final @Nullable PlainWordPiece plain;

  private BertTokenizer(HuggingFaceTokenizer tokenizer, byte @Nullable [] json) {
    this.tokenizer = tokenizer;
    for (String t : List.of("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")) {
      long[] ids = tokenizer.encode(t, false, false).getIds();
      if (ids.length == 1) {
        special.add(ids[0]);
      }
    }
    this.direct = directCallsWork(tokenizer);
    this.plain = json == null ? null : plainPath(tokenizer, json);
  }

  /**
   * {@return the plain-Java path for {@code json}, or null where the file is not BERT's standard
   * shape, or where the path's ids differ from DJL's for a probe} (a DJL that prepares texts
   * otherwise: the path is the native tokenizer's rules, which DJL may not give as they are)
   */
  private static @Nullable PlainWordPiece plainPath(HuggingFaceTokenizer tokenizer, byte[] json) {
    PlainWordPiece path =
        PlainWordPiece.of(json, Math.min(tokenizer.getMaxLength(), PART_TOKENS + 2));
    if (path == null) {
      LOG.log(System.Logger.Level.DEBUG, "BertTokenizer: not BERT's tokenizer.json; DJL alone");
      return null;
    }
    for (String probe : PROBES) {
      int[] ids = path.ids(probe);
      if (ids == null || !java.util.Arrays.equals(ids, toInts(tokenizer.encode(probe).getIds()))) {
        LOG.log(
            System.Logger.Level.DEBUG,
            "BertTokenizer: the plain-Java path differs from DJL on \"{0}\"; DJL alone",
            probe);
        return null;
      }
    }
    return path;
  }

  /**
   * Texts the plain-Java path must give DJL's ids for before it is used: each of its rules once.
   */
  private static final List<String> PROBES =
      List.of(
          "A man is eating food.",
          "Don't re-encode U.S.A. e-mail: a.b@c.com (x) [y] {z} 3.14 $5 #1 ~_~ \\ ^|`",
          "Unaffable tokenizers\tsplit\nwords\r\u0000into\u007Fpie\u0007ces ##",
          "Américo Ngọc Straße café\u0301 ΣΟΦΟΣ Москва 北京 カタ 한국\u00A0–“x”\u200Dy\uFFFD");

  private static final System.Logger LOG = System.getLogger("cuda.graph.embeddings");

  /**
   * {@return whether DJL's native calls, made directly, give {@code encode}'s ids}: the same
   * library, so they do unless a DJL version changes its calls or prepares the text first (its
   * options for that are off here)
   */
  private static boolean directCallsWork(HuggingFaceTokenizer tokenizer) {
    String probe = "Héllo, wörld! A man is eating food [MASK] 3.14 😀";
    try {
      long encoding = TokenizersLibrary.LIB.encode(tokenizer.getHandle(), probe, true);
      try {
        return java.util.Arrays.equals(
            TokenizersLibrary.LIB.getTokenIds(encoding), tokenizer.encode(probe).getIds());
      } finally {
        TokenizersLibrary.LIB.deleteEncoding(encoding);
      }
    } catch (RuntimeException | LinkageError e) {
      return false; // another DJL: encode() it is
    }
  }

  /**
   * {@return the tokenizer of {@code artifact}, with LangChain4j's options}
   *
   * @param artifact the model artifact, whose tokenizer.json it reads
   */
  public static BertTokenizer load(ModelArtifact artifact) {
    return load(artifact, true);
  }

  /**
   * {@return the tokenizer of {@code artifact}, with LangChain4j's options, and the plain-Java path
   * only if {@code plainPath}} (without: every text through DJL, as the tests' anchor)
   */
  static BertTokenizer load(ModelArtifact artifact, boolean plainPath) {
    // On a host with a GPU, DJL picks a CUDA build of its native tokenizer library and downloads
    // it (the H200 host has no network: "Cannot download jni files"); the jar holds the CPU build,
    // which is all tokenizing needs. Asked for unless the user chose a flavor.
    if (System.getenv("RUST_FLAVOR") == null && System.getProperty("RUST_FLAVOR") == null) {
      System.setProperty("RUST_FLAVOR", "cpu");
    }
    byte[] json = artifact.readTokenizer();
    try {
      return new BertTokenizer(
          HuggingFaceTokenizer.newInstance(
              new ByteArrayInputStream(json), Map.of("padding", "false")),
          plainPath ? json : null);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "BertTokenizer.load: cannot read " + artifact.tokenizerEntry(), e);
    }
  }

  /**
   * {@return the token ids of {@code text}, special tokens included, truncated as the tokenizer
   * says}: DJL's ids as they are, so for a text that {@link #parts} refuses too (an unpaired
   * surrogate, which DJL drops)
   *
   * @param text the text
   * @throws NullPointerException if {@code text} is null, which DJL's native code cannot take
   */
  public int[] ids(@Nullable String text) {
    return toInts(tokenizer.encode(nonNull(text, "BertTokenizer.ids", "the text")).getIds());
  }

  /**
   * {@return the tokens of {@code text}, special tokens included, truncated as the tokenizer says}
   *
   * @param text the text
   * @throws NullPointerException if {@code text} is null, which DJL's native code cannot take
   */
  public List<String> tokens(@Nullable String text) {
    return tokenizer.tokenize(nonNull(text, "BertTokenizer.tokens", "the text"));
  }

  /** {@return whether {@link #parts} tokenizes texts in plain Java (see PlainWordPiece)} */
  public boolean hasPlainPath() {
    return plain != null;
  }

  /**
   * {@return the ids {@link #parts} takes for {@code text} without calling DJL, or null where it
   * calls DJL} (not BERT's tokenizer.json, a character Java and DJL may class otherwise, an added
   * token, an [UNK], a text that is truncated or has no word piece)
   *
   * @param text the text
   */
  public int @Nullable [] plainIds(String text) {
    return plain == null ? null : plain.ids(text);
  }

  /** {@return whether ids come from DJL's native calls directly (see {@link #encodedIds})} */
  public boolean callsDjlDirectly() {
    return direct;
  }

  /**
   * {@return the most tokens one text becomes}: the tokenizer.json's truncation, at most DJL's
   * model maximum (512)
   */
  public int maxLength() {
    return tokenizer.getMaxLength();
  }

  /**
   * {@return the runs the encoder embeds for {@code text}}, following LangChain4j (see the class
   * comment)
   *
   * <p>Texts it refuses, before any call into DJL's native code: null, which that code cannot take
   * (it aborts the JVM), and a text holding an unpaired surrogate (a high surrogate not followed by
   * a low one, or a low one not preceded by a high one). Such a string is not well-formed UTF-16,
   * so it is not text: DJL drops the surrogate, embedding {@code ab}, U+D800, {@code cd} as the one
   * word {@code abcd} the caller never wrote (LangChain4j does so too), and Java's encoders would
   * make it {@code '?'}, another embedding again. Neither is the caller's text, so the caller
   * chooses: drop it or replace it first. Then, like LangChain4j, a text without word pieces: one
   * that is empty or holds only whitespace and characters the tokenizer's normalizer removes.
   *
   * @param text the text
   * @throws NullPointerException if {@code text} is null
   * @throws IllegalArgumentException if the text holds an unpaired surrogate, or has no word pieces
   */
  public List<Part> parts(@Nullable String text) {
    return parts(text, "BertTokenizer.parts", "the text");
  }

  /**
   * {@return the runs of {@code text}}, as {@link #parts(String)}, with refusals that name the
   * caller's call and the text as the caller knows it
   *
   * @param text the text
   * @param call the call the caller's user made, which a refusal's message begins with
   * @param what the text in the message: {@code "the text"}, or {@code "text 3 of 9"} in a list
   */
  public List<Part> parts(@Nullable String text, String call, String what) {
    int[] fast = plain == null ? null : plain.ids(nonNull(text, call, what));
    if (fast != null) {
      // A text of one run without [UNK]: the ids DJL gives (see PlainWordPiece), without
      // the call into native code that costs most of a short query's tokenization.
      return List.of(new Part(fast, new int[fast.length], fast.length - 2));
    }
    String checked = wellFormed(text, call, what);
    long[] ids = encodedIds(checked);
    if (ids.length <= 2) {
      throw noWordPieces(call, what);
    }
    if (ids.length - 2 <= PART_TOKENS && roundTrips(ids)) {
      // One run, whose sentence gives its pieces back: what LangChain4j encodes again is these
      // very pieces between [CLS] and [SEP], so the ids are the ones in hand (and the types of one
      // sequence are all 0).
      return List.of(new Part(toInts(ids), new int[ids.length], ids.length - 2));
    }
    return partsAsLangChain4j(tokenizer.tokenize(checked));
  }

  private static String nonNull(@Nullable String text, String call, String what) {
    if (text == null) {
      throw new NullPointerException(
          call + ": " + what + " is null; pass the String to embed, or leave it out");
    }
    return text;
  }

  /**
   * {@return {@code text}, checked to be well-formed UTF-16}
   *
   * @throws NullPointerException if it is null
   * @throws IllegalArgumentException at its first unpaired surrogate
   */
  private static String wellFormed(@Nullable String text, String call, String what) {
    nonNull(text, call, what);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++; // a pair: one code point
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(
            String.format(
                "%s: %s holds an unpaired %s surrogate U+%04X at char %,d of %,d; a String with one"
                    + " is not well-formed UTF-16 (often a text cut between the two halves of a"
                    + " pair), which the tokenizer would silently drop: drop or replace it first"
                    + " (new String(text.getBytes(UTF_8), UTF_8) turns each into '?')",
                call,
                what,
                Character.isHighSurrogate(c) ? "high" : "low",
                (int) c,
                i,
                text.length()));
      }
    }
    return text;
  }

  /**
   * {@return the ids of {@code tokenizer.encode(text)}}, through DJL's native calls when they give
   * what {@code encode} gives (checked at load): encode, read the ids, free the encoding. That
   * skips the seven other arrays {@code encode} copies out of the native encoding (the tokens'
   * strings and character spans among them), about half of its time.
   */
  private long[] encodedIds(String text) {
    if (!direct) {
      return tokenizer.encode(text).getIds();
    }
    long encoding = TokenizersLibrary.LIB.encode(tokenizer.getHandle(), text, true);
    try {
      return TokenizersLibrary.LIB.getTokenIds(encoding);
    } finally {
      TokenizersLibrary.LIB.deleteEncoding(encoding);
    }
  }

  /**
   * {@return whether the word pieces of {@code ids} surely give themselves back when turned into a
   * sentence and tokenized again}, which saves {@link #parts} two calls into the tokenizer. They do
   * when no piece is {@code [UNK]} or another special token: the normalizer (lowercase, accents
   * stripped, CJK characters spaced) leaves its own output as it is; the sentence splits at the
   * same spaces and punctuation; and WordPiece's greedy longest match gives a word the same pieces,
   * and a word cut by the truncation the same first pieces, since every piece it matched is in the
   * vocabulary and no longer prefix was. MiniLmTokenizerTests checks the claim against the
   * step-by-step procedure.
   */
  private boolean roundTrips(long[] ids) {
    for (int i = 1; i < ids.length - 1; i++) {
      if (special.contains(ids[i])) {
        return false;
      }
    }
    return true;
  }

  private static IllegalArgumentException noWordPieces(String call, String what) {
    return new IllegalArgumentException(
        call
            + ": "
            + what
            + " has no word pieces: it is empty, or holds only whitespace and characters the"
            + " tokenizer's normalizer removes (control and format characters such as NUL, U+FFFD,"
            + " private-use characters, accents on their own); there is nothing to embed, leave it"
            + " out");
  }

  /**
   * {@return the runs of {@link #parts} step by step as LangChain4j makes them}
   *
   * @param tokens the text's tokens, {@code [CLS]} first and {@code [SEP]} last
   */
  public List<Part> partsAsLangChain4j(List<String> tokens) {
    List<List<String>> runs = partition(tokens);
    if (runs.isEmpty()) {
      throw noWordPieces("BertTokenizer.partsAsLangChain4j", "the text");
    }
    List<Part> parts = new ArrayList<>();
    for (List<String> run : runs) {
      Encoding encoding = tokenizer.encode(asText(run), true, false);
      parts.add(new Part(toInts(encoding.getIds()), toInts(encoding.getTypeIds()), run.size()));
    }
    return List.copyOf(parts);
  }

  /**
   * {@return the word pieces of {@code tokens} (all but the first and the last, {@code [CLS]} and
   * {@code [SEP]}) split into runs of at most {@value #PART_TOKENS}}. A cut that would fall before
   * a {@code ##} piece moves back to the start of that word; a run that is one word of more than
   * {@value #PART_TOKENS} pieces is cut at {@value #PART_TOKENS} all the same.
   *
   * @param tokens the text's tokens, {@code [CLS]} first and {@code [SEP]} last
   */
  public static List<List<String>> partition(List<String> tokens) {
    List<List<String>> runs = new ArrayList<>();
    int last = tokens.size() - 1; // the index of [SEP], the end of the word pieces
    int from = 1;
    while (from < last) {
      int to = Math.min(from + PART_TOKENS, last);
      if (to < last) {
        int cut = to;
        while (cut > from && tokens.get(cut).startsWith(CONTINUATION)) {
          cut--;
        }
        if (cut > from) {
          to = cut;
        }
      }
      runs.add(List.copyOf(tokens.subList(from, to)));
      from = to;
    }
    return runs;
  }

  /** The text a run is encoded from: its sentence if that gives the run back, else its pieces. */
  private String asText(List<String> run) {
    String sentence = tokenizer.buildSentence(run);
    List<String> again = tokenizer.tokenize(sentence);
    if (again.size() >= 2 && again.subList(1, again.size() - 1).equals(run)) {
      return sentence;
    }
    return String.join("", run);
  }

  private static int[] toInts(long[] values) {
    int[] ints = new int[values.length];
    for (int i = 0; i < ints.length; i++) {
      ints[i] = Math.toIntExact(values[i]);
    }
    return ints;
  }

  @Override
  public void close() {
    tokenizer.close();
  }
}
