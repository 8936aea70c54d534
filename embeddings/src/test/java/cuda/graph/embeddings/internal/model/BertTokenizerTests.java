// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The tokenizer gives LangChain4j's token ids, and cuts long texts where LangChain4j does. */
class BertTokenizerTests {

  static final List<String> TEXTS =
      List.of(
          "A man is eating food.",
          "Hi",
          "e-mail: a.b@c.com (x) [y] {z} 3.14 $5, don't stop!!! ...",
          "Héllo, wörld! Ça va? naïve café résumé Ελληνικά кириллица 你好 😀",
          "[CLS] special [SEP] tokens [MASK] in the text",
          "tab\tnew\nline  and   spaces",
          "",
          "   ",
          MiniLm.LONG_TEXT,
          "antidisestablishmentarianism ".repeat(60));

  @Test
  void tokenIdsAreLangChain4jsForShortPunctuatedUnicodeEmptyAndLongTexts() {
    HuggingFaceTokenizer anchor = MiniLm.Anchor.tokenizer();
    for (String text : TEXTS) {
      assertArrayEquals(
          toInts(anchor.encode(text).getIds()),
          MiniLm.Ours.TOKENIZER.ids(text),
          () -> "token ids of \"" + abbreviated(text) + "\"");
    }
    assertArrayEquals(
        new int[] {101, 1037, 2158, 2003, 5983, 2833, 1012, 102},
        MiniLm.Ours.TOKENIZER.ids("A man is eating food."));
    assertArrayEquals(new int[] {101, 102}, MiniLm.Ours.TOKENIZER.ids(""));
  }

  @Test
  void loadingTheTokenizerAsksDjlForItsCpuLibraryWhichTheJarHoldsUnlessTheUserChoseAFlavor() {
    assertNotNull(MiniLm.Ours.TOKENIZER);
    String chosen = System.getenv("RUST_FLAVOR");
    assertEquals(chosen == null ? "cpu" : null, System.getProperty("RUST_FLAVOR"));
  }

  @Test
  void aTextLongerThan512TokensIsCutTo128TokensByTheTokenizerJsonsTruncation() {
    BertTokenizer tokenizer = MiniLm.Ours.TOKENIZER;
    try (HuggingFaceTokenizer untruncated =
        HuggingFaceTokenizer.newInstance(
            new ByteArrayInputStream(MiniLm.Ours.ARTIFACT.readTokenizer()),
            Map.of("padding", "false", "truncation", "false"))) {
      int whole = untruncated.encode(MiniLm.LONG_TEXT).getIds().length;
      assertTrue(whole > 512, () -> whole + " tokens");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertEquals(128, tokenizer.maxLength());
    int[] ids = tokenizer.ids(MiniLm.LONG_TEXT);
    assertEquals(128, ids.length);
    assertEquals(102, ids[127]);
    // One run of 126 word pieces, encoded again to the same 128 ids.
    List<BertTokenizer.Part> parts = tokenizer.parts(MiniLm.LONG_TEXT);
    assertEquals(1, parts.size());
    assertEquals(126, parts.get(0).weight());
    assertArrayEquals(ids, parts.get(0).ids());
    assertArrayEquals(new int[128], parts.get(0).typeIds());
  }

  @Test
  void tokenListsLongerThan510WordPiecesSplitBetweenWordsAsLangChain4jSplitsThem() {
    List<List<String>> lists =
        List.of(
            tokens(0, List.of()),
            tokens(1, List.of()),
            tokens(510, List.of()),
            tokens(511, List.of()),
            tokens(1300, List.of()),
            tokens(1300, List.of(508, 509, 510, 511, 1019, 1020)),
            tokens(1300, IntStream.range(300, 900).boxed().toList()));
    for (List<String> list : lists) {
      assertEquals(
          MiniLm.Anchor.partition(list, BertTokenizer.PART_TOKENS),
          BertTokenizer.partition(list),
          () -> "runs of " + (list.size() - 2) + " word pieces");
    }
  }

  /** {@code [CLS]}, {@code pieces} word pieces ({@code ##} ones at {@code continued}), [SEP]. */
  private static List<String> tokens(int pieces, List<Integer> continued) {
    List<String> tokens = new ArrayList<>();
    tokens.add("[CLS]");
    for (int i = 1; i <= pieces; i++) {
      tokens.add(continued.contains(i) ? "##p" + i : "w" + i);
    }
    tokens.add("[SEP]");
    return tokens;
  }

  @Test
  void withThisDjlTheIdsComeFromItsNativeCallsDirectly() {
    // A DJL whose calls differ falls back to encode(): this says when the shortcut is lost.
    assertTrue(MiniLm.Ours.TOKENIZER.callsDjlDirectly());
  }

  @Test
  void theOneEncodingShortcutGivesWhatLangChain4jsStepsGiveForEveryTestText() {
    for (String text : TEXTS) {
      if (!text.isBlank()) {
        assertSameParts(text);
      }
    }
  }

  /**
   * Texts mixing what tokenizers treat apart: ASCII words, long words WordPiece splits, digits,
   * punctuation, accented and CJK letters, emoji (no piece: [UNK]), literal special tokens, and
   * runs of spaces; long ones are cut by the 128-token truncation, often inside a word.
   */
  @Property(tries = 300)
  void theOneEncodingShortcutGivesWhatLangChain4jsStepsGive(@ForAll("mixedTexts") String text) {
    assertSameParts(text);
  }

  @Provide
  Arbitrary<String> mixedTexts() {
    Arbitrary<String> word =
        Arbitraries.oneOf(
            Arbitraries.strings()
                .withChars("abcdefghijklmnopqrstuvwxyz")
                .ofMinLength(1)
                .ofMaxLength(30),
            Arbitraries.of(
                "Antidisestablishmentarianism",
                "re-encoding",
                "3.14159",
                "$5",
                "don't",
                "!!!",
                "(x)",
                "Héllo",
                "naïve",
                "Ελληνικά",
                "кириллица",
                "你好",
                "😀",
                "[UNK]",
                "[CLS]",
                "[MASK]",
                "a.b@c.com",
                "tab\t",
                "ünïcödé",
                "x".repeat(120)));
    Arbitrary<String> gap = Arbitraries.of(" ", "  ", "\n", "", ", ", ". ");
    return Combinators.combine(word.list().ofMinSize(1).ofMaxSize(160), gap.list().ofSize(160))
        .as(
            (words, gaps) -> {
              StringBuilder text = new StringBuilder();
              for (int i = 0; i < words.size(); i++) {
                text.append(words.get(i)).append(gaps.get(i));
              }
              return text.toString();
            })
        .filter(text -> !text.isBlank());
  }

  private static void assertSameParts(String text) {
    BertTokenizer tokenizer = MiniLm.Ours.TOKENIZER;
    List<BertTokenizer.Part> fast = tokenizer.parts(text);
    List<BertTokenizer.Part> steps = tokenizer.partsAsLangChain4j(tokenizer.tokens(text));
    assertEquals(steps.size(), fast.size(), () -> "runs of \"" + abbreviated(text) + "\"");
    for (int i = 0; i < steps.size(); i++) {
      int run = i;
      assertArrayEquals(
          steps.get(i).ids(),
          fast.get(i).ids(),
          () -> "ids of \"" + abbreviated(text) + "\" run " + run);
      assertArrayEquals(steps.get(i).typeIds(), fast.get(i).typeIds());
      assertEquals(steps.get(i).weight(), fast.get(i).weight());
    }
  }

  @Test
  void aTextWithoutWordPiecesIsRefusedAsLangChain4jRefusesIt() {
    // Whitespace, and each kind of character the message says the normalizer removes: NUL, a
    // control, U+FFFD, a format character, private use, an accent on its own.
    for (String text :
        List.of("", "   ", "\n\t", "\u0000", "\u0007", "\uFFFD", "\u200B", "\uE000", " \u0301")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> MiniLm.Ours.TOKENIZER.parts(text));
      assertTrue(
          e.getMessage().startsWith("BertTokenizer.parts: the text has no word pieces: "),
          e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> MiniLm.Anchor.embed(text));
    }
  }

