// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.GraphCaptureException;
import cuda.graph.HostBuffer;
import cuda.graph.spi.CuStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One execution of an op tree on one stream: what the executor needs (driver, device, stream) and
 * what must outlive the submitted work. Every buffer the work uses is leased here and released only
 * after the work completed (after the synchronize of {@code syncOn}, when a future completes, or
 * when a captured graph is closed), which is what keeps memory from being freed under queued work.
 * Confined to the executing thread until it is finished.
 */
public final class Execution {

  public final CudaPlatformImpl platform;
  public final TranslatingDriver driver;
  public final DeviceImpl device;
  public final StreamImpl stream;
  public final CuStream cuStream;

  /**
   * The capture this execution records into, or null when it runs eagerly: compared by identity
   * (two captures are never the same one, however alike their descriptions), described by its
   * {@code toString()}, which is built only when a message needs it.
   */
  public final @Nullable Object capturing;

  /**
   * The capture whose graph conditions the kernels of this execution may set: {@link #capturing};
   * for the execution that gives a recorded node a replacement, the capture that recorded the node
   * (the replacement takes the node's place in that capture's graph); null for eager work.
   */
  public final @Nullable Object conditionsOf;

  /** The first lease, and the others: most executions hold one or none, so no array for them. */
  private @Nullable RefCount firstLease;

  private RefCount @Nullable [] moreLeases;
  private int leaseCount;

  /**
   * The execution this one is a branch of (a parallel branch, a conditional body), or this one: the
   * one that holds the auxiliary lanes a capture borrowed.
   */
  public final Execution root;

  public Execution(StreamImpl stream, @Nullable Object capturing) {
    this(stream, capturing, capturing, null);
  }

  private Execution(
      StreamImpl stream,
      @Nullable Object capturing,
      @Nullable Object conditionsOf,
      @Nullable Execution root) {
    this.stream = stream;
    this.device = stream.device();
    this.platform = device.platform();
    this.driver = platform.driver();
    this.cuStream = stream.handle();
    this.capturing = capturing;
    this.conditionsOf = conditionsOf;
    this.root = root == null ? this : root;
  }

  /**
   * {@return an eager execution on {@code stream} that prepares a replacement for a node recorded
   * by {@code capture}}: its kernels may set that capture's graph conditions
   */
  public static Execution replacingANodeOf(StreamImpl stream, Object capture) {
    return new Execution(stream, null, capture, null);
  }

  /**
   * {@return an execution of part of this one's work on {@code branchStream}} (of the same device):
   * it captures when this one does, and {@link #adopt} gives its leases back to this one.
   */
  public Execution branch(StreamImpl branchStream) {
    return new Execution(branchStream, capturing, conditionsOf, root);
  }

  /** Auxiliary lanes this capture borrowed: they go back once it has ended (root only). */
  private @Nullable List<AuxLanes.Lane> capturedLanes;

  /** {@return an auxiliary lane of this execution's device, for a branch or a body} */
  public AuxLanes.Lane borrowLane() {
    return device.auxLanes().borrow();
  }

  /**
   * Gives back a lane whose work is joined into this execution's stream: at once when executing
   * eagerly; when capturing, only after the capture has ended ({@link #endCapture}), since until
   * then whatever is enqueued on it would be captured too.
   */
  public void lendBack(AuxLanes.Lane lane) {
    if (capturing == null) {
      device.auxLanes().giveBack(lane);
      return;
    }
    List<AuxLanes.Lane> lanes = root.capturedLanes;
    if (lanes == null) {
      lanes = new ArrayList<>(2);
      root.capturedLanes = lanes;
    }
    lanes.add(lane);
  }

  /** Temporaries this capture allocated, in order (root only). */
  private @Nullable List<GraphTemporary> temporaries;

  /**
   * {@return a new temporary of this execution's capture at {@code address}}, a graph allocation of
   * {@code bytes} just recorded; the capture's end makes it unusable
   */
  GraphTemporary newTemporary(long address, long bytes) {
    Object capture = capturing;
    if (capture == null) {
      throw new IllegalStateException("a temporary is allocated only in a capture");
    }
    List<GraphTemporary> list = root.temporaries;
    if (list == null) {
      list = new ArrayList<>(2);
      root.temporaries = list;
    }
    GraphTemporary temporary = new GraphTemporary(capture, address, bytes, list.size() + 1);
    list.add(temporary);
    return temporary;
  }

