// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.GraphCondition;
import cuda.graph.GraphNode;
import cuda.graph.LaunchConfig;
import cuda.graph.MappedHostBuffer;
import cuda.graph.Stream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A model on one device: its weights, KV cache, activations and the state block that holds the
 * position and token, and the decode step as a {@link GraphNode} of {@code 5 * layers + 3} kernel
 * launches that reads its position and token from the state and advances it. Eagerly the step is
 * built anew for each token (an op runs once); a graph captures it once. The engine also owns a
 * {@link TokenRing} in mapped host memory, through which the stream loop hands each token to the
 * host while it runs. Not thread-safe: one decode at a time. Closing frees the device memory and
 * the ring.
 */
final class DecodeEngine implements AutoCloseable {

  private static final int BLOCK = 256;
  private static final int WARPS = BLOCK / 32;

  /** The product kernels' tile of weights in shared memory (the .cu's TILE_BYTES). */
  static final int TILE_BYTES = 16384;

  /**
   * Tiles in flight a block of the product kernels (at most the .cu's MAX_STAGES, 8); {@code
   * -Ddecode.stages=N} overrides it to measure another. Above 48 KiB of shared memory a block the
   * library opts the kernels in.
   */
  static final int STAGES = Integer.getInteger("decode.stages", 2);

  /**
   * Blocks an SM of the product kernels; {@code -Ddecode.blocksPerSm=N} overrides it to measure
   * another.
   */
  static final int BLOCKS_PER_SM = Integer.getInteger("decode.blocksPerSm", 4);

  /** The shared memory an H100 or H200 gives a block that opts in: 227 KiB. */
  static final int MAX_SHARED_BYTES = 227 * 1024;

  /**
   * The most shared memory the attention kernel uses for the keys and values of earlier positions
   * ({@code -Ddecode.attentionStaged=BYTES} overrides it, 0 reads every position from global
   * memory).
   */
  static final int ATTENTION_STAGED_BYTES =
      Integer.getInteger("decode.attentionStaged", 128 * 1024);

  /** How long {@code finish_stream} waits for the host to free a slot of a full ring. */
  static final Duration CONSUME_TIMEOUT = Duration.ofSeconds(5);

  /** How long {@code clock_sync} waits for each of the host's rounds. */
  private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(2);

  final LlamaConfig config;
  final Stream stream;
  private final List<DeviceBuffer<?>> owned = new ArrayList<>();
  private final DeviceBuffer<Short> embeddings, norm, output;
  private final List<DeviceBuffer<Short>[]> layers = new ArrayList<>();
  private final DeviceBuffer<Float> kCache, vCache;
  final DeviceBuffer<Integer> state;
  private final DeviceBuffer<Float> x, qkv, att, h;
  final DeviceBuffer<Float> logits;
  private final int streamBlocks;
  private final TokenRing ring;

  /**
   * Copies {@code weights} to the device of {@code stream} and allocates the rest there, with a
   * token ring of one slot per position of the cache (every decode fits: the device never waits).
   */
  DecodeEngine(Weights weights, Stream stream) {
    this(weights, stream, weights.config.maxSeq(), CONSUME_TIMEOUT);
  }

