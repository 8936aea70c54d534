// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The plain-Java path gives DJL's ids, text for text, for both vocabularies' files
 * (all-MiniLM-L6-v2 truncating at 128 ids, bge-small-en-v1.5 at 512), for ASCII texts and for texts
 * of other scripts, and declines only texts it must leave to DJL (or, outside ASCII, a few whose
 * count the tests bound).
 */
class PlainWordPieceTests {

  /** The models with different tokenizer.json files (the quantized MiniLM's is MiniLM's). */
  enum Model {
    MINILM(LangChain4jModel.ALL_MINILM_L6_V2),
    BGE(LangChain4jModel.BGE_SMALL_EN_V15_Q);

    final LangChain4jModel model;

    Model(LangChain4jModel model) {
      this.model = model;
    }
  }

  private static final int UNK = 100;

  /** DJL's tokenizer of the model's file with LangChain4j's one option, as the anchor. */
  private static HuggingFaceTokenizer djl(Model model) {
    try {
      return HuggingFaceTokenizer.newInstance(
          new ByteArrayInputStream(model.model.artifact().readTokenizer()),
          Map.of("padding", "false"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int[] djlIds(HuggingFaceTokenizer djl, String text) {
    return Arrays.stream(djl.encode(text).getIds()).mapToInt(Math::toIntExact).toArray();
  }

  /** Counts what a corpus check saw, to show that it checked the path and not only its refusals. */
  private static final class Tally {
    int answered;
    int declined;
  }

  /**
   * Fails unless the path's ids of {@code text} are DJL's, or the path declines a text it must
   * decline: one DJL makes [UNK] of, truncates, gives no word piece, or that the path may decline
   * (a character outside ASCII, whose declines the tests of such texts count, a literal added
   * token).
   */
  private static void assertDjlsIds(
      BertTokenizer tokenizer, HuggingFaceTokenizer djl, String text, Tally tally) {
    int[] expected = djlIds(djl, text);
    int[] ids = tokenizer.plainIds(text);
    if (ids != null) {
      tally.answered++;
      assertArrayEquals(expected, ids, () -> "ids of " + quoted(text));
      return;
    }
    tally.declined++;
    boolean mustDecline =
        text.chars().anyMatch(c -> c >= 128)
            || Stream.of("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]").anyMatch(text::contains)
            || Arrays.stream(expected).anyMatch(id -> id == UNK)
            || expected.length == tokenizer.maxLength()
            || expected.length == 2;
    assertTrue(
        mustDecline,
        () -> "declined " + quoted(text) + " that DJL makes " + Arrays.toString(expected));
  }

  static String quoted(String text) {
    StringBuilder out = new StringBuilder("\"");
    String shown = text.length() <= 200 ? text : text.substring(0, 200) + "...";
    for (char c : shown.toCharArray()) {
      out.append(c < 0x20 || c == 0x7F ? String.format("\\u%04X", (int) c) : String.valueOf(c));
    }
    return out.append('"').toString();
  }

  @ParameterizedTest
  @EnumSource(Model.class)
  void bothModelsFilesAreBertsShapeSoTheirTokenizersHaveThePlainPath(Model model) {
    assertTrue(model.model.tokenizer().hasPlainPath());
    assertFalse(BertTokenizer.load(model.model.artifact(), false).hasPlainPath());
  }

  @ParameterizedTest
  @EnumSource(Model.class)
  void theEdgeCasesGiveDjlsIdsOrGoToDjl(Model model) {
    BertTokenizer tokenizer = model.model.tokenizer();
    HuggingFaceTokenizer djl = djlOf(model);
    {
      Tally tally = new Tally();
      for (String text :
          List.of(
              "",
              "   \t\n\r ",
              "!",
              "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
              "don't",
              "U.S.A.",
              "x".repeat(150),
              "a " + "x".repeat(100) + " b",
              "a " + "x".repeat(101) + " b",
              "## ##ing #hashtag a##b",
              "abc\u007Fdef",
              "abc\u0000def",
              "\u0000",
              "\u0000\u0001\u001F\u007F",
              "to\u0000ken\u0007izer",
              "vertical\u000Btab form\u000Cfeed unit\u001Fseparator",
              "[CLS] and [MASK] are added tokens; [cls] and [ MASK ] are not",
              "[MASK]",
              "[UNK]",
              "unaffable UNAFFABLE UnAfFaBlE",
              "3.14159 1,000,000 12345678901234567890 0x7f",
              "tab\tnew\nline\rreturn  and   spaces",
              "qqqqqqqqqq zzzzzxzzzzz",
              "Héllo")) {
        assertDjlsIds(tokenizer, djl, text, tally);
      }
      assertEquals(15, tally.answered, "edge cases the path answered");
    }
    // The ids themselves, for the MiniLM and bge vocabulary (the same file but its truncation).
    assertArrayEquals(new int[] {101, 2123, 1005, 1056, 102}, tokenizer.plainIds("don't"));
    assertArrayEquals(
        new int[] {101, 1057, 1012, 1055, 1012, 1037, 1012, 102}, tokenizer.plainIds("U.S.A."));
    assertArrayEquals(new int[] {101, 100, 102}, djlIds(djlOf(model), "x".repeat(150)));
    assertNull(tokenizer.plainIds("x".repeat(150)), "a word over 100 characters is [UNK]");
    assertNull(tokenizer.plainIds(""), "no word piece");
    assertNull(tokenizer.plainIds("\u0000"), "no word piece");
    assertNull(tokenizer.plainIds("[MASK]"), "an added token");
    assertArrayEquals(tokenizer.plainIds("abcdef"), tokenizer.plainIds("abc\u007Fdef"));
    assertArrayEquals(tokenizer.plainIds("abcdef"), tokenizer.plainIds("abc\u0000def"));
  }

  private static HuggingFaceTokenizer djlOf(Model model) {
    return model == Model.MINILM ? MINILM_DJL : BGE_DJL;
  }

  private static final HuggingFaceTokenizer MINILM_DJL = djl(Model.MINILM);
  private static final HuggingFaceTokenizer BGE_DJL = djl(Model.BGE);

  @ParameterizedTest
  @EnumSource(Model.class)
  void partsTakesThePathsIdsWhereItAnswersAndDjlsForEveryOther(Model model) {
    BertTokenizer tokenizer = model.model.tokenizer();
    try (BertTokenizer anchor = BertTokenizer.load(model.model.artifact(), false)) {
      for (String text : BertTokenizerTests.TEXTS) {
        if (text.isBlank()) {
          continue;
        }
        List<BertTokenizer.Part> ours = tokenizer.parts(text);
        List<BertTokenizer.Part> djls = anchor.parts(text);
        assertEquals(djls.size(), ours.size());
        for (int i = 0; i < ours.size(); i++) {
          assertArrayEquals(djls.get(i).ids(), ours.get(i).ids(), () -> quoted(text));
          assertArrayEquals(djls.get(i).typeIds(), ours.get(i).typeIds());
          assertEquals(djls.get(i).weight(), ours.get(i).weight());
        }
      }
      String ascii = "A man is eating food.";
      assertArrayEquals(tokenizer.plainIds(ascii), tokenizer.parts(ascii).get(0).ids());
      assertEquals(6, tokenizer.parts(ascii).get(0).weight());
    }
  }

  /** Sentences of the text files on this machine, as EmbedBench reads them. */
  private static List<String> machineSentences(int max) {
    List<String> out = new ArrayList<>();
    MachineTexts.read(
        List.of(Path.of("/usr/share/common-licenses"), Path.of("/usr/share/doc")),
        text -> {
          for (String s : text.split("(?<=[.!?])\\s+|\\n\\s*\\n")) {
            if (!s.isBlank() && out.size() < max) {
              out.add(s);
            }
          }
          return out.size() < max;
        });
    return out;
  }

  @ParameterizedTest
  @EnumSource(Model.class)
  void everySentenceOfTheMachinesTextFilesGetsDjlsIds(Model model) {
    List<String> sentences = machineSentences(40_000);
    BertTokenizer tokenizer = model.model.tokenizer();
    HuggingFaceTokenizer djl = djlOf(model);
    Tally tally = new Tally();
    for (String text : sentences) {
      assertDjlsIds(tokenizer, djl, text, tally);
    }
    if (sentences.size() >= 1_000) {
      assertTrue(tally.answered >= sentences.size() / 2, () -> tally.answered + " answered");
    }
  }

  @ParameterizedTest
  @EnumSource(Model.class)
  void aHundredThousandGeneratedAsciiTextsGetDjlsIds(Model model) {
    BertTokenizer tokenizer = model.model.tokenizer();
    HuggingFaceTokenizer djl = djlOf(model);
    Tally tally = new Tally();
    generated(100_000, 42, text -> assertDjlsIds(tokenizer, djl, text, tally));
    assertTrue(tally.answered >= 50_000, () -> tally.answered + " of 100,000 answered");
    assertTrue(tally.declined >= 1_000, () -> tally.declined + " of 100,000 declined");
  }

  /** Vocabulary words, a few of them, to mix with random letters. */
  private static final String[] WORDS = {
    "the",
    "a",
    "man",
    "is",
    "eating",
    "food",
    "graph",
    "graphs",
    "kernel",
    "tokenizer",
    "unaffable",
    "embedding",
    "embeddings",
    "cuda",
    "running",
    "quickly",
    "jumped",
    "over",
    "lazy",
    "dog",
    "antidisestablishmentarianism",
    "supercalifragilistic",
    "hello",
    "world"
  };

  private static final String PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

  /**
   * Passes {@code count} random ASCII texts to {@code check}: words of the vocabulary in mixed
   * case, random letter strings (WordPiece splits them, some into [UNK]), digits, punctuation,
   * words of up to 130 letters, control characters, tabs, line breaks; one in fifty long enough to
   * be truncated at 128 ids.
   */
  private static void generated(int count, long seed, Consumer<String> check) {
    SplittableRandom random = new SplittableRandom(seed);
    StringBuilder text = new StringBuilder();
    for (int t = 0; t < count; t++) {
      text.setLength(0);
      int words = random.nextInt(50) == 0 ? 60 + random.nextInt(300) : 1 + random.nextInt(30);
      for (int w = 0; w < words; w++) {
        int kind = random.nextInt(20);
        if (kind < 8) {
          String word = WORDS[random.nextInt(WORDS.length)];
          text.append(
              switch (random.nextInt(4)) {
                case 0 -> word.toUpperCase(java.util.Locale.ROOT);
                case 1 -> Character.toUpperCase(word.charAt(0)) + word.substring(1);
                default -> word;
              });
        } else if (kind < 11) {
          int length = 1 + random.nextInt(12);
          for (int i = 0; i < length; i++) {
            text.append((char) ((random.nextBoolean() ? 'a' : 'A') + random.nextInt(26)));
          }
        } else if (kind < 13) {
          text.append(random.nextInt(1_000_000));
        } else if (kind < 16) {
          text.append(PUNCTUATION.charAt(random.nextInt(PUNCTUATION.length())));
        } else if (kind == 16) {
          text.append("x".repeat(90 + random.nextInt(40)));
        } else if (kind == 17) {
          text.append((char) (random.nextBoolean() ? 0x7F : random.nextInt(0x20)));
        } else if (kind == 18) {
          text.append("\t\n\r".charAt(random.nextInt(3)));
        } else {
          text.append((char) (0x20 + random.nextInt(0x5F))); // any printable character
        }
        if (random.nextInt(4) != 0) {
          text.append(' ');
        }
      }
      check.accept(text.toString());
    }
  }

  /** Texts that mix every kind the generator makes, shrunk to the smallest one on failure. */
  @Property(tries = 2_000)
  void anyAsciiTextGetsDjlsIdsFromBothModels(@ForAll("asciiTexts") String text) {
    for (Model model : Model.values()) {
      assertDjlsIds(model.model.tokenizer(), djlOf(model), text, new Tally());
    }
  }

  @Provide
  Arbitrary<String> asciiTexts() {
    Arbitrary<String> piece =
        Arbitraries.oneOf(
            Arbitraries.of(WORDS),
            Arbitraries.strings().withCharRange('a', 'z').withCharRange('A', 'Z').ofMaxLength(12),
            Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(8),
            Arbitraries.strings().withChars(PUNCTUATION).ofMinLength(1).ofMaxLength(3),
            Arbitraries.strings().withCharRange('\u0000', '\u007F').ofMaxLength(6),
            Arbitraries.strings().withChars('x').ofMinLength(95).ofMaxLength(105));
    Arbitrary<String> gap = Arbitraries.of(" ", "", "\t", "  ", "\n");
    return net.jqwik.api.Combinators.combine(piece.list().ofMaxSize(20), gap.list().ofSize(20))
        .as(
            (pieces, gaps) -> {
              StringBuilder text = new StringBuilder();
              for (int i = 0; i < pieces.size(); i++) {
                text.append(pieces.get(i)).append(gaps.get(i));
              }
              return text.toString();
            });
  }

  /** The benchmark's queries with a character outside ASCII (issue 39: 2% of them, DJL's p99). */
  static final List<String> BENCHMARK_QUERIES =
      List.of(
          "2004-2016 Miroslav Kure <kurem@debian.cz> License: GPL-2+ Files: po/da.po Copyright:"
              + " 2016 adduser & nedenstående oversættere.",
          "2010 Clytie Siddall <clytie@riverland.net.au> 2016 Trần Ngọc Quân <vnwildman@gmail.com>"
              + " License: GPL-2+ Files: po/zh_CN.po Copyright: 2009 Free Software Foundation,"
              + " Inc.",
          "Liu <carlos_liu@yahoo.com> 2009 Aron Xu <happyaron.xu@gmail.com> 2018 Boyuan Yang"
              + " <073plan@gmail.com> License: GPL-2+ Files: doc/po4a/po/da.po Copyright: 2016"
              + " adduser & nedenstående oversættere.",
          "2010-2023 Américo Monteiro <a_monteiro@gmx.com> License: GPL-2+ Files:"
              + " doc/po4a/po/ru.po Copyright: 2005, 2006, 2007, 2008 Free Software Foundation,"
              + " Inc.");

  /**
   * Fragments of every script and rule of BERT's normalizer: accents (composed and combining), ß,
   * Turkish İ and ı, Greek with final sigma, Cyrillic, CJK ideographs, kana, hangul, emoji,
   * zero-width joiner and other format characters, NBSP and the other spaces, control characters,
   * U+FFFD, Unicode punctuation, long words.
   */
  static final List<String> FRAGMENTS =
      List.of(
          "Américo",
          "Trần Ngọc Quân",
          "nedenstående oversættere",
          "café CAFÉ cafe\u0301 CAFE\u0301",
          "naïve résumé façade jalapeño Ångström",
          "Straße STRASSE groß",
          "İstanbul",
          "ıslak Işık",
          "ΟΔΥΣΣΕΥΣ Ὀδυσσεύς",
          "σοφός ΣΟΦΟΣ Σ",
          "Москва ЁЛКА ёлка Україна",
          "北京大学",
          "中文字符和English混合",
          "漢字のテキスト",
          "ひらがな カタカナ ｶﾀｶﾅ",
          "한국어 텍스트",
          "emoji 😀 👍🏽 ❤️",
          "family 👨\u200D👩\u200D👧",
          "zero\u200Bwidth\u200Cnon\u200Djoiner",
          "soft\u00ADhyphen",
          "no\u00A0break\u2002en\u2003em\u2009thin\u3000ideographic\u202Fnarrow",
          "line\u2028separator\u2029paragraph",
          "next\u0085line",
          "control\u0001\u0002\u001Bchars",
          "replacement\uFFFDcharacter",
          "dash – em — minus − hyphen ‐",
          "“quoted” ‘single’ «guillemets» „low“",
          "ellipsis… bullet • dagger † section § pilcrow ¶",
          "¿Qué? ¡Olé!",
          "price: 5€ £3 ¥100 ¢",
          "math ∑ ∫ ≤ ≥ ± × ÷",
          "a\u0300\u0301\u0302\u0303 combining",
          "ǅ ǈ ǋ titlecase",
          "ﬁ ligature ﬀ",
          "Ω ohm K kelvin Å angstrom",
          "ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３",
          "Ä".repeat(101),
          "ü".repeat(100),
          "ünïcödé".repeat(20),
          "a" + "é".repeat(99),
          "Ελληνικά και English",
          "Tiếng Việt có dấu",
          "Čeština Ř ř ů",
          "Polski: zażółć gęślą jaźń",
          "Dansk: æøå ÆØÅ",
          "Français: œuvre Œ",
          "Türkçe: ğüşıöç ĞÜŞİÖÇ",
          "Română: ș ț Ș Ț ş ţ",
          "Íslenska: þ ð Þ Ð",
          "IPA: ʃ ʒ ŋ ə");

  /**
   * A corpus of a few hundred texts outside ASCII: the benchmark's queries, each fragment alone,
   * and each in three sentences around it.
   */
  static List<String> nonAsciiCorpus() {
    List<String> out = new ArrayList<>(BENCHMARK_QUERIES);
    for (String fragment : FRAGMENTS) {
      out.add(fragment);
      out.add("The text \"" + fragment + "\" is here.");
      out.add(fragment.toUpperCase(java.util.Locale.ROOT) + ", then (" + fragment + ")!");
      out.add("x-" + fragment + "-y " + fragment.toLowerCase(java.util.Locale.ROOT) + "...");
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(Model.class)
  void textsOutsideAsciiGetDjlsIdsAndTheBenchmarksQueriesNeedNoDjl(Model model) {
    BertTokenizer tokenizer = model.model.tokenizer();
    HuggingFaceTokenizer djl = djlOf(model);
    for (String query : BENCHMARK_QUERIES) {
      assertArrayEquals(djlIds(djl, query), tokenizer.plainIds(query), () -> quoted(query));
    }
    List<String> corpus = nonAsciiCorpus();
    Tally tally = new Tally();
    for (String text : corpus) {
      int[] expected = djlIds(djl, text);
      int[] ids = tokenizer.plainIds(text);
      if (ids != null) {
        tally.answered++;
        assertArrayEquals(expected, ids, () -> "ids of " + quoted(text));
        continue;
      }
      tally.declined++;
      // Declined only for a reason: [UNK] (emoji, the long words), truncation (the long words of
      // many pieces), or the İ which Java lowercases otherwise.
      boolean mustDecline =
          text.indexOf('\u0130') >= 0
              || Arrays.stream(expected).anyMatch(id -> id == UNK)
              || expected.length == tokenizer.maxLength();
      assertTrue(
          mustDecline,
          () -> "declined " + quoted(text) + " that DJL makes " + Arrays.toString(expected));
    }
    assertTrue(tally.answered >= 145, () -> tally.answered + " answered");
  }

  /**
   * Every character of the Basic Multilingual Plane, alone, between two letters, and after an
   * uppercase accented word: where the path answers, DJL's ids (the normalizer's tables, case,
   * accents, punctuation and spaces of Java's Unicode against those of the native tokenizer).
   */
  @Test
  void everyCharacterOfTheBasicPlaneGetsDjlsIdsWhereThePathAnswers() {
    // The class itself, not the tokenizer, whose probes at load would hide a broken rule by
    // leaving every text to DJL.
    PlainWordPiece path = PlainWordPiece.of(Model.MINILM.model.artifact().readTokenizer(), 128);
    assertNotNull(path);
    HuggingFaceTokenizer djl = djlOf(Model.MINILM);
    int answered = 0;
    for (int c = 0x80; c < 0x10000; c++) {
      if (Character.isSurrogate((char) c)) {
        continue;
      }
      String s = String.valueOf((char) c);
      for (String text : List.of(s, "a" + s + "b", "ÉTÉ" + s)) {
        int[] ids = path.ids(text);
        if (ids != null) {
          answered++;
          assertArrayEquals(
              djlIds(djl, text),
              ids,
              () -> "ids of " + quoted(text) + String.format(" U+%04X", (int) s.charAt(0)));
        }
      }
    }
    assertTrue(answered >= 20_000, answered + " answered");
  }

  /** Texts over the alphabets of the corpus, shrunk to the smallest one on failure. */
  @Property(tries = 3_000)
  void anyTextOfManyScriptsGetsDjlsIdsFromBothModels(@ForAll("scriptTexts") String text) {
    for (Model model : Model.values()) {
      assertDjlsIds(model.model.tokenizer(), djlOf(model), text, new Tally());
    }
  }

  private static final String SCRIPT_CHARS =
      "aAzZ09éÉèàÀçÇñÑøØåÅæßẞİıIiΣσςΟΔΥΕΑάΆΐМоскваЁёЙй北京大学漢字中文ひらがなカタカナｶﾀ한국어텍스트"
          + "😀👍🏽❤\u200D\u200B\u00AD\u00A0\u2002\u3000\u2028\u0085\u0001\u001B\u007F\uFFFD"
          + "\u0300\u0301\u0308\u0327–—“”‘’«»„…•†§¶¿¡€£¥∑≤±×÷ǅﬁΩKÅＡａ１ʃə\t\n\r .,!?-'\"()[]#";

  @Provide
  Arbitrary<String> scriptTexts() {
    int[] chars = SCRIPT_CHARS.codePoints().toArray();
    Arbitrary<String> piece =
        Arbitraries.oneOf(
            Arbitraries.integers()
                .between(0, chars.length - 1)
                .list()
                .ofMaxSize(10)
                .map(
                    is -> {
                      StringBuilder b = new StringBuilder();
                      is.forEach(i -> b.appendCodePoint(chars[i]));
                      return b.toString();
                    }),
            Arbitraries.of(FRAGMENTS),
            Arbitraries.of(WORDS));
    Arbitrary<String> gap = Arbitraries.of(" ", "", "\u00A0", "\n");
    return net.jqwik.api.Combinators.combine(piece.list().ofMaxSize(12), gap.list().ofSize(12))
        .as(
            (pieces, gaps) -> {
              StringBuilder text = new StringBuilder();
              for (int i = 0; i < pieces.size(); i++) {
                text.append(pieces.get(i)).append(gaps.get(i));
              }
              return text.toString();
            });
  }

  /** {@code json} with one edit at {@code path} (the object path, then the member's name). */
  private static byte[] edited(byte[] json, Consumer<JsonObject> edit) {
    JsonObject root =
        JsonParser.parseString(new String(json, StandardCharsets.UTF_8)).getAsJsonObject();
    edit.accept(root);
    return root.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aTokenizerJsonOfAnotherShapeHasNoPlainPath() {
    byte[] json = Model.MINILM.model.artifact().readTokenizer();
    assertNotNull(PlainWordPiece.of(json, 128), "the file as it is");
    List<Consumer<JsonObject>> edits =
        List.of(
            r -> r.getAsJsonObject("normalizer").addProperty("lowercase", false),
            r -> r.getAsJsonObject("normalizer").addProperty("strip_accents", false),
            r -> r.getAsJsonObject("normalizer").addProperty("clean_text", false),
            r -> r.getAsJsonObject("normalizer").addProperty("type", "Lowercase"),
            r -> r.getAsJsonObject("pre_tokenizer").addProperty("type", "Whitespace"),
            r -> r.getAsJsonObject("model").addProperty("type", "BPE"),
            r -> r.getAsJsonObject("model").addProperty("continuing_subword_prefix", "@@"),
            r -> r.getAsJsonObject("model").addProperty("unk_token", "<unk>"),
            r -> r.getAsJsonObject("post_processor").addProperty("type", "RobertaProcessing"),
            r -> r.getAsJsonObject("post_processor").getAsJsonArray("single").remove(2),
            r ->
                r.getAsJsonArray("added_tokens")
                    .get(0)
                    .getAsJsonObject()
                    .addProperty("normalized", true),
            r -> r.remove("post_processor"),
            r -> r.add("normalizer", com.google.gson.JsonNull.INSTANCE));
    for (int i = 0; i < edits.size(); i++) {
      assertNull(PlainWordPiece.of(edited(json, edits.get(i)), 128), "edit " + i);
    }
    assertNull(PlainWordPiece.of("not json".getBytes(StandardCharsets.UTF_8), 128));
    // BertProcessing, the other post-processor of BERT's files, is read too.
    byte[] bert =
        edited(
            json,
            r -> {
              JsonObject post = new JsonObject();
              post.addProperty("type", "BertProcessing");
              post.add("sep", JsonParser.parseString("[\"[SEP]\", 102]"));
              post.add("cls", JsonParser.parseString("[\"[CLS]\", 101]"));
              r.add("post_processor", post);
            });
    PlainWordPiece path = PlainWordPiece.of(bert, 128);
    assertNotNull(path);
    assertArrayEquals(new int[] {101, 1037, 2158, 102}, path.ids("A man"));
  }
}
