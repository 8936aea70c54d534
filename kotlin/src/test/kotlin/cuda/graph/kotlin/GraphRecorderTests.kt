// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.kotlin

import cuda.graph.CudaPlatform
import cuda.graph.DeviceBuffer
import cuda.graph.ElementType
import cuda.graph.Kernel
import cuda.graph.KernelImage
import cuda.graph.KernelParam
import cuda.graph.LaunchConfig
import cuda.graph.NodeKind
import cuda.graph.RecordedNode
import cuda.graph.Stream
import cuda.graph.simulator.Simulator
import java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED
import kotlin.test.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertTrue

/**
 * Kernels that decide on the device: their PTX declares the entries only, and the simulator runs
 * the Java references.
 */
private val CONTROL =
  KernelImage.ptx(
      """
      .version 9.0
      .target sm_90
      .address_size 64
      .visible .entry countdown(.param .u64 counter, .param .u64 c) { ret; }
      .visible .entry choose(.param .u64 value, .param .u64 c) { ret; }
      """
        .trimIndent()
    )
    // counter[0] -= 1, counter[1] += 1 (the turns taken); loop again while counter[0] > 0.
    .withReference("countdown") { call ->
      val counter = call.memory(0, 8)
      val left = counter.getAtIndex(JAVA_INT_UNALIGNED, 0) - 1
      counter.setAtIndex(JAVA_INT_UNALIGNED, 0, left)
      counter.setAtIndex(JAVA_INT_UNALIGNED, 1, counter.getAtIndex(JAVA_INT_UNALIGNED, 1) + 1)
      call.setCondition(1, if (left > 0) 1 else 0)
    }
    // The condition becomes value[0].
    .withReference("choose") { call ->
      call.setCondition(1, call.memory(0, 4).getAtIndex(JAVA_INT_UNALIGNED, 0))
    }

private val COUNTDOWN: Kernel =
  CONTROL.kernel("countdown", KernelParam.pointer(ElementType.I32), KernelParam.CONDITION)
private val CHOOSE: Kernel =
  CONTROL.kernel("choose", KernelParam.pointer(ElementType.I32), KernelParam.CONDITION)
private val ONE = LaunchConfig.of(1, 1)

/** The DSL records what the Java [cuda.graph.Scope] records: conditions, loops, recorded nodes. */
class GraphRecorderTests {

  private fun onSimulator(test: (Stream) -> Unit) {
    CudaPlatform.forDriver(Simulator.create(), "simulator").use { platform ->
      platform.defaultDevice().newStream().use(test)
    }
  }

  private fun Stream.ints(vararg values: Int): DeviceBuffer<Int> =
    DeviceBuffer.fromArray(values).syncOn(this)

  private fun Stream.read(buffer: DeviceBuffer<Int>): List<Int> =
    buffer.toIntArray().syncOn(this).toList()

  @Test
  fun aWhileLoopRunsItsBodyUntilAKernelClearsTheCondition() = onSimulator { stream ->
    stream.ints(4, 0).use { counter ->
      stream.ints(0).use { touched ->
        cudaGraph(stream) {
            val more = condition(1)
            whileLoop(more) {
              +touched.fill(9)
              +COUNTDOWN.launch(ONE, counter, more)
            }
          }
          .use { graph ->
            assertEquals(listOf(NodeKind.CONDITIONAL), graph.nodeKinds())
            graph.launch().syncOn(stream)
          }
        assertEquals(listOf(0, 4), stream.read(counter), "four turns, decided on the device")
        assertEquals(listOf(9), stream.read(touched))
      }
    }
  }

