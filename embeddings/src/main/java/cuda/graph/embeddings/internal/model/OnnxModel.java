// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import cuda.graph.embeddings.internal.onnx.OnnxIr;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The initializers, constants and nodes of an ONNX model, parsed by protobuf-java with the classes
 * generated from {@code src/main/proto/onnx_model.proto}.
 *
 * <p>A constant is an initializer or the output of a {@code Constant} node (its {@code value}
 * tensor): exporters put scalars and small shapes in such nodes, and bge-small's export its
 * position ids too. Tensors are decoded on request: FLOAT tensors as {@code float[]} (from {@code
 * raw_data}, which ONNX stores little-endian, or from {@code float_data}), INT64 tensors as {@code
 * long[]}, INT8 and UINT8 tensors (the weights of ONNX Runtime's quantized models) as {@code int[]}
 * of their values. Any other data type, and data kept in an external file, is refused with the
 * tensor's name.
 */
public final class OnnxModel {

  /** ONNX's TensorProto.DataType number of FLOAT, which {@link #floats} decodes. */
  public static final int FLOAT = 1;

  /** UINT8's number, which {@link #integers} decodes. */
  public static final int UINT8 = 2;

  /** INT8's number, which {@link #integers} decodes. */
  public static final int INT8 = 3;

  /** INT64's number, which {@link #int64s} decodes. */
  public static final int INT64 = 7;

  private static final String[] DATA_TYPES = {
    "UNDEFINED",
    "FLOAT",
    "UINT8",
    "INT8",
    "UINT16",
    "INT16",
    "INT32",
    "INT64",
    "STRING",
    "BOOL",
    "FLOAT16",
    "DOUBLE",
    "UINT32",
    "UINT64",
    "COMPLEX64",
    "COMPLEX128",
    "BFLOAT16"
  };

  /**
   * A FLOAT constant.
   *
   * @param name its name
   * @param shape its dimensions
   * @param data its elements in row-major order
   */
  public record FloatTensor(String name, int[] shape, float[] data) {

    /** {@return the shape as a list, for messages and comparisons} */
    public List<Integer> dims() {
      return Arrays.stream(shape).boxed().toList();
    }
  }

  /**
   * An INT8 or UINT8 constant.
   *
   * @param name its name
   * @param shape its dimensions
   * @param data its values in row-major order, each as an int
   */
  public record IntTensor(String name, int[] shape, int[] data) {}

  /**
   * A node of the graph.
   *
   * @param opType what it computes ({@code MatMul}, {@code Gather}, ...)
   * @param name its name, the exporter's module scope and operator
   * @param inputs the values it reads
   * @param outputs the values it writes
   */
  public record Node(String opType, String name, List<String> inputs, List<String> outputs) {}

  private final Map<String, OnnxIr.Tensor> initializers;

  /** The initializers and the {@code Constant} nodes' values, by the name the graph reads. */
  private final Map<String, OnnxIr.Tensor> constants;

  private final List<Node> nodes;

  private OnnxModel(
      Map<String, OnnxIr.Tensor> initializers,
      Map<String, OnnxIr.Tensor> constants,
      List<Node> nodes) {
    this.initializers = initializers;
    this.constants = constants;
    this.nodes = nodes;
  }

  /**
   * {@return the model of {@code model}'s bytes, parsed}
   *
   * @param model the bytes of an .onnx file
   * @throws IllegalArgumentException if the bytes are not an ONNX model with a graph
   */
  public static OnnxModel parse(byte[] model) {
    OnnxIr.Model parsed;
    try {
      parsed = OnnxIr.Model.parseFrom(model);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "OnnxModel.parse: the " + model.length + " bytes are not an ONNX model", e);
    }
    if (!parsed.hasGraph()) {
      throw new IllegalArgumentException("OnnxModel.parse: the ONNX model has no graph");
    }
    Map<String, OnnxIr.Tensor> initializers = new LinkedHashMap<>();
    for (OnnxIr.Tensor t : parsed.getGraph().getInitializerList()) {
      if (initializers.put(t.getName(), t) != null) {
        throw new IllegalArgumentException(
            "OnnxModel.parse: the model has two initializers named " + t.getName());
      }
    }
    Map<String, OnnxIr.Tensor> constants = new LinkedHashMap<>(initializers);
    for (OnnxIr.Node n : parsed.getGraph().getNodeList()) {
      if (n.getOpType().equals("Constant") && n.getOutputCount() == 1) {
        n.getAttributeList().stream()
            .filter(a -> a.getName().equals("value") && a.hasT())
            .findFirst()
            .ifPresent(
                a ->
                    constants.put(
                        n.getOutput(0), a.getT().toBuilder().setName(n.getOutput(0)).build()));
      }
    }
    List<Node> nodes =
        parsed.getGraph().getNodeList().stream()
            .map(
                n ->
                    new Node(
                        n.getOpType(),
                        n.getName(),
                        List.copyOf(n.getInputList()),
                        List.copyOf(n.getOutputList())))
            .toList();
    return new OnnxModel(
        Collections.unmodifiableMap(initializers), Collections.unmodifiableMap(constants), nodes);
  }

  /** {@return the initializers' names, in the model's order} */
  public Set<String> names() {
    return initializers.keySet();
  }

  /**
   * {@return whether {@code name} is an initializer (rather than a graph input or a node's output)}
   *
   * @param name a value of the graph
   */
  public boolean isInitializer(String name) {
    return initializers.containsKey(name);
  }

  /**
   * {@return whether {@code name} is a constant: an initializer, or the output of a {@code
   * Constant} node}
   *
   * @param name a value of the graph
   */
  public boolean isConstant(String name) {
    return constants.containsKey(name);
  }

  /** {@return the graph's nodes, in the model's (topological) order} */
  public List<Node> nodes() {
    return nodes;
  }

  /**
   * {@return the shape of constant {@code name}}
   *
   * @param name a value of the graph
   */
  public int[] shape(String name) {
    return shape(tensor(name, "shape"));
  }

  /**
   * {@return the data type name (FLOAT, INT64, ...) of constant {@code name}}
   *
   * @param name a value of the graph
   */
  public String dataType(String name) {
    return dataTypeName(tensor(name, "dataType").getDataType());
  }

  /**
   * {@return FLOAT constant {@code name}, decoded}
   *
   * @param name a value of the graph
   */
  public FloatTensor floats(String name) {
    OnnxIr.Tensor t = checked(name, "floats", FLOAT);
    int[] shape = shape(t);
    int count = elements(t, shape);
    float[] data = new float[count];
    if (t.hasRawData()) {
      rawData(t, count, Float.BYTES).asFloatBuffer().get(data);
    } else if (t.getFloatDataCount() == count) {
      for (int i = 0; i < count; i++) {
        data[i] = t.getFloatData(i);
      }
    } else {
      throw new IllegalArgumentException(
          "OnnxModel.floats: initializer "
              + name
              + " holds "
              + t.getFloatDataCount()
              + " values in float_data, not the "
              + count
              + " its shape "
              + Arrays.toString(shape)
              + " needs");
    }
    return new FloatTensor(name, shape, data);
  }

  /**
   * {@return INT64 constant {@code name}, decoded}
   *
   * @param name a value of the graph
   */
  public long[] int64s(String name) {
    OnnxIr.Tensor t = checked(name, "int64s", INT64);
    int count = elements(t, shape(t));
    long[] data = new long[count];
    if (t.hasRawData()) {
      rawData(t, count, Long.BYTES).asLongBuffer().get(data);
    } else if (t.getInt64DataCount() == count) {
      for (int i = 0; i < count; i++) {
        data[i] = t.getInt64Data(i);
      }
    } else {
      throw new IllegalArgumentException(
          "OnnxModel.int64s: initializer "
              + name
              + " holds "
              + t.getInt64DataCount()
              + " values in int64_data, not the "
              + count
              + " its shape needs");
    }
    return data;
  }

  /**
   * {@return INT8 or UINT8 constant {@code name}, decoded}: each value as an int (-128 to 127, or 0
   * to 255), from {@code raw_data} (a byte each) or from {@code int32_data} (an int each, as ONNX
   * stores 8-bit types outside raw data)
   *
   * @param name a value of the graph
   */
  public IntTensor integers(String name) {
    OnnxIr.Tensor t = checked(name, "integers", INT8, UINT8);
    boolean unsigned = t.getDataType() == UINT8;
    int[] shape = shape(t);
    int count = elements(t, shape);
    int[] data = new int[count];
    if (t.hasRawData()) {
      ByteBuffer raw = rawData(t, count, Byte.BYTES);
      for (int i = 0; i < count; i++) {
        byte b = raw.get(i);
        data[i] = unsigned ? Byte.toUnsignedInt(b) : b;
      }
    } else if (t.getInt32DataCount() == count) {
      for (int i = 0; i < count; i++) {
        data[i] = t.getInt32Data(i);
      }
    } else {
      throw new IllegalArgumentException(
          "OnnxModel.integers: initializer "
              + name
              + " holds "
              + t.getInt32DataCount()
              + " values in int32_data, not the "
              + count
              + " its shape "
              + Arrays.toString(shape)
              + " needs");
    }
    return new IntTensor(name, shape, data);
  }

  private OnnxIr.Tensor tensor(String name, String call) {
    OnnxIr.Tensor t = constants.get(name);
    if (t == null) {
      throw new IllegalArgumentException(
          "OnnxModel." + call + ": the model has no initializer or constant named " + name);
    }
    return t;
  }

  private OnnxIr.Tensor checked(String name, String call, int... dataTypes) {
    OnnxIr.Tensor t = tensor(name, call);
    if (t.getDataLocation() == OnnxIr.Tensor.DataLocation.EXTERNAL
        || t.getExternalDataCount() > 0) {
      String location =
          t.getExternalDataList().stream()
              .filter(e -> e.getKey().equals("location"))
              .map(OnnxIr.StringEntry::getValue)
              .findFirst()
              .orElse("an unnamed file");
      throw new UnsupportedOperationException(
          "OnnxModel."
              + call
              + ": initializer "
              + name
              + " keeps its data outside the model, in "
              + location
              + "; this reader takes models that embed their weights (export without external"
              + " data).");
    }
    if (Arrays.stream(dataTypes).noneMatch(type -> type == t.getDataType())) {
      throw new UnsupportedOperationException(
          "OnnxModel."
              + call
              + ": initializer "
              + name
              + " is "
              + dataTypeName(t.getDataType())
              + ", not "
              + String.join(
                  " or ", Arrays.stream(dataTypes).mapToObj(OnnxModel::dataTypeName).toList())
              + "; this reader decodes FLOAT, INT64, INT8 and UINT8 tensors only (fp32 models,"
              + " and ONNX Runtime's int8 quantization of them)");
    }
    return t;
  }

  private static int[] shape(OnnxIr.Tensor t) {
    int[] shape = new int[t.getDimsCount()];
    for (int d = 0; d < shape.length; d++) {
      long dim = t.getDims(d);
      if (dim < 0 || dim > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "OnnxModel: initializer " + t.getName() + " has dimension " + dim);
      }
      shape[d] = (int) dim;
    }
    return shape;
  }

  private static int elements(OnnxIr.Tensor t, int[] shape) {
    long count = 1;
    for (int dim : shape) {
      count *= dim;
    }
    if (count > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "OnnxModel: initializer " + t.getName() + " has " + count + " elements, too many");
    }
    return (int) count;
  }

  private static ByteBuffer rawData(OnnxIr.Tensor t, int count, int bytesPerElement) {
    ByteString raw = t.getRawData();
    if (raw.size() != (long) count * bytesPerElement) {
      throw new IllegalArgumentException(
          "OnnxModel: initializer "
              + t.getName()
              + " has "
              + raw.size()
              + " bytes of raw_data, not the "
              + (long) count * bytesPerElement
              + " its "
              + count
              + " elements need");
    }
    // ONNX stores raw_data little-endian whatever the host.
    return raw.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  private static String dataTypeName(int dataType) {
    return dataType >= 0 && dataType < DATA_TYPES.length
        ? DATA_TYPES[dataType]
        : "data type " + dataType;
  }
}