  /** {@return the addresses of the temporaries this capture allocated, in order} */
  public long[] temporaryAddresses() {
    List<GraphTemporary> list = root.temporaries;
    if (list == null) {
      return new long[0];
    }
    long[] addresses = new long[list.size()];
    for (int i = 0; i < addresses.length; i++) {
      addresses[i] = list.get(i).address;
    }
    return addresses;
  }

  /** {@return the bytes the temporaries this capture allocated take, as requested} */
  public long temporaryBytes() {
    List<GraphTemporary> list = root.temporaries;
    long total = 0;
    if (list != null) {
      for (GraphTemporary temporary : list) {
        total += temporary.bytes;
      }
    }
    return total;
  }

  /**
   * The capture this execution recorded has ended: its lanes are free for other work, and its
   * temporaries can no longer be used.
   */
  public void endCapture() {
    List<GraphTemporary> made = temporaries;
    if (made != null) {
      made.forEach(GraphTemporary::end);
    }
    List<AuxLanes.Lane> lanes = capturedLanes;
    capturedLanes = null;
    if (lanes != null) {
      for (AuxLanes.Lane lane : lanes) {
        device.auxLanes().giveBack(lane);
      }
    }
  }

  /** Takes over the leases of {@code branch}, so they last as long as this execution's. */
  public void adopt(Execution branch) {
    for (RefCount lease : branch.transferLeases()) {
      hold(lease);
    }
  }

  /** {@return how many leases this execution holds}: with {@link #leasesFrom}, a node's share */
  public int leaseCount() {
    return leaseCount;
  }

  /**
   * Hands the leases taken since this execution held {@code from} of them to a new owner (a graph
   * node that can be replaced); this execution no longer holds them.
   */
  public List<RefCount> leasesFrom(int from) {
    List<RefCount> taken = new ArrayList<>(leaseCount - from);
    for (int i = from; i < leaseCount; i++) {
      taken.add(take(i));
    }
    leaseCount = from;
    return taken;
  }

  public boolean isCapturing() {
    return capturing != null;
  }

  /** Fails when the op cannot be recorded into a graph (it allocates, frees or stages memory). */
  public void requireNotCapturing(String what) {
    if (capturing != null) {
      throw new GraphCaptureException(
          what
              + " cannot run inside a graph capture ("
              + capturing
              + "): a graph replays fixed addresses and recorded copies, so allocate, free and"
              + " stage memory before capturing and record only GraphNodes",
          null);
    }
  }

  /** Fails unless {@code owner} lives on this execution's device (of this platform). */
  public void requireSameDevice(Device owner, Object what) {
    if (owner != device) {
      requireSamePlatform(owner, what);
      throw new IllegalArgumentException(
          what
              + " belongs to device "
              + owner.ordinal()
              + " but the op executes on "
              + stream
              + "; use it on a stream of its own device");
    }
  }

  /**
   * Fails unless {@code owner} belongs to this execution's platform: a handle of another platform
   * means nothing to this platform's driver, even on the same device ordinal.
   */
  public void requireSamePlatform(Device owner, Object what) {
    if (owner.platform() != platform) {
      throw new IllegalArgumentException(
          what
              + " belongs to another platform than "
              + stream
              + ", on which the op executes: each CudaPlatform has its own driver, memory and"
              + " handles, even on the same device; use it only on streams of its own platform, or"
              + " make it with this stream's platform");
    }
  }