  @Test
  fun ifThenAndIfThenElseRunTheBodyTheDeviceChose() = onSimulator { stream ->
    stream.ints(0).use { no ->
      stream.ints(1).use { yes ->
        stream.ints(0, 0, 0).use { out ->
          cudaGraph(stream) {
              val skipped = condition(0)
              +CHOOSE.launch(ONE, no, skipped)
              ifThen(skipped) { +out.slice(0, 1).fill(5) }
              val taken = condition(0)
              +CHOOSE.launch(ONE, yes, taken)
              ifThen(taken) { +out.slice(1, 1).fill(6) }
              val either = condition(1)
              +CHOOSE.launch(ONE, no, either)
              ifThenElse(either, { +out.slice(2, 1).fill(7) }, { +out.slice(2, 1).fill(8) })
            }
            .use { graph -> graph.launch().syncOn(stream) }
          assertEquals(listOf(0, 6, 8), stream.read(out))
        }
      }
    }
  }

  @Test
  fun aSwitchRunsTheCaseTheConditionNames() = onSimulator { stream ->
    stream.ints(2).use { which ->
      stream.ints(0).use { out ->
        cudaGraph(stream) {
            val case = condition(0)
            +CHOOSE.launch(ONE, which, case)
            switchOf(case, { +out.fill(10) }, { +out.fill(11) }, { +out.fill(12) })
          }
          .use { graph -> graph.launch().syncOn(stream) }
        assertEquals(listOf(12), stream.read(out))
      }
    }
  }

  @Test
  fun theRecordedNodesABlockReturnsAreTheGraphsOutputToReplaceAndSwitchOff() =
    onSimulator { stream ->
      stream.ints(0, 0).use { a ->
        stream.ints(0, 0).use { b ->
          stream.ints(0, 0).use { c ->
            cudaGraphReturning(stream) { recordNode(a.fill(1)) to recordNode(b.fill(2)) }
              .use { graph ->
                val (first, second) = graph.takeOutput()
                graph.replaceNode(first, c.fill(3))
                graph.setEnabled(second, false)
                graph.launch().syncOn(stream)
              }
            assertEquals(listOf(0, 0), stream.read(a), "the first node was given c instead")
            assertEquals(listOf(0, 0), stream.read(b), "the second node was switched off")
            assertEquals(listOf(3, 3), stream.read(c))
          }
        }
      }
    }

  @Test
  fun aBodyCannotRecordANodeToReplaceLater() = onSimulator { stream ->
    stream.ints(0).use { a ->
      val e =
        assertFailsWith<IllegalStateException> {
          cudaGraphReturning(stream) {
            val more = condition(0)
            var inBody: RecordedNode? = null
            ifThen(more) { inBody = recordNode(a.fill(1)) }
            inBody
          }
        }
      assertTrue(e.message!!.contains("conditional body"), e.message)
    }
  }

  @Test
  fun lengthsOffsetsAndIndicesTakeInts() = onSimulator { stream ->
    val rows = 3
    val device = stream.device()
    stream.ints(0, 0, 0, 0).use { out ->
      cudaGraph(stream) {
          val scratch = temporary(ElementType.I32, rows)
          +scratch.fill(rows)
          +out.slice(0, rows).copyFrom(scratch)
        }
        .use { graph -> graph.launch().syncOn(stream) }
      assertEquals(listOf(3, 3, 3, 0), stream.read(out))
    }
    device.allocateHost(ElementType.I32, rows).use { host ->
      for (i in 0 until rows) {
        host[i] = 10 * i
      }
      assertEquals(20, host[rows - 1])
      assertEquals(listOf(0, 10, 20), host.toIntArray().toList())
    }
    device.allocateMapped(ElementType.I32, rows).use { mapped ->
      val last = rows - 1
      mapped.setIntRelease(last, 7)
      assertEquals(7, mapped.getIntAcquire(last))
      assertEquals(7, mapped[last])
    }
    device.allocateMapped(ElementType.I64, rows).use { mapped ->
      val first = 0
      mapped.setLongRelease(first, 1L shl 40)
      assertEquals(1L shl 40, mapped.getLongAcquire(first))
    }
  }
}
