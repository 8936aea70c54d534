// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ForeignStream;
import cuda.graph.GraphNode;
import cuda.graph.Stream;
import cuda.graph.blas.BlasException;
import cuda.graph.blas.internal.plan.CheckedMatmul;
import cuda.graph.blas.internal.plan.MatmulBackend;
import cuda.graph.blas.internal.plan.MatmulOperands;
import cuda.graph.blas.internal.plan.MatmulPlan;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Matmuls by cuBLASLt on one device: one {@code cublasLtHandle_t} per backend, one plan per
 * distinct {@link CheckedMatmul} (its descriptor, four layouts and the algorithm the heuristic
 * chose once), and each node a {@link GraphNode#foreign} node that calls {@code cublasLtMatmul} on
 * the executing stream.
 *
 * <p><b>Lifetimes.</b> The handle and every plan's descriptors live until the backend is closed and
 * no execution of its nodes can still run: each execution takes a reference, released through
 * {@link ForeignStream#onRelease} (after an eager run's work is done, or when a graph that captured
 * it is destroyed), and whoever lets go of the last one destroys them all, exactly once. A destroy
 * that fails is logged through {@link System.Logger} (logger {@code cuda.graph.blas}): nobody is
 * left to tell. When the last reference goes in a release action (which must not call CUDA or
 * block) the destroys run on a thread of their own.
 *
 * <p><b>The launch path</b> allocates nothing: each plan holds, in native memory made once, alpha,
 * beta, the algorithm and a slot for the bias pointer, and its calls are serialized by a lock per
 * plan. The bias pointer is a descriptor attribute, that is host state that {@code cublasLtMatmul}
 * reads when it is called (and a capture records the kernel's arguments, not the descriptor), so
 * setting it just before each call, under the plan's lock, lets nodes over different bias vectors
 * share one plan.
 */
public final class CublasLtBackend implements MatmulBackend {

  private static final System.Logger LOG = System.getLogger("cuda.graph.blas");

  /** How many algorithms the heuristic is asked for: its best is taken. */
  private static final int ALGORITHMS_ASKED = 1;

  private final CublasLtLibrary lt;
  private final Device device;
  private final long handle;
  private final Executor releaser;
  private final Uses uses;
  private final Runnable releaseUse = this::releaseUse;
  private final Map<PlanKey, LtPlan> plans = new HashMap<>();

  private CublasLtBackend(CublasLtLibrary lt, Device device, long handle, Executor releaser) {
    this.lt = lt;
    this.device = device;
    this.handle = handle;
    this.releaser = releaser;
    this.uses = new Uses("the cuBLASLt backend of " + device);
  }

  /**
   * {@return a backend for {@code device}} over cuBLASLt loaded once per process
   *
   * @throws BlasException when cuBLASLt cannot be loaded (saying where it was looked for and what
   *     to do) or {@code cublasLtCreate} fails
   */
  public static CublasLtBackend open(Device device) {
    return open(
        CublasLtLibrary.load(),
        device,
        destroy -> Thread.ofPlatform().daemon().name("cuda-graph-blas destroy").start(destroy));
  }

  /**
   * {@return a backend for {@code device} over {@code lt}}
   *
   * @param releaser runs the destroys when the last reference goes in a release action
   */
  static CublasLtBackend open(CublasLtLibrary lt, Device device, Executor releaser) {
    Objects.requireNonNull(device, "device");
    long handle = onDevice(device, lt::create, h -> lt.destroy(CublasLtEntry.DESTROY, h));
    return new CublasLtBackend(lt, device, handle, releaser);
  }

  /** {@return the library the backend calls} */
  CublasLtLibrary library() {
    return lt;
  }

  /** {@return the {@code cublasLtHandle_t}} */
  long handle() {
    return handle;
  }

  @Override
  public MatmulPlan plan(CheckedMatmul matmul, long workspaceLimit) {
    Objects.requireNonNull(matmul, "matmul");
    if (workspaceLimit < 0) {
      throw new IllegalArgumentException(
          "a workspace limit is 0 or more bytes, not " + workspaceLimit);
    }
    uses.acquire();
    try {
      synchronized (plans) {
        // Equal products under equal limits share a plan; another limit may get another algorithm.
        PlanKey key = new PlanKey(matmul, workspaceLimit);
        LtPlan cached = plans.get(key);
        if (cached != null) {
          return cached;
        }
        LtPlan made = onDevice(device, () -> makePlan(matmul, workspaceLimit), LtPlan::destroy);
        plans.put(key, made);
        return made;
      }
    } finally {
      if (uses.release()) {
        destroyAll();
      }
    }
  }

  @Override
  public GraphNode<@Nullable Void> node(MatmulPlan plan, MatmulOperands operands) {
    Objects.requireNonNull(operands, "operands");
    if (!(plan instanceof LtPlan p) || p.owner != this) {
      throw new IllegalArgumentException(plan + " was not made by this cuBLASLt backend");
    }
    if (p.workspaceBytes > 0) {
      DeviceBuffer<?> workspace = operands.workspace();
      if (workspace == null || workspace.byteSize() < p.workspaceBytes) {
        throw new IllegalArgumentException(
            p.context
                + " needs "
                + p.workspaceBytes
                + " bytes of workspace, and was given "
                + (workspace == null ? "none" : workspace.byteSize() + " bytes"));
      }
    }
    if (p.spec.biasData() != (operands.bias() != null)) {
      throw new IllegalArgumentException(
          p.context + (p.spec.biasData() ? " needs a bias vector" : " takes no bias vector"));
    }
    List<DeviceBuffer<?>> buffers = new ArrayList<>(6);
    for (DeviceBuffer<?> b :
        new DeviceBuffer<?>[] {
          operands.a(),
          operands.b(),
          operands.c(),
          operands.d(),
          operands.bias(),
          operands.workspace()
        }) {
      if (b != null && !buffers.contains(b)) {
        buffers.add(b);
      }
    }
    // The name tells replaceNode which products may take this node's place: the same one, planned
    // the same way.
    return GraphNode.foreign(
        "cublasLtMatmul of " + p.context + " (" + p.algorithm + ")",
        buffers,
        s -> enqueue(p, operands, s));
  }

  /** The node's work: addresses from the execution, then the plan's one call. */
  private void enqueue(LtPlan p, MatmulOperands o, ForeignStream s) {
    uses.acquire();
    s.onRelease(releaseUse);
    long a = s.address(o.a());
    long b = s.address(o.b());
    long d = s.address(o.d());
    DeviceBuffer<?> cBuffer = o.c();
    long c = cBuffer == null ? d : s.address(cBuffer);
    DeviceBuffer<?> biasBuffer = o.bias();
    long bias = biasBuffer == null ? 0 : s.address(biasBuffer);
    DeviceBuffer<?> workspaceBuffer = o.workspace();
    long workspace = workspaceBuffer == null ? 0 : s.address(workspaceBuffer);
    long workspaceBytes = workspaceBuffer == null ? 0 : workspaceBuffer.byteSize();
    p.launch(a, b, c, d, bias, workspace, workspaceBytes, s.handle());
  }

  @Override
  public void close() {
    if (uses.closeOwner()) {
      destroyAll();
    }
  }

  /**
   * An execution's release action: must not call CUDA or block, so the last hands the destroys on.
   */
  private void releaseUse() {
    if (uses.release()) {
      releaser.execute(this::destroyAll);
    }
  }

  /** Destroys every plan's descriptors, then the handle; runs once, after the last reference. */
  private void destroyAll() {
    List<LtPlan> all;
    synchronized (plans) {
      all = new ArrayList<>(plans.values());
      plans.clear();
    }
    for (LtPlan p : all) {
      p.destroy();
    }
    destroyLogged(CublasLtEntry.DESTROY, handle, "the cuBLASLt handle of " + device);
  }

  private void destroyLogged(CublasLtEntry entry, long object, String what) {
    try {
      lt.destroy(entry, object);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "destroying " + what + " failed", e);
    }
  }

  /** Builds a plan: descriptor, layouts, preference, the heuristic once; undoes all on failure. */
  private LtPlan makePlan(CheckedMatmul matmul, long workspaceLimit) {
    LtMatmulSpec spec = LtMatmulSpec.of(matmul);
    String context = LtMatmulSpec.describe(matmul);
    Created created = new Created();
    Arena arena = Arena.ofShared();
    try {
      long desc = lt.matmulDescCreate(spec.computeType(), spec.scaleType(), context);
      created.add(CublasLtEntry.MATMUL_DESC_DESTROY, desc);
      for (LtMatmulSpec.Attribute at : spec.attributes()) {
        lt.setAttribute(
            CublasLtEntry.MATMUL_DESC_SET_ATTRIBUTE, desc, at.id(), at.value(), at.size(), context);
      }
      long aLayout = layout(spec.a(), created, context);
      long bLayout = layout(spec.b(), created, context);
      long dLayout = layout(spec.d(), created, context);
      LtMatmulSpec.Layout cSpec = spec.c();
      long cLayout = cSpec == null ? dLayout : layout(cSpec, created, context);

      long preference = lt.matmulPreferenceCreate(context);
      MemorySegment results =
          arena.allocate(CublasLtAbi.HEURISTIC_RESULT.byteSize() * ALGORITHMS_ASKED, 8);
      int found;
      try {
        lt.setAttribute(
            CublasLtEntry.MATMUL_PREFERENCE_SET_ATTRIBUTE,
            preference,
            CublasLtAbi.PREF_MAX_WORKSPACE_BYTES,
            workspaceLimit,
            Long.BYTES,
            context);
        // Only algorithms that can read the operands as aligned as they are.
        for (int i = 0; i < 4; i++) {
          lt.setAttribute(
              CublasLtEntry.MATMUL_PREFERENCE_SET_ATTRIBUTE,
              preference,
              CublasLtAbi.PREF_MIN_ALIGNMENT_A_BYTES + i,
              spec.alignments().get(i),
              Integer.BYTES,
              context);
        }
        found =
            lt.algoGetHeuristic(
                handle,
                desc,
                aLayout,
                bLayout,
                cLayout,
                dLayout,
                preference,
                ALGORITHMS_ASKED,
                results,
                context);
      } finally {
        destroyLogged(
            CublasLtEntry.MATMUL_PREFERENCE_DESTROY, preference, "a preference of " + context);
      }
      int state = found > 0 ? results.get(ValueLayout.JAVA_INT, CublasLtAbi.RESULT_STATE) : -1;
      if (found <= 0 || state != CublasLtStatus.SUCCESS) {
        throw CublasLtErrors.failure(
            CublasLtEntry.MATMUL_ALGO_GET_HEURISTIC,
            found <= 0 ? CublasLtStatus.NOT_SUPPORTED : state,
            null,
            "the heuristic found no algorithm",
            context + " with at most " + workspaceLimit + " bytes of workspace");
      }
      long workspaceBytes = results.get(ValueLayout.JAVA_LONG, CublasLtAbi.RESULT_WORKSPACE_SIZE);
      float waves = results.get(ValueLayout.JAVA_FLOAT, CublasLtAbi.RESULT_WAVES_COUNT);
      MemorySegment algo = arena.allocate(CublasLtAbi.ALGO);
      algo.copyFrom(results.asSlice(0, CublasLtAbi.ALGO.byteSize()));
      MemorySegment scalars = arena.allocate(16, 8);
      scalars.set(ValueLayout.JAVA_FLOAT, 0, matmul.alpha());
      scalars.set(ValueLayout.JAVA_FLOAT, 4, matmul.beta());
      return new LtPlan(
          this,
          matmul,
          spec,
          context,
          workspaceLimit,
          workspaceBytes,
          describeAlgorithm(algo, waves, workspaceBytes),
          arena,
          desc,
          aLayout,
          bLayout,
          cLayout,
          dLayout,
          created,
          scalars.asSlice(0, 4),
          scalars.asSlice(4, 4),
          scalars.asSlice(8, 8),
          algo);
    } catch (RuntimeException e) {
      created.destroyAll(lt, e);
      arena.close();
      throw e;
    }
  }

  private long layout(LtMatmulSpec.Layout l, Created created, String context) {
    String what = context + ", layout of " + l.role();
    long layout = lt.matrixLayoutCreate(l.type(), l.rows(), l.cols(), l.ld(), what);
    created.add(CublasLtEntry.MATRIX_LAYOUT_DESTROY, layout);
    for (LtMatmulSpec.Attribute at : l.attributes()) {
      lt.setAttribute(
          CublasLtEntry.MATRIX_LAYOUT_SET_ATTRIBUTE, layout, at.id(), at.value(), at.size(), what);
    }
    return layout;
  }

  /**
   * {@return the algorithm in a few words}; only its workspace and waves if cuBLASLt says no more
   */
  private String describeAlgorithm(MemorySegment algo, float waves, long workspaceBytes) {
    String config;
    try {
      config =
          "cuBLASLt algo "
              + lt.algoConfigInt(algo, CublasLtAbi.ALGO_CONFIG_ID)
              + " (tile "
              + lt.algoConfigInt(algo, CublasLtAbi.ALGO_CONFIG_TILE_ID)
              + ", stages "
              + lt.algoConfigInt(algo, CublasLtAbi.ALGO_CONFIG_STAGES_ID)
              + ", split-k "
              + lt.algoConfigInt(algo, CublasLtAbi.ALGO_CONFIG_SPLITK_NUM)
              + ")";
    } catch (BlasException e) {
      config = "cuBLASLt's heuristic's first algorithm";
    }
    return config
        + ", "
        + String.format(Locale.ROOT, "%.2f", waves)
        + " waves, "
        + workspaceBytes
        + " bytes of workspace";
  }

  /**
   * Runs {@code call} with {@code device}'s context current on this thread, as cuBLASLt takes the
   * device from the calling thread: inside an op on a stream of the device, or directly when the
   * thread is already executing an op (whose device is then the one current). When the op fails
   * after {@code call} returned, {@code undo} destroys what it made.
   */
  private static <R> R onDevice(Device device, Supplier<R> call, Consumer<R> undo) {
    if (DeviceOp.isExecuting()) {
      return call.get();
    }
    // The op can fail after the call made its object (the driver calls that end the op), and then
    // nobody else holds the object: it is undone here, the op's failure thrown.
    AtomicReference<@Nullable R> made = new AtomicReference<>();
    try (Stream stream = device.newStream()) {
      return DeviceOp.withRawStream(
              (s, d) -> {
                R r = call.get();
                made.set(r);
                return r;
              })
          .syncOn(stream);
    } catch (RuntimeException e) {
      @Nullable R r = made.get();
      if (r != null) {
        try {
          undo.accept(r);
        } catch (RuntimeException undone) {
          e.addSuppressed(undone);
        }
      }
      throw e;
    }
  }

  /** What a plan is cached by. */
  private record PlanKey(CheckedMatmul matmul, long workspaceLimit) {}

  /** The native objects a plan made, in order, to destroy in reverse. */
  static final class Created {
    private final List<CublasLtEntry> destroys = new ArrayList<>();
    private final List<Long> objects = new ArrayList<>();

    void add(CublasLtEntry destroy, long object) {
      destroys.add(destroy);
      objects.add(object);
    }

    /** Destroys them in reverse, adding failures to {@code failure}. */
    void destroyAll(CublasLtLibrary lt, RuntimeException failure) {
      for (int i = destroys.size() - 1; i >= 0; i--) {
        try {
          lt.destroy(destroys.get(i), objects.get(i));
        } catch (RuntimeException e) {
          failure.addSuppressed(e);
        }
      }
      destroys.clear();
      objects.clear();
    }

    /** Destroys them in reverse, logging failures. */
    void destroyAllLogged(CublasLtLibrary lt, String what) {
      for (int i = destroys.size() - 1; i >= 0; i--) {
        try {
          lt.destroy(destroys.get(i), objects.get(i));
        } catch (RuntimeException e) {
          LOG.log(System.Logger.Level.WARNING, "destroying a descriptor of " + what + " failed", e);
        }
      }
      destroys.clear();
      objects.clear();
    }
  }

  /** One product planned: what cuBLASLt needs to run it, made once. */
  static final class LtPlan implements MatmulPlan {
    final CublasLtBackend owner;
    final CheckedMatmul matmul;
    final LtMatmulSpec spec;
    final String context;
    final long workspaceLimit;
    final long workspaceBytes;
    final String algorithm;
    private final Arena arena;
    private final long desc;
    private final long aLayout;
    private final long bLayout;
    private final long cLayout;
    private final long dLayout;
    private final Created created;
    private final MemorySegment alpha;
    private final MemorySegment beta;
    private final MemorySegment biasSlot;
    private final MemorySegment algo;
    private final Object lock = new Object();
    private boolean destroyed;

    LtPlan(
        CublasLtBackend owner,
        CheckedMatmul matmul,
        LtMatmulSpec spec,
        String context,
        long workspaceLimit,
        long workspaceBytes,
        String algorithm,
        Arena arena,
        long desc,
        long aLayout,
        long bLayout,
        long cLayout,
        long dLayout,
        Created created,
        MemorySegment alpha,
        MemorySegment beta,
        MemorySegment biasSlot,
        MemorySegment algo) {
      this.owner = owner;
      this.matmul = matmul;
      this.spec = spec;
      this.context = context;
      this.workspaceLimit = workspaceLimit;
      this.workspaceBytes = workspaceBytes;
      this.algorithm = algorithm;
      this.arena = arena;
      this.desc = desc;
      this.aLayout = aLayout;
      this.bLayout = bLayout;
      this.cLayout = cLayout;
      this.dLayout = dLayout;
      this.created = created;
      this.alpha = alpha;
      this.beta = beta;
      this.biasSlot = biasSlot;
      this.algo = algo;
    }

    @Override
    public CheckedMatmul matmul() {
      return matmul;
    }

    @Override
    public long workspaceBytes() {
      return workspaceBytes;
    }

    @Override
    public String algorithm() {
      return algorithm;
    }

    /** Enqueues the product over these addresses; C's is D's when the product has no C. */
    void launch(
        long a,
        long b,
        long c,
        long d,
        long bias,
        long workspace,
        long workspaceSize,
        long stream) {
      CublasLtLibrary lt = owner.lt;
      synchronized (lock) {
        if (destroyed) {
          throw new IllegalStateException("the plan for " + context + " was destroyed");
        }
        if (spec.biasData()) {
          biasSlot.set(ValueLayout.JAVA_LONG, 0, bias);
          lt.setAttribute(
              CublasLtEntry.MATMUL_DESC_SET_ATTRIBUTE,
              desc,
              CublasLtAbi.DESC_BIAS_POINTER,
              biasSlot,
              Long.BYTES,
              context);
        }
        long first = spec.swapped() ? b : a;
        long second = spec.swapped() ? a : b;
        lt.matmul(
            owner.handle,
            desc,
            alpha,
            first,
            aLayout,
            second,
            bLayout,
            beta,
            c,
            cLayout,
            d,
            dLayout,
            algo,
            workspace,
            workspaceSize,
            stream,
            context);
      }
    }

    /** Destroys the descriptors and frees the native memory, once. */
    void destroy() {
      synchronized (lock) {
        if (destroyed) {
          return;
        }
        destroyed = true;
        created.destroyAllLogged(owner.lt, context);
        arena.close();
      }
    }

    @Override
    public String toString() {
      return "cuBLASLt plan for " + context + ": " + algorithm;
    }
  }
}
