// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import cuda.graph.embeddings.internal.onnx.OnnxIr;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ONNX initializers decoded from small models built with the generated classes. */
class OnnxModelTests {

  private static OnnxModel modelWith(OnnxIr.Tensor.Builder tensor) {
    return OnnxModel.parse(
        OnnxIr.Model.newBuilder()
            .setIrVersion(6)
            .setGraph(
                OnnxIr.Graph.newBuilder()
                    .addInitializer(tensor)
                    .addNode(
                        OnnxIr.Node.newBuilder()
                            .setOpType("MatMul")
                            .setName("/layer/MatMul")
                            .addInput("x")
                            .addInput(tensor.getName())
                            .addOutput("y")))
            .build()
            .toByteArray());
  }

  private static OnnxIr.Tensor.Builder floats(String name, long... dims) {
    return OnnxIr.Tensor.newBuilder()
        .setName(name)
        .setDataType(OnnxModel.FLOAT)
        .addAllDims(java.util.Arrays.stream(dims).boxed().toList());
  }

  @Test
  void rawDataIsReadAsLittleEndianFloatsInRowMajorOrder() {
    float[] values = {1.5f, -2.25f, 3e-5f, 1e30f, -0f, 7f};
    ByteBuffer raw = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (float v : values) {
      raw.putFloat(v);
    }
    OnnxModel onnx = modelWith(floats("w", 2, 3).setRawData(ByteString.copyFrom(raw.array())));

    OnnxModel.FloatTensor w = onnx.floats("w");
    assertArrayEquals(new int[] {2, 3}, w.shape());
    assertArrayEquals(values, w.data());
    assertEquals(List.of("w"), List.copyOf(onnx.names()));
    assertEquals(
        List.of(new OnnxModel.Node("MatMul", "/layer/MatMul", List.of("x", "w"), List.of("y"))),
        onnx.nodes());
  }

  @Test
  void floatDataIsReadWhenTheTensorHasNoRawData() {
    OnnxModel onnx = modelWith(floats("b", 3).addFloatData(1).addFloatData(2).addFloatData(-3));
    assertArrayEquals(new float[] {1, 2, -3}, onnx.floats("b").data());
  }

  @Test
  void int64RawDataIsReadAsLittleEndianLongs() {
    ByteBuffer raw = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(5).putLong(-1);
    OnnxModel onnx =
        modelWith(
            OnnxIr.Tensor.newBuilder()
                .setName("ids")
                .setDataType(OnnxModel.INT64)
                .addDims(2)
                .setRawData(ByteString.copyFrom(raw.array())));
    assertArrayEquals(new long[] {5, -1}, onnx.int64s("ids"));
    assertEquals("INT64", onnx.dataType("ids"));
  }

  @Test
  void int8AndUint8TensorsAreReadAsTheirSignedAndUnsignedValuesFromRawOrInt32Data() {
    byte[] raw = {0, 1, 127, -128, -1};
    OnnxModel signed =
        modelWith(
            OnnxIr.Tensor.newBuilder()
                .setName("w_quantized")
                .setDataType(OnnxModel.INT8)
                .addDims(5)
                .setRawData(ByteString.copyFrom(raw)));
    OnnxModel unsigned =
        modelWith(
            OnnxIr.Tensor.newBuilder()
                .setName("table_quantized")
                .setDataType(OnnxModel.UINT8)
                .addDims(5)
                .setRawData(ByteString.copyFrom(raw)));
    OnnxModel inInt32Data =
        modelWith(
            OnnxIr.Tensor.newBuilder()
                .setName("zero_point")
                .setDataType(OnnxModel.UINT8)
                .addDims(2)
                .addInt32Data(200)
                .addInt32Data(3));

    OnnxModel.IntTensor w = signed.integers("w_quantized");
    assertArrayEquals(new int[] {5}, w.shape());
    assertArrayEquals(new int[] {0, 1, 127, -128, -1}, w.data());
    assertArrayEquals(new int[] {0, 1, 127, 128, 255}, unsigned.integers("table_quantized").data());
    assertArrayEquals(new int[] {200, 3}, inInt32Data.integers("zero_point").data());
    assertEquals("UINT8", unsigned.dataType("table_quantized"));
  }

