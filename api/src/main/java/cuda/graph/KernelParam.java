// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The declared type of one kernel parameter: a scalar passed by value, or a pointer passed as a
 * {@link DeviceBuffer} (optionally of one element type). Launches are checked against the
 * declaration when they are built, before any driver call.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class KernelParam {

  /** An 8-bit integer, passed as {@code Byte}. */
  public static final KernelParam I8 = new KernelParam("i8", 1, Byte.class, null);

  /** A 16-bit integer (or raw half), passed as {@code Short}. */
  public static final KernelParam I16 = new KernelParam("i16", 2, Short.class, null);

  /** A 32-bit integer, passed as {@code Integer}. */
  public static final KernelParam I32 = new KernelParam("i32", 4, Integer.class, null);

  /** A 64-bit integer, passed as {@code Long}. */
  public static final KernelParam I64 = new KernelParam("i64", 8, Long.class, null);

  /** A float, passed as {@code Float}. */
  public static final KernelParam F32 = new KernelParam("f32", 4, Float.class, null);

  /** A double, passed as {@code Double}. */
  public static final KernelParam F64 = new KernelParam("f64", 8, Double.class, null);

  /** A pointer to device memory of any element type, passed as a {@link DeviceBuffer}. */
  public static final KernelParam POINTER = new KernelParam("ptr", 8, DeviceBuffer.class, null);

  /**
   * A conditional node's condition ({@code cudaGraphConditionalHandle}, 64 bits), passed as the
   * {@link GraphCondition} a {@link Scope} created; the kernel sets it with {@code
   * cudaGraphSetConditional} (in Java: {@link KernelCall#setCondition}).
   */
  public static final KernelParam CONDITION =
      new KernelParam("condition", 8, GraphCondition.class, null);

  private final String name;
  private final int size;
  private final Class<?> javaType;
  private final @Nullable ElementType<?> elementType;

  private KernelParam(
      String name, int size, Class<?> javaType, @Nullable ElementType<?> elementType) {
    this.name = name;
    this.size = size;
    this.javaType = javaType;
    this.elementType = elementType;
  }

  /**
   * {@return a pointer parameter that accepts only buffers of {@code type}}
   *
   * @param type the element type an argument buffer must hold
   */
  public static KernelParam pointer(ElementType<?> type) {
    Objects.requireNonNull(type, "type");
    return new KernelParam(type + "*", 8, DeviceBuffer.class, type);
  }

  /** {@return the size of the parameter's value in the argument block, in bytes} */
  public int size() {
    return size;
  }

  /** {@return whether the parameter is a device pointer} */
  public boolean isPointer() {
    return javaType == DeviceBuffer.class;
  }

  /**
   * {@return the element type a pointer parameter requires, or null for scalars and untyped
   * pointers}
   */
  public @Nullable ElementType<?> elementType() {
    return elementType;
  }

  /**
   * {@return whether {@code argument} can be passed for this parameter}: a boxed scalar of the
   * parameter's Java type, or a {@link DeviceBuffer} (of the required element type, if any)
   *
   * @param argument a launch argument; null is never accepted
   */
  public boolean accepts(@Nullable Object argument) {
    return javaType.isInstance(argument)
        && (elementType == null || ((DeviceBuffer<?>) argument).elementType() == elementType);
  }

  @Override
  public String toString() {
    return name;
  }
}
