package cuda.graph.simulator;

import cuda.graph.spi.CuHandle;
import cuda.graph.spi.HandleKind;
import java.util.List;
import java.util.Map;

/**
 * Live-handle accounting: every handle a simulator hands out is counted when created and when
 * destroyed. Destroying a handle twice, or using a destroyed one, throws {@link
 * UndefinedBehaviorException} instead of being counted, so "no leaks, destroyed exactly once" is
 * {@code live(kind) == 0} at the end of a test plus the absence of that exception.
 *
 * <p>Contexts count retains; device memory counts {@code cuMemAlloc_v2}/{@code cuMemAllocAsync}
 * allocations (not graph-owned allocations); functions are counted live until their module is
 * unloaded (created at load); graph nodes are not counted. Thread-safe; counts are a consistent
 * snapshot only while no other thread calls the driver.
 */
public interface HandleLedger {

  /** {@return how many handles of a kind were created} */
  long created(HandleKind kind);

  /** {@return how many handles of a kind were destroyed} */
  long destroyed(HandleKind kind);

  /** {@return how many handles of a kind are alive: created minus destroyed} */
  default long live(HandleKind kind) {
    return created(kind) - destroyed(kind);
  }

  /** {@return the live count of every kind that has a live handle} */
  Map<HandleKind, Long> liveCounts();

  /** {@return the live handles of a kind (memory kinds are not listed here)} */
  List<CuHandle> liveHandles(HandleKind kind);
}
