// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import cuda.graph.CudaPlatform;
import cuda.graph.Stream;
import cuda.graph.embeddings.internal.gpu.GpuEncoder;
import cuda.graph.embeddings.internal.model.MiniLm;
import cuda.graph.simulator.Simulator;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.jspecify.annotations.Nullable;

/**
 * Whatever a caller passes, {@code embed} and {@code embedAll} answer with embeddings or a clear
 * exception, never a dead JVM, and the embedder serves the next request: null, empty, whitespace,
 * NUL and other characters the tokenizer drops, lone high and low surrogates and reversed pairs,
 * texts of 1 MB, and random Unicode, on the simulator. The oracle is independent of the code under
 * test: a null text is refused with a NullPointerException, a text with an unpaired surrogate (by
 * {@link String#codePoints()}) as such, a text LangChain4j's own tokenizer turns into {@code [CLS]
 * [SEP]} alone as having no word pieces; every other text gets a unit vector within cosine 0.99999
 * of LangChain4j's embedding.
 */
class SentenceEmbedderFuzzTests {

  private static final int ONE_MB = 1 << 20;

  private static CudaPlatform platform;
  private static Stream stream;
  private static SentenceEmbedder embedder;

  @BeforeContainer
  static void open() {
    platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
    stream = platform.defaultDevice().newStream();
    // 128 tokens: a 1 MB text is cut to the tokenizer's 128.
    embedder =
        new SentenceEmbedder(
            new GpuEncoder(MiniLm.Ours.WEIGHTS, MiniLm.Ours.TOKENIZER, stream, 4, 128),
            4,
            Duration.ZERO);
  }

  @AfterContainer
  static void close() {
    embedder.close();
    stream.close();
    platform.close();
  }

  /** What the oracle expects of one text. */
  private enum Expected {
    NULL,
    UNPAIRED_SURROGATE,
    NO_WORD_PIECES,
    EMBEDDING
  }

  private static Expected expected(@Nullable String text) {
    if (text == null) {
      return Expected.NULL;
    }
    // codePoints() yields an unpaired surrogate as a code point of its own.
    if (text.codePoints().anyMatch(cp -> cp >= 0xD800 && cp <= 0xDFFF)) {
      return Expected.UNPAIRED_SURROGATE;
    }
    if (MiniLm.Anchor.tokenizer().encode(text).getIds().length == 2) {
      return Expected.NO_WORD_PIECES;
    }
    return Expected.EMBEDDING;
  }

  /** A text as jqwik shows it in a report: escaped, and cut after 40 chars (some are 1 MB). */
  record Text(@Nullable String value) {
    @Override
    public String toString() {
      return value == null ? "null" : shown(value);
    }
  }

