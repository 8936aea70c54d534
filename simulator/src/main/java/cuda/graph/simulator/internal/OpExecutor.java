// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.simulator.UndefinedBehaviorException;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.IllegalDeviceAccessException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Executes ops against simulated device memory. A fault (an illegal address, a kernel's Java code
 * throwing) becomes the context's sticky error, as on a GPU; nothing escapes to the engine.
 */
final class OpExecutor {

  private static final System.Logger LOG = System.getLogger("cuda.graph.simulator");

  private final DeviceMemory memory;
  private final ThreadLocal<Boolean> inHostFunction;

  OpExecutor(DeviceMemory memory, ThreadLocal<Boolean> inHostFunction) {
    this.memory = memory;
    this.inHostFunction = inHostFunction;
  }

  /** Runs a command unless its context already has a sticky error, then completes it. */
  void run(Command command) {
    SimContext context = command.stream.context;
    try {
      if (context.stickyError == 0) {
        execute(command.op, context, null);
      }
    } finally {
      command.done.complete();
    }
  }

  private void execute(Op op, SimContext context, @Nullable ConditionScope conditions) {
    execute(op, context, conditions, null, null);
  }

  /**
   * Runs one op; a kernel that is the primary of {@code primaryOf} triggers it, one that is the
   * dependent of {@code dependentOf} synchronizes on it.
   */
  private void execute(
      Op op,
      SimContext context,
      @Nullable ConditionScope conditions,
      @Nullable EarlyStart primaryOf,
      @Nullable EarlyStart dependentOf) {
    try {
      perform(op, context, conditions, primaryOf, dependentOf);
    } catch (UndefinedBehaviorException e) {
      // A GPU might corrupt memory or carry on; the simulator stops the context instead.
      context.fault(CuResult.LAUNCH_FAILED, op.describe() + ": " + e.getMessage());
    } catch (IllegalDeviceAccessException | IndexOutOfBoundsException e) {
      context.fault(CuResult.ILLEGAL_ADDRESS, op.describe() + ": " + e.getMessage());
    } catch (IllegalStateException e) {
      // A closed arena: device memory freed under a running op, or host memory freed under a copy.
      context.fault(
          CuResult.ILLEGAL_ADDRESS,
          op.describe() + ": memory was freed while in use (" + e.getMessage() + ")");
    } catch (AssertionError e) {
      context.fault(
          CuResult.ASSERT,
          op.describe()
              + ": assertion failed in the kernel's Java implementation: "
              + e.getMessage());
    } catch (RuntimeException | Error e) {
      context.fault(
          CuResult.LAUNCH_FAILED, op.describe() + ": the kernel's Java implementation threw " + e);
    }
  }

  private void perform(
      Op op,
      SimContext context,
      @Nullable ConditionScope conditions,
      @Nullable EarlyStart primaryOf,
      @Nullable EarlyStart dependentOf) {
    switch (op) {
      case Op.Kernel k -> {
        var body = k.function().body;
        if (body != null) {
          body.execute(new KernelLaunchView(k, memory, conditions, primaryOf, dependentOf));
        }
      }
      case Op.HostToDevice c ->
          MemorySegment.copy(c.src(), 0, memory.access(c.dst(), c.bytes(), null), 0, c.bytes());
      case Op.DeviceToHost c ->
          MemorySegment.copy(memory.access(c.src(), c.bytes(), null), 0, c.dst(), 0, c.bytes());
      case Op.DeviceToDevice c ->
          MemorySegment.copy(
              memory.access(c.src(), c.bytes(), null),
              0,
              memory.access(c.dst(), c.bytes(), null),
              0,
              c.bytes());
      case Op.Memset m -> memset(m);
      case Op.Host h -> runHostFunction(h);
      case Op.Empty e -> {}
      case Op.WaitEvent w -> {}
      case Op.RecordEvent r -> {}
      case Op.MemAlloc a -> a.allocation().back();
      case Op.MemFree f -> f.allocation().unback();
      case Op.Free f -> {
        f.allocation().unback();
        if (f.forget()) {
          memory.remove(f.allocation());
        }
      }
      case Op.GraphRun run -> {
        for (Allocation a : run.autoFree()) {
          a.unback();
        }
        runAll(run.ops(), context, ConditionScope.startLaunch(run.ops()));
      }
      case Op.ConditionalRun run -> runConditional(run, context, conditions);
      case Op.ChildGraph child -> runAll(child.ops(), context, conditions);
      case Op.Disabled d -> {}
      case Op.Conditional c ->
          throw new UnsupportedOperationException(
              "a graph's conditional node runs only as part of an exec: " + c.describe());
    }
  }

