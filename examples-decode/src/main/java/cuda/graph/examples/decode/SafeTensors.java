// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The safetensors file format: an 8-byte little-endian header length, a JSON header naming each
 * tensor's dtype, shape and byte range (and string metadata under {@code __metadata__}), then the
 * raw little-endian data. Only what the decode example needs: F16 tensors, written and read back.
 */
final class SafeTensors {

  private SafeTensors() {}

  /** A tensor of the file: its name, shape and bytes. */
  record Tensor(String name, long[] shape, MemorySegment data) {}

  /** A file read: its metadata and tensors in file order, mapped into memory. */
  record Contents(Map<String, String> metadata, Map<String, Tensor> tensors) {}

  /** Writes {@code tensors} (F16, in this order) with {@code metadata} to {@code file}. */
  static void write(Path file, Map<String, String> metadata, List<Tensor> tensors)
      throws IOException {
    StringBuilder header = new StringBuilder("{\"__metadata__\":{");
    int i = 0;
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      header.append(i++ == 0 ? "" : ",").append(Json.quote(e.getKey())).append(':');
      header.append(Json.quote(e.getValue()));
    }
    header.append('}');
    long offset = 0;
    for (Tensor t : tensors) {
      header.append(',').append(Json.quote(t.name())).append(":{\"dtype\":\"F16\",\"shape\":[");
      for (int d = 0; d < t.shape().length; d++) {
        header.append(d == 0 ? "" : ",").append(t.shape()[d]);
      }
      long end = offset + t.data().byteSize();
      header.append("],\"data_offsets\":[").append(offset).append(',').append(end).append("]}");
      offset = end;
    }
    header.append('}');
    while ((header.length() + 8) % 8 != 0) {
      header.append(' '); // the data starts 8-byte aligned, as readers may map it
    }
    byte[] json = header.toString().getBytes(StandardCharsets.UTF_8);
    try (FileChannel out =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      ByteBuffer length = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
      length.putLong(json.length).flip();
      writeFully(out, length);
      writeFully(out, ByteBuffer.wrap(json));
      for (Tensor t : tensors) {
        writeFully(out, t.data().asByteBuffer());
      }
    }
  }

  private static void writeFully(FileChannel out, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      out.write(buffer);
    }
  }

  /** Maps {@code file} into {@code arena} and parses its header. */
  static Contents read(Path file, Arena arena) throws IOException {
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
      MemorySegment all = in.map(FileChannel.MapMode.READ_ONLY, 0, in.size(), arena);
      long headerLength = all.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 0);
      if (headerLength < 2 || 8 + headerLength > all.byteSize()) {
        throw new IOException(
            file + " is not a safetensors file (header length " + headerLength + ")");
      }
      String json =
          new String(
              all.asSlice(8, headerLength).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
              StandardCharsets.UTF_8);
      Map<String, Object> header = Json.parseObject(json);
      MemorySegment data = all.asSlice(8 + headerLength);
      Map<String, String> metadata = new LinkedHashMap<>();
      Map<String, Tensor> tensors = new LinkedHashMap<>();
      for (Map.Entry<String, Object> e : header.entrySet()) {
        if (e.getKey().equals("__metadata__")) {
          Json.asObject(e.getValue()).forEach((k, v) -> metadata.put(k, (String) v));
          continue;
        }
        Map<String, Object> t = Json.asObject(e.getValue());
        if (!"F16".equals(t.get("dtype"))) {
          throw new IOException(e.getKey() + " in " + file + " is " + t.get("dtype") + ", not F16");
        }
        List<Object> shape = Json.asArray(t.get("shape"));
        long[] dims = new long[shape.size()];
        for (int d = 0; d < dims.length; d++) {
          dims[d] = ((Number) shape.get(d)).longValue();
        }
        List<Object> range = Json.asArray(t.get("data_offsets"));
        long from = ((Number) range.get(0)).longValue();
        long to = ((Number) range.get(1)).longValue();
        tensors.put(e.getKey(), new Tensor(e.getKey(), dims, data.asSlice(from, to - from)));
      }
      return new Contents(metadata, tensors);
    }
  }

  /** The JSON the header needs: objects, arrays, strings and integers. */
  static final class Json {
    private final String text;
    private int at;

    private Json(String text) {
      this.text = text;
    }

    static String quote(String s) {
      StringBuilder b = new StringBuilder("\"");
      for (char c : s.toCharArray()) {
        switch (c) {
          case '"' -> b.append("\\\"");
          case '\\' -> b.append("\\\\");
          default -> {
            if (c < 0x20) {
              b.append(String.format("\\u%04x", (int) c));
            } else {
              b.append(c);
            }
          }
        }
      }
      return b.append('"').toString();
    }

    static Map<String, Object> parseObject(String text) {
      Json json = new Json(text);
      Object value = json.value();
      json.skipSpace();
      if (json.at != text.length()) {
        throw json.error("trailing text");
      }
      return asObject(value);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asObject(Object value) {
      if (!(value instanceof Map)) {
        throw new IllegalArgumentException("expected a JSON object, got " + value);
      }
      return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Object> asArray(Object value) {
      if (!(value instanceof List)) {
        throw new IllegalArgumentException("expected a JSON array, got " + value);
      }
      return (List<Object>) value;
    }

    private Object value() {
      skipSpace();
      char c = peek();
      if (c == '{') {
        Map<String, Object> object = new LinkedHashMap<>();
        at++;
        skipSpace();
        if (peek() == '}') {
          at++;
          return object;
        }
        while (true) {
          skipSpace();
          String key = string();
          skipSpace();
          expect(':');
          object.put(key, value());
          skipSpace();
          if (peek() == ',') {
            at++;
          } else {
            expect('}');
            return object;
          }
        }
      }
      if (c == '[') {
        List<Object> array = new ArrayList<>();
        at++;
        skipSpace();
        if (peek() == ']') {
          at++;
          return array;
        }
        while (true) {
          array.add(value());
          skipSpace();
          if (peek() == ',') {
            at++;
          } else {
            expect(']');
            return array;
          }
        }
      }
      if (c == '"') {
        return string();
      }
      int start = at;
      while (at < text.length() && "-+.eE0123456789".indexOf(text.charAt(at)) >= 0) {
        at++;
      }
      if (start == at) {
        throw error("unexpected character");
      }
      String number = text.substring(start, at);
      return number.matches("-?\\d+")
          ? (Object) Long.parseLong(number)
          : Double.parseDouble(number);
    }

    private String string() {
      expect('"');
      StringBuilder b = new StringBuilder();
      while (true) {
        char c = text.charAt(at++);
        if (c == '"') {
          return b.toString();
        }
        if (c == '\\') {
          char e = text.charAt(at++);
          switch (e) {
            case 'n' -> b.append('\n');
            case 't' -> b.append('\t');
            case 'r' -> b.append('\r');
            case 'b' -> b.append('\b');
            case 'f' -> b.append('\f');
            case 'u' -> {
              b.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
              at += 4;
            }
            default -> b.append(e);
          }
        } else {
          b.append(c);
        }
      }
    }

    private void skipSpace() {
      while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
        at++;
      }
    }

    private char peek() {
      if (at >= text.length()) {
        throw error("unexpected end");
      }
      return text.charAt(at);
    }

    private void expect(char c) {
      if (peek() != c) {
        throw error("expected '" + c + "'");
      }
      at++;
    }

    private IllegalArgumentException error(String what) {
      return new IllegalArgumentException("safetensors header: " + what + " at character " + at);
    }
  }
}