  @Property(tries = 30)
  void everyTextGetsAUnitEmbeddingOrAClearRefusalAndTheEmbedderServesTheNext(
      @ForAll("texts") Text generated) {
    String text = generated.value();
    Expected expected = expected(text);
    switch (expected) {
      case NULL -> {
        NullPointerException e =
            assertThrows(NullPointerException.class, () -> embedder.embed(text));
        assertTrue(e.getMessage().startsWith("Embedder.embed: the text is null;"), e.getMessage());
      }
      case UNPAIRED_SURROGATE, NO_WORD_PIECES -> {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> embedder.embed(text));
        assertRefusal(expected, "Embedder.embed: the text ", e.getMessage());
      }
      case EMBEDDING -> assertIsLangChain4jsUnitVector(text, embedder.embed(text));
    }
    if (expected != Expected.EMBEDDING) {
      assertIsLangChain4jsUnitVector("Hi", embedder.embed("Hi"));
    }
  }

  @Property(tries = 10)
  void embedAllGivesEveryTextItsEmbeddingOrNamesTheFirstBadTextsIndex(
      @ForAll("shortTexts") List<Text> generated) {
    List<@Nullable String> texts = generated.stream().map(Text::value).toList();
    int firstBad = -1;
    for (int i = 0; i < texts.size() && firstBad < 0; i++) {
      if (expected(texts.get(i)) != Expected.EMBEDDING) {
        firstBad = i;
      }
    }
    if (firstBad < 0) {
      float[][] all = embedder.embedAll(texts, line -> {});
      assertEquals(texts.size(), all.length);
      for (int i = 0; i < all.length; i++) {
        assertIsLangChain4jsUnitVector(texts.get(i), all[i]);
      }
      return;
    }
    String prefix = "Embedder.embedAll: text " + firstBad + " of " + texts.size() + " ";
    Expected expected = expected(texts.get(firstBad));
    RuntimeException e =
        assertThrows(RuntimeException.class, () -> embedder.embedAll(texts, l -> {}));
    if (expected == Expected.NULL) {
      assertTrue(e instanceof NullPointerException, e::toString);
      assertTrue(e.getMessage().startsWith(prefix + "is null;"), e.getMessage());
    } else {
      assertTrue(e instanceof IllegalArgumentException, e::toString);
      assertRefusal(expected, prefix, e.getMessage());
    }
  }

  private static void assertRefusal(Expected expected, String prefix, String message) {
    assertTrue(message.startsWith(prefix), () -> "not " + prefix + "...: " + message);
    switch (expected) {
      case UNPAIRED_SURROGATE -> {
        assertTrue(message.contains("unpaired"), message);
        assertTrue(!message.contains("whitespace"), message);
      }
      case NO_WORD_PIECES -> assertTrue(message.contains("has no word pieces"), message);
      default -> fail("no refusal expected: " + expected);
    }
  }

  private static void assertIsLangChain4jsUnitVector(String text, float[] embedding) {
    MiniLm.assertEmbedding(embedding, MiniLm.Anchor.embed(text), MiniLm.MIN_COSINE, shown(text));
  }

  private static String shown(String text) {
    String cut = text.length() <= 40 ? text : text.substring(0, 40) + "... (" + text.length() + ")";
    StringBuilder s = new StringBuilder("\"");
    cut.chars()
        .forEach(c -> s.append(c < 0x20 || c >= 0x7F ? String.format("\\u%04X", c) : (char) c));
    return s.append('"').toString();
  }

  @Provide
  Arbitrary<Text> texts() {
    // 1 MB texts are rarer: the simulator takes seconds for the 128 tokens one becomes.
    return Arbitraries.frequencyOf(
        Tuple.of(12, shortText().map(Text::new)),
        Tuple.of(
            1,
            Arbitraries.of(
                    "word ",
                    "Graphs of GPU work are captured once. ",
                    "\uD83D\uDE00",
                    " ",
                    "\u0000",
                    "\uD800x")
                .map(unit -> new Text(unit.repeat(ONE_MB / unit.length())))),
        // A megabyte of words with one lone surrogate at its very end, far past the truncation.
        Tuple.of(1, Arbitraries.just(new Text("word ".repeat(ONE_MB / 5) + "\uDC00"))));
  }

  /** Lists of 1 to 6 texts (two batches of 4 at most), about half of them all embeddable. */
  @Provide
  Arbitrary<List<Text>> shortTexts() {
    Arbitrary<String> sentence =
        Arbitraries.strings()
            .alpha()
            .ofMinLength(1)
            .ofMaxLength(9)
            .list()
            .ofMinSize(1)
            .ofMaxSize(8)
            .map(words -> String.join(" ", words));
    return Arbitraries.frequencyOf(Tuple.of(6, sentence), Tuple.of(1, shortText()))
        .map(Text::new)
        .list()
        .ofMinSize(1)
        .ofMaxSize(6);
  }

  private static Arbitrary<@Nullable String> shortText() {
    Arbitrary<String> surrogate =
        Arbitraries.chars().range('\uD800', '\uDFFF').map(String::valueOf);
    Arbitrary<String> word = Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(12);
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(null)),
        // Empty, whitespace (no-break and ideographic spaces too), and what the normalizer drops:
        // NUL, controls, U+FFFD, format characters, private use, a lone combining accent.
        Tuple.of(
            2, Arbitraries.strings().withChars(" \t\n\r\u000B\u00A0\u2003\u3000").ofMaxLength(6)),
        Tuple.of(
            2,
            Arbitraries.strings()
                .withChars("\u0000\u0001\u001F\u007F\uFFFD\u200B\u200D\uFEFF\uE000\u0301 ")
                .ofMinLength(1)
                .ofMaxLength(6)),
        // A lone surrogate, a reversed pair or two of a kind, alone or between words.
        Tuple.of(
            3,
            Combinators.combine(
                    Arbitraries.of("", "a ", "word"),
                    Arbitraries.oneOf(
                        surrogate, Arbitraries.of("\uDE00\uD83D", "\uD83D\uD83D", "\uDE00\uDE00")),
                    Arbitraries.of("", " b", "word", "\uD83D\uDE00"))
                .as((before, bad, after) -> before + bad + after)),
        // NUL inside a word, and words with emoji (a real pair).
        Tuple.of(
            2,
            Combinators.combine(word, Arbitraries.of("\u0000", "\uD83D\uDE00", " ", ". "), word)
                .as((a, gap, b) -> a + gap + b)),
        // Any chars at all: surrogates, unassigned and private-use code points among them.
        Tuple.of(4, Arbitraries.strings().all().ofMinLength(1).ofMaxLength(10)),
        Tuple.of(2, word));
  }
}
