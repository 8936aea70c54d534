package cuda.graph.simulator.internal;

import cuda.graph.spi.Dim3;
import cuda.graph.spi.IllegalDeviceAccessException;
import cuda.graph.spi.KernelInvocation;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** What a Java kernel sees of one launch: shape, the argument snapshot, bounds-checked memory. */
final class KernelLaunchView implements KernelInvocation {

  private final Op.Kernel launch;
  private final MemorySegment arguments;
  private final DeviceMemory memory;

  KernelLaunchView(Op.Kernel launch, DeviceMemory memory) {
    this.launch = launch;
    this.arguments = MemorySegment.ofArray(launch.arguments());
    this.memory = memory;
  }

  @Override
  public Dim3 grid() {
    return launch.grid();
  }

  @Override
  public Dim3 block() {
    return launch.block();
  }

  @Override
  public int sharedMemoryBytes() {
    return launch.sharedMemBytes();
  }

  @Override
  public int argumentCount() {
    return launch.sizes().length;
  }

  private long at(int index, int size) {
    if (index < 0 || index >= launch.sizes().length) {
      throw new IllegalArgumentException(
          "kernel "
              + launch.function().name
              + " read parameter "
              + index
              + " but the launch passed "
              + launch.sizes().length);
    }
    if (launch.sizes()[index] != size) {
      throw new IllegalArgumentException(
          "kernel "
              + launch.function().name
              + " read parameter "
              + index
              + " as "
              + size
              + " bytes but the launch passed "
              + launch.sizes()[index]);
    }
    return launch.offsets()[index];
  }

  @Override
  public byte i8(int index) {
    return arguments.get(ValueLayout.JAVA_BYTE, at(index, 1));
  }

  @Override
  public short i16(int index) {
    return arguments.get(ValueLayout.JAVA_SHORT_UNALIGNED, at(index, 2));
  }

  @Override
  public int i32(int index) {
    return arguments.get(ValueLayout.JAVA_INT_UNALIGNED, at(index, 4));
  }

  @Override
  public long i64(int index) {
    return arguments.get(ValueLayout.JAVA_LONG_UNALIGNED, at(index, 8));
  }

  @Override
  public float f32(int index) {
    return arguments.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at(index, 4));
  }

  @Override
  public double f64(int index) {
    return arguments.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at(index, 8));
  }

  @Override
  public MemorySegment deviceMemory(long address, long byteSize) {
    if (byteSize < 0) {
      throw new IllegalDeviceAccessException("negative size " + byteSize);
    }
    return memory.access(address, byteSize, launch.function().module.context.device);
  }
}
