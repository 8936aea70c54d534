// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.checkpoint;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The element types of a safetensors tensor the module reads, by their names in the header. */
public enum DType {
  /** bfloat16: the top 16 bits of an IEEE float32. */
  BF16(2),
  /** IEEE 754 binary16. */
  F16(2),
  /** IEEE 754 binary32. */
  F32(4);

  private final int bytes;

  DType(int bytes) {
    this.bytes = bytes;
  }

  /** {@return the size of one element in bytes} */
  public int bytes() {
    return bytes;
  }

  /**
   * {@return the dtype a safetensors header names}
   *
   * @param name the header's {@code dtype}, e.g. {@code "BF16"}
   * @param where what is being read, for the error
   * @throws IllegalArgumentException naming the dtype and those supported when it is another
   */
  public static DType of(String name, String where) {
    for (DType d : values()) {
      if (d.name().equals(name)) {
        return d;
      }
    }
    throw new IllegalArgumentException(
        where
            + ": dtype \""
            + name
            + "\" is not supported; supported are "
            + Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", "))
            + " (convert the checkpoint, e.g. save_pretrained with torch_dtype=torch.bfloat16)");
  }
}
