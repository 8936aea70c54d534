// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.llm.internal.checkpoint.TinyCheckpoints;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenizerTests {

  @TempDir Path tmp;
  private Tokenizer tokenizer;

  @BeforeEach
  void load() throws IOException {
    tokenizer =
        Tokenizer.load(
            Files.writeString(tmp.resolve("tokenizer.json"), TinyCheckpoints.tokenizerJson()));
  }

  @AfterEach
  void close() {
    tokenizer.close();
  }

  @Test
  void encodingAppliesTheMergesAndAddsNoSpecialToken() {
    // "he" 256, "ll" 259, "o" 111, "Ġthe" 258: the byte-level BPE's merges.
    assertArrayEquals(new int[] {256, 259, 111, 258}, tokenizer.encode("hello the"));
    assertEquals("hello the", tokenizer.decode(tokenizer.encode("hello the")));
  }

  @Test
  void specialTokensWrittenInTheTextAreMatchedAndLeftOutWhenDecoded() {
    int[] ids = tokenizer.encode("hi<|eot|>");

    assertEquals(TinyCheckpoints.EOT, ids[ids.length - 1]);
    assertEquals("hi", tokenizer.decode(ids));
    assertEquals("hi<|eot|>", tokenizer.decode(ids, false));
  }

  @Test
  void aPostProcessorsTokensAreAddedOnlyWhenAsked() throws IOException {
    String json =
        TinyCheckpoints.tokenizerJson()
            .replace(
                "\"post_processor\":null",
                """
                "post_processor":{"type":"TemplateProcessing",
                  "single":[{"SpecialToken":{"id":"<|begin_of_text|>","type_id":0}},{"Sequence":{"id":"A","type_id":0}}],
                  "pair":[{"Sequence":{"id":"A","type_id":0}},{"Sequence":{"id":"B","type_id":1}}],
                  "special_tokens":{"<|begin_of_text|>":{"id":"<|begin_of_text|>","ids":[260],"tokens":["<|begin_of_text|>"]}}}\
                """);
    try (Tokenizer t = Tokenizer.load(Files.writeString(tmp.resolve("bos.json"), json))) {
      assertArrayEquals(new int[] {104, 105}, t.encode("hi"));
      assertArrayEquals(new int[] {TinyCheckpoints.BOS, 104, 105}, t.encode("hi", true));
    }
  }

  @Test
  void streamingEmitsACharacterOnlyOnceItsUtf8IsComplete() {
    String text = "héllo 🙂 日本";
    int[] ids = tokenizer.encode(text);
    DecodeStream stream = tokenizer.stream(List.of());
    List<String> pieces = new ArrayList<>();

    for (int id : ids) {
      pieces.add(stream.next(id));
    }
    pieces.add(stream.finish());

    assertEquals(text, String.join("", pieces));
    for (String piece : pieces) {
      assertFalse(piece.contains("\uFFFD"), "a piece with a broken character: " + pieces);
    }
    // The emoji is 4 bytes, 4 tokens: three of them emit nothing.
    assertTrue(pieces.stream().filter(String::isEmpty).count() >= 3, pieces.toString());
  }

  @Test
  void aStopSequenceEndsTheTextBeforeItAndIsNeverEmitted() {
    DecodeStream stream = tokenizer.stream(List.of("STOP", "\n\n"));
    StringBuilder out = new StringBuilder();

    for (int id : tokenizer.encode("one ST two STOP three")) {
      if (stream.stopped()) {
        break;
      }
      out.append(stream.next(id));
    }

    assertTrue(stream.stopped());
    assertEquals("one ST two ", out.toString());
    assertEquals("", stream.finish());
    var e = assertThrows(IllegalStateException.class, () -> stream.next(104));
    assertTrue(e.getMessage().contains("met a stop sequence"), e.getMessage());
  }

  @Test
  void textThatCouldBeginAStopSequenceIsHeldUntilItCannot() {
    DecodeStream stream = tokenizer.stream(List.of("STOP"));
    int[] ids = tokenizer.encode("aST");

    assertEquals("a", stream.next(ids[0]));
    assertEquals("", stream.next(ids[1]));
    assertEquals("", stream.next(ids[2]));
    assertEquals("ST", stream.finish());
    assertFalse(stream.stopped());
  }

  @Test
  void anEmptyStopSequenceIsRefused() {
    var e = assertThrows(IllegalArgumentException.class, () -> tokenizer.stream(List.of("")));
    assertTrue(e.getMessage().contains("a stop sequence is empty"), e.getMessage());
  }

  @Test
  void aFileThatIsNotATokenizerIsRefusedNamingIt() throws IOException {
    Path bad = Files.writeString(tmp.resolve("bad.json"), "{\"model\": 3}");

    var e = assertThrows(IllegalArgumentException.class, () -> Tokenizer.load(bad));

    assertTrue(
        e.getMessage().startsWith("Tokenizer.load(" + bad + "): not a Hugging Face tokenizer.json"),
        e.getMessage());
  }
}
