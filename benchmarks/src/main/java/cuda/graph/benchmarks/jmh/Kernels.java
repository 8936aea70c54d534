package cuda.graph.benchmarks.jmh;

import cuda.graph.ElementType;
import cuda.graph.Kernel;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import java.lang.foreign.ValueLayout;

/** The benchmark kernel: {@code inc(int *counter)}, with the Java reference the simulator runs. */
final class Kernels {

  static final Kernel INC =
      KernelImage.ptx(
              ".version 9.0\n"
                  + ".target sm_90\n"
                  + ".address_size 64\n"
                  + ".visible .entry inc(.param .u64 p)\n"
                  + "{\n"
                  + "\tret;\n"
                  + "}\n")
          .withReference(
              "inc",
              call -> {
                var counter = call.memory(0, 4);
                counter.set(
                    ValueLayout.JAVA_INT_UNALIGNED,
                    0,
                    counter.get(ValueLayout.JAVA_INT_UNALIGNED, 0) + 1);
              })
          .kernel("inc", KernelParam.pointer(ElementType.I32));

  private Kernels() {}
}
