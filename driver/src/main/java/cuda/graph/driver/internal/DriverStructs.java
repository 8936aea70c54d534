// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import cuda.graph.spi.CopyEndpoint;
import cuda.graph.spi.Dim3;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The driver structs this provider passes by pointer, laid out as {@code cuda.h} (CUDA 13.0) lays
 * them out on x86-64 Linux, and the writers that fill them.
 *
 * <p>Each layout is named like its C type and each member like its C field; padding is explicit,
 * and the FFM API rejects a member that is not aligned at its offset. {@code StructLayoutTests}
 * checks every size and offset against the table that {@code src/test/c/struct_layouts.c} prints
 * when compiled against the headers, so a layout can only pass if the C compiler agrees.
 *
 * <p>The writers fill a segment the caller zeroed (the thread's {@link Scratch#zeroedStruct()}):
 * fields they do not write are zero, which is what the driver expects of unused fields, reserved
 * bytes and NULL pointers. Pointers and handles are written as {@code long}s, which is what they
 * are on x86-64.
 */
final class DriverStructs {

  /** {@code CU_MEMORYTYPE_HOST}: a copy endpoint in host memory, read through its host pointer. */
  static final int MEMORYTYPE_HOST = 1;

  /** {@code CU_MEMORYTYPE_DEVICE}: a copy endpoint in device memory. */
  static final int MEMORYTYPE_DEVICE = 2;

  /** {@code CU_GRAPH_NODE_TYPE_CONDITIONAL}. */
  static final int NODE_TYPE_CONDITIONAL = 13;

  /** {@code CUDA_KERNEL_NODE_PARAMS_v2}, what {@code cuGraphExecKernelNodeSetParams_v2} reads. */
  static final StructLayout KERNEL_NODE_PARAMS =
      MemoryLayout.structLayout(
              JAVA_LONG.withName("func"),
              JAVA_INT.withName("gridDimX"),
              JAVA_INT.withName("gridDimY"),
              JAVA_INT.withName("gridDimZ"),
              JAVA_INT.withName("blockDimX"),
              JAVA_INT.withName("blockDimY"),
              JAVA_INT.withName("blockDimZ"),
              JAVA_INT.withName("sharedMemBytes"),
              MemoryLayout.paddingLayout(4),
              ADDRESS.withName("kernelParams"),
              ADDRESS.withName("extra"),
              JAVA_LONG.withName("kern"),
              JAVA_LONG.withName("ctx"))
          .withName("CUDA_KERNEL_NODE_PARAMS_v2");

  /** {@code CUDA_MEMCPY3D} ({@code _v2}), what {@code cuGraphExecMemcpyNodeSetParams} reads. */
  static final StructLayout MEMCPY3D =
      MemoryLayout.structLayout(
              JAVA_LONG.withName("srcXInBytes"),
              JAVA_LONG.withName("srcY"),
              JAVA_LONG.withName("srcZ"),
              JAVA_LONG.withName("srcLOD"),
              JAVA_INT.withName("srcMemoryType"),
              MemoryLayout.paddingLayout(4),
              ADDRESS.withName("srcHost"),
              JAVA_LONG.withName("srcDevice"),
              JAVA_LONG.withName("srcArray"),
              ADDRESS.withName("reserved0"),
              JAVA_LONG.withName("srcPitch"),
              JAVA_LONG.withName("srcHeight"),
              JAVA_LONG.withName("dstXInBytes"),
              JAVA_LONG.withName("dstY"),
              JAVA_LONG.withName("dstZ"),
              JAVA_LONG.withName("dstLOD"),
              JAVA_INT.withName("dstMemoryType"),
              MemoryLayout.paddingLayout(4),
              ADDRESS.withName("dstHost"),
              JAVA_LONG.withName("dstDevice"),
              JAVA_LONG.withName("dstArray"),
              ADDRESS.withName("reserved1"),
              JAVA_LONG.withName("dstPitch"),
              JAVA_LONG.withName("dstHeight"),
              JAVA_LONG.withName("WidthInBytes"),
              JAVA_LONG.withName("Height"),
              JAVA_LONG.withName("Depth"))
          .withName("CUDA_MEMCPY3D");

  /**
   * {@code CUDA_MEMSET_NODE_PARAMS} ({@code _v1}), what {@code cuGraphExecMemsetNodeSetParams}
   * reads.
   */
  static final StructLayout MEMSET_NODE_PARAMS =
      MemoryLayout.structLayout(
              JAVA_LONG.withName("dst"),
              JAVA_LONG.withName("pitch"),
              JAVA_INT.withName("value"),
              JAVA_INT.withName("elementSize"),
              JAVA_LONG.withName("width"),
              JAVA_LONG.withName("height"))
          .withName("CUDA_MEMSET_NODE_PARAMS");

  /** {@code CUDA_CONDITIONAL_NODE_PARAMS}, the conditional member of {@link #NODE_PARAMS}. */
  static final StructLayout CONDITIONAL_NODE_PARAMS =
      MemoryLayout.structLayout(
              JAVA_LONG.withName("handle"),
              JAVA_INT.withName("type"),
              JAVA_INT.withName("size"),
              ADDRESS.withName("phGraph_out"),
              JAVA_LONG.withName("ctx"))
          .withName("CUDA_CONDITIONAL_NODE_PARAMS");

  /**
   * {@code CUgraphNodeParams}, what {@code cuGraphAddNode_v2} reads (and writes {@code
   * conditional.phGraph_out} of). The C union is anonymous, so its layout has no name: a member of
   * it is named as C names it, {@code conditional}. Only the conditional member is laid out; the
   * union's size is fixed by {@code reserved1}.
   */
  static final StructLayout NODE_PARAMS =
      MemoryLayout.structLayout(
              JAVA_INT.withName("type"),
              MemoryLayout.sequenceLayout(3, JAVA_INT).withName("reserved0"),
              MemoryLayout.unionLayout(
                  MemoryLayout.sequenceLayout(29, JAVA_LONG).withName("reserved1"),
                  CONDITIONAL_NODE_PARAMS.withName("conditional")),
              JAVA_LONG.withName("reserved2"))
          .withName("CUgraphNodeParams");

  /** {@code CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION}. */
  static final int LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6;

  /**
   * {@code CUlaunchAttribute}: an attribute id and its value, a 64-byte union of which only the
   * member this provider sets is laid out.
   */
  static final StructLayout LAUNCH_ATTRIBUTE =
      MemoryLayout.structLayout(
              JAVA_INT.withName("id"),
              MemoryLayout.sequenceLayout(4, JAVA_BYTE).withName("pad"),
              MemoryLayout.unionLayout(
                      MemoryLayout.sequenceLayout(64, JAVA_BYTE).withName("pad"),
                      JAVA_INT.withName("programmaticStreamSerializationAllowed"))
                  .withByteAlignment(8)
                  .withName("value"))
          .withName("CUlaunchAttribute");

  /** {@code CUlaunchConfig}, what {@code cuLaunchKernelEx} reads. */
  static final StructLayout LAUNCH_CONFIG =
      MemoryLayout.structLayout(
              JAVA_INT.withName("gridDimX"),
              JAVA_INT.withName("gridDimY"),
              JAVA_INT.withName("gridDimZ"),
              JAVA_INT.withName("blockDimX"),
              JAVA_INT.withName("blockDimY"),
              JAVA_INT.withName("blockDimZ"),
              JAVA_INT.withName("sharedMemBytes"),
              MemoryLayout.paddingLayout(4),
              JAVA_LONG.withName("hStream"),
              ADDRESS.withName("attrs"),
              JAVA_INT.withName("numAttrs"),
              MemoryLayout.paddingLayout(4))
          .withName("CUlaunchConfig");

  /** Every layout above, for the test that checks them against the C compiler. */
  static final List<StructLayout> ALL =
      List.of(
          KERNEL_NODE_PARAMS,
          MEMCPY3D,
          MEMSET_NODE_PARAMS,
          CONDITIONAL_NODE_PARAMS,
          NODE_PARAMS,
          LAUNCH_ATTRIBUTE,
          LAUNCH_CONFIG);

  /** The largest struct: what {@link Scratch#zeroedStruct()} must hold. */
  static final long LARGEST = ALL.stream().mapToLong(MemoryLayout::byteSize).max().orElseThrow();

  // The offsets the writers use, resolved once from the layouts so that no offset is typed twice.
  private static final long KERNEL_FUNC = offset(KERNEL_NODE_PARAMS, "func");
  private static final long KERNEL_GRID_X = offset(KERNEL_NODE_PARAMS, "gridDimX");
  private static final long KERNEL_GRID_Y = offset(KERNEL_NODE_PARAMS, "gridDimY");
  private static final long KERNEL_GRID_Z = offset(KERNEL_NODE_PARAMS, "gridDimZ");
  private static final long KERNEL_BLOCK_X = offset(KERNEL_NODE_PARAMS, "blockDimX");
  private static final long KERNEL_BLOCK_Y = offset(KERNEL_NODE_PARAMS, "blockDimY");
  private static final long KERNEL_BLOCK_Z = offset(KERNEL_NODE_PARAMS, "blockDimZ");
  private static final long KERNEL_SHARED = offset(KERNEL_NODE_PARAMS, "sharedMemBytes");
  private static final long KERNEL_PARAMS = offset(KERNEL_NODE_PARAMS, "kernelParams");

  private static final long COPY_SRC_TYPE = offset(MEMCPY3D, "srcMemoryType");
  private static final long COPY_SRC_HOST = offset(MEMCPY3D, "srcHost");
  private static final long COPY_SRC_DEVICE = offset(MEMCPY3D, "srcDevice");
  private static final long COPY_SRC_PITCH = offset(MEMCPY3D, "srcPitch");
  private static final long COPY_SRC_HEIGHT = offset(MEMCPY3D, "srcHeight");
  private static final long COPY_DST_TYPE = offset(MEMCPY3D, "dstMemoryType");
  private static final long COPY_DST_HOST = offset(MEMCPY3D, "dstHost");
  private static final long COPY_DST_DEVICE = offset(MEMCPY3D, "dstDevice");
  private static final long COPY_DST_PITCH = offset(MEMCPY3D, "dstPitch");
  private static final long COPY_DST_HEIGHT = offset(MEMCPY3D, "dstHeight");
  private static final long COPY_WIDTH = offset(MEMCPY3D, "WidthInBytes");
  private static final long COPY_HEIGHT = offset(MEMCPY3D, "Height");
  private static final long COPY_DEPTH = offset(MEMCPY3D, "Depth");

  private static final long MEMSET_DST = offset(MEMSET_NODE_PARAMS, "dst");
  private static final long MEMSET_VALUE = offset(MEMSET_NODE_PARAMS, "value");
  private static final long MEMSET_ELEMENT_SIZE = offset(MEMSET_NODE_PARAMS, "elementSize");
  private static final long MEMSET_WIDTH = offset(MEMSET_NODE_PARAMS, "width");
  private static final long MEMSET_HEIGHT = offset(MEMSET_NODE_PARAMS, "height");

  private static final long NODE_TYPE = offset(NODE_PARAMS, "type");
  private static final long CONDITIONAL_HANDLE = offset(NODE_PARAMS, "conditional.handle");
  private static final long CONDITIONAL_TYPE = offset(NODE_PARAMS, "conditional.type");
  private static final long CONDITIONAL_SIZE = offset(NODE_PARAMS, "conditional.size");
  private static final long CONDITIONAL_BODIES = offset(NODE_PARAMS, "conditional.phGraph_out");
  private static final long CONDITIONAL_CTX = offset(NODE_PARAMS, "conditional.ctx");

  private DriverStructs() {}

  /**
   * Fills a {@code CUDA_KERNEL_NODE_PARAMS_v2} for a launch of {@code function}; {@code extra},
   * {@code kern} and {@code ctx} stay NULL (the driver ignores the last two when {@code func} is
   * set).
   */
  static void writeKernelNodeParams(
      MemorySegment params,
      long function,
      Dim3 grid,
      Dim3 block,
      int sharedMemBytes,
      MemorySegment kernelParams) {
    params.set(JAVA_LONG, KERNEL_FUNC, function);
    params.set(JAVA_INT, KERNEL_GRID_X, grid.x());
    params.set(JAVA_INT, KERNEL_GRID_Y, grid.y());
    params.set(JAVA_INT, KERNEL_GRID_Z, grid.z());
    params.set(JAVA_INT, KERNEL_BLOCK_X, block.x());
    params.set(JAVA_INT, KERNEL_BLOCK_Y, block.y());
    params.set(JAVA_INT, KERNEL_BLOCK_Z, block.z());
    params.set(JAVA_INT, KERNEL_SHARED, sharedMemBytes);
    params.set(JAVA_LONG, KERNEL_PARAMS, kernelParams.address());
  }

  private static final long CONFIG_GRID_X = offset(LAUNCH_CONFIG, "gridDimX");
  private static final long CONFIG_GRID_Y = offset(LAUNCH_CONFIG, "gridDimY");
  private static final long CONFIG_GRID_Z = offset(LAUNCH_CONFIG, "gridDimZ");
  private static final long CONFIG_BLOCK_X = offset(LAUNCH_CONFIG, "blockDimX");
  private static final long CONFIG_BLOCK_Y = offset(LAUNCH_CONFIG, "blockDimY");
  private static final long CONFIG_BLOCK_Z = offset(LAUNCH_CONFIG, "blockDimZ");
  private static final long CONFIG_SHARED = offset(LAUNCH_CONFIG, "sharedMemBytes");
  private static final long CONFIG_STREAM = offset(LAUNCH_CONFIG, "hStream");
  private static final long CONFIG_ATTRS = offset(LAUNCH_CONFIG, "attrs");
  private static final long CONFIG_NUM_ATTRS = offset(LAUNCH_CONFIG, "numAttrs");
  private static final long ATTRIBUTE_ID = offset(LAUNCH_ATTRIBUTE, "id");
  private static final long ATTRIBUTE_PSS =
      offset(LAUNCH_ATTRIBUTE, "value.programmaticStreamSerializationAllowed");

  /** Where in the struct area {@link #writeProgrammaticLaunch} puts the attribute. */
  static final long ATTRIBUTE_AT = 64;

  /**
   * Fills, in a zeroed struct area, a {@code CUlaunchConfig} at its start and, at {@link
   * #ATTRIBUTE_AT}, the one {@code CUlaunchAttribute} it points to: programmatic stream
   * serialization allowed.
   */
  static void writeProgrammaticLaunch(
      MemorySegment area,
      int gridX,
      int gridY,
      int gridZ,
      int blockX,
      int blockY,
      int blockZ,
      int sharedMemBytes,
      long stream) {
    area.set(JAVA_INT, CONFIG_GRID_X, gridX);
    area.set(JAVA_INT, CONFIG_GRID_Y, gridY);
    area.set(JAVA_INT, CONFIG_GRID_Z, gridZ);
    area.set(JAVA_INT, CONFIG_BLOCK_X, blockX);
    area.set(JAVA_INT, CONFIG_BLOCK_Y, blockY);
    area.set(JAVA_INT, CONFIG_BLOCK_Z, blockZ);
    area.set(JAVA_INT, CONFIG_SHARED, sharedMemBytes);
    area.set(JAVA_LONG, CONFIG_STREAM, stream);
    MemorySegment attribute = area.asSlice(ATTRIBUTE_AT, LAUNCH_ATTRIBUTE.byteSize());
    area.set(JAVA_LONG, CONFIG_ATTRS, attribute.address());
    area.set(JAVA_INT, CONFIG_NUM_ATTRS, 1);
    attribute.set(JAVA_INT, ATTRIBUTE_ID, LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION);
    attribute.set(JAVA_INT, ATTRIBUTE_PSS, 1);
  }

  /**
   * Fills a {@code CUDA_MEMCPY3D} describing a 1D copy of {@code bytes} bytes: one row of one
   * slice, each endpoint's pitch the row's width, as the runtime describes a 1D copy node.
   */
  static void writeMemcpy1D(
      MemorySegment params, CopyEndpoint destination, CopyEndpoint source, long bytes) {
    writeEndpoint(params, source, COPY_SRC_TYPE, COPY_SRC_HOST, COPY_SRC_DEVICE);
    params.set(JAVA_LONG, COPY_SRC_PITCH, bytes);
    params.set(JAVA_LONG, COPY_SRC_HEIGHT, 1L);
    writeEndpoint(params, destination, COPY_DST_TYPE, COPY_DST_HOST, COPY_DST_DEVICE);
    params.set(JAVA_LONG, COPY_DST_PITCH, bytes);
    params.set(JAVA_LONG, COPY_DST_HEIGHT, 1L);
    params.set(JAVA_LONG, COPY_WIDTH, bytes);
    params.set(JAVA_LONG, COPY_HEIGHT, 1L);
    params.set(JAVA_LONG, COPY_DEPTH, 1L);
  }

  private static void writeEndpoint(
      MemorySegment params, CopyEndpoint endpoint, long type, long host, long device) {
    switch (endpoint) {
      case CopyEndpoint.Host h -> {
        params.set(JAVA_INT, type, MEMORYTYPE_HOST);
        params.set(JAVA_LONG, host, h.memory().address());
      }
      case CopyEndpoint.Device d -> {
        params.set(JAVA_INT, type, MEMORYTYPE_DEVICE);
        params.set(JAVA_LONG, device, d.address());
      }
    }
  }

  /**
   * Fills a {@code CUDA_MEMSET_NODE_PARAMS} for a 1D fill: one row ({@code height} 1, so the pitch
   * is unused and stays 0), the value cut to its low {@code elementSize} bytes as a {@code
   * cuMemsetD8}/{@code D16} would take it.
   */
  static void writeMemset1D(
      MemorySegment params, long destination, int elementSize, int value, long count) {
    int element =
        switch (elementSize) {
          case 1 -> value & 0xFF;
          case 2 -> value & 0xFFFF;
          default -> value; // 4, or a size the driver will refuse
        };
    params.set(JAVA_LONG, MEMSET_DST, destination);
    params.set(JAVA_INT, MEMSET_VALUE, element);
    params.set(JAVA_INT, MEMSET_ELEMENT_SIZE, elementSize);
    params.set(JAVA_LONG, MEMSET_WIDTH, count);
    params.set(JAVA_LONG, MEMSET_HEIGHT, 1L);
  }

  /**
   * Fills a {@code CUgraphNodeParams} for a conditional node; the driver writes the body graphs'
   * array into it ({@link #conditionalBodies}).
   */
  static void writeConditionalNodeParams(
      MemorySegment params, long handle, int type, int size, long context) {
    params.set(JAVA_INT, NODE_TYPE, NODE_TYPE_CONDITIONAL);
    params.set(JAVA_LONG, CONDITIONAL_HANDLE, handle);
    params.set(JAVA_INT, CONDITIONAL_TYPE, type);
    params.set(JAVA_INT, CONDITIONAL_SIZE, size);
    params.set(JAVA_LONG, CONDITIONAL_CTX, context);
  }

  /**
   * {@return the address of the driver-owned {@code CUgraph} array that {@code cuGraphAddNode_v2}
   * wrote into a conditional node's parameters}, valid as long as the node
   */
  static long conditionalBodies(MemorySegment params) {
    return params.get(JAVA_LONG, CONDITIONAL_BODIES);
  }

  /**
   * {@return the byte offset of a field, by its C name}; members of an anonymous union are found as
   * C finds them, and a dotted name ({@code conditional.handle}) goes into a member struct
   *
   * @throws IllegalArgumentException when the layout has no such field
   */
  static long offset(GroupLayout layout, String field) {
    return layout.byteOffset(path(layout, field).toArray(PathElement[]::new));
  }

  /**
   * {@return the layout of a field, by its C name}
   *
   * @throws IllegalArgumentException when the layout has no such field
   */
  static MemoryLayout field(GroupLayout layout, String field) {
    return layout.select(path(layout, field).toArray(PathElement[]::new));
  }

  private static List<PathElement> path(GroupLayout layout, String field) {
    List<PathElement> path = new ArrayList<>();
    GroupLayout group = layout;
    String[] names = field.split("\\.");
    for (int i = 0; i < names.length; i++) {
      MemoryLayout member = find(group, names[i], path);
      if (member == null) {
        throw new IllegalArgumentException(layout.name().orElse("?") + " has no field " + field);
      }
      if (i < names.length - 1) {
        if (!(member instanceof GroupLayout inner)) {
          throw new IllegalArgumentException(names[i] + " of " + field + " is not a struct");
        }
        group = inner;
      }
    }
    return path;
  }

  /** Finds a named member, looking into unnamed unions and structs as C does; extends the path. */
  private static @Nullable MemoryLayout find(
      GroupLayout group, String name, List<PathElement> path) {
    for (MemoryLayout member : group.memberLayouts()) {
      if (member.name().filter(name::equals).isPresent()) {
        path.add(PathElement.groupElement(name));
        return member;
      }
    }
    List<MemoryLayout> members = group.memberLayouts();
    for (int i = 0; i < members.size(); i++) {
      if (members.get(i) instanceof GroupLayout anonymous && anonymous.name().isEmpty()) {
        path.add(PathElement.groupElement(i));
        MemoryLayout found = find(anonymous, name, path);
        if (found != null) {
          return found;
        }
        path.removeLast();
      }
    }
    return null;
  }
}