  @Test
  void nullIsRefusedByEveryCallIntoDjlsNativeCodeInsteadOfAbortingTheJvm() {
    BertTokenizer tokenizer = MiniLm.Ours.TOKENIZER;
    List<org.junit.jupiter.api.function.Executable> calls =
        List.of(
            () -> tokenizer.ids(null), () -> tokenizer.tokens(null), () -> tokenizer.parts(null));
    for (var call : calls) {
      NullPointerException e = assertThrows(NullPointerException.class, call);
      assertTrue(
          e.getMessage().matches("BertTokenizer\\.\\w+: the text is null; .*"), e.getMessage());
    }
  }

  @Test
  void anUnpairedSurrogateIsRefusedWhereItIsAndTheRepairTheMessageOffersWorks() {
    BertTokenizer tokenizer = MiniLm.Ours.TOKENIZER;
    // DJL alone would drop it and embed the one word "abcd".
    assertEquals(tokenizer.tokens("abcd"), tokenizer.tokens("ab\uD800cd"));
    for (String text : List.of("ab\uD800cd", "ab\uDC00cd", "\uDE00\uD83D", "\uD83D\uD83D\uDE00")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> tokenizer.parts(text));
      int at =
          text.codePoints()
              .takeWhile(cp -> !Character.isSurrogate((char) cp) || cp > 0xFFFF)
              .map(Character::charCount)
              .sum();
      String expected =
          String.format(
              "BertTokenizer.parts: the text holds an unpaired %s surrogate U+%04X at char %d of"
                  + " %d;",
              Character.isHighSurrogate(text.charAt(at)) ? "high" : "low",
              (int) text.charAt(at),
              at,
              text.length());
      assertTrue(e.getMessage().startsWith(expected), e.getMessage());
      String repaired = new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
      assertTrue(repaired.contains("?"), repaired);
      assertEquals(1, tokenizer.parts(repaired).size(), repaired);
    }
  }

  private static int[] toInts(long[] ids) {
    return java.util.Arrays.stream(ids).mapToInt(Math::toIntExact).toArray();
  }

  static String abbreviated(String text) {
    return text.length() <= 60 ? text : text.substring(0, 60) + "...";
  }
}
