// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import cuda.graph.embeddings.internal.onnx.OnnxIr;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;

/** Real models with a constant or an operator changed, for the refusals of what reads them. */
public final class OnnxEdits {

  private OnnxEdits() {}

  /** {@return the int8 all-MiniLM-L6-v2 (23 MB, the smallest artifact) with {@code change} made} */
  public static OnnxModel changed(Consumer<OnnxIr.Graph.Builder> change) {
    try {
      OnnxIr.Model.Builder model =
          OnnxIr.Model.parseFrom(LangChain4jModel.ALL_MINILM_L6_V2_Q.artifact().readModel())
              .toBuilder();
      change.accept(model.getGraphBuilder());
      return OnnxModel.parse(model.build().toByteArray());
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
  }

  /** Sets the value of the Constant node that node {@code reader}'s input {@code index} reads. */
  public static void setConstant(
      OnnxIr.Graph.Builder graph, String reader, int index, OnnxIr.Tensor value) {
    String input =
        graph.getNodeList().stream()
            .filter(n -> n.getName().equals(reader))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no node named " + reader))
            .getInput(index);
    for (OnnxIr.Node.Builder node : graph.getNodeBuilderList()) {
      if (node.getOpType().equals("Constant") && node.getOutput(0).equals(input)) {
        node.getAttributeBuilder(0).setT(value);
        return;
      }
    }
    throw new AssertionError("no Constant node makes " + input);
  }

  /** {@return a FLOAT scalar} */
  public static OnnxIr.Tensor scalar(float value) {
    return OnnxIr.Tensor.newBuilder()
        .setDataType(OnnxModel.FLOAT)
        .setRawData(
            ByteString.copyFrom(
                ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(value).array()))
        .build();
  }

  /** {@return an INT64 vector} */
  public static OnnxIr.Tensor longs(long... values) {
    ByteBuffer raw = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (long v : values) {
      raw.putLong(v);
    }
    return OnnxIr.Tensor.newBuilder()
        .setDataType(OnnxModel.INT64)
        .addDims(values.length)
        .setRawData(ByteString.copyFrom(raw.array()))
        .build();
  }

  /**
   * {@return the int8 all-MiniLM-L6-v2 made to read as 6 heads of 64}: each layer's query reshaped
   * to {@code [batch, length, 6, 64]}, its scores divided by 8 (a BERT-base-like head size)
   */
  public static OnnxModel withHeadsOf64() {
    return changed(
        g -> {
          for (int n = 0; n < 6; n++) {
            String p = "/encoder/layer." + n + "/attention/self/";
            setConstant(g, p + "Concat_2", 2, longs(6));
            setConstant(g, p + "Concat_2", 3, longs(64));
            setConstant(g, p + "Div", 1, scalar(8f));
          }
        });
  }
}