  /**
   * Leases a device buffer for this execution, after checking it lives on this execution's device;
   * a temporary is not leased, only checked to be one of this execution's capture.
   */
  public long use(DeviceBuffer<?> buffer) {
    DeviceBufferImpl<?> impl = DeviceBufferImpl.of(buffer);
    GraphTemporary temporary = impl.temporary();
    if (temporary != null) {
      // The graph owns the memory: checked to be this capture's, and not leased.
      temporary.requireUsableIn(this, buffer);
      return impl.address();
    }
    if (buffer.device() != device) {
      requireSamePlatform(buffer.device(), buffer);
      throw new IllegalArgumentException(
          buffer
              + " lives on device "
              + buffer.device().ordinal()
              + " but the op executes on "
              + stream
              + "; copy it to this device first or execute on a stream of its device");
    }
    RefCount lifetime = impl.lifetime();
    if (!lifetime.tryAcquire()) {
      impl.requireOpen(); // closed: names the buffer that was (a slice's, a mapped view's owner)
      lifetime.acquire(buffer);
    }
    hold(lifetime);
    ExclusiveUse exclusive = lifetime.exclusive();
    if (exclusive != null && capturing == null && conditionsOf == null) {
      orderExclusive(exclusive);
    }
    return impl.address();
  }

  /**
   * The exclusive buffers this eager execution used, each with the stream of its last use here
   * (root only); while it is not null, the root holds their device's lock.
   */
  private java.util.@Nullable IdentityHashMap<ExclusiveUse, StreamImpl> exclusives;

  /**
   * Orders this eager use of an exclusive buffer: the first time this execution uses it, after the
   * last use enqueued by any other execution or launch on another stream (holding the device's lock
   * from then until {@link #enqueued}); later, after what another lane of this execution enqueued
   * with it so far. Captures and node replacements do not order: the graph's launches do.
   */
  private void orderExclusive(ExclusiveUse x) {
    Execution r = root;
    var used = r.exclusives;
    if (used == null) {
      x.lock().lock();
      used = new java.util.IdentityHashMap<>(2);
      r.exclusives = used;
    }
    StreamImpl before = used.put(x, stream);
    if (before == null) {
      x.orderAfterLastUse(driver, stream);
    } else if (before != stream) {
      x.usedOn(driver, before); // what that lane enqueued so far
      x.orderAfterLastUse(driver, stream);
    }
  }

  /**
   * This eager execution's work is enqueued (or its op failed part way): records the last use of
   * each exclusive buffer it used on its stream, where every lane it borrowed has joined, and lets
   * other executions order after it. Call once on the root, on the enqueuing thread, on every path.
   */
  public void enqueued() {
    var used = exclusives;
    if (used == null) {
      return;
    }
    exclusives = null;
    java.util.concurrent.locks.ReentrantLock lock = used.keySet().iterator().next().lock();
    try {
      for (ExclusiveUse x : used.keySet()) {
        x.usedOn(driver, stream);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Leases a pinned host buffer for this execution, after checking it is of this platform. */
  public void use(HostBuffer<?> buffer) {
    requireSamePlatform(buffer.device(), buffer);
    RefCount lifetime = HostBufferImpl.of(buffer).lifetime();
    lifetime.acquire(buffer);
    hold(lifetime);
  }

  /** Keeps a reference the caller already acquired until this execution's work is done. */
  public void hold(RefCount lease) {
    if (leaseCount == 0) {
      firstLease = lease;
      leaseCount = 1;
      return;
    }
    RefCount[] more = moreLeases;
    int i = leaseCount - 1;
    if (more == null) {
      more = new RefCount[8];
      moreLeases = more;
    } else if (i == more.length) {
      more = Arrays.copyOf(more, i * 2);
      moreLeases = more;
    }
    more[i] = lease;
    leaseCount++;
  }

  /** Takes the lease at {@code i} out of this execution. */
  private RefCount take(int i) {
    RefCount lease;
    if (i == 0) {
      lease = firstLease;
      firstLease = null;
    } else {
      RefCount[] more = moreLeases;
      lease = more[i - 1];
      more[i - 1] = null;
    }
    return lease;
  }

  /** Hands the leases to a new owner (a captured graph); this execution no longer holds them. */
  public List<RefCount> transferLeases() {
    List<RefCount> taken = new ArrayList<>(leaseCount);
    for (int i = 0; i < leaseCount; i++) {
      taken.add(take(i));
    }
    leaseCount = 0;
    return taken;
  }

  /**
   * Called once the work is done (or known failed): releases every lease, once; if a release
   * throws, the others are still released and the first failure is thrown.
   */
  public void finish() {
    int count = leaseCount;
    leaseCount = 0;
    RuntimeException failure = null;
    for (int i = 0; i < count; i++) {
      try {
        take(i).release();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
