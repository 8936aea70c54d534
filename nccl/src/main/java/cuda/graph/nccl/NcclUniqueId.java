// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The 128 bytes ({@code ncclUniqueId}) that the ranks of one communicator share to find each other:
 * one process makes it ({@link Nccl#newUniqueId}), the application sends it to the others (as
 * {@link #toHex()} text, say), and every rank passes it to {@link Nccl#join}. Immutable.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class NcclUniqueId {

  /** The size of an {@code ncclUniqueId}, in bytes. */
  public static final int BYTES = 128;

  private final byte[] bytes;

  private NcclUniqueId(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * {@return the id made of {@code bytes}}
   *
   * @param bytes exactly {@value #BYTES} bytes, copied
   * @throws IllegalArgumentException if {@code bytes} is not {@value #BYTES} long
   */
  public static NcclUniqueId of(byte[] bytes) {
    if (Objects.requireNonNull(bytes, "bytes").length != BYTES) {
      throw new IllegalArgumentException(
          "an ncclUniqueId is " + BYTES + " bytes, got " + bytes.length);
    }
    return new NcclUniqueId(bytes.clone());
  }

  /**
   * {@return the id {@link #toHex()} wrote}
   *
   * @param hex {@value #BYTES} bytes as 256 hexadecimal digits
   * @throws IllegalArgumentException if {@code hex} is not 256 hexadecimal digits
   */
  public static NcclUniqueId fromHex(String hex) {
    return of(HexFormat.of().parseHex(Objects.requireNonNull(hex, "hex")));
  }

  /** {@return a copy of the id's bytes} */
  public byte[] bytes() {
    return bytes.clone();
  }

  /** {@return the id as 256 lower-case hexadecimal digits, for sending to other processes} */
  public String toHex() {
    return HexFormat.of().formatHex(bytes);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof NcclUniqueId id && Arrays.equals(bytes, id.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** {@return a short form for messages: the first 8 bytes in hexadecimal} */
  @Override
  public String toString() {
    return "NcclUniqueId[" + HexFormat.of().formatHex(bytes, 0, 8) + "...]";
  }
}
