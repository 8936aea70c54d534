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
import java.nio.file.Files;
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
 * The plain-Java path of ASCII texts gives DJL's ids, text for text, for both vocabularies' files
 * (all-MiniLM-L6-v2 truncating at 128 ids, bge-small-en-v1.5 at 512), and declines only texts it
 * must leave to DJL.
 */
class AsciiWordPieceTests {

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
   * decline: one DJL makes [UNK] of, truncates, gives no word piece, or that the path does not read
   * (a character outside ASCII, a literal added token).
   */
  private static void assertDjlsIds(
      BertTokenizer tokenizer, HuggingFaceTokenizer djl, String text, Tally tally) {
    int[] expected = djlIds(djl, text);
    int[] ids = tokenizer.asciiIds(text);
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
  void bothModelsFilesAreBertsShapeSoTheirTokenizersHaveTheAsciiPath(Model model) {
    assertTrue(model.model.tokenizer().hasAsciiPath());
    assertFalse(BertTokenizer.load(model.model.artifact(), false).hasAsciiPath());
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
      assertEquals(14, tally.answered, "edge cases the path answered");
    }
    // The ids themselves, for the MiniLM and bge vocabulary (the same file but its truncation).
    assertArrayEquals(new int[] {101, 2123, 1005, 1056, 102}, tokenizer.asciiIds("don't"));
    assertArrayEquals(
        new int[] {101, 1057, 1012, 1055, 1012, 1037, 1012, 102}, tokenizer.asciiIds("U.S.A."));
    assertArrayEquals(new int[] {101, 100, 102}, djlIds(djlOf(model), "x".repeat(150)));
    assertNull(tokenizer.asciiIds("x".repeat(150)), "a word over 100 characters is [UNK]");
    assertNull(tokenizer.asciiIds(""), "no word piece");
    assertNull(tokenizer.asciiIds("\u0000"), "no word piece");
    assertNull(tokenizer.asciiIds("[MASK]"), "an added token");
    assertArrayEquals(tokenizer.asciiIds("abcdef"), tokenizer.asciiIds("abc\u007Fdef"));
    assertArrayEquals(tokenizer.asciiIds("abcdef"), tokenizer.asciiIds("abc\u0000def"));
  }

  private static HuggingFaceTokenizer djlOf(Model model) {
    return model == Model.MINILM ? MINILM_DJL : BGE_DJL;
  }

  private static final HuggingFaceTokenizer MINILM_DJL = djl(Model.MINILM);
  private static final HuggingFaceTokenizer BGE_DJL = djl(Model.BGE);

  @ParameterizedTest
  @EnumSource(Model.class)
  void partsTakesThePathsIdsForAnAsciiTextAndDjlsForEveryOther(Model model) {
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
      assertArrayEquals(tokenizer.asciiIds(ascii), tokenizer.parts(ascii).get(0).ids());
      assertEquals(6, tokenizer.parts(ascii).get(0).weight());
    }
  }

  /** Sentences of the text files on this machine, as EmbedBench reads them. */
  private static List<String> machineSentences(int max) {
    List<String> out = new ArrayList<>();
    for (Path root : List.of(Path.of("/usr/share/common-licenses"), Path.of("/usr/share/doc"))) {
      if (!Files.isDirectory(root)) {
        continue;
      }
      List<Path> files;
      try (Stream<Path> walk = Files.walk(root)) {
        files = walk.filter(Files::isRegularFile).sorted().toList();
      } catch (IOException e) {
        continue; // an unreadable folder: the generated corpus still runs
      }
      for (Path file : files) {
        if (out.size() >= max) {
          return out;
        }
        String text;
        try {
          if (Files.size(file) > 1 << 20) {
            continue;
          }
          text =
              StandardCharsets.UTF_8
                  .newDecoder()
                  .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file)))
                  .toString();
        } catch (IOException e) {
          continue; // compressed, binary or unreadable
        }
        for (String s : text.split("(?<=[.!?])\\s+|\\n\\s*\\n")) {
          if (!s.isBlank() && out.size() < max) {
            out.add(s);
          }
        }
      }
    }
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

  /** {@code json} with one edit at {@code path} (the object path, then the member's name). */
  private static byte[] edited(byte[] json, Consumer<JsonObject> edit) {
    JsonObject root =
        JsonParser.parseString(new String(json, StandardCharsets.UTF_8)).getAsJsonObject();
    edit.accept(root);
    return root.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aTokenizerJsonOfAnotherShapeHasNoAsciiPath() {
    byte[] json = Model.MINILM.model.artifact().readTokenizer();
    assertNotNull(AsciiWordPiece.of(json, 128), "the file as it is");
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
      assertNull(AsciiWordPiece.of(edited(json, edits.get(i)), 128), "edit " + i);
    }
    assertNull(AsciiWordPiece.of("not json".getBytes(StandardCharsets.UTF_8), 128));
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
    AsciiWordPiece path = AsciiWordPiece.of(bert, 128);
    assertNotNull(path);
    assertArrayEquals(new int[] {101, 1037, 2158, 102}, path.ids("A man"));
  }
}
