// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import cuda.graph.ElementType;
import cuda.graph.Kernel;
import cuda.graph.KernelCall;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;

/**
 * The decode step's kernels (src/main/cuda/decode_kernels.cu, compiled to PTX by regenerate.sh)
 * with their Java references, which the simulator runs. Each reference reads exactly the memory its
 * CUDA kernel reads and calls the matching {@link DecodeMath} function.
 */
final class DecodeKernels {

  private static final KernelParam HALF = KernelParam.pointer(ElementType.F16);
  private static final KernelParam FLOAT = KernelParam.pointer(ElementType.F32);
  private static final KernelParam INT = KernelParam.pointer(ElementType.I32);
  private static final KernelParam I32 = KernelParam.I32;
  private static final KernelParam F32 = KernelParam.F32;

  static final KernelImage IMAGE =
      KernelImage.ptxResource(MethodHandles.lookup(), "decode_kernels.ptx")
          .withReference("embed", stepStart(DecodeKernels::embed))
          .withReference("norm_qkv_rope", stepStart(DecodeKernels::normQkvRope))
          .withReference("matvec_add", stepStart(DecodeKernels::matvecAdd))
          .withReference("norm_gate_up", stepStart(DecodeKernels::normGateUp))
          .withReference("norm_matvec_argmax", stepStart(DecodeKernels::normMatvecArgmax))
          .withReference("attention", stepStart(DecodeKernels::attention))
          .withReference("finish", stepStart(DecodeKernels::finish))
          .withReference("finish_loop", stepStart(DecodeKernels::finishLoop))
          .withReference("finish_stream", stepStart(DecodeKernels::finishStream))
          .withReference("clock_sync", DecodeKernels::clockSync)
          // The simulator records no trace: its kernels are these references.
          .withReference("trace_to", call -> {});

  /** {@code embed(const int *state, const half *emb, float *x, int dim)}. */
  static final Kernel EMBED = IMAGE.kernel("embed", INT, HALF, FLOAT, I32);

  /**
   * {@code norm_qkv_rope(x, norm, w, qkv, state, k_cache, v_cache, heads, kv_heads, head_dim, cols,
   * eps, theta)}: the fused Q, K and V projection of the normalized input, q and k rotated for the
   * state's position, k and v appended to the layer's caches.
   */
  static final Kernel NORM_QKV_ROPE =
      IMAGE.kernel(
          "norm_qkv_rope",
          FLOAT,
          HALF,
          HALF,
          FLOAT,
          INT,
          FLOAT,
          FLOAT,
          I32,
          I32,
          I32,
          I32,
          F32,
          F32);

  /** {@code matvec_add(in, w, x, rows, cols)}. */
  static final Kernel MATVEC_ADD = IMAGE.kernel("matvec_add", FLOAT, HALF, FLOAT, I32, I32);

  /** {@code norm_gate_up(x, norm, w1, w3, h, rows, cols, eps)}. */
  static final Kernel NORM_GATE_UP =
      IMAGE.kernel("norm_gate_up", FLOAT, HALF, HALF, HALF, FLOAT, I32, I32, F32);

  /** {@code norm_matvec_argmax(x, norm, w, logits, state, rows, cols, eps)}. */
  static final Kernel NORM_MATVEC_ARGMAX =
      IMAGE.kernel("norm_matvec_argmax", FLOAT, HALF, HALF, FLOAT, INT, I32, I32, F32);

  /** {@code attention(qkv, state, k_cache, v_cache, out, heads, kv_heads, head_dim, max_seq)}. */
  static final Kernel ATTENTION =
      IMAGE.kernel("attention", FLOAT, INT, FLOAT, FLOAT, FLOAT, I32, I32, I32, I32);

  /** {@code finish(int *state)}. */
  static final Kernel FINISH = IMAGE.kernel("finish", INT);

  /** {@code finish_loop(int *state, cudaGraphConditionalHandle more)}. */
  static final Kernel FINISH_LOOP = IMAGE.kernel("finish_loop", INT, KernelParam.CONDITION);

  /**
   * {@code finish_stream(int *state, cudaGraphConditionalHandle more, long long *ring, int
   * capacity, long long timeout_ns)}: finish_loop, then the new token published into the {@link
   * TokenRing}.
   */
  static final Kernel FINISH_STREAM =
      IMAGE.kernel(
          "finish_stream",
          INT,
          KernelParam.CONDITION,
          KernelParam.pointer(ElementType.I64),
          I32,
          KernelParam.I64);

  /**
   * {@code clock_sync(long long *sync, int rounds, long long timeout_ns)}: answers the host's
   * rounds with the device's global timer ({@link TokenRing#calibrate}).
   */
  static final Kernel CLOCK_SYNC =
      IMAGE.kernel("clock_sync", KernelParam.pointer(ElementType.I64), I32, KernelParam.I64);

  /**
   * {@code trace_to(unsigned long long *out, int on)}: names the buffer that the kernels, built
   * with tracing, append their blocks' timestamps to ({@link StepTrace}), or stops tracing.
   */
  static final Kernel TRACE_TO =
      IMAGE.kernel("trace_to", KernelParam.pointer(ElementType.I64), I32);

  private DecodeKernels() {}