  @Test
  void aFloatTensorAskedForAsIntegersIsRefusedWithItsNameAndTheTypesAsked() {
    OnnxModel onnx = modelWith(floats("w", 1).addFloatData(1));
    UnsupportedOperationException e =
        assertThrows(UnsupportedOperationException.class, () -> onnx.integers("w"));
    assertTrue(
        e.getMessage().startsWith("OnnxModel.integers: initializer w is FLOAT, not INT8 or UINT8;"),
        e.getMessage());
  }

  @Test
  void aConstantNodesValueIsReadUnderItsOutputsNameButIsNoInitializer() {
    ByteBuffer raw = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
    raw.putLong(0).putLong(1).putLong(2);
    OnnxModel onnx =
        OnnxModel.parse(
            OnnxIr.Model.newBuilder()
                .setGraph(
                    OnnxIr.Graph.newBuilder()
                        .addNode(
                            OnnxIr.Node.newBuilder()
                                .setOpType("Constant")
                                .setName("Constant_10")
                                .addOutput("onnx::Slice_214")
                                .addAttribute(
                                    OnnxIr.Attribute.newBuilder()
                                        .setName("value")
                                        .setT(
                                            OnnxIr.Tensor.newBuilder()
                                                .setDataType(OnnxModel.INT64)
                                                .addDims(1)
                                                .addDims(3)
                                                .setRawData(ByteString.copyFrom(raw.array()))))))
                .build()
                .toByteArray());

    assertTrue(onnx.isConstant("onnx::Slice_214"));
    assertTrue(!onnx.isInitializer("onnx::Slice_214"));
    assertEquals(List.of(), List.copyOf(onnx.names()));
    assertArrayEquals(new long[] {0, 1, 2}, onnx.int64s("onnx::Slice_214"));
    assertArrayEquals(new int[] {1, 3}, onnx.shape("onnx::Slice_214"));
    IllegalArgumentException missing =
        assertThrows(IllegalArgumentException.class, () -> onnx.int64s("Constant_10"));
    assertTrue(
        missing.getMessage().contains("no initializer or constant named Constant_10"),
        missing.getMessage());
  }

  @Test
  void aFloat16TensorIsRefusedWithItsNameAndType() {
    OnnxModel onnx =
        modelWith(floats("half", 2).setDataType(10).setRawData(ByteString.copyFrom(new byte[4])));
    UnsupportedOperationException e =
        assertThrows(UnsupportedOperationException.class, () -> onnx.floats("half"));
    assertTrue(e.getMessage().contains("half is FLOAT16, not FLOAT"), e.getMessage());
  }

  @Test
  void aTensorWhoseDataLivesInAnExternalFileIsRefusedNamingTheFile() {
    OnnxModel onnx =
        modelWith(
            floats("big", 4)
                .setDataLocation(OnnxIr.Tensor.DataLocation.EXTERNAL)
                .addExternalData(
                    OnnxIr.StringEntry.newBuilder().setKey("location").setValue("model.onnx_data"))
                .addExternalData(OnnxIr.StringEntry.newBuilder().setKey("offset").setValue("0")));
    UnsupportedOperationException e =
        assertThrows(UnsupportedOperationException.class, () -> onnx.floats("big"));
    assertTrue(e.getMessage().contains("big keeps its data outside the model"), e.getMessage());
    assertTrue(e.getMessage().contains("model.onnx_data"), e.getMessage());
  }

  @Test
  void rawDataShorterThanTheShapeNeedsIsRefused() {
    OnnxModel onnx = modelWith(floats("w", 2, 2).setRawData(ByteString.copyFrom(new byte[12])));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> onnx.floats("w"));
    assertTrue(e.getMessage().contains("12 bytes of raw_data, not the 16"), e.getMessage());
  }

  @Test
  void bytesThatAreNotAModelAreRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> OnnxModel.parse(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff}));
    assertTrue(e.getMessage().contains("not an ONNX model"), e.getMessage());
  }
}
