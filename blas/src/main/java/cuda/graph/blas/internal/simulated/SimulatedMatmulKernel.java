// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.simulated;

import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.Kernel;
import cuda.graph.KernelCall;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import cuda.graph.LaunchConfig;
import cuda.graph.blas.internal.plan.CheckedMatmul;
import cuda.graph.blas.internal.plan.MatmulOperands;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The kernel that stands for cuBLASLt's matmul on the simulator, and its Java reference. The whole
 * product travels as kernel arguments, so a captured node replays the same product; each plan has a
 * kernel (an image) of its own ({@link #make}), which its backend unloads when it closes, once no
 * node of the plan can run.
 *
 * <p>Arguments: A, B, C, D, the bias and the workspace (an absent one is passed as D and never
 * touched), then m, n, k, the batch, the packed flags, the four leading dimensions, the four batch
 * strides, alpha, beta and the workspace bytes the plan uses.
 *
 * <p>Arithmetic, as cuBLASLt's: inputs widened to fp32 (rounded to TF32 first when asked), each
 * element accumulated in fp32 over k in order with fused multiply-adds, then {@code alpha * acc +
 * beta * c} in fp32, the bias added (element {@code i} to row i of a column-major D, element {@code
 * j} to column j of a row-major D) and the activation applied in fp32, and the result rounded to
 * D's type, to nearest even. The accumulators pass through the workspace, a chunk of up to {@code
 * workspaceBytes / 4} elements at a time, so a workspace that two products use at the same time
 * gives wrong results here as it would on a GPU.
 */
final class SimulatedMatmulKernel {

  private static final List<ElementType<?>> TYPES =
      List.of(ElementType.F32, ElementType.F16, ElementType.BF16);
  private static final CheckedMatmul.Epilogue[] EPILOGUES = CheckedMatmul.Epilogue.values();
  private static final LaunchConfig ONE_THREAD = LaunchConfig.of(1, 1);

  private static final int A = 0;
  private static final int B = 1;
  private static final int C = 2;
  private static final int D = 3;
  private static final int BIAS = 4;
  private static final int WORKSPACE = 5;
  private static final int M = 6;
  private static final int N = 7;
  private static final int K = 8;
  private static final int BATCH = 9;
  private static final int PACKED = 10;
  private static final int LDA = 11;
  private static final int STRIDE_A = 15;
  private static final int ALPHA = 19;
  private static final int BETA = 20;
  private static final int WORKSPACE_BYTES = 21;

  private static final int COLUMN_MAJOR = 1;
  private static final int TRANS_A = 1 << 1;
  private static final int TRANS_B = 1 << 2;
  private static final int TF32 = 1 << 7;
  private static final int HAS_C = 1 << 11;
  private static final int HAS_BIAS = 1 << 12;

  private SimulatedMatmulKernel() {}

  /**
   * {@return a kernel of its own for one plan, named {@code name}}: a node of the plan is then a
   * launch of that kernel, so {@code replaceNode} takes only a node of the same plan, as a child
   * graph of the plan's cuBLASLt call does on a GPU
   */
  static Kernel make(String name) {
    StringBuilder ptx =
        new StringBuilder(".version 8.0\n.target sm_90\n.address_size 64\n\n.visible .entry ")
            .append(name)
            .append("(\n");
    KernelParam[] params = new KernelParam[22];
    for (int i = 0; i < params.length; i++) {
      KernelParam p =
          i <= WORKSPACE
              ? KernelParam.POINTER
              : i <= PACKED
                  ? KernelParam.I32
                  : i < ALPHA || i == WORKSPACE_BYTES ? KernelParam.I64 : KernelParam.F32;
      params[i] = p;
      String ptxType = p == KernelParam.I32 ? ".u32" : p == KernelParam.F32 ? ".f32" : ".u64";
      ptx.append("  .param ").append(ptxType).append(" p").append(i);
      ptx.append(i + 1 < params.length ? ",\n" : "\n");
    }
    ptx.append(")\n{\n  ret;\n}\n");
    return KernelImage.ptx(ptx.toString())
        .withReference(name, SimulatedMatmulKernel::run)
        .kernel(name, params);
  }

  /** {@return the launch of {@code product} over {@code operands}} */
  static GraphNode<@Nullable Void> launch(
      Kernel kernel, CheckedMatmul product, MatmulOperands operands, long workspaceBytes) {
    DeviceBuffer<?> d = operands.d();
    int packed =
        (product.order() == CheckedMatmul.Order.COLUMN_MAJOR ? COLUMN_MAJOR : 0)
            | (product.transA() ? TRANS_A : 0)
            | (product.transB() ? TRANS_B : 0)
            | TYPES.indexOf(product.a()) << 3
            | TYPES.indexOf(product.c()) << 5
            | (product.compute() == CheckedMatmul.Compute.TF32 ? TF32 : 0)
            | product.epilogue().ordinal() << 8
            | (operands.c() != null ? HAS_C : 0)
            | (operands.bias() != null ? HAS_BIAS : 0)
            | (product.bias() == null ? 0 : TYPES.indexOf(product.bias()) << 13);
    return kernel.launch(
        ONE_THREAD,
        operands.a(),
        operands.b(),
        orD(operands.c(), d),
        d,
        orD(operands.bias(), d),
        orD(operands.workspace(), d),
        product.m(),
        product.n(),
        product.k(),
        product.batch(),
        packed,
        product.lda(),
        product.ldb(),
        product.ldc(),
        product.ldd(),
        product.strideA(),
        product.strideB(),
        product.strideC(),
        product.strideD(),
        product.alpha(),
        product.beta(),
        operands.workspace() == null ? 0L : workspaceBytes);
  }

  private static DeviceBuffer<?> orD(@Nullable DeviceBuffer<?> buffer, DeviceBuffer<?> d) {
    return buffer == null ? d : buffer;
  }

  /** {@return the elements a stored matrix of a batch spans, as MatrixView counts them} */
  static long extent(long rows, long cols, long ld, boolean columnMajor, int batch, long stride) {
    long major = columnMajor ? cols : rows;
    long minor = columnMajor ? rows : cols;
    return (batch - 1) * stride + (major - 1) * ld + minor;
  }

  /** A stored matrix of a batch: element (row, col) of matrix {@code b} as fp32. */
  private record Stored(
      MemorySegment memory, int type, long ld, boolean columnMajor, long stride, boolean tf32) {

    static Stored of(
        KernelCall call,
        int index,
        int type,
        long rows,
        long cols,
        long ld,
        boolean columnMajor,
        int batch,
        long stride,
        boolean tf32) {
      long elements = extent(rows, cols, ld, columnMajor, batch, stride);
      MemorySegment memory = call.memory(index, elements * TYPES.get(type).byteSize());
      return new Stored(memory, type, ld, columnMajor, stride, tf32);
    }

    float get(int b, long row, long col) {
      long at = b * stride + (columnMajor ? row + col * ld : row * ld + col);
      float x = read(memory, type, at);
      return tf32 ? Rounding.toTf32(x) : x;
    }

    void set(int b, long row, long col, float value) {
      long at = b * stride + (columnMajor ? row + col * ld : row * ld + col);
      switch (type) {
        case 0 -> memory.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, at, value);
        case 1 -> memory.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, at, Rounding.toF16(value));
        default -> memory.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, at, Rounding.toBf16(value));
      }
    }
  }

  private static float read(MemorySegment memory, int type, long at) {
    return switch (type) {
      case 0 -> memory.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, at);
      case 1 -> Rounding.fromF16(memory.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, at));
      default -> Rounding.fromBf16(memory.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, at));
    };
  }

  private static void run(KernelCall call) {
    int m = call.i32(M);
    int n = call.i32(N);
    int k = call.i32(K);
    int batch = call.i32(BATCH);
    int packed = call.i32(PACKED);
    boolean columnMajor = (packed & COLUMN_MAJOR) != 0;
    boolean transA = (packed & TRANS_A) != 0;
    boolean transB = (packed & TRANS_B) != 0;
    boolean tf32 = (packed & TF32) != 0;
    int inType = packed >>> 3 & 3;
    int outType = packed >>> 5 & 3;
    CheckedMatmul.Epilogue epilogue = EPILOGUES[packed >>> 8 & 7];
    float alpha = call.f32(ALPHA);
    float beta = call.f32(BETA);
    long wsBytes = call.i64(WORKSPACE_BYTES);

    Stored a =
        Stored.of(
            call,
            A,
            inType,
            transA ? k : m,
            transA ? m : k,
            call.i64(LDA),
            columnMajor,
            batch,
            call.i64(STRIDE_A),
            tf32);
    Stored b =
        Stored.of(
            call,
            B,
            inType,
            transB ? n : k,
            transB ? k : n,
            call.i64(LDA + 1),
            columnMajor,
            batch,
            call.i64(STRIDE_A + 1),
            tf32);
    Stored c =
        (packed & HAS_C) == 0
            ? null
            : Stored.of(
                call,
                C,
                outType,
                m,
                n,
                call.i64(LDA + 2),
                columnMajor,
                batch,
                call.i64(STRIDE_A + 2),
                false);
    Stored d =
        Stored.of(
            call,
            D,
            outType,
            m,
            n,
            call.i64(LDA + 3),
            columnMajor,
            batch,
            call.i64(STRIDE_A + 3),
            false);
    int biasType = packed >>> 13 & 3;
    // One bias element per index of D's contiguous dimension: per row of a column-major D, per
    // column of a row-major one.
    MemorySegment bias =
        (packed & HAS_BIAS) == 0
            ? null
            : call.memory(BIAS, (long) (columnMajor ? m : n) * TYPES.get(biasType).byteSize());
    MemorySegment workspace = wsBytes < 4 ? null : call.memory(WORKSPACE, wsBytes);
    long chunk = workspace == null ? 1 : wsBytes / 4;

    long perMatrix = (long) m * n;
    long total = perMatrix * batch;
    float[] local = new float[1];
    for (long start = 0; start < total; start += chunk) {
      long end = Math.min(total, start + chunk);
      for (long e = start; e < end; e++) {
        int bb = (int) (e / perMatrix);
        long i = e % perMatrix / n;
        long j = e % n;
        float acc = 0f;
        for (long p = 0; p < k; p++) {
          float x = transA ? a.get(bb, p, i) : a.get(bb, i, p);
          float y = transB ? b.get(bb, j, p) : b.get(bb, p, j);
          acc = Math.fma(x, y, acc);
        }
        if (workspace == null) {
          local[0] = acc;
        } else {
          workspace.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, e - start, acc);
        }
      }
      for (long e = start; e < end; e++) {
        int bb = (int) (e / perMatrix);
        long i = e % perMatrix / n;
        long j = e % n;
        float acc =
            workspace == null
                ? local[0]
                : workspace.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, e - start);
        float x = alpha * acc;
        if (c != null) {
          x += beta * c.get(bb, i, j);
        }
        if (bias != null) {
          x += read(bias, biasType, columnMajor ? i : j);
        }
        x =
            switch (epilogue) {
              case RELU, BIAS_RELU -> Math.max(x, 0f);
              case GELU, BIAS_GELU -> Rounding.gelu(x);
              case NONE, BIAS -> x;
            };
        d.set(bb, i, j, x);
      }
    }
  }
}