  /**
   * Runs ops in order (a topological order), stopping at the first sticky error. A kernel launched
   * programmatically right after a kernel starts early ({@link EarlyStart}): every op before them
   * is done, so only its order against that kernel changes, and the dependency rules allow it. In a
   * chain of such kernels each is the primary of the next, so a kernel that reads before its wait
   * is caught wherever it stands in the chain, not only at every other link.
   */
  private void runAll(List<Op> ops, SimContext context, @Nullable ConditionScope conditions) {
    for (int i = 0; i < ops.size(); i++) {
      if (context.stickyError != 0) {
        return;
      }
      int last = i;
      while (last + 1 < ops.size()
          && ops.get(last) instanceof Op.Kernel
          && ops.get(last + 1) instanceof Op.Kernel next
          && next.programmatic()) {
        last++;
      }
      if (last > i) {
        runChain(ops, i, last, context, conditions, null);
        i = last;
      } else {
        execute(ops.get(i), context, conditions);
      }
    }
  }

  /**
   * Runs the kernels {@code ops[from..to]}, each after the first launched programmatically: the
   * kernel at {@code from} is the primary of the rest of the chain, which starts at its trigger
   * (and so on down the chain), and the dependent of {@code dependentOf} where there is one. Only
   * one of the chain's threads runs at a time (see {@link EarlyStart}).
   */
  private void runChain(
      List<Op> ops,
      int from,
      int to,
      SimContext context,
      @Nullable ConditionScope conditions,
      @Nullable EarlyStart dependentOf) {
    if (from == to) {
      execute(ops.get(from), context, conditions, null, dependentOf);
      return;
    }
    EarlyStart[] link = new EarlyStart[1];
    link[0] = new EarlyStart(() -> runChain(ops, from + 1, to, context, conditions, link[0]));
    execute(ops.get(from), context, conditions, link[0], dependentOf);
    link[0].primaryFinished();
  }

  /**
   * IF runs body 0 when the condition is non-zero, else body 1 if it has one; WHILE tests before
   * the first run of its body and after each; SWITCH runs body {@code n} for condition {@code n}
   * (an unsigned value), none when {@code n} is not below the number of bodies.
   */
  private void runConditional(
      Op.ConditionalRun run, SimContext context, @Nullable ConditionScope conditions) {
    List<List<Op>> bodies = run.bodies();
    switch (run.kind()) {
      case IF -> {
        if (run.value().get() != 0) {
          runAll(bodies.get(0), context, conditions);
        } else if (bodies.size() == 2) {
          runAll(bodies.get(1), context, conditions);
        }
      }
      case WHILE -> {
        while (run.value().get() != 0 && context.stickyError == 0) {
          runAll(bodies.get(0), context, conditions);
        }
      }
      case SWITCH -> {
        int value = run.value().get();
        if (Integer.compareUnsigned(value, bodies.size()) < 0) {
          runAll(bodies.get(value), context, conditions);
        }
      }
    }
  }

  private void memset(Op.Memset m) {
    MemorySegment target = memory.access(m.dst(), m.extent(), null);
    for (long row = 0; row < m.height(); row++) {
      MemorySegment line = target.asSlice(row * m.pitch(), m.width() * m.elementSize());
      switch (m.elementSize()) {
        case 1 -> line.fill((byte) m.value());
        case 2 -> {
          for (long i = 0; i < m.width(); i++) {
            line.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, (short) m.value());
          }
        }
        default -> {
          for (long i = 0; i < m.width(); i++) {
            line.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, m.value());
          }
        }
      }
    }
  }

  private void runHostFunction(Op.Host h) {
    boolean outer = inHostFunction.get();
    inHostFunction.set(true);
    try {
      h.function().run();
    } catch (RuntimeException | Error e) {
      // Nothing can receive a host function's failure; the driver ignores it too.
      LOG.log(
          System.Logger.Level.WARNING,
          "a host function threw; the exception is dropped, as the CUDA driver drops it",
          e);
    } finally {
      inHostFunction.set(outer);
    }
  }
}
