// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.checkpoint;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The safetensors format: an unsigned 64-bit little-endian header length N, N bytes of UTF-8 JSON
 * (an object of tensors {@code {"dtype", "shape", "data_offsets": [begin, end]}} and optional
 * string metadata under {@code __metadata__}), then the data, offsets counted from its start. Every
 * bound is checked before a byte is trusted: the header inside the file, each range inside the
 * data, its length the dtype's size times the shape's product, no two ranges overlapping and no
 * name given twice. No Java library for it is maintained on Maven Central, and the format is small
 * (docs/DESIGN.md).
 */
final class SafetensorsFile {

  /** The reference implementation's bound on the header, against a file that asks for gigabytes. */
  static final long MAX_HEADER_BYTES = 100L * 1024 * 1024;

  private SafetensorsFile() {}

  /**
   * Maps {@code file} read-only into {@code arena} and returns its tensors in header order.
   *
   * @throws IllegalArgumentException naming the file and what is wrong with it
   * @throws IOException when it cannot be read
   */
  static Map<String, Tensor> read(Path file, Arena arena) throws IOException {
    String where = file.toString();
    MemorySegment all;
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = in.size();
      if (size < 8) {
        throw new IllegalArgumentException(
            where + ": not a safetensors file: " + size + " bytes, shorter than its header length");
      }
      all = in.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
    }
    long headerLength =
        all.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0);
    if (headerLength < 2 || headerLength > MAX_HEADER_BYTES || headerLength > all.byteSize() - 8) {
      throw new IllegalArgumentException(
          where
              + ": not a safetensors file: header length "
              + Long.toUnsignedString(headerLength)
              + " for a file of "
              + all.byteSize()
              + " bytes (at most "
              + MAX_HEADER_BYTES
              + " and within the file)");
    }
    String json;
    try {
      json =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(all.asSlice(8, headerLength).asByteBuffer())
              .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(where + ": the safetensors header is not UTF-8", e);
    }
    MemorySegment data = all.asSlice(8 + headerLength);
    Map<String, JsonElement> entries = topLevel(json, where);
    Map<String, Tensor> tensors = new LinkedHashMap<>();
    List<long[]> ranges = new ArrayList<>();
    for (Map.Entry<String, JsonElement> e : entries.entrySet()) {
      String name = e.getKey();
      if (name.equals("__metadata__")) {
        continue;
      }
      String at = where + ": tensor " + name;
      if (!e.getValue().isJsonObject()) {
        throw new IllegalArgumentException(at + ": expected an object, found " + e.getValue());
      }
      JsonObject t = e.getValue().getAsJsonObject();
      JsonElement dtypeName = t.get("dtype");
      if (dtypeName == null || !dtypeName.isJsonPrimitive()) {
        throw new IllegalArgumentException(at + ": no dtype");
      }
      DType dtype = DType.of(dtypeName.getAsString(), at);
      List<Long> shape = new ArrayList<>();
      long elements = 1;
      JsonElement dims = t.get("shape");
      if (dims == null || !dims.isJsonArray()) {
        throw new IllegalArgumentException(at + ": shape is " + dims + ", not a list");
      }
      for (JsonElement d : dims.getAsJsonArray()) {
        long n = nonNegative(d, at + ": shape " + dims);
        shape.add(n);
        elements = Math.multiplyHigh(elements, n) != 0 ? -1 : elements * n;
        if (elements < 0) {
          throw new IllegalArgumentException(at + ": shape " + dims + " overflows");
        }
      }
      JsonElement offsets = t.get("data_offsets");
      if (offsets == null || !offsets.isJsonArray() || offsets.getAsJsonArray().size() != 2) {
        throw new IllegalArgumentException(
            at + ": data_offsets is " + offsets + ", not [begin, end]");
      }
      long begin = nonNegative(offsets.getAsJsonArray().get(0), at + ": data_offsets " + offsets);
      long end = nonNegative(offsets.getAsJsonArray().get(1), at + ": data_offsets " + offsets);
      if (end < begin || end > data.byteSize()) {
        throw new IllegalArgumentException(
            at
                + ": data_offsets "
                + offsets
                + " outside the "
                + data.byteSize()
                + " bytes of data (the file is truncated or its header wrong)");
      }
      if (elements > Long.MAX_VALUE / dtype.bytes() || end - begin != elements * dtype.bytes()) {
        throw new IllegalArgumentException(
            at
                + ": data_offsets "
                + offsets
                + " hold "
                + (end - begin)
                + " bytes, but "
                + dtype
                + " of shape "
                + dims
                + " needs "
                + elements * dtype.bytes());
      }
      ranges.add(new long[] {begin, end, ranges.size()});
      tensors.put(name, new Tensor(name, dtype, shape, data.asSlice(begin, end - begin), where));
    }
    ranges.sort(Comparator.comparingLong((long[] r) -> r[0]).thenComparingLong(r -> r[1]));
    List<String> names = List.copyOf(tensors.keySet());
    for (int i = 1; i < ranges.size(); i++) {
      long[] previous = ranges.get(i - 1);
      long[] next = ranges.get(i);
      if (next[0] < previous[1]) {
        throw new IllegalArgumentException(
            where
                + ": tensors "
                + names.get((int) previous[2])
                + " and "
                + names.get((int) next[2])
                + " overlap (bytes "
                + next[0]
                + " to "
                + Math.min(previous[1], next[1])
                + ")");
      }
    }
    return tensors;
  }

  /** The header's members in order, refusing a name given twice (Gson would keep the last). */
  private static Map<String, JsonElement> topLevel(String json, String where) {
    Map<String, JsonElement> members = new LinkedHashMap<>();
    try (JsonReader reader = new JsonReader(new StringReader(json))) {
      reader.setStrictness(Strictness.STRICT);
      reader.beginObject();
      while (reader.hasNext()) {
        String name = reader.nextName();
        JsonElement value = JsonParser.parseReader(reader);
        if (members.put(name, value) != null) {
          throw new IllegalArgumentException(
              where + ": the safetensors header names " + name + " twice");
        }
      }
      reader.endObject();
      // Safetensors pads the header with spaces; anything else after the object is corrupt.
      if (!endsHere(reader)) {
        throw new IllegalArgumentException(where + ": data after the safetensors header's object");
      }
    } catch (IOException | JsonParseException | IllegalStateException e) {
      throw new IllegalArgumentException(
          where + ": the safetensors header is not a JSON object: " + e.getMessage(), e);
    }
    return members;
  }

  private static boolean endsHere(JsonReader reader) {
    try {
      return reader.peek() == JsonToken.END_DOCUMENT;
    } catch (IOException | JsonParseException e) {
      return false;
    }
  }

  private static long nonNegative(JsonElement e, String what) {
    try {
      if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber()) {
        long v = e.getAsBigDecimal().longValueExact();
        if (v >= 0) {
          return v;
        }
      }
    } catch (ArithmeticException ignored) {
      // Falls through to the error below: not an integer, or beyond a long.
    }
    throw new IllegalArgumentException(what + ": " + e + " is not a non-negative integer");
  }
}