  /**
   * The kernels' {@code STEP_START}: let the next kernel launch, then wait for the one before, so
   * the references behave like the CUDA kernels under programmatic dependent launch.
   */
  private static cuda.graph.JavaKernel stepStart(cuda.graph.JavaKernel body) {
    return call -> {
      call.triggerDependentLaunch();
      call.gridDependencySynchronize();
      body.run(call);
    };
  }

  /** Loads every kernel on {@code device}, so that no capture loads a module. */
  static void loadAll(cuda.graph.Device device) {
    for (Kernel k :
        java.util.List.of(
            EMBED,
            NORM_QKV_ROPE,
            MATVEC_ADD,
            NORM_GATE_UP,
            NORM_MATVEC_ARGMAX,
            ATTENTION,
            FINISH,
            FINISH_LOOP,
            FINISH_STREAM,
            CLOCK_SYNC,
            TRACE_TO)) {
      k.load(device);
    }
  }

  private static MemorySegment floats(KernelCall call, int index, long count) {
    return call.memory(index, count * Float.BYTES);
  }

  private static MemorySegment halves(KernelCall call, int index, long count) {
    return call.memory(index, count * 2);
  }

  /** The state block: its fixed words and the history up to the current position plus one. */
  private static MemorySegment state(KernelCall call, int index) {
    int pos = call.memory(index, 4).get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, 0);
    return call.memory(index, (DecodeMath.HISTORY + pos + 2L) * Integer.BYTES);
  }

  private static void embed(KernelCall call) {
    int dim = call.i32(3);
    MemorySegment state = state(call, 0);
    long token = DecodeMath.i(state, DecodeMath.TOKEN);
    DecodeMath.embed(state, halves(call, 1, (token + 1) * dim), floats(call, 2, dim), dim);
  }

  private static void normQkvRope(KernelCall call) {
    int heads = call.i32(7), kvHeads = call.i32(8), headDim = call.i32(9), cols = call.i32(10);
    int kvDim = kvHeads * headDim, rows = heads * headDim + 2 * kvDim;
    MemorySegment qkv = floats(call, 3, rows);
    DecodeMath.normMatvec(
        floats(call, 0, cols),
        halves(call, 1, cols),
        halves(call, 2, (long) rows * cols),
        qkv,
        rows,
        cols,
        call.f32(11));
    MemorySegment state = state(call, 4);
    long positions = DecodeMath.i(state, DecodeMath.POS) + 1L;
    DecodeMath.ropeCache(
        qkv,
        state,
        floats(call, 5, positions * kvDim),
        floats(call, 6, positions * kvDim),
        heads,
        kvHeads,
        headDim,
        call.f32(12));
  }

  private static void matvecAdd(KernelCall call) {
    int rows = call.i32(3), cols = call.i32(4);
    DecodeMath.matvecAdd(
        floats(call, 0, cols),
        halves(call, 1, (long) rows * cols),
        floats(call, 2, rows),
        rows,
        cols);
  }

  private static void normGateUp(KernelCall call) {
    int rows = call.i32(5), cols = call.i32(6);
    DecodeMath.normGateUp(
        floats(call, 0, cols),
        halves(call, 1, cols),
        halves(call, 2, (long) rows * cols),
        halves(call, 3, (long) rows * cols),
        floats(call, 4, rows),
        rows,
        cols,
        call.f32(7));
  }

  private static void normMatvecArgmax(KernelCall call) {
    int rows = call.i32(5), cols = call.i32(6);
    DecodeMath.normMatvecArgmax(
        floats(call, 0, cols),
        halves(call, 1, cols),
        halves(call, 2, (long) rows * cols),
        floats(call, 3, rows),
        state(call, 4),
        rows,
        cols,
        call.f32(7));
  }

  private static void attention(KernelCall call) {
    int heads = call.i32(5), kvHeads = call.i32(6), headDim = call.i32(7);
    int kvDim = kvHeads * headDim;
    MemorySegment state = state(call, 1);
    long positions = DecodeMath.i(state, DecodeMath.POS) + 1L;
    DecodeMath.attention(
        floats(call, 0, heads * headDim + 2L * kvDim),
        state,
        floats(call, 2, positions * kvDim),
        floats(call, 3, positions * kvDim),
        floats(call, 4, (long) heads * headDim),
        heads,
        kvHeads,
        headDim);
  }

  private static void finish(KernelCall call) {
    DecodeMath.finish(state(call, 0));
  }

  private static void finishLoop(KernelCall call) {
    int left = DecodeMath.finish(state(call, 0));
    call.setCondition(1, left > 0 ? 1 : 0);
  }

  private static void finishStream(KernelCall call) {
    MemorySegment state = state(call, 0);
    int left = DecodeMath.finish(state);
    int capacity = call.i32(3);
    MemorySegment ring = call.memory(2, TokenRing.length(capacity) * Long.BYTES);
    int index = DecodeMath.i(state, DecodeMath.POS) - 1;
    int token = DecodeMath.i(state, DecodeMath.TOKEN);
    boolean published = TokenRing.publish(ring, capacity, index, token, call.i64(4));
    call.setCondition(1, published && left > 0 ? 1 : 0);
  }

  private static void clockSync(KernelCall call) {
    MemorySegment sync = call.memory(0, (long) TokenRing.SYNC_LENGTH * Long.BYTES);
    TokenRing.answerRounds(sync, call.i32(1), call.i64(2), System::nanoTime);
  }
}
