package cuda.graph.examples.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The tokenizer gives LangChain4j's token ids, and cuts long texts where LangChain4j does. */
class MiniLmTokenizerTests {

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
    MiniLmTokenizer tokenizer = MiniLm.Ours.TOKENIZER;
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
    List<MiniLmTokenizer.Part> parts = tokenizer.parts(MiniLm.LONG_TEXT);
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
          MiniLm.Anchor.partition(list, MiniLmTokenizer.PART_TOKENS),
          MiniLmTokenizer.partition(list),
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
  void aTextWithoutWordPiecesIsRefusedAsLangChain4jRefusesIt() {
    for (String text : List.of("", "   ", "\n\t")) {
      assertThrows(IllegalArgumentException.class, () -> MiniLm.Ours.TOKENIZER.parts(text));
      assertThrows(IllegalArgumentException.class, () -> MiniLm.Anchor.embed(text));
    }
  }

  private static int[] toInts(long[] ids) {
    return java.util.Arrays.stream(ids).mapToInt(Math::toIntExact).toArray();
  }

  static String abbreviated(String text) {
    return text.length() <= 60 ? text : text.substring(0, 60) + "...";
  }
}
