package cuda.graph.examples

import java.io.ByteArrayOutputStream
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path
import kotlin.test.Test
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/** The README's Kotlin example is this module's Readme.kt, and it runs on the simulator. */
class ReadmeKotlinTests {

  private val file = "src/main/kotlin/cuda/graph/examples/Readme.kt"

  @Test
  fun theReadmeShowsReadmeKtVerbatim() {
    val readme = Files.readString(Path.of("../README.md"))
    val block =
      Regex(
          "(?m)^`examples-kotlin/" + Regex.escape(file) + "`:\\n```kotlin\\n(.*?)^```",
          RegexOption.DOT_MATCHES_ALL,
        )
        .find(readme)
    assertTrue(block != null, "the README shows examples-kotlin/$file")
    assertEquals(Files.readString(Path.of(file)), block.groupValues[1])
  }

  @Test
  fun theReadmeExampleRecordsReplaysAndAwaitsOnTheSimulator() {
    val out = ByteArrayOutputStream()
    val original = System.out
    System.setOut(PrintStream(out, true))
    try {
      main()
    } finally {
      System.setOut(original)
    }
    assertEquals("on simulator: 2.0, 2.0, 2.0, 2.0", out.toString().trim())
  }
}