  /**
   * As {@link #DecodeEngine(Weights, Stream)}, with a token ring of {@code ringCapacity} slots
   * whose kernel waits at most {@code consumeTimeout} for the host to free a slot. If anything
   * fails, what was allocated is freed before the exception leaves.
   */
  @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array of the layer's buffers
  DecodeEngine(Weights weights, Stream stream, int ringCapacity, Duration consumeTimeout) {
    this.config = weights.config;
    this.stream = stream;
    LlamaConfig c = config;
    // The ring first: whatever fails after it, the catch below frees it with the rest.
    this.ring = new TokenRing(stream.device(), ringCapacity, consumeTimeout);
    try {
      DecodeKernels.loadAll(stream.device()); // module loading must stay out of captures
      embeddings = upload(weights.embeddings);
      for (Weights.Layer l : weights.layers) {
        layers.add(
            new DeviceBuffer[] {
              upload(l.attentionNorm()),
              upload(l.qkv()),
              upload(l.wo()),
              upload(l.ffnNorm()),
              upload(l.w1()),
              upload(l.w3()),
              upload(l.w2())
            });
      }
      norm = upload(weights.norm);
      output = upload(weights.output);
      long cache = (long) c.layers() * c.maxSeq() * c.kvDim();
      kCache = zeros(ElementType.F32, cache);
      vCache = zeros(ElementType.F32, cache);
      state = zeros(ElementType.I32, DecodeMath.stateLength(c.maxSeq()));
      x = zeros(ElementType.F32, c.dim());
      qkv = zeros(ElementType.F32, c.qkvRows());
      att = zeros(ElementType.F32, c.dim());
      h = zeros(ElementType.F32, c.ffn());
      logits = zeros(ElementType.F32, c.vocab());
      // The product kernels' grid: a few blocks on every SM, each streaming an even share of rows.
      streamBlocks =
          BLOCKS_PER_SM
              * stream.device().attribute(cuda.graph.Device.Attribute.MULTIPROCESSOR_COUNT);
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
  }

  private DeviceBuffer<Short> upload(java.lang.foreign.MemorySegment data) {
    DeviceBuffer<Short> b = DeviceBuffer.fromSegment(ElementType.F16, data).syncOn(stream);
    owned.add(b);
    return b;
  }

  private <T> DeviceBuffer<T> zeros(ElementType<T> type, long n) {
    DeviceBuffer<T> b = DeviceBuffer.zeros(type, n).syncOn(stream);
    owned.add(b);
    return b;
  }

  /** Resets the state: token 1 at position 0, {@code steps} steps to go. */
  void reset(int steps) {
    if (steps < 1 || steps >= config.maxSeq()) {
      throw new IllegalArgumentException(
          "a decode takes 1 to "
              + (config.maxSeq() - 1)
              + " steps with a cache of "
              + config.maxSeq()
              + " positions, not "
              + steps);
    }
    state.write(DecodeMath.initialState(config.maxSeq(), steps)).syncOn(stream);
  }

  /** {@return one decode step; inside a device loop, {@code more} is the loop's condition} */
  GraphNode<@Nullable Void> step(@Nullable GraphCondition more) {
    return GraphNode.sequence(kernels(more, false));
  }

  /** {@return the names of the kernels of a step, in {@link #kernels} order} */
  List<String> kernelNames() {
    List<String> names = new ArrayList<>(config.kernelsPerToken());
    names.add("embed");
    for (int l = 0; l < config.layers(); l++) {
      names.addAll(
          List.of(
              "qkv + rope (norm_qkv_rope)",
              "attention",
              "wo (matvec_add)",
              "gate_up (norm_gate_up)",
              "down (matvec_add)"));
    }
    names.add("logits + argmax");
    names.add("finish");
    return names;
  }

  /**
   * {@return the kernel launches of one step, in order}; with {@code programmatic}, every launch
   * after the first is a programmatic dependent launch, so each kernel's launch overlaps the one
   * before (every kernel synchronizes before it reads anything: STEP_START)
   */
  List<GraphNode<?>> kernels(@Nullable GraphCondition more, boolean programmatic) {
    UnaryOperator<LaunchConfig> after =
        programmatic ? LaunchConfig::withProgrammaticDependentLaunch : UnaryOperator.identity();
    LlamaConfig c = config;
    float eps = c.normEps();
    List<GraphNode<?>> k = new ArrayList<>(c.kernelsPerToken());
    k.add(
        DecodeKernels.EMBED.launch(
            LaunchConfig.covering(c.dim(), BLOCK), state, embeddings, x, c.dim()));
    for (int l = 0; l < c.layers(); l++) {
      DeviceBuffer<Short>[] w = layers.get(l);
      long from = (long) l * c.maxSeq() * c.kvDim(), length = (long) c.maxSeq() * c.kvDim();
      DeviceBuffer<Float> kc = kCache.slice(from, length), vc = vCache.slice(from, length);
      k.add(
          DecodeKernels.NORM_QKV_ROPE.launch(
              after.apply(streamed(c.qkvRows(), c.dim(), 1, true, true)),
              x,
              w[0],
              w[1],
              qkv,
              state,
              kc,
              vc,
              c.heads(),
              c.kvHeads(),
              c.headDim(),
              c.dim(),
              eps,
              c.ropeTheta()));
      LaunchConfig perHead =
          new LaunchConfig(
              cuda.graph.Dim3.of(c.heads()), cuda.graph.Dim3.of(BLOCK), attentionShared(c));
      k.add(
          DecodeKernels.ATTENTION.launch(
              after.apply(perHead),
              qkv,
              state,
              kc,
              vc,
              att,
              c.heads(),
              c.kvHeads(),
              c.headDim(),
              c.maxSeq()));
      k.add(
          DecodeKernels.MATVEC_ADD.launch(
              after.apply(streamed(c.dim(), c.dim(), 1, false, false)),
              att,
              w[2],
              x,
              c.dim(),
              c.dim()));
      k.add(
          DecodeKernels.NORM_GATE_UP.launch(
              after.apply(streamed(c.ffn(), c.dim(), 2, true, false)),
              x,
              w[3],
              w[4],
              w[5],
              h,
              c.ffn(),
              c.dim(),
              eps));
      k.add(
          DecodeKernels.MATVEC_ADD.launch(
              after.apply(streamed(c.dim(), c.ffn(), 1, false, false)),
              h,
              w[6],
              x,
              c.dim(),
              c.ffn()));
    }
    k.add(
        DecodeKernels.NORM_MATVEC_ARGMAX.launch(
            after.apply(streamed(c.vocab(), c.dim(), 1, true, false)),
            x,
            norm,
            output,
            logits,
            state,
            c.vocab(),
            c.dim(),
            eps));
    LaunchConfig one = after.apply(LaunchConfig.of(1, 1));
    k.add(
        more == null
            ? DecodeKernels.FINISH.launch(one, state)
            : DecodeKernels.FINISH_LOOP.launch(one, state, more));
    return k;
  }

  /**
   * The launch of a product kernel over {@code rows} rows of {@code mats} matrices of {@code cols}
   * columns: the grid sized to the device (at most a block per pair of rows), and shared memory for
   * the tiles plus, with {@code normalized}, the normalized input and the norm's weights; {@code
   * rotary}: the rows are rotated in pairs.
   */
  private LaunchConfig streamed(int rows, int cols, int mats, boolean normalized, boolean rotary) {
    checkTiling(rows, cols, mats, rotary);
    int blocks = Math.min(streamBlocks, (rows + 1) / 2);
    return new LaunchConfig(
        cuda.graph.Dim3.of(blocks), cuda.graph.Dim3.of(BLOCK), streamedShared(cols, normalized));
  }

  /** {@return the dynamic shared memory of a product kernel: its tiles and its input} */
  static int streamedShared(int cols, boolean normalized) {
    return STAGES * TILE_BYTES + (normalized ? cols * (Float.BYTES + Short.BYTES) : 0);
  }

  /**
   * Checks what the product kernels assume of a shape (their tiling in decode_kernels.cu): 16-byte
   * rows, a row of every matrix in one tile, columns split evenly between the warps of a long row,
   * an even number of rows and, for rotary pairs, two rows in a tile. With a row in a tile (so at
   * most 8192 columns) and at most 8 tiles, the tiles and a normalized input take at most 176 KiB
   * of shared memory, within the 227 KiB an H100 or H200 gives a block.
   */
  static void checkTiling(int rows, int cols, int mats, boolean rotary) {
    int rowBytes = cols * 2 * mats;
    String problem = null;
    if (cols % 8 != 0) {
      problem = "the columns are not a multiple of 8 (16-byte rows)";
    } else if (rowBytes > TILE_BYTES) {
      problem = "a row of the matrices takes " + rowBytes + " bytes, over a tile";
    } else if (rows % 2 != 0) {
      problem = "the rows are odd";
    } else if (rotary && 2 * rowBytes > TILE_BYTES) {
      problem = "two rows (a rotary pair) take " + 2 * rowBytes + " bytes, over a tile";
    } else if (STAGES < 1 || STAGES > 8) {
      problem = STAGES + " tiles in flight, not 1 to 8";
    } else if (WARPS * rowBytes > TILE_BYTES) {
      int tileRows = WARPS;
      while (tileRows > 1 && tileRows * rowBytes > TILE_BYTES) {
        tileRows /= 2;
      }
      int parts = WARPS / tileRows;
      if (cols % (8 * parts) != 0) {
        problem = "the columns do not split into " + parts + " parts of 16-byte chunks";
      }
    }
    if (problem != null) {
      throw new IllegalArgumentException(
          "the decode kernels cannot stream a "
              + rows
              + " x "
              + cols
              + " product of "
              + mats
              + " matri"
              + (mats == 1 ? "x" : "ces")
              + " ("
              + problem
              + "; a tile holds "
              + TILE_BYTES
              + " bytes): use a model whose widths are multiples of 64");
    }
  }

  /**
   * {@return the dynamic shared memory of the attention kernel}: its scores and query, then the
   * keys and values of up to {@link #ATTENTION_STAGED_BYTES} worth of positions, copied before its
   * dependency wait (the rest it reads from global memory)
   */
  static int attentionShared(LlamaConfig c) {
    int rowPair = 2 * c.headDim() * Float.BYTES;
    int base = (c.maxSeq() + c.headDim()) * Float.BYTES;
    int budget = Math.min(ATTENTION_STAGED_BYTES, MAX_SHARED_BYTES - 8192 - base);
    int room = Math.clamp(budget / rowPair, 0, c.maxSeq());
    return base + room * rowPair;
  }

  /** {@return a graph of one step, replayed once per token} */
  CudaGraph<@Nullable Void> captureStep() {
    return CudaGraph.capture(stream, step(null));
  }

  /** {@return the same graph with every kernel after the first launched programmatically} */
  CudaGraph<@Nullable Void> captureProgrammaticStep() {
    return CudaGraph.capture(stream, GraphNode.sequence(kernels(null, true)));
  }

  /** {@return a graph whose one launch runs a WHILE loop of steps until the state's count is 0} */
  CudaGraph<@Nullable Void> captureLoop() {
    return captureLoop(false);
  }

  /**
   * {@return as {@link #captureLoop()}; with {@code programmatic}, every kernel of the loop's step
   * after the first is a programmatic dependent launch (the steps themselves stay in order: each
   * iteration of the loop starts after the one before has ended)}
   */
  CudaGraph<@Nullable Void> captureLoop(boolean programmatic) {
    return CudaGraph.scope(
        stream,
        scope -> {
          GraphCondition more = scope.condition(1);
          scope.whileLoop(
              more, body -> body.record(GraphNode.sequence(kernels(more, programmatic))));
        });
  }

  /** {@return the tokens fed at positions 0 to {@code steps}} */
  int[] tokens(int steps) {
    return state.slice(DecodeMath.HISTORY, steps + 1).toIntArray().syncOn(stream);
  }

  /** {@return an op that reads the token the last step produced} */
  DeviceOp<int[]> readToken() {
    return state.slice(DecodeMath.TOKEN, 1).toIntArray();
  }

  /**
   * {@return the bytes one step reads at position {@code pos}}: {@code weightBytes} (the weights it
   * streams, {@link LlamaConfig#streamedWeightBytesPerToken()}) and the KV cache up to {@code pos}
   */
  long bytesPerStep(long weightBytes, int pos) {
    return weightBytes + 2L * config.layers() * (pos + 1) * config.kvDim() * Float.BYTES;
  }

  /** {@return the token ring the stream loop publishes into} */
  TokenRing ring() {
    return ring;
  }

  /**
   * {@return a graph whose one launch runs a WHILE loop of steps until the state's count is 0, each
   * step ending with {@code finish_stream}, which publishes the new token into the ring}
   */
  CudaGraph<@Nullable Void> captureStreamLoop() {
    return captureStreamLoop(false);
  }

  /**
   * {@return as {@link #captureStreamLoop()}; with {@code programmatic}, every kernel of the loop's
   * step after the first is a programmatic dependent launch, as in {@link #captureLoop(boolean)}}
   */
  CudaGraph<@Nullable Void> captureStreamLoop(boolean programmatic) {
    return CudaGraph.scope(
        stream,
        scope -> {
          GraphCondition more = scope.condition(1);
          scope.whileLoop(
              more, body -> body.record(GraphNode.sequence(streamKernels(more, programmatic))));
        });
  }

  /** The kernels of a step, with {@code finish_stream} for the last. */
  private List<GraphNode<?>> streamKernels(GraphCondition more, boolean programmatic) {
    List<GraphNode<?>> k = kernels(null, programmatic);
    LaunchConfig one = LaunchConfig.of(1, 1);
    k.set(
        k.size() - 1,
        DecodeKernels.FINISH_STREAM.launch(
            programmatic ? one.withProgrammaticDependentLaunch() : one,
            state,
            more,
            ring.deviceView(),
            ring.capacity,
            ring.timeout.toNanos()));
    return k;
  }

  /**
   * Launches {@code streamLoop} (from {@link #captureStreamLoop}) after the ring is emptied; the
   * engine must have been {@linkplain #reset reset} for {@code steps} steps. {@return the decode,
   * whose tokens the caller drains with {@link TokenRing.StreamingDecode#drainTo}}
   */
  TokenRing.StreamingDecode startStreaming(CudaGraph<@Nullable Void> streamLoop, int steps) {
    ring.clear();
    CompletableFuture<?> launch = streamLoop.launch().asyncOn(stream);
    return ring.new StreamingDecode(launch, steps);
  }

  /**
   * Decodes {@code steps} tokens with one launch of {@code streamLoop}, delivering each to {@code
   * sink} on this thread as the device publishes it, and returns once the launch has completed.
   * {@return the number of tokens delivered}
   */
  int decodeStreaming(CudaGraph<@Nullable Void> streamLoop, int steps, TokenRing.TokenSink sink) {
    return startStreaming(streamLoop, steps).drainTo(sink);
  }

  /**
   * As {@link #decodeStreaming(CudaGraph, int, TokenRing.TokenSink)}, waiting as {@code wait} says.
   */
  int decodeStreaming(
      CudaGraph<@Nullable Void> streamLoop,
      int steps,
      TokenRing.TokenSink sink,
      TokenRing.Wait wait) {
    return startStreaming(streamLoop, steps).drainTo(sink, wait);
  }

  /**
   * Measures the offset of the device's global timer from {@link System#nanoTime()}, with {@code
   * rounds} round trips to {@code clock_sync} through mapped memory (see {@link
   * TokenRing#calibrate}).
   */
  TokenRing.ClockOffset calibrateClock(int rounds) {
    try (MappedHostBuffer<Long> sync =
        stream.device().allocateMapped(ElementType.I64, TokenRing.SYNC_LENGTH)) {
      sync.write(new long[TokenRing.SYNC_LENGTH]);
      CompletableFuture<?> launch =
          DecodeKernels.CLOCK_SYNC
              .launch(LaunchConfig.of(1, 1), sync.deviceView(), rounds, SYNC_TIMEOUT.toNanos())
              .asyncOn(stream);
      return TokenRing.calibrate(sync, launch, rounds);
    }
  }

  @Override
  public void close() {
    for (DeviceBuffer<?> b : owned) {
      b.close();
    }
    ring.close();
  }
}
