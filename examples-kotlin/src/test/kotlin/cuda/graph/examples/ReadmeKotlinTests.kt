// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples

import java.io.ByteArrayOutputStream
import java.io.PrintStream
import kotlin.test.Test
import kotlin.test.assertEquals

/**
 * The Kotlin guide's example, this module's Readme.kt, runs on the simulator and prints what the
 * guide says. That the guide shows the file verbatim is checked with every other documented block
 * by examples-java's DocumentedCodeTests.
 */
class ReadmeKotlinTests {

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
